"""Multipliers and totals: the ×/÷ notation, the final factor, rounding and the final result
of a roll (Shattered World Core Engine, The Core Mechanic, step 3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _CORE
from rulesets.shattered_world.readings import MULTIPLIER_ORDERS, ZERO_RULES

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
    return _parse_multipliers(text)


# A roll reads its pool's notation again each time (a simulation, the odds face by face), so
# the notation's parse and its factor are kept: both are pure, and a refusal is never kept.
@lru_cache(maxsize=1024)
def _parse_multipliers(text: str) -> tuple[int, ...]:
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


def final_factor(
    multipliers: str | Sequence[int], multiplier_order: str = MULTIPLIER_ORDERS[0]
) -> Fraction:
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

    The table reading ``multiplier_order="as_written"`` (:data:`rulesets.shattered_world.
    readings.MULTIPLIER_ORDER`) takes the factors in the order written, each on the factor as
    it stands: a ×n adds n - 1 to it, a fraction too (÷2 then ×3: 1/2 + 2 = 5/2, where the
    ladder gives 2); a ÷n takes n - 1 off, and the part of the step below ×1 goes on down the
    ladder (÷2 then ÷2: ÷3; 5/2 then ÷2: 3/2). Both readings agree whenever no multiplier
    follows a factor below ×1, the seed's examples among them.

    Args:
        multipliers: notation such as ``"x2 x2"`` or the signed factors of
            :func:`parse_multipliers`, in the order written.
        multiplier_order: "any_order" (the ladder) or "as_written".

    Returns:
        The factor as a Fraction: ``Fraction(3)`` for ``"x2 x2"``, ``Fraction(1, 2)`` for
        ``"/2"``, ``Fraction(1)`` for none; ``Fraction(5, 2)`` for ``"/2 x3"`` as written.

    Raises:
        RuleError: bad notation (see :func:`parse_multipliers`), or an unknown
            ``multiplier_order``.

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    factors = (parse_multipliers(multipliers) if isinstance(multipliers, str)
               else tuple(multipliers))
    return _final_factor(factors, multiplier_order)


@lru_cache(maxsize=1024)
def _final_factor(factors: tuple[int, ...], multiplier_order: str) -> Fraction:
    if multiplier_order not in MULTIPLIER_ORDERS:
        raise RuleError(f"unknown order of multipliers {multiplier_order!r}", _CORE)
    for factor in factors:
        if abs(factor) < 2:
            raise RuleError(f"factor {factor} changes nothing: a factor must be 2 or more", _CORE)
    if multiplier_order == MULTIPLIER_ORDERS[0]:
        return _from_rung(Fraction(sum(f - 1 if f > 0 else f + 1 for f in factors)))
    value = Fraction(1)
    for factor in factors:
        if factor > 0:
            value += factor - 1
        else:
            value = _from_rung(_rung(value) + factor + 1)
    return value


def _rung(factor: Fraction) -> Fraction:
    """Where a factor sits on the ladder: ×n at n - 1, ÷n at -(n - 1), continuous between."""
    return factor - 1 if factor >= 1 else 1 - 1 / factor


def _from_rung(rung: Fraction) -> Fraction:
    """The factor at a rung of the ladder (the inverse of :func:`_rung`)."""
    return rung + 1 if rung >= 0 else 1 / (1 - rung)


def round_half_up(value: Fraction | int) -> int:
    """Round "to whatever is mathematically correct": .49 or lower down, .5 or higher up.

    Args:
        value: an exact number, e.g. ``Fraction(5, 2)``.

    Returns:
        The rounded int (``floor(value + 1/2)``): 5/2 -> 3, 49/20 -> 2, -5/2 -> -2.

    The "0 results always become 1" exception is applied by :func:`total` to the final total.

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    # floor((n/d) + 1/2) in whole numbers (a Fraction's denominator is positive).
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)


def total(
    face: int,
    modifier: int = 0,
    multipliers: str | Sequence[int] = "",
    *,
    multiplier_order: str = MULTIPLIER_ORDERS[0],
    zero_becomes_one: str = ZERO_RULES[0],
) -> int:
    """The final result of a roll: face plus modifiers, times the final factor, rounded.

    Steps (Shattered World Core Engine, The Core Mechanic, step 3): every +/- modifier
    stacks (pass their sum); the ×/÷ modifiers combine into :func:`final_factor`; the product
    is rounded half up; a result of 0 becomes 1. **Decision**: the factor applies to face and
    modifiers together (the seed lists the +/- modifiers before the ×/÷ ones), and "0 results
    always become 1" applies to every total, with or without a factor; negative totals stay
    negative (they can never meet a target number of 1 or more anyway). Under the table
    reading ``zero_becomes_one="divisions_only"`` (:data:`rulesets.shattered_world.readings.
    ZERO_BECOMES_ONE`) only a divided total (final factor below ×1) of 0 becomes 1.

    Args:
        face: the die face rolled (>= 1).
        modifier: the sum of every relevant +/- modifier.
        multipliers: notation such as ``"x3 /2"`` or signed factors, in the order written.
        multiplier_order: how the factors combine, as :func:`final_factor` takes it.
        zero_becomes_one: "every_total" or "divisions_only".

    Returns:
        The total, an int, e.g. ``total(5, 2, "x2 x2") == 21``; ``total(1, 0, "/3") == 1``;
        ``total(3, -3) == 1``, but 0 under "divisions_only".

    Raises:
        RuleError: bad multiplier notation, or an unknown reading.
    """
    if zero_becomes_one not in ZERO_RULES:
        raise RuleError(f"unknown rule for a result of 0 {zero_becomes_one!r}", _CORE)
    factor = final_factor(multipliers, multiplier_order)
    value = round_half_up((face + modifier) * factor)
    if value == 0 and (zero_becomes_one == ZERO_RULES[0] or factor < 1):
        return 1
    return value
