"""Campaigns, their members (one GM, any number of co-GMs and players) and invite links."""

from __future__ import annotations

import secrets
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.formats import date_format

from rulesets import registry


def new_invite_token() -> str:
    """An unguessable invite token: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


class Campaign(models.Model):
    """A table's campaign in one rule system; its creator is the GM."""

    name = models.CharField(max_length=120)
    description = models.CharField(
        max_length=500, blank=True,
        help_text="A line or two for the campaign list and the invite page.")
    ruleset = models.CharField(max_length=32)
    starting_xp = models.PositiveIntegerField(
        default=30,
        help_text="XP every new character starts with, where the system gives some "
                  "(30 by default).",
    )
    invite_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # The system's campaign data the GM edits (Genesys skill list, 3d6 trait names, Shattered
    # World die chart and buy-in catalogue, Shahquest tension pool); its shape belongs to the
    # system's sheet description (systems/). Changed under a row lock only.
    system_data = models.JSONField(default=dict, blank=True)
    # The campaign's table readings (docs/rules.md, Table readings): {key: value} for each rule
    # the GM reads away from the seed's reading, checked by the system's Readings; {} plays
    # every rule as the engine reads the seed. Each change is kept in ReadingChange.
    readings = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the GM archives the campaign: from then on it is read-only for everyone
    # (campaigns.archive refuses every write to it but the GM's restore and delete), listed
    # apart, and its export still works.
    archived_at = models.DateTimeField(null=True, blank=True)
    # One more each time anything every member's pages may show changes: every announced
    # change bumps it once committed (campaigns.versions). A page knows the version
    # it was drawn at; a live region asked at the same version answers 304 (core/regions.py).
    live_version = models.PositiveBigIntegerField(default=0, editable=False)
    # One more each time a change only the GM's pages show is announced (a GM-only roll):
    # kept apart so that no number a player's page sees moves for it (docs/security.md,
    # "Hidden activity"). The GM's pages count both (page_version).
    hidden_version = models.PositiveBigIntegerField(default=0, editable=False)
    # Whether the players may open each other's sheets, read-only (characters.permissions:
    # never the GM's notes, the player's notes or backstory, nor an NPC). On by default, as
    # sheets lie open on a real table; a GM whose table keeps secrets (a Dark Secret) turns it
    # off on the settings page, and a party-mate's sheet is then 404 again.
    party_sheets = models.BooleanField(
        default=True, verbose_name="Players see the party's sheets",
        help_text="Each player may open the other players' character sheets, read-only: "
                  "traits, tracks, merits and flaws, recent rolls. Never the GM's notes, "
                  "nor a player's notes or backstory.")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        """Whether the GM has archived the campaign (read-only for everyone)."""
        return self.archived_at is not None

    def get_absolute_url(self) -> str:
        return reverse("table:campaign-detail", args=[self.pk])

    def page_version(self, *, is_gm: bool) -> int:
        """The live version this campaign's pages are drawn at for their viewer, as loaded:
        ``live_version`` for a player; for a GM seat (``Membership.is_gm``: the GM or a
        co-GM), which also sees what players may not,
        ``live_version + hidden_version``. Each announcement moves exactly one of the two by
        one (campaigns.versions), so each viewer's version goes up by one per change that
        viewer's pages hear, and a player's never moves for a change hidden from players."""
        return self.live_version + self.hidden_version if is_gm else self.live_version

    def live_seat(self, user_id: int, role: str | None) -> tuple[object, ...]:
        """What, besides :meth:`page_version`, decides what ``user_id`` sees of this
        campaign's live regions, for ``core.regions.recall``'s key: the viewer (what a page
        shows its own characters, a character's owner: a move announces itself), their
        ``role`` (``Membership.role``, None for no seat; changed in the admin or by a
        hand-over without a version), whether party-mates' sheets are shown
        (``party_sheets``), and the campaign's creation, which tells it from a later one
        SQLite gave a deleted one's id."""
        return (user_id, role, self.party_sheets, self.created_at)

    @property
    def ruleset_name(self) -> str:
        """The rule system's display name ("Maelstrom"), or the stored slug if unknown."""
        try:
            return registry.get(self.ruleset).name
        except KeyError:
            return self.ruleset

    def invite_url(self) -> str | None:
        """The path of the current invite link, or None when invites are revoked."""
        if not self.invite_token:
            return None
        return reverse("campaigns:campaign-join", args=[self.invite_token])

    def invite_renew(self) -> None:
        """Issue a fresh invite token; any older link stops working."""
        self.invite_token = new_invite_token()
        self.save(update_fields=["invite_token"])

    def invite_revoke(self) -> None:
        """Stop all invite links until the GM issues a new one."""
        self.invite_token = None
        self.save(update_fields=["invite_token"])


class Membership(models.Model):
    """A user's seat at a campaign's table: the GM, a co-GM or a player.

    Two names for the two GM seats (docs/decisions.md, "The co-GM"): :attr:`is_gm` is true
    for the GM and for a co-GM, who run the table alike and see alike (every check of the GM
    seat asks it); :attr:`is_lead_gm` only for the GM, whose own powers are deleting the
    campaign, handing the seat over, and seating or unseating a co-GM.
    """

    class Role(models.TextChoices):
        GM = "gm", "GM"
        CO_GM = "co_gm", "Co-GM"
        PLAYER = "player", "Player"

    GM_SEATS: ClassVar[tuple[str, ...]] = (Role.GM, Role.CO_GM)
    """The roles that run the table (``role__in=Membership.GM_SEATS`` in a query)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.UniqueConstraint(
                fields=["campaign"], condition=models.Q(role="gm"), name="one_gm_per_campaign"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        """Whether the seat runs the table: the GM's or a co-GM's. A co-GM does and sees at
        the table all the GM does (tracks, requests, NPCs, awards, GM-only rolls, GM notes)."""
        return self.role in self.GM_SEATS

    @property
    def is_lead_gm(self) -> bool:
        """Whether the seat is the GM's own (one per campaign): the one that may delete the
        campaign, hand the seat over, and make or unmake a co-GM."""
        return self.role == self.Role.GM

    @property
    def is_co_gm(self) -> bool:
        """Whether the seat is a co-GM's."""
        return self.role == self.Role.CO_GM


class ReadingChange(models.Model):
    """One change of a campaign's table reading: which reading, from what to what, by whom
    and when (the settings page lists them, newest first, so the table can tell which rules a
    roll was made under; each roll also keeps its own, ``Roll.readings``). Written by
    ``campaigns.services.readings_update`` in the transaction that changes the reading, never
    edited."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="reading_changes")
    key = models.CharField(max_length=64)
    before = models.CharField(max_length=64)
    after = models.CharField(max_length=64)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.key}: {self.before} -> {self.after}"


class Session(models.Model):
    """One evening of play in a campaign: its date, an optional title and the GM's recap
    (Markdown, read by every member beside the session's rolls and awards).

    At its end the GM hands out the chapter and story awards; each award is an XP ledger entry
    pointing here (``xp_entries``), so a session's awards are read from the ledger, never
    stored twice. A session with awards cannot be deleted (the ledger protects it).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    date = models.DateField()
    title = models.CharField(max_length=120, blank=True)
    recap = models.TextField(
        blank=True, help_text="Markdown. Every member of the table can read it.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-created_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"Session of {date_format(self.date)}"

    def get_absolute_url(self) -> str:
        return reverse("table:session-detail", args=[self.campaign_id, self.pk])
