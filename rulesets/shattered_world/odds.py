"""Exact odds of one roll: P(success) and the degree distribution, and the odds query the
``odds`` command and the roll form's preview answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulesets.query import Parameter, read_query
from rulesets.shattered_world.catalogue import _CORE, _DICE
from rulesets.shattered_world.chart import DIE_CHART, _chart_index
from rulesets.shattered_world.pools import ActionPool, _check_int, _check_target
from rulesets.shattered_world.readings import (
    MULTIPLIER_ORDER,
    MULTIPLIER_ORDERS,
    ZERO_BECOMES_ONE,
    ZERO_RULES,
    ShatteredWorldReadings,
)
from rulesets.shattered_world.rolling import resolve
from rulesets.shattered_world.totals import format_multipliers, parse_multipliers


@dataclass(frozen=True)
class Odds:
    """Exact odds of one roll.

    Attributes:
        die, target, modifier, multipliers: the query (die size, target number, the sum of
            the +/- modifiers, ×/÷ notation).
        success: P(success), standard successes included, as a Fraction.
        standard_success: P(the highest face rescues a failing total).
        degrees: ``(degree, probability)`` pairs, ascending, zero probabilities left out;
            degree 0 is not listed (it is the failure).
    """

    die: int
    target: int
    modifier: int
    multipliers: str
    success: Fraction
    standard_success: Fraction
    degrees: tuple[tuple[int, Fraction], ...]

    @property
    def failure(self) -> Fraction:
        """P(failure) = 1 - P(success)."""
        return 1 - self.success

    @property
    def degree(self) -> dict[int, Fraction]:
        """The degree distribution as a dict, degree -> probability."""
        return dict(self.degrees)

    def as_dict(self) -> dict[str, object]:
        """The command-line JSON shape: ``{"success": p, "degree": {"1": p, ...}}`` (floats)."""
        return {
            "success": float(self.success),
            "degree": {str(degree): float(p) for degree, p in self.degrees},
        }


def odds(
    die: int,
    target: int,
    modifier: int = 0,
    multipliers: str = "",
    chart: Sequence[int] = DIE_CHART,
    *,
    multiplier_order: str = MULTIPLIER_ORDERS[0],
    zero_becomes_one: str = ZERO_RULES[0],
) -> Odds:
    """Exact P(success) and degree distribution of one roll.

    Each face of the die is equally likely; every face is resolved with :func:`resolve` and
    the probabilities summed exactly (Fractions). A single die has at most a few dozen faces,
    so this is both exact and fast (timings: docs/performance.md, "Exact odds").

    Args:
        die: the die size (4 for a d4), on ``chart``.
        target: the target number, >= 1.
        modifier: the sum of the +/- modifiers.
        multipliers: ×/÷ notation, e.g. ``"x2 x2"``.
        chart: the campaign's die chart (default :data:`DIE_CHART`).
        multiplier_order: the table reading of how the factors combine, as :func:`resolve`
            takes it ("any_order" or "as_written").
        zero_becomes_one: the table reading of which totals of 0 become 1 ("every_total" or
            "divisions_only").

    Returns:
        An :class:`Odds`.

    Raises:
        RuleError: a die not on the chart, a target below 1, bad multiplier notation or an
            unknown reading.

    Source: Shattered World Core Engine, The Core Mechanic; Standard Success.
    """
    _check_int(die, "the die", _DICE)
    _check_int(modifier, "the modifier", _CORE)
    _chart_index(die, chart)
    _check_target(target)
    factors = parse_multipliers(multipliers)
    each = Fraction(1, die)
    success = Fraction(0)
    standard = Fraction(0)
    degree: dict[int, Fraction] = {}
    for face in range(1, die + 1):
        resolution = resolve(face, die, target, modifier, factors,
                             multiplier_order=multiplier_order, zero_becomes_one=zero_becomes_one)
        if not resolution.success:
            continue
        success += each
        if resolution.outcome == "standard success":
            standard += each
        degree[resolution.degree] = degree.get(resolution.degree, Fraction(0)) + each
    return Odds(
        die=die,
        target=target,
        modifier=modifier,
        multipliers=format_multipliers(factors),
        success=success,
        standard_success=standard,
        degrees=tuple(sorted(degree.items())),
    )


def pool_odds(pool: ActionPool) -> Odds:
    """Exact odds of a built pool (see :func:`odds`); the die needs no chart check here.

    Args:
        pool: an :class:`ActionPool`.

    Returns:
        An :class:`Odds`.
    """
    return odds(pool.die, pool.target, pool.modifier, pool.multipliers, chart=(pool.die,),
                multiplier_order=pool.multiplier_order, zero_becomes_one=pool.zero_becomes_one)


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("die", int, None, "die size rolled, e.g. 4 for a d4 (d4 d6 d8 d10 d12 d20)"),
    Parameter("target", int, None, "target number, 1 or more"),
    Parameter("modifier", int, 0, "sum of every +/- modifier"),
    Parameter("multipliers", str, "", "x/÷ modifiers, e.g. 'x2 x2' or 'x3 /2'"),
    MULTIPLIER_ORDER.odds_parameter,
    ZERO_BECOMES_ONE.odds_parameter,
)
"""The odds query's parameters: ``--die 4 --target 5 --modifier 1 --multipliers "x2"``, and
the table readings that change the odds (``--multiplier-order as_written``,
``--zero-becomes-one divisions_only``; :mod:`rulesets.shattered_world.readings`)."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query (the command line and ``--batch`` lines).

    Args:
        query: parameter name -> value, e.g. ``{"die": 4, "target": 5, "modifier": 1}``,
            and the readings, e.g. ``{"multiplier_order": "as_written"}``, read as
            :func:`rulesets.shattered_world.build_pool` reads them.

    Returns:
        ``{"success": p, "degree": {"1": p, ...}}`` with float probabilities.

    Raises:
        RuleError: an unknown, missing or mistyped parameter, a die not on the default chart,
            a target below 1, bad multiplier notation or a reading's value that is not one of
            its choices.
    """
    values = read_query(query, ODDS_PARAMETERS)
    readings = ShatteredWorldReadings.from_query(values)
    die, target, modifier, multipliers = (
        values["die"],
        values["target"],
        values["modifier"],
        values["multipliers"],
    )
    assert isinstance(die, int) and isinstance(target, int) and isinstance(modifier, int)
    assert isinstance(multipliers, str)
    return odds(die, target, modifier, multipliers, multiplier_order=readings.multiplier_order,
                zero_becomes_one=readings.zero_becomes_one).as_dict()
