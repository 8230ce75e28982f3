"""The 3d6 catalogue: the constants of a test (3d6, the critical sixes, the trait counts,
the favor cap, the lowest TD) and the seed's dice vocabulary (3d6 Rolls and Tests, Your Fate
and the Dice; Rolls and Tests; Dice Nomenclature), and the citation helper every module of
the system uses."""

from __future__ import annotations

from rulesets.errors import RuleError

SOURCE = "3d6 Rolls and Tests"
"""Prefix of every rule citation."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_STORED_RULE = _rule("Rolls and Tests")
"""The rule a damaged stored test cites (a damaged stored contest cites Contesting)."""

SYSTEM = "three_d6"
"""The slug stored in every serialised roll."""

BASE_DICE = 3
"""A test rolls 3d6 before favor and disfavor (3d6 Rolls and Tests, Your Fate and the Dice)."""

DIE_SIDES = 6
"""Tests roll six-sided dice (3d6 Rolls and Tests, Your Fate and the Dice)."""

CRITICAL_SIXES = 3
"""Sixes needed for a critical success: "three or more 6's" (3d6 Rolls and Tests, Critical
Successes and Failures)."""

TRAIT_COUNT, SUBTRAIT_COUNT = 6, 12
"""A test is based on one of 6 traits or one of 12 subtraits (3d6 Rolls and Tests, Rolls and
Tests). Their names are not in the seed: the GM names them per campaign."""

MAX_FAVOR = 20
"""Most points of favor, and of disfavor, on one test. An engine limit (keeps odds queries
fast and bounded), not a rule of the seed."""

TD_MIN = 1
"""Lowest test difficulty: the minimum roll needed to succeed is at least 1 (3d6 Rolls and
Tests, Test Difficulty). It also makes every critical failure (value 0) a failure."""


# ---------------------------------------------------------------------------------------------
# Dice vocabulary: 3d6 Rolls and Tests, Dice Nomenclature
# ---------------------------------------------------------------------------------------------

PERCENTILE = "d%"
"""Notation for the percentile die: a d10 whose faces read 00, 10, ..., 90."""

DICE_VOCABULARY: dict[str, tuple[int, ...]] = {
    "d4": tuple(range(1, 5)),
    "d6": tuple(range(1, 7)),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(1, 11)),
    PERCENTILE: tuple(range(0, 100, 10)),
    "d12": tuple(range(1, 13)),
    "d20": tuple(range(1, 21)),
}
"""The seven die types of the seed in its order, each with its faces: d4, d6, d8, d10,
percentile (faces 0, 10, ..., 90, written 00-90), d12, d20 (3d6 Rolls and Tests, Dice
Nomenclature)."""


def die_faces(die: str) -> tuple[int, ...]:
    """The faces of one die type of the seed's vocabulary.

    Args:
        die: ``"d4"``, ``"d6"``, ``"d8"``, ``"d10"``, ``"d%"`` (percentile), ``"d12"`` or
            ``"d20"``.

    Returns:
        The faces in ascending order, e.g. ``(1, 2, 3, 4)`` for d4 and ``(0, 10, ..., 90)``
        for the percentile die.

    Raises:
        RuleError: ``die`` is not one of the seven types (3d6 Rolls and Tests, Dice
            Nomenclature).
    """
    faces = DICE_VOCABULARY.get(die.strip().lower())
    if faces is None:
        known = ", ".join(DICE_VOCABULARY)
        raise RuleError(f"{die!r} is not one of the dice types {known}", _rule("Dice Nomenclature"))
    return faces


def describe_dice(count: int, die: str) -> str:
    """Write ``count`` dice of one type the seed's way: ``(4, "d8") -> "4d8"``.

    Args:
        count: number of dice, >= 1 (a count of 1 is written without the number: ``"d8"``).
        die: a die type of :data:`DICE_VOCABULARY`.

    Returns:
        The notation, e.g. ``"3d6"``, ``"d%"``.

    Raises:
        RuleError: a count below 1 or an unknown die type (3d6 Rolls and Tests, Dice
            Nomenclature).
    """
    die_faces(die)
    if count < 1:
        raise RuleError(f"a roll needs at least 1 die, not {count}", _rule("Dice Nomenclature"))
    return f"{count if count > 1 else ''}{die.strip().lower()}"
