"""A character's facts: its sheet in its system's words (``HistoryPart.sheet_facts``) with
what every system shares (name, standing in the party, XP, inventory), which the activity log
compares before and after each change (docs/history.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import systems
from equipment.models import Item
from history.log import changes, record

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from characters.models import Character
    from history.models import Activity
    from rolls.models import Roll

XP_AVAILABLE = "XP available"
XP_EARNED = "XP earned"
INVENTORY = "Inventory"


def character_facts(character: Character, *, sheet: dict[str, Any] | None = None,
                    items: bool = True) -> dict[str, str]:
    """``character``'s facts, label -> value, in the order the sheet shows them: its name,
    concept and standing, the system's facts of ``sheet`` (else of ``character.sheet``), its
    XP (available and earned) and, when ``items``, one fact per item of its inventory
    ("Inventory · Rope" -> "2", with the item's note and what its system details say,
    ``HistoryPart.item_fact``; a second line of the same name is "Inventory · Rope (2)").
    One query for the items."""
    facts = {"Name": character.name, "Concept": character.concept,
             "Standing": character.get_status_display()}
    system = systems.for_ruleset(character.campaign.ruleset)
    facts.update(system.sheet_facts(character, sheet))
    facts[XP_AVAILABLE] = str(character.xp_available)
    facts[XP_EARNED] = str(character.xp_total)
    if items:
        for item in Item.objects.filter(character=character).order_by("name", "pk"):
            value = f"{item.quantity}" + (f" ({item.note})" if item.note else "")
            details = system.item_fact(item)
            value += f"; {details}" if details else ""
            label = f"{INVENTORY} · {item.name}"
            number = 2
            while label in facts:  # two lines of the same name stay two facts
                label = f"{INVENTORY} · {item.name} ({number})"
                number += 1
            facts[label] = value
    return facts


def record_change(
    character: Character, *, before: dict[str, str], kind: str, action: str, text: str,
    by: User | None, items: bool = False, roll: Roll | None = None, only_if_changed: bool = False,
    gm_only: bool = False,
) -> Activity | None:
    """Append the activity entry of a change of ``character``: its facts now against
    ``before`` (:func:`character_facts` taken before the change, with the same ``items``),
    with ``text`` (the change in the system's words) and ``action``. GM-only when the
    character's changes are (a hidden NPC's) or ``gm_only``. With ``only_if_changed``, nothing
    is written when no fact moved (a roll that spent nothing). Call inside the change's
    transaction. Returns the entry, or None when nothing was written."""
    changed = changes(before, character_facts(character, items=items))
    if only_if_changed and not changed:
        return None
    return record(campaign_id=character.campaign_id, kind=kind, action=action, text=text,
                  by=by, character=character, changed=changed, roll=roll,
                  gm_only=gm_only or character.changes_gm_only)
