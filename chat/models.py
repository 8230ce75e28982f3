"""A campaign's link to its group's chat: one incoming webhook (Discord's or Slack's), the
events it posts, and how its last delivery went (docs/history.md, "The group's chat")."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse


class ChatHook(models.Model):
    """The campaign's chat channel: ``url``, the channel's incoming webhook, which the chat
    service gave the GM, and ``format``, the shape of its posts (Discord's ``content`` and
    embeds, or Slack's ``text`` and blocks).

    ``url`` is a secret (anyone who has it posts to the channel): it is shown to nobody
    after it is saved, the GM included (:attr:`masked` is), never sent to a player's page, a
    live event, an export, the task queue or a log (docs/security.md, "The group's chat").
    It is an https URL on a public host (``chat.addresses``), checked when saved and again
    at every delivery.

    The ``post_*`` switches choose what is relayed: rolls that are not GM-only, XP awards,
    session recaps and encounter turns. ``last_*`` say how the last delivery went, for the
    GM's settings page: when a post last arrived (``last_delivery_at``), when it last failed
    and why (``last_error_at``, ``last_error``: our words, never the URL), and the HTTP
    status of the last answer (``last_status``; None for no answer).
    """

    class Format(models.TextChoices):
        DISCORD = "discord", "Discord"
        SLACK = "slack", "Slack"

    campaign = models.OneToOneField(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="chat_hook")
    url = models.CharField(max_length=500)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.DISCORD)
    post_rolls = models.BooleanField(
        "Rolls", default=True, help_text="Every roll but the GM's secret ones.")
    post_xp = models.BooleanField("XP awards", default=True)
    post_recaps = models.BooleanField("Session recaps", default=True)
    post_turns = models.BooleanField(
        "Encounter turns", default=True, help_text="Never a hidden NPC's.")
    connected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+")
    updated_at = models.DateTimeField(auto_now=True)
    last_delivery_at = models.DateTimeField(null=True, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.get_format_display()} hook of campaign {self.campaign_id}"

    def get_absolute_url(self) -> str:
        return reverse("chat:campaign-chat", args=[self.campaign_id])

    @property
    def masked(self) -> str:
        """The URL as the settings page shows it once saved: its scheme and host, then its
        last four characters ("https://discord.com/…/…abcd"), enough to tell two hooks apart
        and not enough to post with."""
        scheme, _, rest = self.url.partition("://")
        host = rest.split("/", 1)[0].rsplit("@", 1)[-1]
        return f"{scheme}://{host}/…/…{self.url[-4:]}"

    @property
    def posting(self) -> str:
        """What the hook posts, in words ("rolls, XP awards"); ``""`` for nothing."""
        on = [words for name, words in (("post_rolls", "rolls"), ("post_xp", "XP awards"),
                                        ("post_recaps", "session recaps"),
                                        ("post_turns", "encounter turns"))
              if getattr(self, name)]
        return ", ".join(on)

    @property
    def failing(self) -> bool:
        """Whether the last attempt failed (an error newer than the last delivery)."""
        return self.last_error_at is not None and (
            self.last_delivery_at is None or self.last_error_at > self.last_delivery_at)
