"""Encounters: a fight (or any scene in turns) at a campaign's table, its combatants in
order, the round and whose turn it is (docs/encounters.md).

Every change goes through ``encounters.services``, with the encounter's row locked; the
order a system gives is the contract's :class:`systems.initiative.InitiativePart`.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.urls import reverse

from characters.models import Character


class Encounter(models.Model):
    """One encounter of a campaign, running (``ended_at`` unset: at most one per campaign, a
    constraint) or ended, which is its record: who took part, how many rounds, and the
    rolls made between ``started_at`` and ``ended_at``.

    ``round`` counts from 1; ``current`` is the combatant whose turn it is, None before the
    first turn (``begun`` unset: the GM is setting the order) and once no one is left
    standing.
    """

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE,
                                 related_name="encounters")
    # The session it happened in, whose page links it; kept (unset) if the session goes.
    session = models.ForeignKey("campaigns.Session", null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="encounters")
    name = models.CharField(max_length=80)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    round = models.PositiveIntegerField(default=1)
    # Set by the first turn: before it the GM sets the order and no one acts.
    begun = models.BooleanField(default=False)
    current = models.ForeignKey("Combatant", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            # One encounter at a time per campaign: two tabs starting one at once make one.
            models.UniqueConstraint(fields=["campaign"], condition=models.Q(ended_at__isnull=True),
                                    name="one_running_encounter_per_campaign"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("encounters:encounter-detail", args=[self.campaign_id, self.pk])

    @property
    def is_running(self) -> bool:
        """Whether the encounter has not ended."""
        return self.ended_at is None


class Combatant(models.Model):
    """One character in an encounter's order: a player character or one of the GM's NPCs.

    ``name`` and ``is_npc`` are kept as they were when it joined, so the record reads the
    same after a rename or a deletion (``character`` is then unset). ``position`` orders the
    fight (smallest first); ``initiative`` is what the GM set of its initiative, in the
    shape the campaign's system reads (``{"choice": "roll", "roll": 17}``:
    systems/initiative.py; ``{}`` until the GM sets the order). ``delayed``: it gave up its
    place this round; ``defeated``: it is out of the order, kept for the record. Pages name
    a combatant by ``code``, never by its id, which counts the hidden NPCs too
    (docs/security.md, "Hidden activity").
    """

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE,
                                  related_name="combatants")
    character = models.ForeignKey("characters.Character", null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="combatants")
    name = models.CharField(max_length=80)
    is_npc = models.BooleanField(default=False)
    position = models.PositiveIntegerField(default=0)
    initiative = models.JSONField(default=dict, blank=True)
    delayed = models.BooleanField(default=False)
    defeated = models.BooleanField(default=False)
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["encounter", "character"],
                                    name="one_place_per_character_in_an_encounter"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def shown_to_players(self) -> bool:
        """Whether the players may see this combatant: a player character always; an NPC
        while the GM shows it (``Character.npc_shown``, read as it is now), never once its
        row is gone."""
        if not self.is_npc:
            return True
        return (self.character is not None
                and self.character.npc_shown != Character.Shown.HIDDEN)


def turn_of(character: Character) -> str | None:
    """The turn ``character`` fights in: ``"<encounter id>:<round>"`` of its campaign's running,
    begun encounter where it is a combatant not defeated, or None (no such encounter). One
    query. What a rule that counts per turn keys on (``systems.initiative.ENCOUNTER_TURN``)."""
    found = (Encounter.objects.filter(campaign_id=character.campaign_id, ended_at__isnull=True,
                                      begun=True, combatants__character=character,
                                      combatants__defeated=False)
             .values_list("pk", "round").first())
    return f"{found[0]}:{found[1]}" if found else None
