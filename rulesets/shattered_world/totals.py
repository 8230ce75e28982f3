"""Multipliers and totals: the ×/÷ notation, the final factor, rounding and the final result
of a roll (Shattered World Core Engine, The Core Mechanic, step 3).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from fractions import Fraction

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _CORE

_MULTIPLIER_TOKEN = re.compile(r"([x×*/÷])\s*(\d+)")
_MULTIPLY = frozenset("x×*")


def parse_multipliers(text: str) -> tuple[int, ...]:
    """Parse multiplier notation such as ``"x2 x2"`` or ``"x3 /2"``.

    Terms are separated by spaces or commas; each is ``x<n>`` (also ``×<n>``, ``*<n>``) for a
    multiplier or ``/<n>`` (also ``÷<n>``) for a divisor, with n >= 2.

    Args:
        text: the notation; empty or blank means no multiplier.

    Returns:
        One signed int per factor, in the order given: ``+n`` for ×n, ``-n`` for ÷n, e.g.
        ``parse_multipliers("x3 /2") == (3, -2)``.

    Raises:
        RuleError: a term that is not multiplier notation, or a factor below 2; the message
            quotes the bad term.

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    factors: list[int] = []
    for term in re.split(r"[\s,]+", text.strip().lower()):
        if not term:
            continue
        match = _MULTIPLIER_TOKEN.fullmatch(term)
        if match is None:
            raise RuleError(
                f"{term!r} is not a multiplier such as 'x2' or a divisor such as '/2'", _CORE
            )
        amount = int(match.group(2))
        if amount < 2:
            raise RuleError(f"{term!r} changes nothing: a factor must be 2 or more", _CORE)
        factors.append(amount if match.group(1) in _MULTIPLY else -amount)
    return tuple(factors)


def format_multipliers(factors: Iterable[int]) -> str:
    """Multiplier notation for signed factors: ``(3, -2)`` -> ``"x3 /2"``; ``()`` -> ``""``."""
    return " ".join(f"x{f}" if f > 0 else f"/{-f}" for f in factors)


def final_factor(multipliers: str | Sequence[int]) -> Fraction:
    """The final factor of several ×/÷ modifiers.

    The seed: "After the first, every multiplier or divisor from relevant ×/÷ modifiers adds
    (divisors subtract) together to create the final factor": ×2 and ×2 give ×3; ×3 and ÷2
    give 2. So after the first factor, each further ×n adds n - 1 and each further ÷n
    subtracts n - 1.

    **Decision** (the seed gives no example with a divisor first or a factor falling to 1 or
    below): factors sit on one ladder ... ÷3, ÷2, ×1, ×2, ×3 ..., ×n at rung n - 1 and ÷n at
    rung -(n - 1), and the final factor is the rung of the sum. This reproduces both seed
    examples, is the plain product for a single factor (÷2 alone halves), does not depend on
    the order the modifiers are listed in, and keeps going below ×1 (×2 and ÷3 give ÷2; ÷2 and
    ÷2 give ÷3) instead of reaching zero or a negative factor.

    Args:
        multipliers: notation such as ``"x2 x2"`` or the signed factors of
            :func:`parse_multipliers`.

    Returns:
        The factor as a Fraction: ``Fraction(3)`` for ``"x2 x2"``, ``Fraction(1, 2)`` for
        ``"/2"``, ``Fraction(1)`` for none.

    Raises:
        RuleError: bad notation (see :func:`parse_multipliers`).

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    factors = parse_multipliers(multipliers) if isinstance(multipliers, str) else multipliers
    rung = 0
    for factor in factors:
        if abs(factor) < 2:
            raise RuleError(f"factor {factor} changes nothing: a factor must be 2 or more", _CORE)
        rung += factor - 1 if factor > 0 else factor + 1
    return Fraction(rung + 1) if rung >= 0 else Fraction(1, 1 - rung)


def round_half_up(value: Fraction | int) -> int:
    """Round "to whatever is mathematically correct": .49 or lower down, .5 or higher up.

    Args:
        value: an exact number, e.g. ``Fraction(5, 2)``.

    Returns:
        The rounded int (``floor(value + 1/2)``): 5/2 -> 3, 49/20 -> 2, -5/2 -> -2.

    The "0 results always become 1" exception is applied by :func:`total` to the final total.

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    return math.floor(Fraction(value) + Fraction(1, 2))


def total(face: int, modifier: int = 0, multipliers: str | Sequence[int] = "") -> int:
    """The final result of a roll: face plus modifiers, times the final factor, rounded.

    Steps (Shattered World Core Engine, The Core Mechanic, step 3): every +/- modifier
    stacks (pass their sum); the ×/÷ modifiers combine into :func:`final_factor`; the product
    is rounded half up; a result of 0 becomes 1. **Decision**: the factor applies to face and
    modifiers together (the seed lists the +/- modifiers before the ×/÷ ones), and "0 results
    always become 1" applies to every total, with or without a factor; negative totals stay
    negative (they can never meet a target number of 1 or more anyway).

    Args:
        face: the die face rolled (>= 1).
        modifier: the sum of every relevant +/- modifier.
        multipliers: notation such as ``"x3 /2"`` or signed factors.

    Returns:
        The total, an int, e.g. ``total(5, 2, "x2 x2") == 21``; ``total(1, 0, "/3") == 1``.

    Raises:
        RuleError: bad multiplier notation.
    """
    value = round_half_up((face + modifier) * final_factor(multipliers))
    return 1 if value == 0 else value
