"""The GM's NPC quick roll: each system's notation parses into a pool its own roll accepts.

Plain pytest, no database. Every help-text example and every accepted spelling parses to the
pool the module's builder makes and rolls with a seeded ``random.Random``; every kind of bad
input is refused with a :class:`RuleError` whose message quotes the bad part.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from rulesets import genesys, maelstrom, shahquest, shattered_world, three_d6
from rulesets.errors import RuleError
from tests.rulesets.helpers import ScriptedRng

MODULES: dict[str, ModuleType] = {
    "maelstrom": maelstrom,
    "shahquest": shahquest,
    "genesys": genesys,
    "three_d6": three_d6,
    "shattered_world": shattered_world,
}

ROLL: dict[str, Callable[[Any, Any], Any]] = {
    "maelstrom": maelstrom.roll,
    "shahquest": shahquest.roll,
    "genesys": genesys.roll,
    "three_d6": three_d6.roll_test,  # the 3d6 module rolls a test with roll_test
    "shattered_world": shattered_world.roll,
}

EXAMPLES = [
    (system, text) for system, module in MODULES.items() for text in module.QUICK_ROLL_EXAMPLES
]


# --- Every example parses and rolls ------------------------------------------------------------


@pytest.mark.parametrize("system", MODULES)
def test_every_system_offers_quick_roll_examples(system: str) -> None:
    examples = MODULES[system].QUICK_ROLL_EXAMPLES
    assert isinstance(examples, tuple)
    assert examples
    assert all(isinstance(text, str) and text.strip() for text in examples)


@pytest.mark.parametrize(("system", "text"), EXAMPLES, ids=[f"{s}:{t}" for s, t in EXAMPLES])
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_every_example_parses_and_rolls_to_a_summary(system: str, text: str, seed: int) -> None:
    pool = MODULES[system].quick_roll(text)
    result = ROLL[system](pool, random.Random(seed))
    summary = result.summary()
    assert isinstance(summary, str)
    assert summary.strip()
    stored = result.as_dict()
    assert stored["summary"] == summary
    assert type(result).from_dict(stored) == result  # a stored quick roll reads back the same


def test_the_same_seed_gives_the_same_quick_roll() -> None:
    pool = maelstrom.quick_roll("6 dice diff 8 specialty")
    first = maelstrom.roll(pool, random.Random(99))
    second = maelstrom.roll(pool, random.Random(99))
    assert first == second


# --- Maelstrom -----------------------------------------------------------------------------------


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


# --- Shahquest -----------------------------------------------------------------------------------


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


# --- Genesys -------------------------------------------------------------------------------------


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


# --- 3d6 -----------------------------------------------------------------------------------------


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


# --- Shattered World -----------------------------------------------------------------------------


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


# --- Bad input -----------------------------------------------------------------------------------

LONG = "5 dice " + "diff 7 " * 40

BAD = [
    # Maelstrom
    ("maelstrom", "", "the quick roll is empty"),
    ("maelstrom", "   ", "the quick roll is empty"),
    ("maelstrom", LONG, "characters long, more than 200"),
    ("maelstrom", "5 dice dif 7 threshold 1", "'dif 7' is not understood"),
    ("maelstrom", "5 dice diff 7 lol", "'lol' is not understood"),
    ("maelstrom", "5 diff 7", "'5' is not understood"),
    ("maelstrom", "5 dice diff", "'diff' needs a number"),
    ("maelstrom", "5 dice threshold", "'threshold' needs a number"),
    ("maelstrom", "dice diff 7", "'dice' needs a number"),
    ("maelstrom", "diff 7 threshold 1", "'diff 7 threshold 1' does not say how many dice"),
    ("maelstrom", "5d6 diff 7", "'5d6': Maelstrom rolls d10s only"),
    ("maelstrom", "5 dice 3 dice", "'3 dice' gives the dice a second time"),
    ("maelstrom", "5 dice diff 6 diff 7", "'diff 7' gives the difficulty a second time"),
    ("maelstrom", "5 dice specialty specialty", "'specialty' gives the specialty a second time"),
    ("maelstrom", "0 dice", "'0 dice': an NPC quick roll takes 1 to 60 dice"),
    ("maelstrom", "61 dice", "'61 dice': an NPC quick roll takes 1 to 60 dice"),
    ("maelstrom", "5 dice diff 11", "'diff 11': the difficulty must be between 2 and 10"),
    ("maelstrom", "5 dice diff 1", "'diff 1': the difficulty must be between 2 and 10"),
    ("maelstrom", "5 dice threshold -1", "'threshold -1': the threshold must be between 0"),
    ("maelstrom", "5 dice threshold 61", "'threshold 61': the threshold must be between 0"),
    # Shahquest
    ("shahquest", "", "the quick roll is empty"),
    ("shahquest", "d10 " * 60, "characters long, more than 200"),
    ("shahquest", "d10 2d8 d7", "'d7': d7 is not a step die"),
    ("shahquest", "d10 d20", "'d20': d20 is not a step die"),
    ("shahquest", "d8+1", "'1' is not understood (a pool has dice only"),
    ("shahquest", "d10 vs 11", "'vs' is not understood"),
    ("shahquest", "d10 0d6", "'0d6' has no dice"),
    ("shahquest", "61d6", "'61d6' is 61 dice: a quick roll takes at most 60"),
    ("shahquest", "30d8 31d6", "'30d8 31d6' is 61 dice"),
    ("shahquest", "999999999999999999999999d6", "a quick roll takes at most 60"),
    # Genesys
    ("genesys", "", "the quick roll is empty"),
    ("genesys", "2A " * 70, "characters long, more than 200"),
    ("genesys", "2X vs 3D", "'2X' is not a pool term"),
    ("genesys", "2A 1P v 3D", "'v' is not a pool term"),
    ("genesys", "2A vs 3D vs 1C", "'2A vs 3D vs 1C' has 'vs' more than once"),
    ("genesys", "vs 3D", "'vs 3D' has nothing before 'vs'"),
    ("genesys", "2A 1P vs", "'2A 1P vs' has nothing after 'vs'"),
    ("genesys", "2A 3D vs 1C", "'3D' before 'vs': difficulty and challenge dice are the GM's"),
    ("genesys", "2A vs 1P 2D", "'1P' after 'vs': ability and proficiency dice are the roller's"),
    ("genesys", "61A vs 1D", "'61A': a pool holds at most 60 dice"),
    ("genesys", "31A vs 30D", "'31A vs 30D' is 61 dice"),
    ("genesys", "0A vs 0D", "has no dice"),
    # 3d6
    ("three_d6", "", "the quick roll is empty"),
    ("three_d6", "3d6 " + "+1 " * 70, "characters long, more than 200"),
    ("three_d6", "4d6+2", "'4d6': a test always rolls 3d6; write '3d6 favor 1' for 4 dice"),
    ("three_d6", "2d6", "'2d6': a test always rolls 3d6; write '3d6 disfavor 1' for 2 dice"),
    ("three_d6", "d6", "'d6': a test always rolls 3d6; write '3d6 disfavor 2' for 1 die"),
    ("three_d6", "3d8+1", "'3d8': a test always rolls 3d6"),
    ("three_d6", "+2 favor 1", "'+2 favor 1' has no 3d6"),
    ("three_d6", "3d6 3d6", "'3d6' gives the dice a second time"),
    ("three_d6", "3d6 favr 1", "'favr 1' is not understood"),
    ("three_d6", "3d6 2", "'2' is not understood"),
    ("three_d6", "3d6 +2 favor", "'favor' needs a number"),
    ("three_d6", "3d6 td", "'td' needs a number"),
    ("three_d6", "3d6 favor 1 favor 2", "'favor 2' gives the favor a second time"),
    ("three_d6", "3d6 td 12 vs 10", "'vs 10' gives the test difficulty a second time"),
    ("three_d6", "3d6 favor 21", "'favor 21': favor must be between 0 and 20"),
    ("three_d6", "3d6 disfavor -1", "'disfavor -1': disfavor must be between 0 and 20"),
    ("three_d6", "3d6 td 0", "'td 0': the test difficulty must be between 1"),
    ("three_d6", "3d6 +1000", "'+1000': a modifier must be between -999 and +999"),
    # Shattered World
    ("shattered_world", "", "the quick roll is empty"),
    ("shattered_world", "d8 " + "+1 " * 70, "characters long, more than 200"),
    ("shattered_world", "d8+1", "'d8+1' has no target number: add 'vs <target>'"),
    ("shattered_world", "+1 vs 6", "'+1 vs 6' has no die"),
    ("shattered_world", "2d8 vs 6", "'2d8': a Shattered World roll is one die"),
    ("shattered_world", "d7 vs 5", "'d7': d7 is not on the die chart"),
    ("shattered_world", "d8 d6 vs 4", "'d6' gives the die a second time"),
    ("shattered_world", "d8 vs 6 vs 7", "'vs 7' gives the target a second time"),
    ("shattered_world", "d8 +1 against 6", "'against 6' is not understood"),
    ("shattered_world", "d8 x vs 5", "'x' is not understood"),
    ("shattered_world", "d8 vs", "'vs' needs a number"),
    ("shattered_world", "d8 x1 vs 5", "'x1': a multiplier or divisor must be between 2 and 999"),
    ("shattered_world", "d8 /1000 vs 5", "'/1000': a multiplier or divisor must be between 2"),
    ("shattered_world", "d8 vs 0", "'vs 0': the target number must be between 1 and 999"),
    ("shattered_world", "d8 vs -3", "'vs -3': the target number must be between 1 and 999"),
    ("shattered_world", "d8 -1000 vs 5", "'-1000': a modifier must be between -999 and +999"),
]


@pytest.mark.parametrize(
    ("system", "text", "message"), BAD, ids=[f"{s}:{t.strip()[:30]!r}" for s, t, _ in BAD]
)
def test_bad_quick_rolls_are_refused_naming_the_bad_part(
    system: str, text: str, message: str
) -> None:
    module = MODULES[system]
    with pytest.raises(RuleError) as error:
        module.quick_roll(text)
    assert message in error.value.message
    assert error.value.rule.startswith(module.SOURCE)  # cites a section of the system's seed
