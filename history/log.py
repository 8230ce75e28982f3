"""The activity log's one writer (:func:`record`) and the difference of two sets of facts
(:func:`changes`), below the systems: the generic services and a system's own actions that
store rolls write through here, inside the transaction of the change they record.

What a character's facts are (its sheet in the system's words, its XP, its inventory) is
asked of the system by :mod:`history.facts`, above; this module only compares and stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.utils import timezone

from history.models import Activity

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character
    from rolls.models import Roll

__all__ = ["changes", "record"]

TEXT_LENGTH = 500
"""The longest ``Activity.text``; a longer sentence is cut with an ellipsis."""


def changes(before: Mapping[str, str], after: Mapping[str, str]) -> list[list[str]]:
    """The facts that differ between ``before`` and ``after`` (label -> value, in the
    sheet's order): ``[[label, before, after], ...]``, in ``after``'s order and then the facts
    that went (their ``after`` ``""``); a fact that came has ``before`` ``""``. ``[]`` when
    nothing differs."""
    found = [[label, before.get(label, ""), value] for label, value in after.items()
             if before.get(label, "") != value]
    found += [[label, value, ""] for label, value in before.items()
              if label not in after and value != ""]
    return found


def record(
    *, campaign_id: int, kind: str, text: str, by: User | None, action: str = "",
    character: Character | None = None, changed: Sequence[Sequence[str]] = (),
    gm_only: bool = False, roll: Roll | None = None, link: str = "",
) -> Activity:
    """Append one entry to the activity log, now, and return it. Call inside the transaction
    that made the change, so the entry and the change are written together or not at all.

    Args:
        campaign_id: the campaign the change belongs to.
        kind: one of :class:`history.models.Activity.Kind`.
        action: which change of its kind, a slug (``Activity.action``).
        text: what happened, in the system's words ("Marked 2 lethal."); cut at 500
            characters.
        by: who made it; ``None`` for the server itself.
        character: the character changed, if any (a character's history lists it).
        changed: ``[[label, before, after], ...]`` as :func:`changes` gives them.
        gm_only: the GM's alone (a hidden NPC's change, a GM-only roll).
        roll: the roll this entry records, if any.
        link: the path of the page the entry names (a session's, an encounter's), if any.
    """
    if len(text) > TEXT_LENGTH:
        text = text[:TEXT_LENGTH - 1] + "…"
    return Activity.objects.create(
        campaign_id=campaign_id, character=character, actor=by, kind=kind,
        action=action[:40], text=text,
        changes=[[str(part) for part in row] for row in changed], gm_only=gm_only,
        roll=roll, link=link[:300], created_at=timezone.now(),
    )
