"""Characters, whose sheet is their system's data, and the append-only XP ledger.

Every system keeps a character's whole sheet (traits, merits and flaws, tracks) in
``Character.sheet``, in the shape its sheet layer reads and writes (``systems/<slug>/``); the
rules that change it live in ``rulesets/`` and the state changes in ``characters.services``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual
from django.urls import reverse

from core.appendonly import AppendOnlyModel, AppendOnlyQuerySet
from rulesets import registry
from rulesets.base import StoredBound
from rulesets.errors import RuleError

RULE_IMPORTS = "docs/backup.md, What an import is trusted for"
RULE_STATUS = "docs/decisions.md, Retired and dead characters"


def _sheet_int(part: str, key: str) -> Cast:
    """``sheet[part][key]`` as an integer, for a check constraint (SQL ``CAST``)."""
    return Cast(KT(f"sheet__{part}__{key}"), models.IntegerField())


def _bound_constraint(bound: StoredBound) -> models.CheckConstraint:
    """The check constraint keeping ``bound`` on every stored sheet (a sheet without its
    part passes).

    Both sides are cast to integers: Django cannot compare two key transforms with a numeric
    lookup on SQLite (``sheet__a__b__lte=F("sheet__a__c")`` fails to compile there), and the
    cast also compares numbers on PostgreSQL rather than two jsonb values.
    """
    checks: list[LessThanOrEqual[int] | GreaterThanOrEqual[int]] = []
    if bound.maximum_key:
        checks += [LessThanOrEqual(_sheet_int(bound.part, key),
                                   _sheet_int(bound.part, bound.maximum_key))
                   for key in bound.keys]
    checks += [GreaterThanOrEqual(_sheet_int(bound.part, key), bound.minimum)
               for key in bound.keys]
    return models.CheckConstraint(
        condition=models.Q(*checks) | models.Q(**{f"sheet__{bound.part}__isnull": True}),
        name=bound.name,
    )


class CharacterQuerySet(models.QuerySet["Character"]):
    """Characters of both kinds: the party's (``is_npc`` false) and the GM's NPCs."""

    def party(self) -> CharacterQuerySet:
        """The player characters only (no NPC)."""
        return self.filter(is_npc=False)

    def npcs(self) -> CharacterQuerySet:
        """The GM's NPCs only."""
        return self.filter(is_npc=True)


class PartyManager(models.Manager["Character"]):
    """``Character.objects``: the player characters only, never an NPC.

    The default manager, so that every list of "the campaign's characters" (``campaign.
    characters``, the dashboard's party, session awards, a player's export, the roll
    request's choices) leaves the GM's NPCs out unless it asks for them by name through
    ``Character.npcs`` or ``Character.all_objects`` (docs/decisions.md, "NPCs are characters
    the party does not list"). Related objects (``roll.character``) are read through the
    unfiltered base manager, so an NPC's rolls still reach their NPC.
    """

    def get_queryset(self) -> CharacterQuerySet:
        return CharacterQuerySet(self.model, using=self._db).party()


class NpcManager(models.Manager["Character"]):
    """``Character.npcs``: the GM's NPCs only."""

    def get_queryset(self) -> CharacterQuerySet:
        return CharacterQuerySet(self.model, using=self._db).npcs()


