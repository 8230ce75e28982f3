"""Dice primitives shared by every ruleset: the injectable RNG protocol and one die roll.

The RNG is always passed in, never created here, so that tests can script the dice and the
apps can use a cryptographic source (``secrets.SystemRandom``) in production.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from rulesets.errors import RuleError

DIE_SIZES: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""Die sizes (number of sides) used by the supported systems: d4, d6, d8, d10, d12, d20."""


class Rng(Protocol):
    """Source of random integers, injected into every rolling function.

    ``random.Random`` and ``secrets.SystemRandom`` satisfy this protocol, as does any test
    double with the same method.
    """

    def randint(self, a: int, b: int) -> int:
        """Return a random integer N with ``a <= N <= b`` (both ends inclusive)."""
        ...


def roll_die(rng: Rng, sides: int) -> int:
    """Roll one die with ``sides`` faces numbered 1..sides and return the face (an int).

    Args:
        rng: the injected random source; exactly one ``rng.randint(1, sides)`` call is made.
        sides: number of faces, at least 2 (for example 10 for a d10).

    Returns:
        The face rolled, 1 <= face <= sides.

    Raises:
        ValueError: if ``sides`` is below 2, or if the RNG returns a face outside 1..sides.
    """
    if sides < 2:
        raise ValueError(f"a die needs at least 2 sides, not {sides}")
    face = rng.randint(1, sides)
    if not 1 <= face <= sides:
        raise ValueError(f"the RNG returned {face}, outside 1..{sides}")
    return face


# ---------------------------------------------------------------------------------------------
# Step dice: Shahquest wiki, "Dice, Step Up, Step Down, and Spreads" (the Cortex convention)
# ---------------------------------------------------------------------------------------------

STEP_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
"""The step-dice ladder, smallest first: d4, d6, d8, d10, d12. One step = one place."""

_STEP_RULE = "Shahquest wiki, Dice, Step Up, Step Down, and Spreads"


def _check_step_die(size: int) -> None:
    if size not in STEP_DICE:
        sizes = ", ".join(f"d{s}" for s in STEP_DICE)
        raise RuleError(f"d{size} is not a step die ({sizes})", _STEP_RULE)


def step_up(size: int, steps: int = 1) -> int | None:
    """Move a die ``steps`` places up the ladder d4 -> d6 -> d8 -> d10 -> d12.

    Args:
        size: the die's sides, one of :data:`STEP_DICE`.
        steps: places to move, >= 0.

    Returns:
        The new size, or ``None`` when the step goes past d12 (the caller applies its system's
        rule for that, e.g. Shahquest stress past d12 means stressed out).

    Raises:
        RuleError: ``size`` is not a step die, or ``steps`` is negative.
    """
    _check_step_die(size)
    if steps < 0:
        raise RuleError(f"cannot step up by {steps} steps", _STEP_RULE)
    index = STEP_DICE.index(size) + steps
    return STEP_DICE[index] if index < len(STEP_DICE) else None


def step_down(size: int, steps: int = 1) -> int | None:
    """Move a die ``steps`` places down the ladder d12 -> d10 -> d8 -> d6 -> d4.

    Args:
        size: the die's sides, one of :data:`STEP_DICE`.
        steps: places to move, >= 0.

    Returns:
        The new size, or ``None`` when the die steps down below d4 and is removed
        (Shahquest wiki, Stress and Trauma: "If Stress is Stepped Down below d4, it is
        removed"; the Cortex convention applies it to every die).

    Raises:
        RuleError: ``size`` is not a step die, or ``steps`` is negative.
    """
    _check_step_die(size)
    if steps < 0:
        raise RuleError(f"cannot step down by {steps} steps", _STEP_RULE)
    index = STEP_DICE.index(size) - steps
    return STEP_DICE[index] if index >= 0 else None


def spread(size: int, times: int = 1) -> tuple[int, ...]:
    """A die spread ``times`` times: the die plus ``times`` more of the same size.

    "A Spread allows you to roll one additional die of the same type"; a double spread adds
    two. Steps come before spreads, so step the die first, then spread the result.

    Args:
        size: the die's sides, one of :data:`STEP_DICE`.
        times: number of spreads, >= 0.

    Returns:
        ``times + 1`` dice of ``size`` sides, e.g. ``spread(8) == (8, 8)``.

    Raises:
        RuleError: ``size`` is not a step die, or ``times`` is negative.
    """
    _check_step_die(size)
    if times < 0:
        raise RuleError(f"cannot spread {times} times", _STEP_RULE)
    return (size,) * (times + 1)


_DICE_TERM = re.compile(r"(\d*)d(\d+)")


def parse_dice(text: str, sizes: Sequence[int] = STEP_DICE) -> tuple[int, ...]:
    """Parse dice notation such as ``"d10 2d8 d6"`` into die sizes, largest first.

    Terms are separated by spaces, commas or ``+``; each is ``[count]d<sides>``.

    Args:
        text: the notation, e.g. ``"d10 2d8 d6"`` -> ``(10, 8, 8, 6)``.
        sizes: the die sizes allowed (default: the step dice d4-d12).

    Returns:
        The die sizes, one entry per die, sorted largest first.

    Raises:
        RuleError: an empty pool, a term that is not dice notation, a count of 0, or a size
            not in ``sizes``; the message quotes the bad term.
    """
    terms = [term for term in re.split(r"[\s,+]+", text.strip().lower()) if term]
    if not terms:
        raise RuleError("the pool is empty: give dice such as 'd10 2d8 d6'", _STEP_RULE)
    dice: list[int] = []
    for term in terms:
        match = _DICE_TERM.fullmatch(term)
        if match is None:
            raise RuleError(f"{term!r} is not dice notation such as 'd8' or '2d6'", _STEP_RULE)
        count = int(match.group(1) or "1")
        size = int(match.group(2))
        if count < 1:
            raise RuleError(f"{term!r} has no dice", _STEP_RULE)
        if size not in sizes:
            allowed = ", ".join(f"d{s}" for s in sizes)
            raise RuleError(f"{term!r}: d{size} is not one of {allowed}", _STEP_RULE)
        dice.extend([size] * count)
    return tuple(sorted(dice, reverse=True))


def format_dice(dice: Sequence[int]) -> str:
    """Dice notation for die sizes, largest first; the inverse of :func:`parse_dice`.

    Args:
        dice: die sizes (sides) in any order, e.g. ``(6, 8, 10, 8)``.

    Returns:
        The notation with counts, e.g. ``"d10 2d8 d6"``; ``""`` for no dice.
    """
    counts: dict[int, int] = {}
    for size in sorted(dice, reverse=True):
        counts[size] = counts.get(size, 0) + 1
    return " ".join(f"{n if n > 1 else ''}d{size}" for size, n in counts.items())
