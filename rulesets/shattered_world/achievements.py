"""Achievements and XP: milestones and feats, the universal ones, and a character's Current
XP and Total Achievements (Shattered World Core Engine, Achievements and Buy-Ins / Universal
Achievements).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _BUY_INS

ACHIEVEMENT_KINDS: tuple[str, ...] = ("milestone", "feat")
"""Milestones are earned once per lifetime; feats repeatedly."""

ACHIEVEMENT_CATEGORIES: tuple[str, ...] = ("universal", "special", "field role", "subrole")
"""Where achievements come from: universal, the species' own ("Special"), the field role and
the subrole (Shattered World Core Engine, Achievements and Buy-Ins)."""

XP_PER_ACHIEVEMENT = 1
""""One Achievement equals one Experience Point" (Shattered World Core Engine, Achievements
and Buy-Ins)."""


@dataclass(frozen=True)
class Achievement:
    """A catalogue entry of an achievement.

    Attributes:
        name: as the seed spells it, e.g. "Talk to strangers at the inn".
        kind: "milestone" (once per lifetime) or "feat" (repeatable).
        category: "universal", "special", "field role" or "subrole".
    """

    name: str
    kind: str
    category: str = "universal"

    @property
    def repeatable(self) -> bool:
        """Whether it can be earned again (feats can, milestones cannot)."""
        return self.kind == "feat"


UNIVERSAL_MILESTONES: tuple[Achievement, ...] = tuple(
    Achievement(name, "milestone")
    for name in (
        "Defeat first legendary enemy",
        "Abandon a quest",
        "Buy startup equipment",
        "Stalemate an [established] enemy of the party in combat",
        "Suffer defeat at the hands of an [established] enemy of the party",
        "Talk to strangers at the inn",
        "Advance an age category",
        "Be Resurrected",
        "Operate a Portal",
        "Collect your first 1,000so worth of treasure",
        "Collect your first 10,000so worth of treasure",
        "Collect your first 100,000so worth of treasure",
        "Hear rumors at the pub",
        "Surrender",
        "Get captured",
        "Defeat Your First Dragon",
        "Complete a quest successfully",
        "Encounter Bloodstone",
    )
)
"""The seed's universal Milestones (×1), in order (Shattered World Core Engine, Universal
Achievements)."""

UNIVERSAL_FEATS: tuple[Achievement, ...] = tuple(
    Achievement(name, "feat")
    for name in (
        "Craft anything",
        "Perform a skill successfully",
        "Defeat any enemy",
        "Critically succeed at performing an action",
        "Save one or more party members",
        "Capture enemy standard",
        "Capture important enemy",
        "Complete a quest successfully",
        "Persuade/Influence an NPC",
        "Collect actionable information from any source",
        "Heed call to action",
        "Effective combat tactic",
        "Complete a secondary quest",
        "Accept a quest",
        "Defeat primary enemy/villain of campaign or adventure",
        "Defeat Your First Undead",
        "Hear actionable intel at the pub",
        "GM Fiat",
    )
)
"""The seed's universal Feats (∞), in order (Shattered World Core Engine, Universal
Achievements). "Complete a quest successfully" is in both columns of the seed's table, so it
is here too; "Defeat Your First Undead" stands in the Feats column as the seed has it."""


@dataclass(frozen=True)
class Experience:
    """A character's XP: Current XP (to spend) and Total Achievements (never spent).

    Attributes:
        current_xp: XP available to spend, >= 0.
        total_achievements: every achievement ever earned, >= 0 (needed by the GM to balance
            encounters and by prerequisites such as "Min. 25 Achievements").
        milestones: names of the milestones already earned (once per lifetime each).

    Raises:
        RuleError: on construction, a negative Current XP or Total Achievements.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """

    current_xp: int = 0
    total_achievements: int = 0
    milestones: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.current_xp < 0 or self.total_achievements < 0:
            raise RuleError(
                f"Current XP {self.current_xp} and Total Achievements "
                f"{self.total_achievements} cannot be negative",
                _BUY_INS,
            )

    def earn(self, achievement: Achievement) -> Experience:
        """Record an achievement: +1 Current XP and +1 Total Achievements.

        Args:
            achievement: a milestone or a feat.

        Returns:
            A new :class:`Experience`.

        Raises:
            RuleError: the achievement is a milestone already earned ("can be collected once
                only in your character's lifetime").

        Source: Shattered World Core Engine, Achievements and Buy-Ins.
        """
        if achievement.kind == "milestone":
            if achievement.name in self.milestones:
                raise RuleError(
                    f"the milestone {achievement.name!r} was already earned: milestones are "
                    "collected once per lifetime",
                    _BUY_INS,
                )
            milestones = self.milestones | {achievement.name}
        else:
            milestones = self.milestones
        return replace(
            self,
            current_xp=self.current_xp + XP_PER_ACHIEVEMENT,
            total_achievements=self.total_achievements + 1,
            milestones=milestones,
        )

    def spend(self, xp: int) -> Experience:
        """Spend Current XP on a buy-in; Total Achievements do not change.

        Args:
            xp: the cost, >= 0 (e.g. from :func:`buy_in_cost`).

        Returns:
            A new :class:`Experience` with ``current_xp - xp``.

        Raises:
            RuleError: a negative cost, or more XP than the character has.

        Source: Shattered World Core Engine, Achievements and Buy-Ins.
        """
        if xp < 0:
            raise RuleError(f"cannot spend {xp} XP", _BUY_INS)
        if xp > self.current_xp:
            raise RuleError(
                f"this buy-in costs {xp} XP but only {self.current_xp} XP is available", _BUY_INS
            )
        return replace(self, current_xp=self.current_xp - xp)
