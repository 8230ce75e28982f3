"""Helpers of the encounters' tests: an NPC, the encounter's URLs, its order and turn."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from characters.models import Character
from encounters import services
from encounters.models import Combatant, Encounter


def npc(campaign: Any, gm: Any, name: str, shown: str = "", **extra: Any) -> Character:
    """One of the GM's NPCs in ``campaign`` (``shown``: ``Character.npc_shown``)."""
    return Character.all_objects.create(campaign=campaign, owner=gm, name=name, is_npc=True,
                                        npc_shown=shown, **extra)


def url(name: str, encounter: Encounter) -> str:
    """The encounter's URL ``encounters:<name>``."""
    return reverse(f"encounters:{name}", args=[encounter.campaign_id, encounter.pk])


def order(encounter: Encounter) -> list[str]:
    """The names still in the fight, in order."""
    return [c.name for c in encounter.combatants.filter(defeated=False)]


def whose(encounter: Encounter) -> str | None:
    """The name of whose turn it is now (None before the first turn)."""
    encounter = Encounter.objects.get(pk=encounter.pk)
    return encounter.current.name if encounter.current else None


def turn(encounter: Encounter) -> dict[str, str]:
    """The turn as a page shows it, for a "Next"/"Done" post: ``{"round", "turn"}``."""
    encounter = Encounter.objects.get(pk=encounter.pk)
    current: Combatant | None = encounter.current
    return {"round": str(encounter.round), "turn": str(current.code) if current else ""}


def shown(encounter: Encounter) -> services.Shown:
    """The turn as :func:`turn`, for a service call."""
    now = turn(encounter)
    return services.Shown(round=int(now["round"]), code=now["turn"])
