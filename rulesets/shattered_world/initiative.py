"""The order of action (Shattered World Core Engine, Initiative Order)."""

from __future__ import annotations

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _INITIATIVE

INITIATIVE_CHOICES: tuple[str, ...] = ("fast", "roll", "slow")
"""What a combatant chooses in Phase 2: fast initiative, rolling, or slow initiative."""


def initiative_key(*, pc: bool, choice: str, roll: int | None = None) -> tuple[int, int]:
    """Sort key for the order of action (smaller acts first): use with ``sorted(key=...)``.

    Priority (Shattered World Core Engine, Initiative Order): 1 PCs choosing fast initiative,
    2 NPCs choosing fast, 3 initiative rollers in order of rolls, 4 PCs choosing slow, 5 NPCs
    choosing slow. **Decision**: "in order of rolls" is the highest roll first; ties keep the
    order given (Python's sort is stable), for the GM to settle.

    Args:
        pc: a player character (False for an NPC).
        choice: "fast", "roll" or "slow".
        roll: the initiative roll, required when ``choice`` is "roll", else ignored.

    Returns:
        ``(priority 1-5, -roll or 0)``.

    Raises:
        RuleError: an unknown choice, or "roll" without a roll.
    """
    if choice == "fast":
        return (1 if pc else 2, 0)
    if choice == "slow":
        return (4 if pc else 5, 0)
    if choice == "roll":
        if roll is None:
            raise RuleError("an initiative roller needs the number rolled", _INITIATIVE)
        return (3, -roll)
    raise RuleError(
        f"initiative choice {choice!r} is not one of {', '.join(INITIATIVE_CHOICES)}", _INITIATIVE
    )
