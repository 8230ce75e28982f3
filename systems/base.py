"""The sheet layer's contract: how a system lays out, changes and rolls its sheet.

The shared shape lives once: one ``Character`` (its sheet as JSON in ``Character.sheet``), one
``XpEntry`` ledger, one ``Roll`` log, one campaign (``Campaign.system_data``) and one set of
views (``characters.views``, ``rolls.views``, ``campaigns.views``) that ask the campaign's
:class:`SheetSystem` what to show and what each change means. Adding a system means a rules
package in ``rulesets/``, a package in ``systems/`` (its ``SheetSystem``, its templates and
stylesheet; its own ``urls.py`` and ``views.py`` only where it has pages of its own, as
Maelstrom's creation steps), and its line in ``INSTALLED_APPS``; nothing in ``rolls/`` or
``campaigns/``.

Every *apply* function of an action runs inside ``transaction.atomic()`` with the row it
changes locked (``SELECT ... FOR UPDATE``) by the generic service that calls it; it changes
the row in memory (``character.sheet``, ``campaign.system_data``) and raises
``rulesets.errors.RuleError`` to refuse, in which case nothing is written.

A system also checks data it did not make itself: :meth:`SheetSystem.check_sheet` and
:meth:`SheetSystem.check_system_data` refuse a stored sheet or campaign data the rules could
never have produced (an import writes rows as they were, docs/backup.md). The small readers
below (:func:`require`, :func:`stored_int`, :func:`stored_object`, :func:`stored_names`) are
what those checks share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms

from core.forms import Form
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng

__all__ = [
    "Advance",
    "RULE_STORED",
    "CampaignAction",
    "RollAction",
    "RollHeader",
    "RolledResult",
    "SheetSystem",
    "SpendForm",
    "TrackAction",
    "errors_text",
    "is_whole_number",
    "percent_text",
    "require",
    "stored_int",
    "stored_names",
    "stored_object",
]


def errors_text(form: forms.Form) -> str:
    """A bound, invalid form's errors as one sentence-per-error string, for a message."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def percent_text(probability: float) -> str:
    """A probability (0-1) as the odds box writes it: "84.4 %"; never "0.0 %" or "100.0 %"
    for what can still happen or still fail ("under 0.1 %", "over 99.9 %")."""
    percent = probability * 100
    if 0 < percent < 0.05:
        return "under 0.1 %"
    if 99.95 < percent < 100:
        return "over 99.9 %"
    return f"{percent:.1f} %"


# --- checking stored JSON -------------------------------------------------------------------

RULE_STORED = "Sheetkeeper export format"
"""What a refusal of a stored value's *shape* cites (a list where a list belongs, a whole
number, an object): no game rule states it, the stored shape does, and an export carries
that shape verbatim (docs/backup.md, "The file")."""


