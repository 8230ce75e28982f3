"""How lucky a 3d6 test was: the exact distribution of its total (3d6 Rolls and Tests, Rolls
and Tests; Favor and Disfavor; Critical Successes and Failures), for the luck figures
(docs/history.md, "How the dice ran"; docs/systems/three_d6.md, "Luck").

The measure is the test's total, in points: the dice kept plus the modifier, doubled before
the modifier on a critical success, 0 on a critical failure (:attr:`TestResult.total
<rulesets.three_d6.TestResult.total>`). Its distribution is the engine's own
(:func:`rulesets.three_d6.total_distribution`, a dynamic programme over the dice, exact), under
the table readings the test was made under; nothing is cut: a test's dice are finite.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulesets.three_d6.odds import total_distribution
from rulesets.three_d6.pools import TestPool
from rulesets.three_d6.readings import ThreeD6Readings

MEASURE = "points"
"""What a 3d6 test's luck counts: its total, in points (the scale of the dice sum)."""


def total_chances(pool: TestPool) -> tuple[int, tuple[Fraction, ...]]:
    """The exact distribution of a test's total, by the rules of
    :func:`rulesets.three_d6.resolve_test` under the table readings ``pool`` was built under.

    Args:
        pool: the test (its TD plays no part: the total is what the dice and the modifier
            make, whatever it is compared with).

    Returns:
        ``(low, chances)``: ``chances[i]`` is the exact chance of a total of ``low + i``
        (totals the test cannot make between two it can have chance 0); they sum to 1. A test
        of no dice gives ``(0, (1,))``. The same test gives the very same tuple (cached: a
        table rolls the same tests again and again).
    """
    return _chances(pool.modifier, pool.favor, pool.disfavor, pool.readings)


@lru_cache(maxsize=512)
def _chances(modifier: int, favor: int, disfavor: int, readings: ThreeD6Readings
             ) -> tuple[int, tuple[Fraction, ...]]:
    totals = total_distribution(modifier=modifier, favor=favor, disfavor=disfavor,
                                readings=readings)
    low, high = min(totals), max(totals)
    return low, tuple(totals.get(total, Fraction(0)) for total in range(low, high + 1))
