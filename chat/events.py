"""Which entries of the activity log reach the group's chat (the receiver that queues them
is ``chat.relay``; the task that posts them asks again here before it sends).

Relayed: a roll, an XP award, a session's recap and an encounter's turn, each when the
campaign's hook has it switched on; never an entry that is the GM's alone (``gm_only``, a
GM-only roll, a hidden NPC's change) and never an imported one (docs/history.md, "The group's
chat").
"""

from __future__ import annotations

from chat.models import ChatHook
from history.models import Activity

__all__ = ["EVENTS", "relayed", "switch"]

EVENTS: dict[tuple[str, str | None], str] = {
    (Activity.Kind.ROLL, None): "post_rolls",
    (Activity.Kind.XP, "award"): "post_xp",
    (Activity.Kind.SESSION, "recap"): "post_recaps",
    (Activity.Kind.ENCOUNTER, "turn"): "post_turns",
}
"""(kind, action) -> the hook's switch that posts it; ``None`` for any action of the kind."""


def switch(activity: Activity) -> str | None:
    """The name of the :class:`ChatHook` switch that posts ``activity``, or None when no
    entry of its kind and action is ever posted, or when it may not be: the GM's alone or
    imported."""
    if activity.gm_only or activity.imported:
        return None
    return EVENTS.get((activity.kind, None)) or EVENTS.get((activity.kind, activity.action))


def relayed(activity: Activity, hook: ChatHook) -> bool:
    """Whether ``hook`` posts ``activity`` now: its switch is on, and nothing the entry names
    is the GM's alone (a GM-only roll; a hidden NPC, or for anything but a roll an NPC whose
    tracks the players do not see: ``Character.changes_gm_only``), whatever the entry's own
    ``gm_only`` says. Reads the entry's roll and character (load them with it)."""
    name = switch(activity)
    if name is None or activity.campaign_id != hook.campaign_id or not getattr(hook, name):
        return False
    character = activity.character
    if activity.roll is not None:
        hidden_npc = (character is not None and character.is_npc
                      and character.npc_shown == character.Shown.HIDDEN)
        return not activity.roll.gm_only and not hidden_npc
    return character is None or not character.changes_gm_only
