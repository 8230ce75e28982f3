"""3d6's NPC quick roll notation: what it reads and what it refuses (the part every
system shares is tests/rulesets/test_quick_rolls.py)."""

from __future__ import annotations

import pytest

from rulesets import three_d6
from tests.rulesets.helpers import ScriptedRng, assert_quick_roll_refused


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3d6+2 favor 1", {"modifier": 2, "favor": 1}),
        ("3d6-1", {"modifier": -1}),
        ("3d6 +2 disfavor 2", {"modifier": 2, "disfavor": 2}),
        ("3d6+1 td 12", {"modifier": 1, "td": 12}),
        ("3d6 vs 10", {"td": 10}),
        ("3d6", {}),
        ("3D6 + 2, FAVOUR 1 vs td 12", {"modifier": 2, "favor": 1, "td": 12}),
        ("3d6+2-1", {"modifier": 1}),
        ("3d6 \u2212 2", {"modifier": -2}),
        ("td 9 3d6 disfavor 1 favor 2", {"td": 9, "favor": 2, "disfavor": 1}),
        ("3d6 vs. 14", {"td": 14}),
        ("3d6 disfavor 3", {"disfavor": 3}),
    ],
)
def test_three_d6_quick_roll_builds_the_npc_test(text: str, expected: dict[str, int]) -> None:
    assert three_d6.quick_roll(text) == three_d6.build_test(label="NPC", **expected)


def test_a_three_d6_quick_roll_with_three_disfavor_fails_without_rolling() -> None:
    # 3d6 Rolls and Tests, Favor and Disfavor: zero dice fail automatically.
    result = three_d6.roll_test(three_d6.quick_roll("3d6 disfavor 3 td 5"), ScriptedRng())
    assert result.summary() == "Failure: no dice to roll"


# --- Bad input -------------------------------------------------------------------------------

BAD = [
    ("", "the quick roll is empty"),
    ("3d6 " + "+1 " * 70, "characters long, more than 200"),
    ("4d6+2", "'4d6': a test always rolls 3d6; write '3d6 favor 1' for 4 dice"),
    ("2d6", "'2d6': a test always rolls 3d6; write '3d6 disfavor 1' for 2 dice"),
    ("d6", "'d6': a test always rolls 3d6; write '3d6 disfavor 2' for 1 die"),
    ("3d8+1", "'3d8': a test always rolls 3d6"),
    ("+2 favor 1", "'+2 favor 1' has no 3d6"),
    ("3d6 3d6", "'3d6' gives the dice a second time"),
    ("3d6 favr 1", "'favr 1' is not understood"),
    ("3d6 2", "'2' is not understood"),
    ("3d6 +2 favor", "'favor' needs a number"),
    ("3d6 td", "'td' needs a number"),
    ("3d6 favor 1 favor 2", "'favor 2' gives the favor a second time"),
    ("3d6 td 12 vs 10", "'vs 10' gives the test difficulty a second time"),
    ("3d6 favor 21", "'favor 21': favor must be between 0 and 20"),
    ("3d6 disfavor -1", "'disfavor -1': disfavor must be between 0 and 20"),
    ("3d6 td 0", "'td 0': the test difficulty must be between 1"),
    ("3d6 +1000", "'+1000': a modifier must be between -999 and +999"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[repr(t.strip()[:30]) for t, _ in BAD])
def test_bad_quick_rolls_are_refused_naming_the_bad_part(text: str, message: str) -> None:
    assert_quick_roll_refused(three_d6, text, message)
