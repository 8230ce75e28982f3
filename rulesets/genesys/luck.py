"""How lucky a Genesys roll was: the exact distribution of its net successes against the
value it gave (:class:`rulesets.luck.RollLuck`; docs/history.md, "How the dice ran").

The measure is net successes, successes and triumphs less failures and despairs (Genesys
dice pool, Successes and Failures; Triumph and Despair): the number a check is decided by,
and the same for a player's check and the GM's NPC quick roll, so a table's rolls add up.
Its distribution is the engine's own exact odds of the pool (:func:`rulesets.genesys.odds`),
which is bounded: no cut is needed.

The table readings a roll was made under need no reading here: both of Genesys's change how
the pool is built (the Impossible task's Destiny point, boost and setback cancelling), and
the stored pool is the pool as built and rolled (:mod:`rulesets.genesys.readings`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from rulesets.genesys.catalogue import DIE_TYPES
from rulesets.genesys.odds import odds
from rulesets.genesys.pools import DicePool, _pool
from rulesets.genesys.rolling import RollResult
from rulesets.luck import RollLuck

LUCK_MEASURE = "net successes"
"""What a Genesys roll's luck counts (:attr:`rulesets.luck.RollLuck.measure`)."""


# A table's luck reads hundreds of rolls of a handful of pools: each pool's distribution is
# worked out once. The key is the dice alone (the pool's notes and traits change no odds).
@lru_cache(maxsize=512)
def _net_successes(counts: tuple[int, ...]) -> tuple[int, tuple[Fraction, ...]]:
    """``(low, chances)`` of the net successes of a pool of ``counts`` dice (in
    :data:`DIE_TYPES` order), every value from the lowest to the highest listed, a value
    no face combination gives at 0."""
    distribution = odds(_pool(dict(zip(DIE_TYPES, counts, strict=True)))).net_successes
    low, high = distribution[0][0], distribution[-1][0]
    chances = [Fraction(0)] * (high - low + 1)
    for value, chance in distribution:
        chances[value - low] = chance
    return low, tuple(chances)


def pool_luck(pool: DicePool, actual: int) -> RollLuck:
    """The luck of a roll of ``pool`` that gave ``actual`` net successes.

    Args:
        pool: the pool as rolled (its dice after every upgrade, downgrade, removal and
            cancelling); an empty pool (every die cancelled) gives 0 net successes for sure.
        actual: the net successes the roll gave (negative for net failures).

    Returns:
        A :class:`~rulesets.luck.RollLuck` measured in :data:`LUCK_MEASURE`: ``low`` the
        fewest net successes the pool can give (its challenge and difficulty dice's worst),
        ``chances`` exact (Fractions summing to 1).

    Source: Genesys dice pool, Interpreting the Pool; Successes and Failures.
    """
    low, chances = _net_successes(tuple(pool.counts().values()))
    return RollLuck(measure=LUCK_MEASURE, low=low, chances=chances, actual=actual)


def result_luck(data: Mapping[str, object]) -> RollLuck:
    """The luck of a roll stored with :meth:`RollResult.as_dict` (a check or an NPC's quick
    roll): its pool's distribution, and the net successes its dice show, counted again from
    the faces (:meth:`RollResult.from_dict`), as the roll log shows them.

    Raises:
        RuleError: a stored result :meth:`RollResult.from_dict` refuses.
    """
    result = RollResult.from_dict(data)
    return pool_luck(result.pool, result.tally.net_successes)
