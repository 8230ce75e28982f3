"""A character's facts: its sheet in its system's words (``HistoryPart.sheet_facts``) with
what every system shares (name, standing in the party, XP, inventory), which the activity log
compares before and after each change (docs/history.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import systems
from equipment.models import Item

if TYPE_CHECKING:
    from characters.models import Character

XP_AVAILABLE = "XP available"
XP_EARNED = "XP earned"
INVENTORY = "Inventory"


def character_facts(character: Character, *, sheet: dict[str, Any] | None = None,
                    items: bool = True) -> dict[str, str]:
    """``character``'s facts, label -> value, in the order the sheet shows them: its name,
    concept and standing, the system's facts of ``sheet`` (else of ``character.sheet``), its
    XP (available and earned) and, when ``items``, one fact per item of its inventory
    ("Inventory · Rope" -> "2", with the item's note; a second line of the same name is
    "Inventory · Rope (2)"). One query for the items."""
    facts = {"Name": character.name, "Concept": character.concept,
             "Standing": character.get_status_display()}
    facts.update(systems.for_ruleset(character.campaign.ruleset).sheet_facts(
        character, sheet))
    facts[XP_AVAILABLE] = str(character.xp_available)
    facts[XP_EARNED] = str(character.xp_total)
    if items:
        for item in Item.objects.filter(character=character).order_by("name", "pk"):
            value = f"{item.quantity}" + (f" ({item.note})" if item.note else "")
            label = f"{INVENTORY} · {item.name}"
            number = 2
            while label in facts:  # two lines of the same name stay two facts
                label = f"{INVENTORY} · {item.name} ({number})"
                number += 1
            facts[label] = value
    return facts
