"""How lucky a Shattered World roll was: the exact distribution of its degree of success
against the value it gave (:class:`rulesets.luck.RollLuck`; docs/history.md, "How the dice
ran").

The measure is the degree of success, 0 on a failure: what a roll is measured in, the base
damage of a success ("the degree of success", Shattered World Core Engine, The Core
Mechanic), 1 for a standard success (Standard Success). A player's roll and the GM's NPC
quick roll are measured alike, so a table's rolls add up. Its distribution is the engine's
own exact odds of the pool (:func:`rulesets.shattered_world.pool_odds`), one die's faces:
bounded, no cut needed.

The table readings a roll was made under (how the ×/÷ modifiers combine, which totals of 0
become 1) are stored in its pool (:class:`~rulesets.shattered_world.ActionPool`), and both
the distribution and the degree the roll gave are worked out under them.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rulesets.luck import RollLuck
from rulesets.shattered_world.odds import pool_odds
from rulesets.shattered_world.pools import ActionPool
from rulesets.shattered_world.rolling import RollResult

LUCK_MEASURE = "degrees of success"
"""What a Shattered World roll's luck counts (:attr:`rulesets.luck.RollLuck.measure`)."""


def pool_luck(pool: ActionPool, actual: int) -> RollLuck:
    """The luck of a roll of ``pool`` that gave a degree of success of ``actual``.

    Args:
        pool: the pool as rolled: its die, target number, modifiers, multipliers and the
            readings it was built under.
        actual: the degree the roll gave, 0 for a failure.

    Returns:
        A :class:`~rulesets.luck.RollLuck` measured in :data:`LUCK_MEASURE`: ``low`` 0 (a
        failure; a 1 always fails), ``chances[d]`` the exact chance of degree ``d`` (a degree
        no face gives at 0), summing to 1.

    Source: Shattered World Core Engine, The Core Mechanic; Standard Success.
    """
    odds = pool_odds(pool)
    high = max((degree for degree, _ in odds.degrees), default=0)
    chances = [Fraction(0)] * (high + 1)
    chances[0] = odds.failure
    for degree, chance in odds.degrees:
        chances[degree] += chance
    return RollLuck(measure=LUCK_MEASURE, low=0, chances=tuple(chances), actual=actual)


def result_luck(data: Mapping[str, object]) -> RollLuck:
    """The luck of a roll stored with :meth:`RollResult.as_dict` (an action or an NPC's
    quick roll): its pool's distribution, and the degree its face gives, resolved again
    (:meth:`RollResult.from_dict`) as the roll log shows it.

    Raises:
        RuleError: a stored result :meth:`RollResult.from_dict` refuses.
    """
    result = RollResult.from_dict(data)
    return pool_luck(result.pool, result.degree)
