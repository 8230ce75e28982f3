"""Shahquest's NPC quick roll notation: what it reads and what it refuses (the part every
system shares is tests/rulesets/test_quick_rolls.py)."""

from __future__ import annotations

import pytest

from rulesets import shahquest
from tests.rulesets.helpers import assert_quick_roll_refused


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("d10 2d8 d6", "d10 2d8 d6"),
        ("D10, 2 d8 + d6", "d10 2d8 d6"),
        ("d6 d10 d8 d8", "d10 2d8 d6"),
        ("2d8 d6", "2d8 d6"),
        ("d12 d10 d4", "d12 d10 d4"),
        ("d4", "d4"),
    ],
)
def test_shahquest_quick_roll_is_the_plain_pool_of_those_dice(text: str, notation: str) -> None:
    pool = shahquest.quick_roll(text)
    assert pool == shahquest.pool_from_dice(notation)
    assert pool.notation() == notation
    assert pool.plot_points_spent == pool.plot_points_earned == 0


# --- Bad input -------------------------------------------------------------------------------

BAD = [
    ("", "the quick roll is empty"),
    ("d10 " * 60, "characters long, more than 200"),
    ("d10 2d8 d7", "'d7': d7 is not a step die"),
    ("d10 d20", "'d20': d20 is not a step die"),
    ("d8+1", "'1' is not understood (a pool has dice only"),
    ("d10 vs 11", "'vs' is not understood"),
    ("d10 0d6", "'0d6' has no dice"),
    ("61d6", "'61d6' is 61 dice: a quick roll takes at most 60"),
    ("30d8 31d6", "'30d8 31d6' is 61 dice"),
    ("999999999999999999999999d6", "a quick roll takes at most 60"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[repr(t.strip()[:30]) for t, _ in BAD])
def test_bad_quick_rolls_are_refused_naming_the_bad_part(text: str, message: str) -> None:
    assert_quick_roll_refused(shahquest, text, message)
