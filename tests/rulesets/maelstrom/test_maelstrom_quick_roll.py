"""Maelstrom's NPC quick roll notation: what it reads and what it refuses (the part every
system shares is tests/rulesets/test_quick_rolls.py)."""

from __future__ import annotations

import random

import pytest

from rulesets import maelstrom
from rulesets.errors import RuleError
from tests.rulesets.helpers import ScriptedRng, assert_quick_roll_refused


def test_the_same_seed_gives_the_same_quick_roll() -> None:
    pool = maelstrom.quick_roll("6 dice diff 8 specialty")
    first = maelstrom.roll(pool, random.Random(99))
    second = maelstrom.roll(pool, random.Random(99))
    assert first == second


def _maelstrom(
    dice: int, difficulty: int = 6, threshold: int = 0, exploding: bool = False
) -> dict[str, object]:
    return {
        "kind": "action",
        "dice": dice,
        "difficulty": difficulty,
        "threshold": threshold,
        "exploding": exploding,
        "wound_penalty": 0,
        "traits": ("NPC",),
        "specialties": (),
        "automatic_successes": 0,
        "experience_die_allowed": False,
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5 dice diff 7 threshold 1", _maelstrom(5, 7, 1)),
        ("5d10 diff 7", _maelstrom(5, 7)),
        ("5 dice", _maelstrom(5)),
        ("6 dice diff 8 specialty", _maelstrom(6, 8, exploding=True)),
        ("  5D10,  DIFF7 ,THRESHOLD 2 ", _maelstrom(5, 7, 2)),
        ("5 d10 difficulty 9", _maelstrom(5, 9)),
        ("threshold 1 specialty 4 dice diff 5", _maelstrom(4, 5, 1, exploding=True)),
        ("1 die", _maelstrom(1)),
        ("d10", _maelstrom(1)),
        ("60 dice diff 2", _maelstrom(60, 2)),
        ("3 dice diff 10 threshold 0", _maelstrom(3, 10)),
    ],
)
def test_maelstrom_quick_roll_builds_an_npc_action_pool(
    text: str, expected: dict[str, object]
) -> None:
    pool = maelstrom.quick_roll(text)
    assert {name: getattr(pool, name) for name in expected} == expected


def test_a_maelstrom_specialty_quick_roll_explodes_its_tens() -> None:
    # Maelstrom rules.md, Using Specialties: every 10 adds two bonus dice.
    pool = maelstrom.quick_roll("2 dice diff 6 specialty")
    result = maelstrom.roll(pool, ScriptedRng(10, 3, 4, 7))
    assert result.dice == (10, 3)
    assert result.bonus_dice == (4, 7)
    assert result.summary() == "2 successes"


def test_a_maelstrom_quick_roll_uses_the_default_difficulty_of_six() -> None:
    assert maelstrom.quick_roll("5 dice").difficulty == maelstrom.DEFAULT_DIFFICULTY == 6


def test_the_issue_example_of_a_misspelt_difficulty_reads_as_the_issue_says() -> None:
    with pytest.raises(RuleError) as error:
        maelstrom.quick_roll("5 dice dif 7 threshold 1")
    assert (
        error.value.message == "'dif 7' is not understood: write e.g. '5 dice diff 7 threshold 1'"
    )


# --- Bad input -------------------------------------------------------------------------------

LONG = "5 dice " + "diff 7 " * 40

BAD = [
    ("", "the quick roll is empty"),
    ("   ", "the quick roll is empty"),
    (LONG, "characters long, more than 200"),
    ("5 dice dif 7 threshold 1", "'dif 7' is not understood"),
    ("5 dice diff 7 lol", "'lol' is not understood"),
    ("5 diff 7", "'5' is not understood"),
    ("5 dice diff", "'diff' needs a number"),
    ("5 dice threshold", "'threshold' needs a number"),
    ("dice diff 7", "'dice' needs a number"),
    ("diff 7 threshold 1", "'diff 7 threshold 1' does not say how many dice"),
    ("5d6 diff 7", "'5d6': Maelstrom rolls d10s only"),
    ("5 dice 3 dice", "'3 dice' gives the dice a second time"),
    ("5 dice diff 6 diff 7", "'diff 7' gives the difficulty a second time"),
    ("5 dice specialty specialty", "'specialty' gives the specialty a second time"),
    ("0 dice", "'0 dice': an NPC quick roll takes 1 to 60 dice"),
    ("61 dice", "'61 dice': an NPC quick roll takes 1 to 60 dice"),
    ("5 dice diff 11", "'diff 11': the difficulty must be between 2 and 10"),
    ("5 dice diff 1", "'diff 1': the difficulty must be between 2 and 10"),
    ("5 dice threshold -1", "'threshold -1': the threshold must be between 0"),
    ("5 dice threshold 61", "'threshold 61': the threshold must be between 0"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[repr(t.strip()[:30]) for t, _ in BAD])
def test_bad_quick_rolls_are_refused_naming_the_bad_part(text: str, message: str) -> None:
    assert_quick_roll_refused(maelstrom, text, message)
