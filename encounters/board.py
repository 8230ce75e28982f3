"""The encounter's card on the campaign's page (its ``turn-order`` region): for whoever runs
the table the whole card with its forms, for a player the order as they may see it
(encounters.context).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import systems
from characters.models import Character
from encounters.context import TURN_REGION, gm_view, players_view, running
from encounters.forms import AddForm, InitiativeForm, StartForm

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from campaigns.models import Campaign
    from encounters.models import Combatant, Encounter

CARD = "encounters/_turn_order.html"
"""The region's template: the campaign's page includes it, the encounter's views answer with
it."""


def addable(encounter: Encounter, combatants: Sequence[Combatant]) -> list[tuple[int, str]]:
    """``(character id, label)`` of whoever may join the fight: the campaign's NPCs and
    player characters in play that are not in it, or were removed from it ("back in"), NPCs
    first. One query."""
    placed = {c.character_id: c for c in combatants}
    system = systems.for_campaign(encounter.campaign)
    found = Character.all_objects.filter(campaign=encounter.campaign,
                                         status=Character.Status.ACTIVE).order_by(
        "-is_npc", "name", "id")
    choices = []
    for character in found:
        character.campaign = encounter.campaign
        known = placed.get(character.pk)
        if known is not None and not known.defeated:
            continue
        if not character.in_play or system.is_out_of_play(character):
            continue
        kind = "NPC" if character.is_npc else "player character"
        back = ", back in" if known is not None else ""
        choices.append((character.pk, f"{character.name} ({kind}{back})"))
    return choices


def gm_card(encounter: Encounter, combatants: Sequence[Combatant], *, viewer_id: int,
            data: Mapping[str, Any] | None = None, add_data: Mapping[str, Any] | None = None
            ) -> dict[str, Any]:
    """The card of a running encounter for whoever runs the table: the order, the add form
    and the order form (bound to ``add_data``/``data`` when one was posted and refused)."""
    system = systems.for_campaign(encounter.campaign)
    view = gm_view(encounter, combatants, viewer_id=viewer_id)
    stored: dict[str, tuple[str, int | None]] = {}
    for c in combatants:
        roll = (c.initiative or {}).get("roll")
        stored[str(c.code)] = (str((c.initiative or {}).get("choice") or ""),
                               roll if isinstance(roll, int) else None)
    return {
        "encounter_gm": view,
        "encounter_add": AddForm(add_data, choices=addable(encounter, combatants)),
        "encounter_order": InitiativeForm(data, places=view.order,
                                          choices=system.initiative_choices, stored=stored),
        "encounter_rule": system.initiative_rule,
    }


def board_context(campaign: Campaign, *, is_gm: bool, viewer_id: int,
                  regions: Sequence[str] | None = None) -> dict[str, Any]:
    """The campaign page's encounter card (``turn-order``): ``encounter_gm`` and its forms
    (or ``encounter_start`` when none runs) for whoever runs the table, ``encounter_players``
    for a player (None when none runs). Nothing, and no query, when ``regions`` (live region
    ids asked for) leaves the card out; else one query without an encounter, three with one
    for the GM, two for a player."""
    if regions is not None and TURN_REGION not in regions:
        return {}
    encounter, combatants = running(campaign)
    if not is_gm:
        return {"encounter_players": None if encounter is None
                else players_view(encounter, combatants, viewer_id=viewer_id)}
    if encounter is None:
        return {"encounter_start": None if campaign.is_archived
                else StartForm(campaign=campaign)}
    return gm_card(encounter, combatants, viewer_id=viewer_id)
