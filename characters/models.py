"""Characters, their traits, merits and flaws, and the append-only XP ledger.

The health chart and willpower are tracks on the character; the rules that change them live in
``rulesets.maelstrom`` and the state changes in ``characters.services``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.conf import settings
from django.db import models
from django.urls import reverse

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from rulesets import maelstrom
from rulesets.errors import RuleError

RULE_IMPORTS = "docs/backup.md, What an import is trusted for"


class Character(models.Model):
    """A player character in one campaign, of the campaign's system.

    Maelstrom characters keep their traits as ``Trait`` rows and their tracks in columns;
    every other system keeps its whole sheet in ``sheet`` (systems/).

    ``xp_available`` and ``xp_total`` are kept in step with the ledger (``XpEntry``) inside the
    same transaction as every entry; they always equal the ledger's sums.

    ``review`` says whether the GM has vouched for a character a player imported
    (:class:`CharacterImport` keeps who brought it and who decided): while it is pending, or
    once refused, the character makes no roll, spends and receives no XP and is asked for no
    roll (:meth:`require_in_play`). A character made here, or brought by the GM, needs no
    review.
    """

    class Review(models.TextChoices):
        NONE = "", "Made here"
        PENDING = "pending", "Awaiting the GM"
        ACCEPTED = "accepted", "Accepted by the GM"
        REFUSED = "refused", "Refused by the GM"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="characters"
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="characters"
    )
    name = models.CharField(max_length=80)
    concept = models.CharField(max_length=200, blank=True)

    # Maelstrom rules.md, Willpower: permanent and current ranks, 1-10.
    willpower_permanent = models.PositiveSmallIntegerField(default=maelstrom.STARTING_WILLPOWER)
    willpower_current = models.PositiveSmallIntegerField(default=maelstrom.STARTING_WILLPOWER)

    # Maelstrom rules.md, Marking Damage: the chart is fully described by these counts,
    # because aggravated always sits on top of lethal, and lethal on top of bashing.
    health_bashing = models.PositiveSmallIntegerField(default=0)
    health_lethal = models.PositiveSmallIntegerField(default=0)
    health_aggravated = models.PositiveSmallIntegerField(default=0)
    dead = models.BooleanField(default=False)
    huge_size = models.BooleanField(default=False, help_text="Huge Size merit: a ninth box.")

    # Every system but Maelstrom keeps its sheet here (features, statistics, skills, tracks,
    # plot points), in the shape its sheet description (systems/) validates; it is
    # changed only under a row lock, by characters.services.
    sheet = models.JSONField(default=dict, blank=True)

    xp_available = models.IntegerField(default=0)
    xp_total = models.IntegerField(default=0)

    # Every row made before imports were reviewed is "made here" (the migration's default):
    # only a player's import since then arrives pending.
    review = models.CharField(max_length=8, choices=Review.choices, default=Review.NONE,
                              blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(willpower_current__lte=models.F("willpower_permanent")),
                name="willpower_current_within_permanent",
            ),
            models.CheckConstraint(
                condition=models.Q(xp_available__gte=0), name="xp_available_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("characters:character-detail", args=[self.pk])

    @property
    def in_play(self) -> bool:
        """Whether the character may roll, spend and receive XP and be asked for rolls: not
        an import awaiting the GM, nor one the GM refused."""
        return self.review not in (self.Review.PENDING, self.Review.REFUSED)

    @property
    def awaiting_gm(self) -> bool:
        """Whether the character is a player's import the GM has not yet accepted or
        refused."""
        return self.review == self.Review.PENDING

    def require_in_play(self) -> None:
        """Refuse a roll, an XP change or a roll request for a character not in play.

        Read it on the row locked by ``characters.services.lock_character`` so that a GM's
        decision and the change queue behind one another.

        Raises:
            RuleError: naming the character and why (awaiting the GM's review of its import,
                or refused by the GM), citing :data:`RULE_IMPORTS`.
        """
        if self.review == self.Review.PENDING:
            raise RuleError(f"{self.name} was imported and is awaiting the GM: it cannot roll, "
                            "spend or receive XP, or be asked for a roll until the GM "
                            "accepts it.", RULE_IMPORTS)
        if self.review == self.Review.REFUSED:
            raise RuleError(f"The GM refused {self.name}'s import: it stays as a record and "
                            "cannot roll, spend or receive XP, or be asked for a roll.",
                            RULE_IMPORTS)

    @property
    def health(self) -> maelstrom.HealthChart:
        """The health chart as the rules engine's value object."""
        return maelstrom.HealthChart(
            bashing=self.health_bashing,
            lethal=self.health_lethal,
            aggravated=self.health_aggravated,
            huge_size=self.huge_size,
            dead=self.dead,
        )

    def set_health(self, chart: maelstrom.HealthChart) -> None:
        """Copy a chart from the rules engine onto the row (the caller saves)."""
        self.health_bashing = chart.bashing
        self.health_lethal = chart.lethal
        self.health_aggravated = chart.aggravated
        self.dead = chart.dead


