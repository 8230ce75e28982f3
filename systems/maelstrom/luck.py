"""A stored Maelstrom roll's luck: its net successes against their exact distribution
(:mod:`rulesets.maelstrom.luck`; docs/systems/maelstrom.md, "Luck").

Which rolls count:

- an action, a Willpower roll, a soak roll and the GM's NPC quick roll, imported or rolled
  here: the pool as it was rolled (its dice after the wound penalty, difficulty, threshold,
  exploding tens, automatic successes, and the table readings it was made under, which the
  stored pool carries: whether its tens explode, whether its 1s botch, where Strong Bond's
  success counts);
- the experience die, a follow-up of its own: the net successes it added, against the
  chances of one more bonus die on that very roll (so a roll and its experience die add up
  to the roll's final net successes);
- not counted (``None``): a roll that rolled no die (a soak pool of 0 dice) and the
  Willpower dot spent to succeed (a follow-up that rolls nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.luck import RollLuck
from rulesets.maelstrom.luck import MEASURE, experience_die_distribution, pool_distribution
from rulesets.maelstrom.storage import RollKind

if TYPE_CHECKING:
    from rolls.models import Roll


def roll_luck(roll: Roll) -> RollLuck | None:
    """The luck of one stored Maelstrom roll, read from ``roll.result`` (the engine's
    :meth:`rulesets.maelstrom.RollResult.as_dict`, its pool included) and ``roll.kind``; no
    query.

    Returns:
        A :class:`~rulesets.luck.RollLuck` of measure "successes": for a roll, its net
        successes (0 for a failure or a botch) against the distribution of its pool; for an
        experience die, the net successes it added against one bonus die's chances on that
        roll. ``None`` for a Willpower dot spent to succeed, a roll of no dice, or a stored
        result the engine cannot read (never raised).
    """
    if roll.kind == RollKind.WILLPOWER_SPEND:
        return None
    try:
        result = maelstrom.RollResult.from_dict(roll.result)
    except RuleError:
        return None
    pool = result.pool
    if not pool.dice:
        return None
    if roll.kind == RollKind.EXPERIENCE_DIE:
        if not result.experience_die:
            return None
        before = maelstrom.resolve(
            dice=result.dice, bonus_dice=result.bonus_dice, difficulty=pool.difficulty,
            threshold=pool.threshold, automatic_successes=pool.automatic_successes,
            botches=pool.botches, automatic_at=pool.automatic_at).net
        added = result.net - before
        low, chances = experience_die_distribution(pool, result.dice, result.bonus_dice,
                                                   reach=added)
        return RollLuck(measure=MEASURE, low=low, chances=chances, actual=added)
    # The result of the roll itself: an experience die, if any, is its follow-up's luck.
    actual = maelstrom.resolve(
        dice=result.dice, bonus_dice=result.bonus_dice, difficulty=pool.difficulty,
        threshold=pool.threshold, automatic_successes=pool.automatic_successes,
        botches=pool.botches, automatic_at=pool.automatic_at).net
    low, chances = pool_distribution(pool, reach=actual)
    return RollLuck(measure=MEASURE, low=low, chances=chances, actual=actual)
