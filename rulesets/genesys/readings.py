"""Genesys's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings; docs/systems/genesys.md, Table readings). Each first choice is the engine's reading
before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Choice, Reading, Readings

IMPOSSIBLE_DESTINY = Reading(
    key="impossible_destiny",
    title="The Destiny point of an Impossible task",
    seed=('"Attempting an Impossible task automatically requires the player to spend one '
          'Destiny point" (Genesys dice pool, Impossible Tasks); the seed does not say whether '
          "the point also upgrades a die"),
    choices=(
        Choice("upgrades", "The point is the player's light flip, which upgrades an ability "
                           "die as every light flip does (docs/systems/genesys.md)"),
        Choice("attempt_only", "The point only buys the attempt: it is flipped but upgrades no "
                               "die (the Genesys Core Rulebook's Impossible tasks)"),
    ),
)

BOOST_SETBACK = Reading(
    key="boost_setback",
    title="Boost and setback dice",
    seed='"Boost dice and Setback dice do not cancel each other out" (Genesys dice pool, '
         "Adding Dice)",
    choices=(
        Choice("apart", "Boost and setback dice are all rolled; they never cancel (the seed)"),
        Choice("cancel", "Each boost die cancels one setback die before the roll, after every "
                         "other change to the pool (house rule)"),
    ),
)


@dataclass(frozen=True)
class GenesysReadings(Readings):
    """A campaign's readings of Genesys's rules, each the value of one of its
    :class:`~rulesets.readings.Choice` (the defaults are the engine's reading of the seed):

    Attributes:
        impossible_destiny: "upgrades" or "attempt_only" (:data:`IMPOSSIBLE_DESTINY`).
        boost_setback: "apart" or "cancel" (:data:`BOOST_SETBACK`).
    """

    READINGS: ClassVar[tuple[Reading, ...]] = (IMPOSSIBLE_DESTINY, BOOST_SETBACK)

    impossible_destiny: str = "upgrades"
    boost_setback: str = "apart"


SEED_READINGS = GenesysReadings()
"""The defaults: the engine's reading of the seed."""