class CharacterImport(models.Model):
    """Where an imported character came from, and the GM's decision on it.

    Written in the import's transaction for every character imported on its own (a player's
    waits for the GM; the GM's own is accepted at once, by them); a campaign imported by its
    GM needs none (the GM is the authority for the whole file). ``exported_at`` is what the
    file claims, never checked against anything: the review page shows it as the file's word.
    ``sessions`` lists the sessions the file's awards were given in, as the file names them
    (``{"date", "title", "linked"}``; ``linked`` when this campaign has a session of the same
    date and title).
    """

    character = models.OneToOneField(Character, on_delete=models.CASCADE,
                                     related_name="import_record")
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    related_name="+")
    imported_at = models.DateTimeField(auto_now_add=True)
    exported_at = models.DateTimeField(null=True, blank=True,
                                       help_text="When the file says it was exported.")
    file_system = models.CharField(max_length=32, blank=True)
    file_version = models.PositiveSmallIntegerField(null=True, blank=True)
    sessions = models.JSONField(default=list, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-imported_at", "-id"]

    def __str__(self) -> str:
        return f"{self.character} ({self.character.get_review_display()})"


class Trait(models.Model):
    """One rated trait: an attribute or ability (0-5 dots) or a specialty (owned or not).

    A specialty belongs to one ability (``ability``) and is general or advanced; it has
    ``dots`` 1 while owned (Maelstrom rules.md, Specialties).
    """

    class Kind(models.TextChoices):
        ATTRIBUTE = "attribute", "Attribute"
        ABILITY = "ability", "Ability"
        SPECIALTY = "specialty", "Specialty"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    name = models.CharField(max_length=80)
    group = models.CharField(max_length=32, blank=True)
    ability = models.CharField(max_length=80, blank=True, help_text="For a specialty.")
    advanced = models.BooleanField(default=False)
    dots = models.PositiveSmallIntegerField(default=0)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["kind", "position", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "kind", "ability", "name"], name="unique_trait_per_character"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.SPECIALTY:
            return f"{self.ability}: {self.name}"
        return self.name

    @property
    def key(self) -> str:
        """The trait's ledger key, e.g. ``ability:Driving`` or ``specialty:Driving:Cars``."""
        return trait_key(self.kind, self.name, self.ability)

    @property
    def bank_key(self) -> str:
        """Where banked XP for this trait lives: a specialty draws on its ability's bank."""
        if self.kind == self.Kind.SPECIALTY:
            return trait_key(self.Kind.ABILITY, self.ability)
        return self.key


def trait_rows(
    character: Character,
    *,
    attributes: Mapping[str, int],
    abilities: Mapping[str, int],
    specialties: Iterable[tuple[str, str, bool]] = (),
) -> list[Trait]:
    """The unsaved Trait rows of a Maelstrom character, as the sheet lays them out.

    Args:
        character: the saved character they belong to.
        attributes: dots (1-5) by attribute name; all six are needed.
        abilities: dots (0-5) by ability name; missing abilities get 0 dots.
        specialties: ``(ability, name, advanced?)`` for each specialty owned.

    Returns:
        One row per attribute and per ability, in the seed's groups and order (``position``
        follows the catalogue), then one per specialty (Maelstrom rules.md, Traits).
    """
    rows: list[Trait] = []
    for group, names in maelstrom.ATTRIBUTE_GROUPS.items():
        rows += [Trait(character=character, kind=Trait.Kind.ATTRIBUTE, name=name, group=group,
                       dots=attributes[name], position=len(rows) + i)
                 for i, name in enumerate(names)]
    for group, names in maelstrom.ABILITY_GROUPS.items():
        rows += [Trait(character=character, kind=Trait.Kind.ABILITY, name=name, group=group,
                       dots=abilities.get(name, 0), position=len(rows) + i)
                 for i, name in enumerate(names)]
    for ability, name, advanced in specialties:
        rows.append(Trait(character=character, kind=Trait.Kind.SPECIALTY, name=name,
                          ability=ability, advanced=advanced, dots=1,
                          group=maelstrom.ABILITIES[ability].group
                          if ability in maelstrom.ABILITIES else ""))
    return rows


WILLPOWER_KEY = "willpower"


def trait_key(kind: str, name: str = "", ability: str = "") -> str:
    """The ledger key of a trait: ``attribute:Strength``, ``ability:Driving``,
    ``specialty:Driving:Cars`` or ``willpower``."""
    if kind == WILLPOWER_KEY:
        return WILLPOWER_KEY
    if kind == Trait.Kind.SPECIALTY:
        return f"specialty:{ability}:{name}"
    return f"{kind}:{name}"


def trait_label(key: str) -> str:
    """A readable name for a ledger key: ``ability:Driving`` -> ``Driving``."""
    if key == WILLPOWER_KEY:
        return "Willpower"
    parts = key.split(":")
    if parts[0] == "specialty" and len(parts) == 3:
        return f"{parts[1]}: {parts[2]}"
    return parts[-1]


class MeritFlaw(models.Model):
    """A merit (costs XP) or flaw (awards XP) taken at creation (Maelstrom rules.md,
    Merits and Flaws). ``points`` is the price paid or awarded, in XP."""

    class Kind(models.TextChoices):
        MERIT = "merit", "Merit"
        FLAW = "flaw", "Flaw"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="merits_flaws")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    name = models.CharField(max_length=80)
    points = models.PositiveSmallIntegerField()
    detail = models.CharField(max_length=120, blank=True, help_text="e.g. the sense, the drug.")

    class Meta:
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.points})"


