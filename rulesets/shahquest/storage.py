"""What the database keeps for Shahquest beyond the shared roll log: its own kinds of roll
(rulesets/registry.py hands them to the shared models).
"""

from __future__ import annotations


class RollKind:
    """The kinds of roll only Shahquest makes (``Roll.kind`` values)."""

    CHOICE = "choice"
    """The player's choice of effort and effect dice following up a roll (Shahquest wiki,
    Dice Pools)."""
    GENERAL_DANGER = "general_danger"
    """The GM's general danger roll from the tension pool (Shahquest wiki, Tension Pool)."""


ROLL_KINDS: tuple[tuple[str, str], ...] = (
    (RollKind.CHOICE, "Dice chosen"), (RollKind.GENERAL_DANGER, "General danger"))
"""``(value, label)`` of each kind of roll only Shahquest makes."""