def is_whole_number(value: object) -> bool:
    """Whether a stored JSON value is an integer; ``true``/``false`` are not (JSON booleans
    decode to ``bool``, a subclass of ``int``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require(condition: bool, message: str, rule: str = RULE_STORED) -> None:
    """Raise ``RuleError(message, rule)`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(message, rule)


def stored_int(value: object, what: str, low: int, high: int, rule: str = RULE_STORED
               ) -> int:
    """``value`` when it is a whole number from ``low`` to ``high``, else RuleError
    ("<what> must be a whole number from <low> to <high>, not <value>") citing ``rule``."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise RuleError(f"{what} must be a whole number from {low} to {high}, not {value!r}", rule)


def stored_names(value: object, what: str) -> list[str]:
    """``value`` when it is a list of strings, else RuleError ("<what> must be a list of
    names")."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise RuleError(f"{what} must be a list of names", RULE_STORED)


def stored_object(data: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
    """``data[key]`` when it is a JSON object, else RuleError ("<what> ('<key>') must be an
    object, not <value>"; a missing key reads as ``None``)."""
    value = data.get(key)
    if isinstance(value, dict):
        return value
    raise RuleError(f"{what} ({key!r}) must be an object, not {value!r}", RULE_STORED)


class SpendForm(Form):
    """What XP buys: the key of the next rank (as :meth:`SheetSystem.quote` takes it), and on
    confirming, the price the player saw (a changed price is refused). The default
    :meth:`SheetSystem.spend_form`; a system's own keeps ``key`` and ``expected_cost`` in its
    ``cleaned_data``."""

    key = forms.CharField(max_length=200, label="Buy")
    expected_cost = forms.IntegerField(required=False, min_value=0, max_value=100000,
                                       widget=forms.HiddenInput)


@dataclass(frozen=True)
class TrackAction:
    """One in-place change of a character's sheet (a stress step, a plot point, a pool spent).

    Attributes:
        form: the form class that validates the POST (built as ``form(data, character=...)``
            when ``needs_character``, else ``form(data)``).
        apply: ``apply(character, cleaned_data, by) -> message``; runs with the character
            locked inside the transaction and changes ``character.sheet``; the returned
            message is shown on success. Raises RuleError to refuse.
        partial: the partial of ``systems/<slug>/sheet.html`` the HTMX answer
            renders (named after the DOM id it replaces).
        gm_only: only the GM may make this change (an achievement, a setting die).
        needs_character: pass ``character=`` to the form's constructor.
        on_xp_page: the form is on the XP page, not the sheet (Maelstrom's banking): the
            HTMX answer is the XP page's ``xp-panel`` and a plain POST returns to the XP
            page; ``partial`` is then unused.
    """

    form: type[forms.Form]
    apply: Callable[[Character, dict[str, Any], User], str]
    partial: str
    gm_only: bool = False
    needs_character: bool = False
    on_xp_page: bool = False


@dataclass(frozen=True)
class CampaignAction:
    """One GM change of the campaign's system data (the tension pool, the skill list).

    ``apply(campaign, cleaned_data, by, rng) -> (message, roll or None)`` runs with the
    campaign locked inside the transaction and changes ``campaign.system_data`` (it may also
    lock and change characters, and store a roll through ``rolls.services.roll_store``).
    ``partial`` names the partial of ``systems/<slug>/dashboard.html`` the HTMX
    answer renders. Campaign actions are always the GM's.
    """

    form: type[forms.Form]
    apply: Callable[[Campaign, dict[str, Any], User, Rng], tuple[str, Roll | None]]
    partial: str


@dataclass(frozen=True)
class RollAction:
    """A follow-up on a stored roll (Shahquest: pick the effort and effect dice).

    ``apply(roll, character, cleaned_data, by, rng) -> Roll`` runs with the character locked
    and returns the new follow-up Roll (stored with ``parent=roll`` through
    ``rolls.services.roll_store``); the log stays append-only. Only the character's owner
    and the GM may act on it.
    """

    form: type[forms.Form]
    apply: Callable[[Roll, Character, dict[str, Any], User, Rng], Roll]


@dataclass(frozen=True)
class Advance:
    """The price of the next rank of something XP buys, shown before confirming.

    Attributes:
        key: the ledger's ``trait_key`` (``skill:Athletics``, ``buy_in:Hit Points``); the
            key :meth:`SheetSystem.quote` was asked with may say more (Maelstrom's
            ``advanced-specialty:Driving:Cars`` buys the ledger's ``specialty:Driving:Cars``).
        label: what the player reads ("Athletics 2 -> 3").
        rank_from, rank_to: ranks before and after (dots, die size, levels bought).
        cost: XP.
        notes: how the price was made (multipliers), shown with it.
        bank_key: the ledger ``bank_key`` whose banked XP pays for this advance first, the
            rest coming from available XP (Maelstrom rules.md, Spending Experience: "use
            any banked experience points that apply before spending available points");
            ``""`` where the system banks nothing.
    """

    key: str
    label: str
    rank_from: int
    rank_to: int
    cost: int
    notes: tuple[str, ...] = ()
    bank_key: str = ""


@dataclass(frozen=True)
class RolledResult:
    """What :meth:`SheetSystem.roll` hands the roll log to store.

    ``result`` is the engine's result object (``as_dict()`` and ``summary()``); ``outcome``
    one of ``Roll.Outcome`` values; ``description`` the pool in words; ``kind`` one of
    ``Roll.Kind`` values; ``net`` a number the log can sort by (net successes, effort total).
    """

    kind: str
    description: str
    result: Any
    outcome: str
    net: int = 0
    summary: str = ""


@dataclass(frozen=True)
class RollHeader:
    """A stored roll's pool in words, as its result and the logs show it: ``short`` is the
    line read across the table ("Precision + Driving · 7 dice · diff 6"), ``details`` the
    rest of the stored description, folded away ("threshold 0, exploding tens"; ``""`` when
    nothing is left). ``str()`` of it is ``short``, so a template writes
    ``{{ roll|roll_header }}``."""

    short: str
    details: str = ""

    def __str__(self) -> str:
        return self.short


_NPC_PREFIX = "NPC: "
"""What ``rolls.services.npc_roll_create`` puts before an NPC quick roll's pool in words; the
result's header already names the kind ("NPC quick roll")."""

_TRAILING_PARENTHESES = re.compile(r"^(?P<head>[^()]+?) \((?P<inner>[^()]*)\)$")


@dataclass
class SheetSystem:
    """How one system's sheet is built, shown, changed, rolled and advanced.

    Subclasses (``systems/<slug>/system.py``, exporting ``SYSTEM``) override the methods;
    the generic views call only these. Templates live in the package's own ``templates/``,
    named ``systems/<slug>/...``: ``create.html``, ``sheet.html`` (partials named after the
    DOM ids they replace; the live refresh asks for the ids of :attr:`live_tracks`,
    :attr:`live_xp` and ``recent-rolls``, each rendered alone), ``_card.html`` (the GM's
    party card, ``card`` in its context), ``_roll.html`` (one roll's dice and outcome,
    ``roll`` in its context), ``dashboard.html`` (the GM's system panel; partial
    ``system-panel``) and ``xp.html`` (what XP buys).
    """

    slug: str = ""
    rule_spending: ClassVar[str] = "Advancement"
    """What the shared XP services cite when they refuse a purchase or its undo (a price
    changed, a shortfall): the system's own rule for spending XP (Maelstrom: "Maelstrom
    rules.md, Spending Experience")."""
    rule_earning: ClassVar[str] = "Earning experience"
    """What the shared award services cite when they refuse an award (an amount out of
    range, no reason): the system's own rule for earning XP."""
    creation_entry_kinds: ClassVar[tuple[str, ...]] = ("starting",)
    """The ``XpEntry.Kind`` values only a character's creation writes in this system (its
    starting XP; Maelstrom's merits and flaws too). Where a ledger entry's creation mark
    (``XpEntry.at_creation``) cannot be taken as recorded, it is read from its kind: an
    export file of format version 2, which had no mark, and a player's import, whose file is
    the player's word (``transfer.services``). A purchase made while building a character
    cannot be told from a later one by its kind, so there it counts as later."""
    uses_starting_xp: ClassVar[bool] = False
    """Whether a new character of this system starts with the campaign's starting XP
    (``Campaign.starting_xp``, written as the ledger's first entry by
    :meth:`creation_xp` or the system's own creation pages). False where the rules give a new
    character none (Shattered World: XP is achievements, earned in play) or say nothing of it
    (Shahquest): the campaign forms then hide the field, or name the systems it applies to."""
    actions: Mapping[str, TrackAction] = field(default_factory=dict)
    campaign_actions: Mapping[str, CampaignAction] = field(default_factory=dict)
    roll_actions: Mapping[str, RollAction] = field(default_factory=dict)
    system_data_roll_ids: tuple[tuple[str, str], ...] = ()
    """Where ``Campaign.system_data`` keeps ids of ``Roll`` rows: ``(key, id_key)`` pairs,
    each meaning ``system_data[key][id_key]`` is a roll's pk (or ``None``) when
    ``system_data[key]`` is an object. A campaign export turns them into the file's roll
    numbers and an import back into the new rows' ids (``transfer.services``); ``()`` when
    the data holds none."""

    def template(self, name: str) -> str:
        """``systems/<slug>/templates/systems/<slug>/<name>``."""
        return f"systems/{self.slug}/{name}"

    @property
    def stylesheet(self) -> str:
        """The system's own CSS, as a static path (``css/systems/<slug>.css``); base.html
        links it on every page whose context has this ``system`` (sheet, creation, XP,
        dashboard, roll pages)."""
        return f"css/systems/{self.slug}.css"

    @property
    def template_dashboard(self) -> str:
        """The GM's panel (``systems/<slug>/dashboard.html``): on the settings page always,
        and on the dashboard too when :attr:`panel_in_play` says the table uses it in play."""
        return self.template("dashboard.html")

    live_tracks: ClassVar[tuple[str, ...]] = ("sheet-tracks",)
    """The sheet's regions a track change redraws (``trackChanged-<id>``): DOM ids, each
    the name of a ``{% partialdef %}`` of the system's ``sheet.html`` that draws it alone
    (core/regions.py)."""
    live_xp: ClassVar[tuple[str, ...]] = ("sheet-xp",)
    """The sheet's regions an XP change redraws (``xpChanged-<id>``), as :attr:`live_tracks`;
    ``sheet-xp`` is the frame's own (``systems/_sheet.html``) unless the system's sheet
    defines one."""

    panel_in_play: ClassVar[bool] = False
    """Whether the GM's panel is played with at the table (Shahquest's tension pool: the
    dashboard shows it beside the party and the rolls), rather than the campaign's
    configuration (a skill list, trait names, a buy-in catalogue), which only the settings
    page shows, so that the dashboard's first screen is play (issue 17)."""

    @property
    def template_xp(self) -> str:
        """The XP page's extras for this system (``systems/<slug>/xp.html``)."""
        return self.template("xp.html")

    # --- the campaign ----------------------------------------------------------------------

    def default_system_data(self) -> dict[str, Any]:
        """A new campaign's system data (skill list, trait names, die chart, tension pool)."""
        return {}

    def check_system_data(self, data: dict[str, Any]) -> None:
        """Refuse campaign data the rules could never have produced, before it is stored
        (an import writes ``Campaign.system_data`` as the file holds it: docs/backup.md).

        Args:
            data: the would-be ``Campaign.system_data``, a JSON object (the caller has
                checked that much); it is not changed.

        Raises:
            RuleError: naming the first value the rules refuse and citing the rule (a die
                steps table that shrinks: "Shattered World Core Engine, ..."), or
                :data:`RULE_STORED` for a value of the wrong shape. On a shape it does not
                expect at all a check may instead raise KeyError, TypeError, ValueError,
                AttributeError or IndexError; the caller reports those as unreadable data.

        The default accepts any object: a system without checks of its own still has its
        GM panel drawn from the data once it is written (``transfer.checks``), which refuses
        what :meth:`dashboard_context` cannot read.
        """

    # --- creation --------------------------------------------------------------------------

    def creation_url(self, campaign: Campaign) -> str | None:
        """Where a new character of ``campaign`` is made when the system has creation pages
        of its own (Maelstrom's steps: ``systems/<slug>/urls.py``, included by the root
        URLconf under the slug's namespace), or ``None`` for the one-form creation page
        (:meth:`creation_form`, :meth:`new_sheet`, :meth:`creation_xp`)."""
        return None

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> forms.Form:
        """The creation form; its ``clean()`` checks the rules and names the one broken."""
        raise NotImplementedError

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The new character's ``sheet`` from the valid creation form. Raises RuleError."""
        raise NotImplementedError

    def creation_xp(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> int:
        """Starting XP in the ledger: the campaign's where the system
        :attr:`uses_starting_xp`, else 0."""
        return int(campaign.starting_xp) if self.uses_starting_xp else 0

    def in_creation(self, character: Character) -> bool:
        """Whether ``character`` is still being built after its row was written (Genesys
        spends its starting XP on the XP page until its creation is finished), so that what
        the XP services write meanwhile is marked as its creation's (``XpEntry.at_creation``)
        and does not keep it from being deleted. Reads the sheet, no queries. False by
        default: a character is built in one step (a form, or pages of the system's own
        that write it whole)."""
        return False

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Refuse a stored sheet the rules could never have produced (seven dots, a d7, a
        statistic above its maximum), before it is written: an import stores
        ``Character.sheet`` as the file holds it (docs/backup.md) and no action on the site
        could bring such a value back into range.

        Args:
            sheet: the would-be ``Character.sheet``, a JSON object (the caller has checked
                that much); it is not changed.
            campaign: the character's campaign, saved or not (a campaign import checks its
                ``system_data`` with :meth:`check_system_data` first); the sheet is read
                against it (trait names, the die steps table) without queries.

        Raises:
            RuleError: naming the first value the rules refuse and citing the rule (as a
                refused change on the sheet does), or :data:`RULE_STORED` for a value of the
                wrong shape. On a shape it does not expect at all a check may instead raise
                KeyError, TypeError, ValueError, AttributeError or IndexError; the caller
                reports those as an unreadable sheet.

        The default accepts any object: a system without checks of its own is still guarded
        by its readers, which ``transfer.checks`` runs on the unsaved character
        (:meth:`sheet_context`, :meth:`card_context`, :meth:`advances`), so a sheet its
        pages cannot draw is refused as unreadable.
        """

    # --- the sheet -------------------------------------------------------------------------

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """What ``sheet.html`` needs beyond the character, without database queries; the
        frame (``systems/_sheet.html``) reads ``sheet_subtitle`` from it, if any, after the
        concept (a Genesys character's career)."""
        return {}

    def card_context(self, character: Character) -> dict[str, Any]:
        """What ``_card.html`` needs (``character`` is added), without database queries."""
        return {}

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """What the GM's ``dashboard.html`` panel needs, without database queries."""
        return {}

    # --- XP --------------------------------------------------------------------------------

    def advances(self, character: Character) -> list[Advance]:
        """Every next rank XP can buy now (priced), for the XP page's list."""
        return []

    def quote(self, character: Character, key: str) -> Advance:
        """The price of the next rank of ``key``. Raises RuleError (unknown key, at the
        maximum, a prerequisite unmet: the message names it)."""
        raise RuleError("Nothing here is bought with XP.", "Advancement")

    def rank(self, character: Character, key: str) -> int:
        """The current rank of ``key`` on the sheet (for undo's "changed since" check)."""
        raise RuleError("Nothing here is bought with XP.", "Advancement")

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set ``key`` to ``rank`` on ``character.sheet`` (a spend or its undo)."""
        raise RuleError("Nothing here is bought with XP.", "Advancement")

    def spend_form(self, character: Character, data: Mapping[str, Any] | None = None
                   ) -> forms.Form:
        """The XP page's purchase form: its ``cleaned_data`` holds ``key`` (what
        :meth:`quote` prices) and ``expected_cost`` (XP, or ``None`` before confirming).
        The default is :class:`SpendForm`, fed by the page's list of :meth:`advances`."""
        return SpendForm(data)

    def key_label(self, key: str) -> str:
        """A ledger ``trait_key`` in words for the XP page and undo's messages (the part
        after the last colon: ``skill:Athletics`` -> ``Athletics``)."""
        return key.rpartition(":")[2]

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """Extras for the XP page's ``systems/<slug>/xp.html`` (achievements, the buy-in
        catalogue); database queries allowed, it is not a hot page."""
        return {}

    def session_awards(self, campaign: Campaign) -> tuple[str, ...]:
        """The named awards the GM can tick per character at the end of a session (Shattered
        World's universal achievements), in the order the award grid shows them; ``()`` when
        the system has only custom amounts."""
        return ()

    def award_label(self, name: str) -> str:
        """How the XP page's award box reads the named award ``name`` (Maelstrom:
        "Participation (chapter)"); the name itself by default."""
        return name

    def session_awards_help(self, campaign: Campaign) -> str:
        """The sentence above the award grid saying what the named awards are worth; ``""``
        for none."""
        return ""

    def is_out_of_play(self, character: Character) -> bool:
        """Whether the character is out of the story (Maelstrom: dead), so that an award
        "for everyone" passes it over. Reads the sheet, no queries."""
        return False

    def session_award(self, character: Character, name: str, *, by: User,
                      session: Any) -> XpEntry:
        """Give ``character`` the named award ``name`` as a ledger entry linked to ``session``
        (through ``characters.services.ledger_append``). Should be called while holding a
        SELECT FOR UPDATE lock on the character. Raises RuleError to refuse it (a milestone
        already earned)."""
        raise RuleError(f"{name!r} is not an award of this system.", "Sessions and awards")

    # --- rolls -----------------------------------------------------------------------------

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        """The roll dialog's form for this character."""
        raise NotImplementedError

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Build the pool from the sheet and roll it. Runs with the character locked inside
        the transaction and may change ``character.sheet`` (plot points spent); the caller
        saves it and stores the roll. Raises RuleError for an illegal pool."""
        raise NotImplementedError

    def quick_roll_verdict(self, result: Any) -> tuple[str, int]:
        """What the roll log keeps beside an NPC quick roll's result (``rolls.services.
        npc_roll_create``; the GM's notation read by the engine's ``quick_roll``, rolled by its
        ``roll``): ``(outcome, net)``, the outcome one of ``Roll.Outcome`` values, ``net`` a
        number the log can sort by. The summary is the result's own.

        The default is ``("rolled", 0)``: no pass or fail in the system's terms, nothing to
        sort by. A system whose results pass or fail says how (the check of an imported NPC
        roll, :meth:`check_roll`, asks it too)."""
        return "rolled", 0

    def check_roll(self, roll: Roll, parent: Roll | None) -> None:
        """Refuse a stored roll its dice do not bear out, before it is written: an import
        writes ``Roll`` rows as the file holds them (docs/backup.md) and never re-rolls, so
        a roll must hold the dice its pool rolls and claim what its rules make of them.

        A system re-derives with its rules engine what the stored dice give under the
        stored pool: that the dice fit the pool (their count and sizes, bonus and kept dice,
        the faces' symbols), that the result's worked-out values (successes, botches,
        totals, symbols, the summary) and the log's verdict (``roll.outcome``, ``roll.net``,
        ``roll.summary``) are the ones the engine and the system's :meth:`roll` (or its
        follow-up, or the NPC quick roll) would have stored, and that a follow-up follows up
        a roll of the kind the app builds it on, with that roll's dice
        (:mod:`systems.claims` holds what the checks share).

        Args:
            roll: the would-be Roll, unsaved: ``kind``, ``pool``, ``result``, ``outcome``,
                ``net`` and ``summary`` as the file holds them, their shape already checked
                against the system's :class:`~systems.schema.ImportSchema`; it is not
                changed.
            parent: the roll it follows up (unsaved, and checked before it), or ``None``.

        Raises:
            RuleError: naming the first disagreement in a GM's words and citing the rule
                ("7 dice were rolled for a pool of 5", "it claims 9 successes; its dice
                [1, 1] give 0"). On a shape it does not expect at all a check may instead
                raise KeyError, TypeError, ValueError, AttributeError or IndexError; the
                caller reports those as a roll that cannot be read.

        The default accepts any roll: a system without checks of its own still has every
        roll drawn once as its pages draw it (``transfer.checks``), which refuses what its
        ``_roll.html`` cannot draw.
        """

    def roll_header(self, roll: Roll) -> RollHeader:
        """A stored roll's short header and its folded details, computed from
        ``roll.description`` as stored (the log is append-only: an old roll keeps its words,
        and a description the system no longer writes is shown whole).

        Reads ``roll.description`` and at most ``roll.result``, no other column: the sheet's
        recent rolls load only those (``characters.recent.recent_rolls``), and any other
        would cost a query per roll.

        The default drops the "NPC: " of an NPC quick roll, then folds a closing "; ..."
        (what the roll cost) and one closing parenthesis ("(1 favor)", the dice by name):
        "d10 2d8 (Coordination d10, ...); 1 plot point spent" reads "d10 2d8". A system
        overrides it where its pool in words has a shape of its own; each override falls
        back here on a description it does not recognise.
        """
        text = self.roll_description(roll)
        head, _, tail = text.partition("; ")
        details = [tail] if tail else []
        if match := _TRAILING_PARENTHESES.match(head):
            head = match["head"]
            details.insert(0, match["inner"])
        return RollHeader(short=head, details="; ".join(details))

    def roll_description(self, roll: Roll) -> str:
        """``roll.description`` without the "NPC: " an NPC quick roll's carries: what a
        system's :meth:`roll_header` reads. Told by the words, not by ``roll.kind`` (see
        :meth:`roll_header`); no pool a character rolls is described starting so."""
        return roll.description.removeprefix(_NPC_PREFIX)

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> forms.Form | None:
        """What the GM may ask the players to roll, in campaign-wide terms (a skill and a
        difficulty; a statistic and a target number), or ``None`` when the system has no
        requests yet. Its fields are shown in the dashboard's "Ask for a roll" form."""
        return None

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The roll dialog's data (as the dialog would POST it: field name -> value or list
        of values) that answers the GM's request for ``character``, and the request in words
        ("Athletics (Brawn), Average"). Raises RuleError, naming why, when this character
        cannot make that roll; the generic service also checks the data with
        :meth:`roll_form` and :meth:`odds` before anything is asked."""
        raise RuleError("This system has no roll requests yet.", "Roll requests")

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The exact odds of the pool the form describes, as ``rolls/_odds.html``'s context:
        ``"odds"`` (any true value: there are odds to show), ``"pool"`` (its ``notes`` are
        listed), ``"pool_text"`` (the pool in words), ``"odds_rows"``: ``[(label,
        probability 0-1, text, more_is_better)]`` drawn as meters, ``"odds_lines"``: more
        sentences, ``"odds_headline"``: the phone's roll bar. Raises RuleError for an
        illegal pool (the box shows its message instead)."""
        return {}
