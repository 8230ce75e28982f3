"""The conversions the Maelstrom upgrade runs (characters 0005, rolls 0009), without a
database, reached through the migration modules themselves: each migration's own frozen copy
(characters/migrations/_maelstrom_0005.py, rolls/migrations/_maelstrom_0009.py), against the
sheets, results and requests written out whole. tests/systems/maelstrom/test_legacy.py runs
the same rows through the live systems/maelstrom/legacy.py, and test_legacy_frozen.py there
compares the two byte for byte."""

from __future__ import annotations

import importlib

import pytest

from tests.migrations.maelstrom_rows import (
    ATTRIBUTES,
    COLUMNS,
    DAMAGED_ROLL,
    MERITS_FLAWS,
    REQUESTS,
    ROLL,
    TRAITS,
    TRAITS_OFF_CATALOGUE,
)

SHEET = importlib.import_module("characters.migrations.0005_maelstrom_sheet")
RESULTS = importlib.import_module("rolls.migrations.0009_maelstrom_results")

ABILITIES = (
    "Alertness", "Athletics", "Investigation", "Melee", "Performance", "Stealth",
    "Streetwise", "Technology",
    "Artistry", "Driving", "Firearms", "Heavy Weapons", "Piloting", "Remote Weapons",
    "Survival", "Tradecraft",
    "Computer Science", "Engineering", "Humanities", "Manufacturing", "Medicine", "Science",
    "Statecraft", "Navigation",
)
"""The 24 abilities, Talents, Skills then Knowledges, in the catalogue's order at the
upgrade."""


def test_a_sheet_keeps_every_value_of_the_rows() -> None:
    sheet = SHEET.sheet_from_rows(COLUMNS, TRAITS, MERITS_FLAWS)

    assert sheet == {
        "attributes": dict.fromkeys(ATTRIBUTES, 2),
        "abilities": {**dict.fromkeys(ABILITIES, 0), "Driving": 3, "Firearms": 1},
        # In the order acquired; a specialty at 0 dots was not owned.
        "specialties": [{"ability": "Driving", "name": "Motorcycles", "advanced": True},
                        {"ability": "Driving", "name": "Cars", "advanced": False}],
        "merits_flaws": [{"kind": "flaw", "name": "Addiction", "points": 2, "detail": "stims"},
                         {"kind": "flaw", "name": "Hunted", "points": 4, "detail": ""},
                         {"kind": "merit", "name": "Huge Size", "points": 4, "detail": ""}],
        "willpower": {"permanent": 5, "current": 2},
        "health": {"bashing": 1, "lethal": 2, "aggravated": 1, "dead": False,
                   "huge_size": True},
    }
    # Key order too: the sheet is stored as this JSON text.
    assert list(sheet) == ["attributes", "abilities", "specialties", "merits_flaws",
                           "willpower", "health"]
    assert (list(sheet["attributes"]), list(sheet["abilities"])) == (list(ATTRIBUTES),
                                                                     list(ABILITIES))


def test_a_sheet_keeps_what_the_catalogue_lacks_for_the_checks_to_refuse() -> None:
    sheet = SHEET.sheet_from_rows(COLUMNS, TRAITS_OFF_CATALOGUE, [])

    assert sheet["attributes"] == {"Strength": 2, "Charm": 3}
    assert sheet["abilities"]["Basket Weaving"] == 2


def test_a_rank_that_is_not_a_whole_number_is_refused() -> None:
    with pytest.raises(ValueError):
        SHEET.sheet_from_rows({**COLUMNS, "willpower_current": "2"}, [], [])
    with pytest.raises(KeyError):
        SHEET.sheet_from_rows({}, [], [])


def test_a_result_is_the_engines_reading_of_the_faces() -> None:
    result = RESULTS.result_from_columns(ROLL)

    # Against 7: 7, 8 and the experience die's 9 succeed; the threshold takes one, the 1
    # cancels one.
    assert result == {
        "system": "maelstrom", "pool": ROLL["pool"], "dice": [7, 8, 1, 3], "bonus_dice": [],
        "experience_die": [9],
        "resolution": {"successes": 3, "removed_by_threshold": 1, "botches": 1, "net": 1,
                       "outcome": "success"},
        "summary": "1 success",
    }
    assert list(result) == ["system", "pool", "dice", "bonus_dice", "experience_die",
                            "resolution", "summary"]
    assert list(result["pool"]) == list(ROLL["pool"])
    assert RESULTS.is_full_result(result) and not RESULTS.is_full_result({})


def test_a_result_the_engine_cannot_read_is_refused_or_kept_as_stored() -> None:
    with pytest.raises(RESULTS.Unreadable):
        RESULTS.result_from_columns(DAMAGED_ROLL)
    kept = RESULTS.result_as_stored(DAMAGED_ROLL)
    assert (kept["dice"], kept["resolution"]["outcome"], kept["summary"]) == (
        [11], "failure", "Failure")


@pytest.mark.parametrize(("row", "data", "words"), REQUESTS)
def test_a_request_becomes_the_dialogs_data_and_its_old_words(
        row: dict[str, object], data: dict[str, object], words: str) -> None:
    assert RESULTS.request_from_columns(row) == (data, words)
