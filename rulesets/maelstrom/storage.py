"""What the database keeps for Maelstrom beyond the shared roll log, ledger and sheet: its own
kinds of roll and of XP ledger entry, and the bounds every stored sheet keeps
(rulesets/registry.py hands them to the shared models).
"""

from __future__ import annotations

from rulesets.base import StoredBound
from rulesets.maelstrom.catalogue import _rule


class RollKind:
    """The kinds of roll only Maelstrom makes (``Roll.kind`` values)."""

    WILLPOWER = "willpower"
    """A Willpower roll: current Willpower alone (Maelstrom rules.md, Willpower)."""
    SOAK = "soak"
    """A soak roll against incoming damage (Maelstrom rules.md, Soaking Damage)."""
    EXPERIENCE_DIE = "experience_die"
    """The experience die added to a roll, paid from a bank (Maelstrom rules.md, Banking)."""
    WILLPOWER_SPEND = "willpower_spend"
    """A Willpower dot spent for one automatic success (Maelstrom rules.md, Willpower)."""


ROLL_KINDS: tuple[tuple[str, str], ...] = (
    (RollKind.WILLPOWER, "Willpower"), (RollKind.SOAK, "Soak"),
    (RollKind.EXPERIENCE_DIE, "Experience die"),
    (RollKind.WILLPOWER_SPEND, "Willpower spent to succeed"))
"""``(value, label)`` of each kind of roll only Maelstrom makes."""

class LedgerKind:
    """The kinds of XP ledger entry only Maelstrom writes (``XpEntry.kind`` values)."""

    BANK = "bank"
    """Available XP banked into one trait (Maelstrom rules.md, Banking)."""
    MERIT = "merit"
    """A merit's price, paid at creation (Maelstrom rules.md, Merits and Flaws)."""
    FLAW = "flaw"
    """A flaw's award, given at creation (Maelstrom rules.md, Merits and Flaws)."""
    MERIT_GRANTED = "merit_granted"
    """A merit's price, paid when the storyteller grants it after creation: "it'll award or
    cost available experience points" (Maelstrom rules.md, Merits and Flaws). A kind of its
    own, so that only creation writes MERIT and FLAW (``SheetSystem.creation_entry_kinds``)."""
    FLAW_GRANTED = "flaw_granted"
    """A flaw's award, given when the storyteller grants it after creation (same section)."""


LEDGER_KINDS: tuple[tuple[str, str], ...] = (
    (LedgerKind.BANK, "Bank"), (LedgerKind.MERIT, "Merit"), (LedgerKind.FLAW, "Flaw"),
    (LedgerKind.MERIT_GRANTED, "Merit granted"), (LedgerKind.FLAW_GRANTED, "Flaw granted"))
"""``(value, label)`` of each kind of XP ledger entry only Maelstrom writes."""

STORED_BOUNDS: tuple[StoredBound, ...] = (
    StoredBound(name="sheet_willpower_current_within_permanent", part="willpower",
                keys=("current",), minimum=0, maximum_key="permanent",
                rule=_rule("Willpower")),
    StoredBound(name="sheet_health_counts_not_negative", part="health",
                keys=("bashing", "lethal", "aggravated"), minimum=0,
                rule=_rule("Marking Damage")),
)
"""Current Willpower between 0 and permanent Willpower; each count of marked damage boxes
never negative."""
