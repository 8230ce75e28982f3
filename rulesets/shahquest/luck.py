"""How lucky a Shahquest roll was: its best effort total against the exact distribution of
that total for the dice it rolled (docs/history.md, "How the dice ran"; docs/systems/
shahquest.md, Luck).

The measure is the effort total (Shahquest wiki, Dice Pools: "set aside any 1s ... select two
dice and add their results together"), the one number every roll of the system has, whoever
rolls (a sheet's pool, an NPC's dice, the tension pool as general danger), so a table's rolls
add up. It is the best effort total the dice offer, the one every roll preselects
(:func:`rulesets.shahquest.best_selection`): the luck of the dice, not of the player's choice
after them (a plot point may add a third effort die, a player may keep a high die as the
effect die; that choice is a follow-up roll of its own, and rolls no die).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulesets.luck import RollLuck
from rulesets.shahquest.odds import effort_distribution
from rulesets.shahquest.readings import SEED_READINGS, ShahquestReadings
from rulesets.shahquest.rolling import RollResult, best_selection

LUCK_MEASURE = "effort"
"""What a Shahquest roll's luck counts: its best effort total (:attr:`RollLuck.measure`)."""


@lru_cache(maxsize=512)
def _distribution(sizes: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    # A table rolls the same few pools again and again: each is worked out once per process.
    return effort_distribution(sizes)


def effort_luck(result: RollResult, *, readings: ShahquestReadings = SEED_READINGS
                ) -> RollLuck:
    """One roll's best effort total against its exact odds.

    The distribution is the engine's own (:func:`rulesets.shahquest.odds.
    effort_distribution`, the odds the roll dialog shows) for the dice the pool rolled, every
    modifier already in them: a specialization's step up or spread, a push die, a quirk in
    the negative (a d4), a step up from a GM's opportunity, stress, tension and setting dice.
    A Shahquest pool has no difficulty or flat modifier. No table reading changes the effort
    total: the one there is (``effect_die_default``) only says what the effect die is when
    no die is left for it, so ``readings`` changes nothing here; the caller passes the roll's
    own, as for every system. Exact: the pool's dice are finite (no die explodes), so nothing
    is cut.

    Args:
        result: the stored roll (:meth:`RollResult.from_dict`), whose faces and pool are read.
        readings: the table readings the roll was made under.

    Returns:
        A :class:`RollLuck` measuring "effort": ``low`` the smallest possible total (0, every
        die showing 1), ``chances`` for each total from there to the pool's largest (0 for a
        total the dice cannot make, such as 1), ``actual`` the best effort total its faces
        give (what the roll shows for every roll but a choice of dice).
    """
    distribution = _distribution(result.pool.sizes)
    low, high = distribution[0][0], distribution[-1][0]
    chance = dict(distribution)
    best = best_selection(result.pool.sizes, result.faces)
    actual = sum(result.faces[i] for i in best.effort)
    return RollLuck(measure=LUCK_MEASURE, low=low,
                    chances=tuple(chance.get(value, Fraction(0))
                                  for value in range(low, high + 1)),
                    actual=actual)