class XpEntryQuerySet(AppendOnlyQuerySet["XpEntry"]):
    pass


class XpEntry(AppendOnlyModel):
    """One line of a character's append-only XP ledger (Maelstrom rules.md, Character
    Progression).

    Deltas are in XP: ``available_delta`` changes available XP, ``total_delta`` the XP ever
    earned, ``banked_delta`` the XP banked in ``bank_key`` (an ability's bank also pays for its
    specialties). ``trait_key`` names the trait bought or banked. A spend draws on the
    trait's bank first (``banked_delta`` < 0), then on available XP. A mistake is corrected by a
    ``reversal`` entry with negated deltas pointing at the entry it reverses.
    """

    edit_refusal = "XP ledger entries are never edited; append a reversing entry."
    delete_refusal = "XP ledger entries are never deleted; append a reversing entry."

    class Kind(models.TextChoices):
        STARTING = "starting", "Starting XP"
        AWARD = "award", "Award"
        SPEND = "spend", "Spend"
        BANK = "bank", "Bank"
        MERIT = "merit", "Merit"
        FLAW = "flaw", "Flaw"
        REVERSAL = "reversal", "Undo"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="xp_entries")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    available_delta = models.IntegerField(default=0)
    total_delta = models.IntegerField(default=0)
    banked_delta = models.IntegerField(default=0)
    trait_key = models.CharField(max_length=200, blank=True)
    bank_key = models.CharField(
        max_length=200, blank=True, help_text="The trait whose bank banked_delta changes."
    )
    rank_from = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_to = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="reversal"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # RESTRICT, not PROTECT: a session with awards cannot be deleted on its own, but deleting
    # its whole campaign (which cascades to the characters and their ledgers) still works.
    session = models.ForeignKey(
        "campaigns.Session", null=True, blank=True, on_delete=models.RESTRICT,
        related_name="xp_entries", help_text="The session whose awards this entry is part of.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = XpEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "XP entries"

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.available_delta:+d} XP ({self.reason})"

    @property
    def cost(self) -> int:
        """XP paid for a spend, from the bank and from available XP together."""
        return -(self.available_delta + self.banked_delta)
