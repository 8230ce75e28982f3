"""What the luck figures ask of a system (:class:`LuckPart`): one stored roll's measure
against the exact odds it was made at (docs/history.md, "How the dice ran")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from systems.part import SystemPart

if TYPE_CHECKING:
    from rolls.models import Roll
    from rulesets.luck import RollLuck


@dataclass(kw_only=True)
class LuckPart(SystemPart):
    """A roll's luck: the distribution of the system's measure for the pool as it was rolled
    (its dice, difficulty, threshold, modifiers and the table readings it was made under) and
    the value it gave."""

    luck_measure: ClassVar[str] = ""
    """The system's measure, as :attr:`rulesets.luck.RollLuck.measure` names it; ``""`` for a
    system whose rolls have none."""

    def roll_luck(self, roll: Roll) -> RollLuck | None:
        """The luck of one stored roll (``roll.pool``, ``roll.result``, ``roll.readings``
        read; no query), or ``None`` for a roll with no measure (a follow-up that rolls no
        die, a kind the system does not count). Never raises for a roll the system stored.
        The default counts nothing."""
        return None
