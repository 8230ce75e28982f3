"""The conversions from Maelstrom's old storage (systems/maelstrom/legacy.py), without a
database: what the version-1 import and the schema of old export files rely on. The rows are
the upgrade's (tests/migrations/maelstrom_rows.py); the migrations run their own frozen
copies of these conversions (tests/migrations/test_legacy.py)."""

from __future__ import annotations

import pytest

from rulesets import maelstrom
from rulesets.errors import RuleError
from systems.maelstrom import legacy
from systems.maelstrom import sheet as maelstrom_sheet
from tests.migrations.maelstrom_rows import (
    COLUMNS,
    DAMAGED_ROLL,
    MERITS_FLAWS,
    REQUESTS,
    TRAITS,
    TRAITS_OFF_CATALOGUE,
)


def test_a_sheet_keeps_every_value_of_the_rows() -> None:
    sheet = legacy.sheet_from_rows(COLUMNS, TRAITS, MERITS_FLAWS)

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
    sheet = legacy.sheet_from_rows(COLUMNS, TRAITS_OFF_CATALOGUE, [])

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
    with pytest.raises(RuleError):
        legacy.result_from_columns(DAMAGED_ROLL)
    kept = legacy.result_as_stored(DAMAGED_ROLL)
    assert (kept["dice"], kept["resolution"]["outcome"], kept["summary"]) == (
        [11], "failure", "Failure")


@pytest.mark.parametrize(("row", "data", "words"), REQUESTS)
def test_a_request_becomes_the_dialogs_data_and_its_old_words(
        row: dict[str, object], data: dict[str, object], words: str) -> None:
    assert legacy.request_from_columns(row) == (data, words)
