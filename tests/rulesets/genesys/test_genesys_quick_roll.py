"""Genesys's NPC quick roll notation: what it reads and what it refuses (the part every
system shares is tests/rulesets/test_quick_rolls.py)."""

from __future__ import annotations

import pytest

from rulesets import genesys
from tests.rulesets.helpers import assert_quick_roll_refused


@pytest.mark.parametrize(
    ("text", "notation"),
    [
        ("2A 1P vs 3D 1C", "2A 1P 3D 1C"),
        ("3A vs 2D", "3A 2D"),
        ("2A 1B vs 2D 1S", "2A 2D 1B 1S"),
        ("1P 2A 2D", "2A 1P 2D"),
        ("2a1pVS3d1c", "2A 1P 3D 1C"),
        ("2 A 1 P versus 3 D", "2A 1P 3D"),
        ("2A, 1P + B vs. 2D S", "2A 1P 2D 1B 1S"),
        ("A vs S", "1A 1S"),
        ("2A 1S vs 1D 1B", "2A 1D 1B 1S"),
    ],
)
def test_genesys_quick_roll_reads_the_letter_notation_with_an_optional_vs(
    text: str, notation: str
) -> None:
    pool = genesys.quick_roll(text)
    assert pool.counts() == genesys.parse_pool(notation).counts()
    assert pool.traits == ("NPC",)
    assert pool.difficulty_level == ""
    assert pool.destiny_points == 0


# --- Bad input -------------------------------------------------------------------------------

BAD = [
    ("", "the quick roll is empty"),
    ("2A " * 70, "characters long, more than 200"),
    ("2X vs 3D", "'2X' is not a pool term"),
    ("2A 1P v 3D", "'v' is not a pool term"),
    ("2A vs 3D vs 1C", "'2A vs 3D vs 1C' has 'vs' more than once"),
    ("vs 3D", "'vs 3D' has nothing before 'vs'"),
    ("2A 1P vs", "'2A 1P vs' has nothing after 'vs'"),
    ("2A 3D vs 1C", "'3D' before 'vs': difficulty and challenge dice are the GM's"),
    ("2A vs 1P 2D", "'1P' after 'vs': ability and proficiency dice are the roller's"),
    ("61A vs 1D", "'61A': a pool holds at most 60 dice"),
    ("31A vs 30D", "'31A vs 30D' is 61 dice"),
    ("0A vs 0D", "has no dice"),
]


@pytest.mark.parametrize(("text", "message"), BAD, ids=[repr(t.strip()[:30]) for t, _ in BAD])
def test_bad_quick_rolls_are_refused_naming_the_bad_part(text: str, message: str) -> None:
    assert_quick_roll_refused(genesys, text, message)
