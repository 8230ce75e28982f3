"""The roll log: every roll the server makes, stored before it is shown, never edited."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet


class RollQuerySet(AppendOnlyQuerySet["Roll"]):
    def visible_to(self, *, is_gm: bool) -> RollQuerySet:
        """The rolls a member may see: all of them for the GM; players never see GM-only
        rolls."""
        return self if is_gm else self.filter(gm_only=False)


class Roll(AppendOnlyModel):
    """One server-side roll and its outcome, in the system's own terms.

    ``pool`` holds the pool as built by the rules engine (traits, dice, difficulty, threshold,
    wound penalty, notes); ``dice`` the regular dice, ``bonus_dice`` the dice added by
    exploding tens, ``experience_die`` an experience die and the dice its tens chained.
    A follow-up (experience die, willpower spent to succeed) is a new row whose ``parent`` is
    the roll it builds on, so the log stays append-only. An NPC quick roll has no character;
    ``result`` keeps the engine's whole result whatever the system, and a ``gm_only`` roll is
    shown to the GM alone.

    An ``imported`` roll came in a file (``transfer``): this server did not roll it, whatever
    its date says. It is shown marked wherever rolls are shown, takes no follow-up and
    answers no request made here; every roll made here has ``imported`` False.
    """

    edit_refusal = "Rolls are never edited; the log is append-only."
    delete_refusal = "Rolls are never deleted; the log is append-only."

    class Kind(models.TextChoices):
        ACTION = "action", "Action"
        WILLPOWER = "willpower", "Willpower"
        SOAK = "soak", "Soak"
        EXPERIENCE_DIE = "experience_die", "Experience die"
        WILLPOWER_SPEND = "willpower_spend", "Willpower spent to succeed"
        NPC = "npc", "NPC quick roll"
        CHECK = "check", "Check"
        TEST = "test", "Test"
        CONTEST = "contest", "Contest"
        CHOICE = "choice", "Dice chosen"
        GENERAL_DANGER = "general_danger", "General danger"

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
    kind = models.CharField(max_length=20, choices=Kind.choices)
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="followups"
    )
    description = models.TextField(help_text="The pool as the rules engine describes it.")
    pool = models.JSONField(default=dict)
    dice = models.JSONField(default=list)
    bonus_dice = models.JSONField(default=list)
    experience_die = models.JSONField(default=list)
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    net = models.IntegerField(default=0, help_text="Successes left after threshold and botches.")
    botches = models.PositiveSmallIntegerField(default=0)
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
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

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
        return reverse("rolls:roll-detail", args=[self.pk])


class RequestedRoll(models.Model):
    """A roll the GM asks a player's character to make, with its pool preset (traits,
    difficulty, threshold). It shows on the character's sheet until the player rolls it;
    ``answer`` is then that roll, set once (the roll itself stays append-only)."""

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="requested_rolls"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="requested_rolls"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=20, default="action")
    traits = models.JSONField(default=list)
    difficulty = models.PositiveSmallIntegerField(default=6)
    threshold = models.PositiveSmallIntegerField(default=0)
    note = models.CharField(max_length=200, blank=True)
    # A described system's request (systems/): the roll dialog's data to prefill,
    # and the pool in words as the system put it.
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
        """The request as the roll dialog's ``(name, value)`` pairs, for hidden inputs: a
        Maelstrom request's kind, traits, difficulty and threshold, or a described system's
        ``data`` (a list value gives one pair per item, as ticked checkboxes post)."""
        if not self.data:
            return [("kind", self.kind), *(("trait", name) for name in self.traits),
                    ("difficulty", str(self.difficulty)), ("threshold", str(self.threshold))]
        pairs = []
        for name, value in self.data.items():
            for item in value if isinstance(value, list) else [value]:
                if item is None or item is False:
                    continue
                pairs.append((name, "on" if item is True else str(item)))
        return pairs

    def describe(self) -> str:
        """"Precision + Driving, difficulty 7, threshold 1" (threshold only when set), or a
        described system's own words ("Athletics (Brawn), Average")."""
        if self.description:
            return self.description
        what = " + ".join(self.traits) if self.kind == "action" else self.kind.capitalize()
        text = f"{what}, difficulty {self.difficulty}"
        return text + (f", threshold {self.threshold}" if self.threshold else "")
