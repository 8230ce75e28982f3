"""A stored Shahquest roll's luck (``SheetSystem.roll_luck``; docs/systems/shahquest.md,
Luck): the roll log's row read into the engine's :func:`rulesets.shahquest.effort_luck`.

Counted: every roll that rolled dice and preselected the best effort total from them, the
sheet's roll (``action``), the GM's NPC quick roll (``npc``) and the tension pool rolled as
general danger (``general_danger``), imported or rolled here alike. Not counted (``None``):
the player's choice of dice (``choice``), a follow-up that rolls no die and repeats its
parent's faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rolls.models import Roll
from rulesets import shahquest as sq
from rulesets.errors import RuleError
from rulesets.shahquest.storage import RollKind

if TYPE_CHECKING:
    from rulesets.luck import RollLuck

COUNTED_KINDS: frozenset[str] = frozenset({Roll.Kind.ACTION, Roll.Kind.NPC,
                                           RollKind.GENERAL_DANGER})
"""The kinds of roll whose effort total the luck figures count."""


def roll_luck(roll: Roll) -> RollLuck | None:
    """The best effort total of ``roll`` against the exact odds of the dice it rolled
    (:func:`rulesets.shahquest.effort_luck`), under the table readings it was made under
    (``roll.readings``); reads ``roll.kind``, ``roll.result`` and ``roll.readings``, no
    query. ``None`` for a kind not in :data:`COUNTED_KINDS`, or for a stored result the
    engine cannot read (the checks of stored data refuse one; it is left out, not guessed)."""
    if roll.kind not in COUNTED_KINDS or not isinstance(roll.result, dict):
        return None
    try:
        readings = sq.ShahquestReadings.from_values(roll.readings or {}, strict=False)
        return sq.effort_luck(sq.RollResult.from_dict(roll.result), readings=readings)
    except RuleError:
        return None
