"""The roll log: every roll the server makes, stored before it is shown, never edited."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.urls import reverse

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from rulesets import registry


class RollQuerySet(AppendOnlyQuerySet["Roll"]):
    def visible_to(self, *, is_gm: bool) -> RollQuerySet:
        """The rolls a member may see: all of them for the GM; players never see GM-only
        rolls."""
        return self if is_gm else self.filter(gm_only=False)


class Roll(AppendOnlyModel):
    """One server-side roll and its outcome, in the system's own terms.

    ``result`` keeps the rules engine's whole result (its ``as_dict()``), whatever the system:
    the dice and their faces live there (e.g. a Maelstrom roll's ``result["dice"]``,
    ``["bonus_dice"]``, ``["experience_die"]`` and ``["resolution"]["botches"]``). ``pool``
    holds the pool as the engine built it (traits, dice, difficulty, threshold, wound
    penalty, notes); ``outcome``, ``net`` and ``summary`` repeat the result's verdict so the
    logs can show and filter it without reading the result. A follow-up (an experience die,
    willpower spent to succeed) is a new row whose ``parent`` is the roll it builds on, so
    the log stays append-only. An NPC quick roll has no character, and a ``gm_only`` roll is
    shown to the GM alone.

    An ``imported`` roll came in a file (``transfer``): this server did not roll it, whatever
    its date says. It is shown marked wherever rolls are shown, takes no follow-up and
    answers no request made here; every roll made here has ``imported`` False.

``readings`` keeps the campaign's table readings the roll was made under (the ones that
differ from the seed's, ``{key: value}``; ``{}`` for the seed's rules), so the log and the
luck figures show each roll as it was made after the GM changes a reading; the engine's own
``result`` holds what resolving it again needs (docs/rules.md, Table readings).

    Pages name a roll by its ``code``, a random UUID, never by its ``id``: ids are handed
    out in order to every roll, GM-only ones too, so a player who saw rolls 11 and 13 would
    know that the GM rolled 12 in secret (docs/security.md, "Hidden activity").
    Its URL, its DOM keys, its follow-ups' URLs and the name a page gives it (:attr:`label`)
    all come from the code.
    """

    edit_refusal = "Rolls are never edited; the log is append-only."
    delete_refusal = "Rolls are never deleted; the log is append-only."

    class Kind(models.TextChoices):
        """The kinds every system may make; a system's own come from its registry entry."""

        ACTION = "action", "Action"
        NPC = "npc", "NPC quick roll"

    KINDS: dict[str, str] = {**dict(Kind.choices), **dict(registry.roll_kinds())}
    """Every kind of roll, shared and each system's, value -> label: the field's choices."""

    class Outcome(models.TextChoices):
        SUCCESS = "success", "Success"
        FAILURE = "failure", "Failure"
        BOTCH = "botch", "Botch"
        ROLLED = "rolled", "Rolled"  # no pass or fail in the system's terms (an effort total)

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="rolls"
    )
    character = models.ForeignKey(
        "characters.Character",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rolls",
    )
    rolled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rolls"
    )
    ruleset = models.CharField(max_length=32)
    kind = models.CharField(max_length=20, choices=list(KINDS.items()))
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="followups"
    )
    description = models.TextField(help_text="The pool as the rules engine describes it.")
    pool = models.JSONField(default=dict)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    net = models.IntegerField(default=0, help_text="Successes left after threshold and botches.")
    summary = models.CharField(max_length=200)  # "2 successes", "Botch (1 botch)"
    result = models.JSONField(
        default=dict, blank=True,
        help_text="The rules engine's whole result (as_dict), for rolls of any system.",
    )
    gm_only = models.BooleanField(
        default=False, help_text="Seen by the GM alone: hidden from players' logs and streams."
    )
    # Every row made before imports were marked was rolled here (the migration's default);
    # an import marks every roll it writes, whatever the file says.
    imported = models.BooleanField(
        default=False, help_text="Came in an imported file: not rolled by this server."
    )
    # A roll made before table readings existed was made under the seed's (the default).
    readings = models.JSONField(
        default=dict, blank=True,
        help_text="The campaign's table readings this roll was made under, where they differ "
                  "from the seed's: {key: value}.",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    code = models.UUIDField(
        default=uuid.uuid4, unique=True, editable=False,
        help_text="How pages name the roll: random, so that it says nothing of other rolls.",
    )

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        # The logs (the dashboard's and the sheet's recent rolls, the roll log) read the
        # newest top-level rolls of one campaign or one character: these indexes hold exactly
        # those rows, in exactly that order (the ordering's -id included), so a page of them
        # is read straight from the index however long the log grows, whatever the planner's
        # statistics say (docs/performance.md, "Serving under load").
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="roll_campaign_log",
                         condition=models.Q(parent__isnull=True)),
            models.Index(fields=["character", "-created_at", "-id"], name="roll_character_log",
                         condition=models.Q(parent__isnull=True)),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["parent", "kind"],
                condition=models.Q(parent__isnull=False),
                name="one_followup_of_each_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.description}: {self.summary}"

    def get_absolute_url(self) -> str:
        return reverse("rolls:roll-detail", args=[self.code])

    @property
    def label(self) -> str:
        """The roll's name for people, its code's first eight hex digits ("3f2a9c1e"): short
        to read, and, drawn at random, no count of anything."""
        return self.code.hex[:8]


class RequestedRoll(models.Model):
    """A roll the GM asks a player's character to make, with its pool preset. It shows on
    the character's sheet until the player rolls it; ``answer`` is then that roll, set once
    (the roll itself stays append-only).

    ``data`` is the system's roll dialog's POST data that answers the request (field names
    to a string, or a list of strings for a multiple choice, e.g. Maelstrom's
    ``{"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "7",
    "threshold": "0"}``); ``description`` is the pool in the system's words ("Precision +
    Driving, difficulty 7"); ``note`` is the GM's.
    """

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="requested_rolls"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="requested_rolls"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    note = models.CharField(max_length=200, blank=True)
    # The roll dialog's data to prefill, and the pool in words as the system put it.
    data = models.JSONField(default=dict, blank=True)
    description = models.CharField(max_length=200, blank=True)
    answer = models.OneToOneField(
        Roll, null=True, blank=True, on_delete=models.PROTECT, related_name="answers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["character", "answer"], name="requested_roll_open")]

    def __str__(self) -> str:
        return f"{self.character}: {self.describe()}"

    def prefill(self) -> list[tuple[str, str]]:
        """The request's ``data`` as the roll dialog's ``(name, value)`` pairs, for hidden
        inputs: a list value gives one pair per item (as ticked checkboxes post), True gives
        "on", and None or False give none (an unticked box posts nothing)."""
        pairs = []
        for name, value in self.data.items():
            for item in value if isinstance(value, list) else [value]:
                if item is None or item is False:
                    continue
                pairs.append((name, "on" if item is True else str(item)))
        return pairs

    def describe(self) -> str:
        """The pool in the system's words, as stored: "Precision + Driving, difficulty 7,
        threshold 1", "Athletics (Brawn), Average"."""
        return self.description
