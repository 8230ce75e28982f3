"""Exact odds of a Shahquest pool: the best effort total, the opportunities and, under the
table reading of no effect die, the chance of none; and the odds query the ``odds`` command
and the roll form's preview answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulesets.errors import RuleError
from rulesets.query import QUERY_RULE, Parameter, read_query
from rulesets.shahquest.pools import pool_from_dice
from rulesets.shahquest.readings import EFFECT_DIE_DEFAULT, SEED_READINGS, ShahquestReadings

MAX_ODDS_DICE = 60
"""Largest pool the odds query accepts (a guard against runaway input, not a game rule)."""


@dataclass(frozen=True)
class Odds:
    """Exact odds of a pool: the best effort total and the number of opportunities.

    Attributes:
        pool: die sizes, largest first.
        effort: ``(total, probability)`` pairs, ascending, zero probabilities left out; the
            total is the largest sum two non-1 dice make (the single non-1 face when only one
            die is not 1; 0 when every die shows 1).
        opportunities: ``(number of 1s, probability)`` pairs, ascending.
        no_effect: the probability that the preselected roll has no effect die (fewer than
            three dice left after the 1s, so none after the effort total), under the table
            reading ``effect_die_default="no_effect"``; None under the default, where such a
            roll's effect die is a d4 and every roll has one.
    """

    pool: tuple[int, ...]
    effort: tuple[tuple[int, Fraction], ...]
    opportunities: tuple[tuple[int, Fraction], ...]
    no_effect: Fraction | None = None

    def effort_at_least(self, total: int) -> Fraction:
        """P(best effort total >= ``total``), e.g. the chance to beat an effort of total-1."""
        return sum((p for value, p in self.effort if value >= total), Fraction(0))

    def as_dict(self) -> dict[str, object]:
        """The command-line shape: ``{"effort": {"11": p, ...}, "opportunities": {"0": p,
        ...}}`` with float probabilities and ascending decimal-string keys, and
        ``"no_effect": p`` under the table reading of no effect die."""
        reading = {} if self.no_effect is None else {"no_effect": float(self.no_effect)}
        return {
            "effort": {str(value): float(p) for value, p in self.effort},
            "opportunities": {str(value): float(p) for value, p in self.opportunities},
            **reading,
        }


def odds(pool: str | Sequence[int], *, readings: ShahquestReadings = SEED_READINGS) -> Odds:
    """Exact distributions of the best effort total and of the opportunities of a pool.

    Effort: dynamic programming over the dice with the state (largest, second largest non-1
    face), 0 for "none", counting outcomes as integers; the effort total of a state is their
    sum. Opportunities: the count of 1s, convolved die by die. Both are exact Fractions
    (Shahquest wiki, Dice Pools: "set aside any 1s ... select two dice and add their
    results together"). Under the table reading ``effect_die_default="no_effect"`` the chance
    of no effect die is that of at most two dice left after the 1s (the effort total takes
    two, "select one die from the remaining dice"): at least n - 2 opportunities.

    Args:
        pool: dice notation such as "d10 2d8 d6", or die sizes.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        An :class:`Odds`.

    Raises:
        RuleError: bad notation, a die that is not a step die, an empty pool or more than
            :data:`MAX_ODDS_DICE` dice.
    """
    sizes = pool_from_dice(pool).sizes
    if len(sizes) > MAX_ODDS_DICE:
        raise RuleError(
            f"a pool of {len(sizes)} dice is more than the {MAX_ODDS_DICE} the odds accept",
            QUERY_RULE,
        )
    effort, ones, total = _tally(sizes)
    no_effect = None
    if readings.no_effect_die is None:
        no_effect = Fraction(sum(ones[max(0, len(sizes) - 2):]), total)
    return Odds(
        pool=sizes,
        effort=tuple(
            (value, Fraction(count, total)) for value, count in sorted(effort.items()) if count
        ),
        opportunities=tuple(
            (value, Fraction(count, total)) for value, count in enumerate(ones) if count
        ),
        no_effect=no_effect,
    )


def _tally(sizes: Sequence[int]) -> tuple[dict[int, int], list[int], int]:
    """Count the outcomes of rolling ``sizes``: ``(effort total -> outcomes giving it, ones[k]
    = outcomes with k 1s, all outcomes)``, by dynamic programming over the dice with the state
    (largest, second largest non-1 face), 0 for "none". Integers, so exact; no guard on the
    pool's size (the callers keep theirs)."""
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    ones = [1]
    total = 1
    for size in sizes:
        nxt: dict[tuple[int, int], int] = {}
        for (first, second), count in states.items():
            key = (first, second)
            nxt[key] = nxt.get(key, 0) + count  # the die shows 1
            for face in range(2, size + 1):
                if face > first:
                    key = (face, first)
                elif face > second:
                    key = (first, face)
                else:
                    key = (first, second)
                nxt[key] = nxt.get(key, 0) + count
        states = nxt
        shifted = [0, *ones]
        ones = [(size - 1) * a + b for a, b in zip([*ones, 0], shifted, strict=True)]
        total *= size
    effort: dict[int, int] = {}
    for (first, second), count in states.items():
        effort[first + second] = effort.get(first + second, 0) + count
    return effort, ones, total


def effort_distribution(sizes: Sequence[int]) -> tuple[tuple[int, Fraction], ...]:
    """The exact distribution of the best effort total of a pool of ``sizes`` (sides of each
    die, 4-12), as :attr:`Odds.effort` gives it: ``(total, probability)`` ascending, zero
    probabilities left out. Unlike :func:`odds`, no limit on the number of dice: the luck
    figures read stored pools (a tension pool with its setting and complication dice may
    pass :data:`MAX_ODDS_DICE`), and the work grows only linearly with the dice."""
    effort, _, total = _tally(sizes)
    return tuple((value, Fraction(count, total)) for value, count in sorted(effort.items())
                 if count)


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        name="pool",
        kind=str,
        default=None,
        help='the dice pool in step-dice notation, e.g. "d10 2d8 d6"',
    ),
    EFFECT_DIE_DEFAULT.odds_parameter,
)
"""Parameters of the Shahquest odds query (``--pool``), and the table reading that changes
its odds (``--effect-die-default no_effect``; :mod:`rulesets.shahquest.readings`)."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query: ``{"pool": "d10 2d8 d6"}`` -> :meth:`Odds.as_dict`; with
    ``"effect_die_default": "no_effect"`` the answer adds the chance of no effect die.

    Raises:
        RuleError: an unknown or mistyped key, a missing pool, a bad pool (see :func:`odds`),
            or a reading's value that is not one of its choices.
    """
    values = read_query(query, ODDS_PARAMETERS)
    pool = values["pool"]
    assert isinstance(pool, str)
    return odds(pool, readings=ShahquestReadings.from_query(values)).as_dict()
