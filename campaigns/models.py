"""Campaigns, their members (one GM, any number of players) and invite links."""

from __future__ import annotations

import secrets

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
        ``live_version`` for a player; for the GM, who also sees what players may not,
        ``live_version + hidden_version``. Each announcement moves exactly one of the two by
        one (campaigns.versions), so each viewer's version goes up by one per change that
        viewer's pages hear, and a player's never moves for a change hidden from players."""
        return self.live_version + self.hidden_version if is_gm else self.live_version

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
    """A user's seat at a campaign's table: the GM or a player."""

    class Role(models.TextChoices):
        GM = "gm", "GM"
        PLAYER = "player", "Player"

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
        return self.role == self.Role.GM


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
