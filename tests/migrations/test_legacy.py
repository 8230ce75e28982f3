"""The conversions from Maelstrom's old storage (systems/maelstrom/legacy.py), without a
database: what the upgrade and the version-1 import both rely on."""

from __future__ import annotations

import pytest

from rulesets import maelstrom
from rulesets.errors import RuleError
from systems.maelstrom import legacy
from systems.maelstrom import sheet as maelstrom_sheet

COLUMNS = {"willpower_permanent": 5, "willpower_current": 2, "health_bashing": 1,
           "health_lethal": 2, "health_aggravated": 1, "dead": False, "huge_size": True}


def _trait(kind: str, name: str, dots: int, ability: str = "",
           advanced: bool = False) -> dict[str, object]:
    return {"kind": kind, "name": name, "group": "", "ability": ability, "advanced": advanced,
            "dots": dots, "position": 0}


def test_a_sheet_keeps_every_value_of_the_rows() -> None:
    traits = [_trait("attribute", name, 2) for name in maelstrom.ATTRIBUTES]
    traits += [_trait("ability", "Driving", 3), _trait("ability", "Firearms", 1),
               _trait("specialty", "Motorcycles", 1, "Driving", True),
               _trait("specialty", "Lost Art", 0, "Driving"),
               _trait("specialty", "Cars", 1, "Driving")]
    merits = [{"kind": "merit", "name": "Huge Size", "points": 4, "detail": ""},
              {"kind": "flaw", "name": "Addiction", "points": 2, "detail": "stims"},
              {"kind": "flaw", "name": "Hunted", "points": 4, "detail": None}]

    sheet = legacy.sheet_from_rows(COLUMNS, traits, merits)

    assert sheet["attributes"] == dict.fromkeys(maelstrom.ATTRIBUTES, 2)
    assert sheet["abilities"] == {**dict.fromkeys(maelstrom.ABILITIES, 0),
                                  "Driving": 3, "Firearms": 1}
    # In the order acquired; a specialty at 0 dots was not owned.
    assert sheet["specialties"] == [
        {"ability": "Driving", "name": "Motorcycles", "advanced": True},
        {"ability": "Driving", "name": "Cars", "advanced": False}]
    assert [(m["kind"], m["name"], m["detail"]) for m in sheet["merits_flaws"]] == [
        ("flaw", "Addiction", "stims"), ("flaw", "Hunted", ""), ("merit", "Huge Size", "")]
    assert maelstrom_sheet.willpower(sheet) == (5, 2)
    assert maelstrom_sheet.health(sheet) == maelstrom.HealthChart(
        bashing=1, lethal=2, aggravated=1, huge_size=True, dead=False)


def test_a_sheet_keeps_what_the_catalogue_lacks_for_the_checks_to_refuse() -> None:
    traits = [_trait("attribute", "Strength", 2), _trait("attribute", "Charm", 3),
              _trait("ability", "Basket Weaving", 2)]

    sheet = legacy.sheet_from_rows(COLUMNS, traits, [])

    assert sheet["attributes"] == {"Strength": 2, "Charm": 3}
    assert sheet["abilities"]["Basket Weaving"] == 2


def test_a_rank_that_is_not_a_whole_number_is_refused() -> None:
    with pytest.raises(ValueError):
        legacy.sheet_from_rows({**COLUMNS, "willpower_current": "2"}, [], [])
    with pytest.raises(KeyError):
        legacy.sheet_from_rows({}, [], [])


def test_a_result_is_the_engines_reading_of_the_faces() -> None:
    pool = maelstrom.build_willpower_pool(current=4, difficulty=7, threshold=1)
    row = {"pool": pool.as_dict(), "dice": [7, 8, 1, 3], "bonus_dice": [],
           "experience_die": [9]}

    result = legacy.result_from_columns(row)

    read = maelstrom.RollResult.from_dict(result)
    assert read.as_dict() == result
    assert (result["dice"], result["experience_die"]) == ([7, 8, 1, 3], [9])
    assert (read.outcome, read.net, read.resolution.botches) == ("success", 1, 1)
    assert result["summary"] == "1 success"
    assert legacy.is_full_result(result) and not legacy.is_full_result({})


def test_a_result_the_engine_cannot_read_is_refused_or_kept_as_stored() -> None:
    row = {"pool": {"kind": "action"}, "dice": [11], "bonus_dice": [], "experience_die": [],
           "net": 0, "botches": 0, "outcome": "failure", "summary": "Failure"}

    with pytest.raises(RuleError):
        legacy.result_from_columns(row)
    kept = legacy.result_as_stored(row)
    assert (kept["dice"], kept["resolution"]["outcome"], kept["summary"]) == (
        [11], "failure", "Failure")


@pytest.mark.parametrize(("row", "data", "words"), [
    ({"kind": "action", "traits": ["Precision", "Driving"], "difficulty": 7, "threshold": 1},
     {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "7", "threshold": "1"},
     "Precision + Driving, difficulty 7, threshold 1"),
    ({"kind": "action", "traits": ["Wits"], "difficulty": 6, "threshold": 0},
     {"kind": "action", "trait": ["Wits"], "difficulty": "6", "threshold": "0"},
     "Wits, difficulty 6"),
    ({"kind": "willpower", "traits": [], "difficulty": 8, "threshold": 0},
     {"kind": "willpower", "trait": [], "difficulty": "8", "threshold": "0"},
     "Willpower, difficulty 8"),
    ({"kind": "action", "traits": [], "difficulty": 6, "threshold": 0,
      "data": {"skill": "Athletics"}, "description": "Athletics (Brawn), Average"},
     {"skill": "Athletics"}, "Athletics (Brawn), Average"),
])
def test_a_request_becomes_the_dialogs_data_and_its_old_words(
        row: dict[str, object], data: dict[str, object], words: str) -> None:
    assert legacy.request_from_columns(row) == (data, words)
