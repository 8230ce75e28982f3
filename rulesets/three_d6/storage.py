"""What the database keeps for 3d6 beyond the shared roll log: its own kinds of roll
(rulesets/registry.py hands them to the shared models).
"""

from __future__ import annotations


class RollKind:
    """The kinds of roll only 3d6 makes (``Roll.kind`` values)."""

    TEST = "test"
    """A test against a TD (3d6 Rolls and Tests)."""
    CONTEST = "contest"
    """Two sides' tests against each other (3d6 Contests)."""


ROLL_KINDS: tuple[tuple[str, str], ...] = ((RollKind.TEST, "Test"), (RollKind.CONTEST, "Contest"))
"""``(value, label)`` of each kind of roll only 3d6 makes."""
