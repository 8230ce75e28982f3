"""The contract's initiative part: how a system orders a fight (docs/encounters.md).

An encounter (the ``encounters`` app) keeps, for each combatant, what the GM set of its
initiative as ``{"choice": <one of initiative_choices>, "roll": <int or None>}`` and asks
the campaign's system how that orders the fight. A system whose source gives an initiative
rule overrides this part (Shattered World's priority initiative); the others keep the
default, which the source leaves to the table: each combatant's initiative is a number,
highest first, typed by the GM (what was rolled at the table) or rolled by the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rulesets.dice import roll_die
from systems.part import SystemPart

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character
    from rulesets.dice import Rng

ROLL = "roll"
"""The choice of a combatant whose initiative is a number (typed, or rolled by the server)."""

ROLL_MAX = 999
"""The largest initiative number the GM may type (the smallest is 0)."""

ENCOUNTER_TURN = "encounter_turn"
"""The key the generic services add to the form's data they hand a system (the roll
dialog's to :meth:`systems.base.RollingPart.roll` and :meth:`~systems.base.RollingPart.odds`,
a track action's to its ``apply``: ``rolls``, ``characters.services.sheet_change``): a function
of no arguments that answers the turn of the running encounter the character fights in, as
``"<encounter id>:<round>"``, or None when the character is in no begun encounter (one query,
so only a rule that needs it asks: Maelstrom's Willpower against wound penalties under a
table reading, and its zero-Willpower incapacitation, resolved only out of combat). The form
never holds the key, so no player sets it."""

DEFAULT_RULE = ("This system's rules give no initiative order: each combatant's initiative is "
                "a number, highest first. Type what was rolled at the table, or leave a box "
                "blank and the server rolls a d20. Ties keep the order listed.")
"""The default's rule in words (:attr:`InitiativePart.initiative_rule`)."""


@dataclass(kw_only=True)
class InitiativePart(SystemPart):
    """How the system sets the order of a fight. The default, for a system whose source
    gives no initiative rule: every combatant rolls (:data:`ROLL`); the GM types the number
    rolled at the table, or leaves it blank and the server rolls :attr:`initiative_die`;
    the highest acts first, and ties keep the order the combatants were listed in, for the
    GM to settle by typing."""

    initiative_rule: ClassVar[str] = DEFAULT_RULE
    """The rule in words, shown beside the GM's "Set the order" form."""

    initiative_choices: ClassVar[tuple[tuple[str, str], ...]] = ((ROLL, "Roll"),)
    """``(value, label)`` of what each combatant may choose, stored as its ``choice``; the
    first is the default. One choice (the default's) means the form asks only the number."""

    initiative_die: ClassVar[int] = 20
    """The sides of the die the server rolls for a combatant whose number is left blank, by
    default (:meth:`initiative_roll`): a d20, the die with the fewest ties of those the
    systems use, with no modifier (none is in the systems' sources)."""

    def initiative_rolls(self, choice: str) -> bool:
        """Whether a combatant who chose ``choice`` has a number (typed or rolled); the
        others are ordered by their choice alone. By default only :data:`ROLL`."""
        return choice == ROLL

    def initiative_roll(self, campaign: Campaign, character: Character | None,
                        rng: Rng) -> int:
        """The number the server rolls for one combatant whose box was left blank.

        Args:
            campaign: the encounter's campaign.
            character: the combatant's character (a player character or an NPC), or None
                when its row is gone (the encounter kept its name).
            rng: the server's dice (``core.dice.get_rng``); one die is rolled.

        Returns:
            One :attr:`initiative_die` (1 to its sides), by default.
        """
        return roll_die(rng, self.initiative_die)

    def initiative_key(self, *, is_npc: bool, choice: str, roll: int | None
                       ) -> tuple[int, ...]:
        """The combatant's place in the order: the encounter sorts by it, smallest first,
        and keeps the order given for equal keys (a stable sort).

        Args:
            is_npc: whether the combatant is one of the GM's NPCs (else a player character).
            choice: one of :attr:`initiative_choices`' values.
            roll: its number when :meth:`initiative_rolls` says it has one, else None.

        Returns:
            By default ``(-roll,)``: the highest number first (a combatant without one last).
        """
        return (-roll,) if roll is not None else (1,)

    def initiative_label(self, *, choice: str, roll: int | None) -> str:
        """The initiative in words, as the order shows it ("17"; "" when none is set yet)."""
        return "" if roll is None else str(roll)
