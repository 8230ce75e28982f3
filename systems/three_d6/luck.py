"""A stored 3d6 roll's luck: its total against the exact distribution of totals
(:mod:`rulesets.three_d6.luck`; docs/systems/three_d6.md, "Luck").

Which rolls count:

- a test and the GM's NPC quick roll, imported or rolled here: the test's total, against
  the totals its dice, modifier, favor and disfavor can make under the table readings the
  stored pool carries (favor and disfavor netted or counted apart, a critical success with
  disfavor);
- a contest: the rolling character's own test (the first side); the opponent's dice are the
  opponent's luck, not the character's;
- not counted (``None``): a test of no dice, which fails without a roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets import three_d6
from rulesets.errors import RuleError
from rulesets.luck import RollLuck
from rulesets.three_d6.luck import MEASURE, total_chances
from rulesets.three_d6.storage import RollKind

if TYPE_CHECKING:
    from rolls.models import Roll


def roll_luck(roll: Roll) -> RollLuck | None:
    """The luck of one stored 3d6 roll, read from ``roll.result`` (the engine's
    :meth:`rulesets.three_d6.TestResult.as_dict`, or a contest's
    :meth:`rulesets.three_d6.ContestResult.as_dict`) and ``roll.kind``; no query.

    Returns:
        A :class:`~rulesets.luck.RollLuck` of measure "points": the test's total (the
        character's own side of a contest) against the distribution of its totals; ``None``
        for a test of no dice or a stored result the engine cannot read (never raised).
    """
    try:
        if roll.kind == RollKind.CONTEST:
            result = three_d6.ContestResult.from_dict(roll.result).first.result
        else:
            result = three_d6.TestResult.from_dict(roll.result)
    except RuleError:
        return None
    if result.automatic_failure:
        return None
    low, chances = total_chances(result.pool)
    return RollLuck(measure=MEASURE, low=low, chances=chances, actual=result.total)
