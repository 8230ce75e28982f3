"""Shahquest's table readings: the rules a campaign may read another way (docs/rules.md, Table
readings; docs/systems/shahquest.md, Table readings). Each first choice is the engine's reading
before readings existed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rulesets.readings import Choice, Reading, Readings
from rulesets.shahquest.catalogue import NO_EFFECT_DIE

EFFECT_DIE_DEFAULT = Reading(
    key="effect_die_default",
    title="Effect die when no die is left",
    seed=('"From the remaining dice, select two dice and add their results together. ... '
          'Select one die from the remaining dice and record the number of sides that die '
          'has. This is your Effect total" (Shahquest wiki, Dice Pools); the seed does not '
          "say what the effect is when no die remains after the effort total"),
    choices=(
        Choice("d4", "A d4 effect die when no die is left after the effort total "
                     "(docs/rules.md, the Cortex convention)"),
        Choice("no_effect", "No effect die when no die is left after the effort total: the "
                            "roll makes no asset, complication or stress (the seed read as "
                            "written)"),
    ),
)


@dataclass(frozen=True)
class ShahquestReadings(Readings):
    """A campaign's readings of Shahquest's rules, each the value of one of its
    :class:`~rulesets.readings.Choice` (the defaults are the engine's reading of the seed):

    Attributes:
        effect_die_default: "d4" or "no_effect" (:data:`EFFECT_DIE_DEFAULT`).
    """

    READINGS: ClassVar[tuple[Reading, ...]] = (EFFECT_DIE_DEFAULT,)

    effect_die_default: str = "d4"

    @property
    def no_effect_die(self) -> int | None:
        """The effect die's size, in sides, when no die is left for it: 4 (a d4, the default)
        or None (no effect die) (:data:`EFFECT_DIE_DEFAULT`)."""
        return NO_EFFECT_DIE if self.effect_die_default == "d4" else None


SEED_READINGS = ShahquestReadings()
"""The defaults: the engine's reading of the seed."""