class Character(models.Model):
    """A character in one campaign, of the campaign's system: a player's (the party) or, with
    ``is_npc``, one of the GM's NPCs and adversaries.

    Every system keeps the character's whole sheet in ``sheet`` (systems/): a JSON object
    whose shape the system's sheet layer owns. The bounds a system declares on it
    (:class:`rulesets.base.StoredBound`) are check constraints here, kept by the database.

    ``xp_available`` and ``xp_total`` are kept in step with the ledger (``XpEntry``) inside the
    same transaction as every entry; they always equal the ledger's sums.

    ``review`` says whether the GM has vouched for a character a player imported
    (:class:`CharacterImport` keeps who brought it and who decided): while it is pending, or
    once refused, the character makes no roll, spends and receives no XP and is asked for no
    roll (:meth:`require_in_play`). A character made here, or brought by the GM, needs no
    review.
    """

    class Status(models.TextChoices):
        ACTIVE = "", "In the party"
        RETIRED = "retired", "Retired"
        DEAD = "dead", "Dead"

    class Shown(models.TextChoices):
        """What the players see of an NPC (``npc_shown``); nothing of a player character
        hangs on it."""

        HIDDEN = "", "Hidden from the players"
        NAME = "name", "Its name"
        TRACKS = "tracks", "Its name and tracks"

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

    # What the player writes (Markdown, core.markdown): read by the owner and the GM.
    backstory = models.TextField(blank=True)
    notes = models.TextField(blank=True)
    # The GM's own notes on the character: never shown to a player, the owner included (not
    # in a page, a fragment, a player's export or a live event).
    gm_notes = models.TextField(blank=True)

    # Retired or dead: out of the party (no card, no roll dialog, no XP) but readable with its
    # whole history; the GM brings it back. Blank (the default) is in the party.
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE,
                              blank=True)

    # Every system keeps its sheet here (traits, features, statistics, skills, tracks, plot
    # points), in the shape its sheet description (systems/) validates; it is changed only
    # under a row lock, by characters.services.
    sheet = models.JSONField(default=dict, blank=True)

    xp_available = models.IntegerField(default=0)
    xp_total = models.IntegerField(default=0)

    # Blank ("made here", the default) for a character made here or brought by the GM; only
    # a player's import arrives pending.
    review = models.CharField(max_length=8, choices=Review.choices, default=Review.NONE,
                              blank=True)

    # An NPC is the GM's: made and played by whoever runs the table, never in the party's
    # lists, hidden from the players until the GM reveals it (``npc_shown``). Its ``owner`` is
    # the GM who made it and gives it no rights: access to an NPC goes by the seat at the
    # table (characters.permissions).
    is_npc = models.BooleanField(default=False)
    npc_shown = models.CharField(max_length=8, choices=Shown.choices, default=Shown.HIDDEN,
                                 blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = PartyManager()
    npcs = NpcManager()
    all_objects: models.Manager[Character] = CharacterQuerySet.as_manager()

    class Meta:
        # The id breaks ties: two characters of one name (a demo built twice, a player's
        # copy) have no order of their own, and PostgreSQL returns them in whatever order
        # its last update left the rows, which would swap the dashboard's cards.
        ordering = ["name", "id"]
        constraints = [
            # Each system's bounds on its stored sheets (rulesets.registry.stored_bounds):
            # kept by the database, so that no code path can store a sheet that breaks one.
            *(_bound_constraint(bound) for bound in registry.stored_bounds()),
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
        """Whether the character may roll, spend and receive XP and be asked for rolls: in
        the party (not retired or dead), and not an import awaiting the GM, nor one the GM
        refused."""
        return (self.status == self.Status.ACTIVE
                and self.review not in (self.Review.PENDING, self.Review.REFUSED))

    @property
    def changes_gm_only(self) -> bool:
        """Whether a change of this character is heard by the GM's pages only: an NPC whose
        tracks the players do not see (hidden, or revealed by name alone), so that no
        event, fragment or version a player's page counts moves for it (docs/security.md,
        "Hidden activity")."""
        return self.is_npc and self.npc_shown != self.Shown.TRACKS

    @property
    def is_retired(self) -> bool:
        """Whether the character has left the party (retired or dead)."""
        return self.status != self.Status.ACTIVE

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
            RuleError: naming the character and why: retired or dead (citing
                :data:`RULE_STATUS`), awaiting the GM's review of its import, or refused by
                the GM (citing :data:`RULE_IMPORTS`).
        """
        if self.status != self.Status.ACTIVE:
            raise RuleError(f"{self.name} is {self.get_status_display().lower()}: out of the "
                            "party, it cannot roll, spend or receive XP, or be asked for a "
                            "roll until the GM brings it back.", RULE_STATUS)
        if self.review == self.Review.PENDING:
            raise RuleError(f"{self.name} was imported and is awaiting the GM: it cannot roll, "
                            "spend or receive XP, or be asked for a roll until the GM "
                            "accepts it.", RULE_IMPORTS)
        if self.review == self.Review.REFUSED:
            raise RuleError(f"The GM refused {self.name}'s import: it stays as a record and "
                            "cannot roll, spend or receive XP, or be asked for a roll.",
                            RULE_IMPORTS)


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


class XpEntryQuerySet(AppendOnlyQuerySet["XpEntry"]):
    pass


class XpEntry(AppendOnlyModel):
    """One line of a character's append-only XP ledger (docs/systems/<slug>.md gives each
    system's advancement rules).

    Deltas are in XP: ``available_delta`` changes available XP, ``total_delta`` the XP ever
    earned, ``banked_delta`` the XP set aside for one trait in ``bank_key`` (a system that
    banks XP, ``Advance.bank_key``). ``trait_key`` names the trait bought or banked. A spend
    draws on the trait's banked XP first (``banked_delta`` < 0), then on available XP.
    ``kind`` is one of :class:`Kind` or a kind the system declares (``Ruleset.ledger_kinds``).
    A mistake is corrected by a ``reversal`` entry with negated deltas pointing at the entry
    it reverses.
    """

    edit_refusal = "XP ledger entries are never edited; append a reversing entry."
    delete_refusal = "XP ledger entries are never deleted; append a reversing entry."

    class Kind(models.TextChoices):
        """The kinds every system writes; a system's own come from its registry entry."""

        STARTING = "starting", "Starting XP"
        AWARD = "award", "Award"
        SPEND = "spend", "Spend"
        REVERSAL = "reversal", "Undo"

    KINDS: dict[str, str] = {**dict(Kind.choices), **dict(registry.ledger_kinds())}
    """Every kind of entry, shared and each system's, value -> label: the field's choices."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="xp_entries")
    kind = models.CharField(max_length=16, choices=list(KINDS.items()))
    available_delta = models.IntegerField(default=0)
    total_delta = models.IntegerField(default=0)
    banked_delta = models.IntegerField(default=0)
    trait_key = models.CharField(max_length=200, blank=True)
    bank_key = models.CharField(
        max_length=200, blank=True, help_text="The trait whose banked XP banked_delta changes."
    )
    rank_from = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_to = models.PositiveSmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    # Written by the character's creation (its starting XP, merits, flaws and purchases while
    # building it): a character with no rolls and no entry but these may still be deleted.
    at_creation = models.BooleanField(default=False)
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
