"""The activity log: one append-only row for every change of a character or a campaign.

The roll log and the XP ledger say what was rolled and what was bought; this log says who
changed everything else (damage marked, a willpower dot spent, stress stepped, a sheet edited
by the GM, a member seated, an encounter's turn passed), and carries each XP entry and roll
too, so that one list answers "who changed what" (docs/history.md, "Activity log").
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.urls import reverse

from characters.models import Character
from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet


class ActivityQuerySet(AppendOnlyQuerySet["Activity"]):
    """The activity log's rows: append-only as the roll log's, and read per viewer
    (:meth:`visible_to`)."""

    def visible_to(self, *, user_id: int, is_gm: bool, party_sheets: bool
                   ) -> ActivityQuerySet:
        """The entries a member of the campaign may read (docs/history.md, "Who sees what"):
        every entry for whoever runs the table (``is_gm``); for a player, none that is GM-only,
        and of the entries about a character only those about one whose sheet the player may
        read (their own; a party-mate's when the campaign shows the party's sheets,
        ``party_sheets``), and rolls, which the roll log shows every member anyway. An
        entry about no character (a session, a member, an encounter) is the table's."""
        if is_gm:
            return self
        readable = (models.Q(character__isnull=True) | models.Q(kind=Activity.Kind.ROLL)
                    | models.Q(character__owner_id=user_id, character__is_npc=False))
        if party_sheets:
            readable |= models.Q(character__is_npc=False) & ~models.Q(
                character__review__in=[Character.Review.PENDING, Character.Review.REFUSED])
        return self.filter(readable, gm_only=False)


class Activity(AppendOnlyModel):
    """One change at the table: who (``actor``), when (``created_at``), what (``kind`` and
    ``text``, the system's own words: "Marked 2 lethal."), and the character's facts before
    and after (``changes``: ``[[label, before, after], ...]``, ``""`` for a fact that did not
    exist, in the order the sheet lists them).

    ``action`` names the change within its kind, a slug: a track action's name
    (``damage``), ``award``/``spend``/``undo`` for XP, ``create``/``recap`` for a
    session, ``start``/``turn``/``end`` for an encounter, the roll's kind for a roll; the
    group's chat relays by kind and action.

    Written by the generic services in the transaction of the change they record
    (:func:`history.log.record`); never edited or deleted (a correction is a new change, and a
    new entry). A ``gm_only`` entry is the GM's alone, as a GM-only roll is: a hidden NPC's
    changes, the GM's secret rolls. ``roll`` points at the roll an entry records, ``link`` at
    the page of anything else it names (a session, an encounter), for the history's links and
    the group's chat. ``imported`` entries came in a campaign file (transfer).

    Pages name an entry by its random ``code`` (the keyset's cursor), never its ``id``, which
    would count the GM's hidden entries between two a player sees (docs/security.md, "Hidden
    activity").
    """

    edit_refusal = "The activity log is never edited; a correction is a new change."
    delete_refusal = "The activity log is never deleted from; it is append-only."

    class Kind(models.TextChoices):
        """What changed. NPCs are characters (``character`` with their ``gm_only``); a
        Destiny pool or a tension pool is the campaign's (``campaign``)."""

        SHEET = "sheet", "Sheet"
        XP = "xp", "XP"
        ROLL = "roll", "Roll"
        REQUEST = "request", "Roll request"
        CHARACTER = "character", "Character"
        ITEM = "item", "Inventory"
        CAMPAIGN = "campaign", "Campaign"
        MEMBER = "member", "Members"
        SESSION = "session", "Session"
        ENCOUNTER = "encounter", "Encounter"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="activity")
    character = models.ForeignKey(
        "characters.Character", null=True, blank=True, on_delete=models.CASCADE,
        related_name="activity")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="+", help_text="Who made the change (none: the server, an import).")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    action = models.CharField(
        max_length=40, blank=True,
        help_text="Which change of its kind: a track action's name, or award, spend, undo, "
                  "recap, turn... (the group's chat relays some).")
    text = models.CharField(max_length=500)
    changes = models.JSONField(
        default=list, blank=True,
        help_text="The facts that changed: [[label, before, after], ...].")
    gm_only = models.BooleanField(default=False)
    roll = models.ForeignKey(
        "rolls.Roll", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    link = models.CharField(max_length=300, blank=True)
    imported = models.BooleanField(default=False)
    created_at = models.DateTimeField(db_index=True)
    code = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)

    objects = ActivityQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "activity"
        # A page of the table's or a character's history is read straight from one of these,
        # newest first, whatever its page number (the keyset starts from an entry's place).
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="activity_campaign_log"),
            models.Index(fields=["character", "-created_at", "-id"],
                         name="activity_character_log"),
        ]

    def __str__(self) -> str:
        return self.text

    def get_absolute_url(self) -> str:
        return reverse("history:campaign-history", args=[self.campaign_id]) + f"#a-{self.code.hex}"
