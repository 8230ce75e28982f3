"""3d6's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings; docs/systems/three_d6.md, Table readings). Each first choice is the engine's reading
before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Choice, Reading, Readings

FAVOR_DISFAVOR = Reading(
    key="favor_disfavor",
    title="Favor and disfavor on one roll",
    seed=('"For each point of favor you have on a roll, you roll an additional 1d6. For each '
          'point of disfavor you have on a roll, you remove a d6" (3d6 Rolls and Tests, Favor '
          "and Disfavor); the seed does not say whether they cancel out or which d6 goes"),
    choices=(
        Choice("netted", "Netted: a test rolls 3 + favor - disfavor d6s and sums them all "
                         "(docs/rules.md)"),
        Choice("counted_apart", "Counted apart: a test rolls 3 + favor d6s, then each point of "
                                "disfavor removes the highest die rolled; the dice left are "
                                "summed and make the criticals"),
    ),
)

DISFAVOR_CRITICAL = Reading(
    key="disfavor_critical",
    title="Critical success with disfavor",
    seed=('"Critical successes are more likely with favor and impossible with disfavor, due to '
          'the number of dice" (3d6 Rolls and Tests, Critical Successes and Failures)'),
    choices=(
        Choice("by_dice", "Three 6s among the dice counted are a critical success: disfavor "
                          "rules it out only by leaving fewer than three dice (docs/rules.md)"),
        Choice("forbidden", "Any point of disfavor on the roll rules out a critical success, "
                            "even when favor leaves three dice or more"),
    ),
)


@dataclass(frozen=True)
class ThreeD6Readings(Readings):
    """A campaign's readings of 3d6's rules, each the value of one of its
    :class:`~rulesets.readings.Choice` (the defaults are the engine's reading of the seed):

    Attributes:
        favor_disfavor: "netted" or "counted_apart" (:data:`FAVOR_DISFAVOR`).
        disfavor_critical: "by_dice" or "forbidden" (:data:`DISFAVOR_CRITICAL`).
    """

    READINGS: ClassVar[tuple[Reading, ...]] = (FAVOR_DISFAVOR, DISFAVOR_CRITICAL)

    favor_disfavor: str = "netted"
    disfavor_critical: str = "by_dice"


SEED_READINGS = ThreeD6Readings()
"""The defaults: the engine's reading of the seed."""
