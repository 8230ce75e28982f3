"""Shattered World's NPC quick roll notation: what it reads and what it refuses (the part every
system shares is tests/rulesets/test_quick_rolls.py)."""

from __future__ import annotations

import pytest

from rulesets import shattered_world
from tests.rulesets.helpers import assert_quick_roll_refused


@pytest.mark.parametrize(
    ("text", "die", "target", "modifiers", "multipliers"),
    [
        ("d8+1 vs 6", 8, 6, (1,), ""),
        ("d20 +3 x2 vs 15", 20, 15, (3,), "x2"),
        ("d6 -1 x3 /2 vs 9", 6, 9, (-1,), "x3 /2"),
        ("d4 vs 3", 4, 3, (), ""),
        ("D8 + 1, VS 6", 8, 6, (1,), ""),
        ("1d12 \u00d72 \u00f73 target 10", 12, 10, (), "x2 /3"),
        ("d10 * 2 tn 4", 10, 4, (), "x2"),
        ("vs 5 d6 +2 +1 x2x2", 6, 5, (2, 1), "x2 x2"),
    ],
)
def test_shattered_world_quick_roll_builds_the_npc_pool(
    text: str, die: int, target: int, modifiers: tuple[int, ...], multipliers: str
) -> None:
    expected = shattered_world.build_pool(
        target=target,
        action_die=die,
        modifiers=modifiers,
        multipliers=multipliers,
        action="NPC",
    )
    assert shattered_world.quick_roll(text) == expected


# --- Bad input -------------------------------------------------------------------------------

BAD = [
    ("", "the quick roll is empty"),
    ("d8 " + "+1 " * 70, "characters long, more than 200"),
    ("d8+1", "'d8+1' has no target number: add 'vs <target>'"),
    ("+1 vs 6", "'+1 vs 6' has no die"),
    ("2d8 vs 6", "'2d8': a Shattered World roll is one die"),
    ("d7 vs 5", "'d7': d7 is not on the die chart"),
    ("d8 d6 vs 4", "'d6' gives the die a second time"),
    ("d8 vs 6 vs 7", "'vs 7' gives the target a second time"),
    ("d8 +1 against 6", "'against 6' is not understood"),
    ("d8 x vs 5", "'x' is not understood"),
    ("d8 vs", "'vs' needs a number"),
    ("d8 x1 vs 5", "'x1': a multiplier or divisor must be between 2 and 999"),
    ("d8 /1000 vs 5", "'/1000': a multiplier or divisor must be between 2"),
    ("d8 vs 0", "'vs 0': the target number must be between 1 and 999"),
    ("d8 vs -3", "'vs -3': the target number must be between 1 and 999"),
    ("d8 -1000 vs 5", "'-1000': a modifier must be between -999 and +999"),]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[repr(t.strip()[:30]) for t, _ in BAD])
def test_bad_quick_rolls_are_refused_naming_the_bad_part(text: str, message: str) -> None:
    assert_quick_roll_refused(shattered_world, text, message)
