"""What the database keeps for Genesys beyond the shared roll log: its own kind of roll
(rulesets/registry.py hands it to the shared models).
"""

from __future__ import annotations


class RollKind:
    """The kinds of roll only Genesys makes (``Roll.kind`` values)."""

    CHECK = "check"
    """A check: a dice pool of characteristic and skill against a difficulty (Genesys dice
    pool, Basic Dice Pool)."""


ROLL_KINDS: tuple[tuple[str, str], ...] = ((RollKind.CHECK, "Check"),)
"""``(value, label)`` of each kind of roll only Genesys makes."""
