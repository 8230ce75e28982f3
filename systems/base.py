"""The sheet layer's contract: how a system lays out, changes and rolls its sheet.

The shared shape lives once: one ``Character`` (its sheet as JSON in ``Character.sheet``), one
``XpEntry`` ledger, one ``Roll`` log, one campaign (``Campaign.system_data``) and one set of
views (``characters.views``, ``rolls.views``, ``campaigns.views``) that ask the campaign's
:class:`SheetSystem` what to show and what each change means. Adding a system means a rules
package in ``rulesets/``, a package in ``systems/`` (its ``SheetSystem``, its templates and
stylesheet; its own ``urls.py`` and ``views.py`` only where it has pages of its own, as
Maelstrom's creation steps), and its line in ``INSTALLED_APPS``; nothing in ``rolls/`` or
``campaigns/``.

:class:`SheetSystem` is put together from small parts, each a class of hooks with defaults, so
that a system overrides what its rules have and nothing else:

- :class:`SystemPart`: the slug, and where the system's templates and stylesheet are;
- :class:`SheetPart`: the sheet and the party card, and what a stored sheet may hold;
- :class:`CreationPart`: how a character is made, and the XP it starts with;
- :class:`TracksPart`: the changes made in place on the sheet (:class:`TrackAction`);
- :class:`RollingPart`: the roll dialog, its odds, follow-ups (:class:`RollAction`), the GM's
  requests, and what a stored roll may claim;
- :class:`AdvancementPart` (:mod:`systems.advancement`): what XP buys (:class:`Advance`) and
  the XP page's extras;
- :class:`AwardsPart`: the named awards the GM gives at a session's end;
- :class:`PanelPart`: the campaign's system data and the GM's panel that shows and changes it
  (:class:`CampaignAction`);
- :class:`NpcPart` (:mod:`systems.npcs`): the GM's NPCs' stat block and the tracks the players
  see of a revealed one.
- :class:`EquipmentPart` (:mod:`systems.equipment`): what the system adds to the inventory every
  sheet has (an item's own data and figures, the things done with it in play).
- :class:`InitiativePart` (:mod:`systems.initiative`): how the system orders a fight.
- :class:`ReadingsPart` (:mod:`systems.readings`): the rules a campaign may read another way
  (its rules module's ``READINGS``), chosen on the settings page.
- :class:`HistoryPart` (:mod:`systems.history`): the sheet as facts, for the activity log;
  :class:`LuckPart` (:mod:`systems.luck`): a stored roll's measure against its exact odds.

A system must give its ``slug`` and implement :meth:`RollingPart.roll_form` and
:meth:`RollingPart.roll` (abstract), and :meth:`CreationPart.creation_form` and
:meth:`CreationPart.new_sheet` unless :meth:`CreationPart.creation_url` sends creation to pages
of its own. Every other member has a default. The members marked ``@final`` are helpers the
shared code and templates call and no system overrides.

Every *apply* function of an action runs inside ``transaction.atomic()`` with the row it
changes locked (``SELECT ... FOR UPDATE``) by the generic service that calls it; it changes
the row in memory (``character.sheet``, ``campaign.system_data``) and raises
``rulesets.errors.RuleError`` to refuse, in which case nothing is written.

A system also checks data it did not make itself: :meth:`SheetPart.check_sheet`,
:meth:`PanelPart.check_system_data` and :meth:`RollingPart.check_roll` refuse a stored sheet,
campaign data or roll the rules could never have produced (an import writes rows as they were,
docs/backup.md). The small readers those checks share are in :mod:`systems.stored`.
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, final

from django import forms

from rolls.rolled import NPC_PREFIX, RolledResult
from rulesets.errors import RuleError
from systems.advancement import Advance, AdvancementPart, SpendForm
from systems.equipment import EquipmentPart
from systems.history import HistoryPart
from systems.initiative import InitiativePart
from systems.luck import LuckPart
from systems.npcs import NpcPart, TrackLine
from systems.part import SystemPart
from systems.readings import ReadingsPart

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng

__all__ = [
    "Advance",
    "AdvancementPart",
    "AwardsPart",
    "CampaignAction",
    "CreationPart",
    "PanelPart",
    "RollAction",
    "RollHeader",
    "RolledResult",
    "RollingPart",
    "SheetPart",
    "SheetSystem",
    "SpendForm",
    "SystemPart",
    "NpcPart",
    "TrackAction",
    "TrackLine",
    "TracksPart",
]


# --- what every part shares -----------------------------------------------------------------


# --- the sheet ------------------------------------------------------------------------------


@dataclass(kw_only=True)
class SheetPart(SystemPart):
    """The character's sheet as the system draws it (``sheet.html``, the GM's ``_card.html``),
    and what a stored sheet may hold.

    ``sheet.html`` extends ``systems/_sheet.html`` and names its partials after the DOM ids
    they replace; the live refresh asks for the regions of :attr:`TracksPart.live_tracks`,
    :attr:`AdvancementPart.live_xp` and ``recent-rolls``, each rendered alone.
    """

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """What ``sheet.html`` needs beyond the character, in a fixed number of database
        queries whatever the sheet holds (each system's sheet tests pin it); the frame
        (``systems/_sheet.html``) reads ``sheet_subtitle`` from it, if any, after the concept
        (a Genesys character's career). ``{}`` by default."""
        return {}

    def card_context(self, character: Character) -> dict[str, Any]:
        """What the GM's party card (``_card.html``, ``card`` in its context) needs beyond
        ``character``, which is added, without database queries. ``{}`` by default."""
        return {}

    def is_out_of_play(self, character: Character) -> bool:
        """Whether the character is out of the story by the system's rules (Maelstrom: dead),
        so that an award "for everyone" and a roll request for the party pass it over and the
        dashboard lists it apart. Reads the sheet, no queries. False by default."""
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
                ``system_data`` with :meth:`PanelPart.check_system_data` first); the sheet is
                read against it (trait names, the die steps table) without queries.

        Raises:
            RuleError: naming the first value the rules refuse and citing the rule (as a
                refused change on the sheet does), or ``systems.stored.RULE_STORED`` for a
                value of the wrong shape. On a shape it does not expect at all a check may
                instead raise KeyError, TypeError, ValueError, AttributeError or IndexError;
                the caller reports those as an unreadable sheet.

        The default accepts any object: a system without checks of its own is still guarded
        by its readers, which ``transfer.checks`` runs on the unsaved character
        (:meth:`sheet_context`, :meth:`card_context`, :meth:`AdvancementPart.advances`), so
        a sheet its pages cannot draw is refused as unreadable.
        """


# --- creation -------------------------------------------------------------------------------


@dataclass(kw_only=True)
class CreationPart(SystemPart):
    """How a new character is made: on the one-form creation page (``create.html``, with
    :meth:`creation_form`, :meth:`new_sheet` and :meth:`creation_xp`), or on pages of the
    system's own (:meth:`creation_url`), and what of the ledger its creation writes."""

    uses_starting_xp: ClassVar[bool] = False
    """Whether a new character of this system starts with the campaign's starting XP
    (``Campaign.starting_xp``, written as the ledger's first entry by :meth:`creation_xp` or
    the system's own creation pages). False where the rules give a new character none
    (Shattered World: XP is achievements, earned in play) or say nothing of it (Shahquest):
    the campaign forms then hide the field, or name the systems it applies to."""

    creation_entry_kinds: ClassVar[tuple[str, ...]] = ("starting",)
    """The ``XpEntry.Kind`` values only a character's creation writes in this system (its
    starting XP; Maelstrom's merits and flaws too). Where a ledger entry's creation mark
    (``XpEntry.at_creation``) cannot be taken as recorded, it is read from its kind: an
    export file of format version 2, which had no mark, and a player's import, whose file is
    the player's word (``transfer.imports``). A purchase made while building a character
    cannot be told from a later one by its kind, so there it counts as later."""

    def creation_url(self, campaign: Campaign) -> str | None:
        """Where a new character of ``campaign`` is made when the system has creation pages
        of its own (Maelstrom's steps: ``systems/<slug>/urls.py``, included by the root
        URLconf under the slug's namespace), or ``None`` (the default) for the one-form
        creation page (:meth:`creation_form`, :meth:`new_sheet`, :meth:`creation_xp`)."""
        return None

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> forms.Form:
        """The one-form creation page's form, bound to ``data`` (the POST) or unbound; its
        ``cleaned_data`` holds ``name`` and may hold ``concept``, and its ``clean()`` checks
        the rules and names the one broken. Required unless :meth:`creation_url` gives pages
        of the system's own; the default raises NotImplementedError."""
        raise NotImplementedError

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The new character's ``Character.sheet`` (a JSON object) from the valid creation
        form's ``cleaned_data``. Raises RuleError for a sheet the rules refuse. Required
        unless :meth:`creation_url` gives pages of the system's own; the default raises
        NotImplementedError."""
        raise NotImplementedError

    def creation_xp(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> int:
        """The new character's starting XP, written as the ledger's first entry (0 writes
        none): the campaign's where the system :attr:`uses_starting_xp`, else 0."""
        return int(campaign.starting_xp) if self.uses_starting_xp else 0

    def in_creation(self, character: Character) -> bool:
        """Whether ``character`` is still being built after its row was written (Genesys
        spends its starting XP on the XP page until its creation is finished), so that what
        the XP services write meanwhile is marked as its creation's (``XpEntry.at_creation``)
        and does not keep it from being deleted. Reads the sheet, no queries. False by
        default: a character is built in one step (a form, or pages of the system's own
        that write it whole)."""
        return False


# --- tracks: changes in place ---------------------------------------------------------------


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
        on_xp_page: the form is on the XP page, not the sheet (a system's own extras there,
            :meth:`AdvancementPart.xp_context`: Maelstrom's banking): the HTMX answer is the
            XP page's ``xp-panel`` and a plain POST returns to the XP page; ``partial`` is
            then unused.
    """

    form: type[forms.Form]
    apply: Callable[[Character, dict[str, Any], User], str]
    partial: str
    gm_only: bool = False
    needs_character: bool = False
    on_xp_page: bool = False


@dataclass(kw_only=True)
class TracksPart(SystemPart):
    """The changes a player (or the GM) makes in place on the sheet: damage marked, a stress
    step, a plot point spent, XP banked. One generic endpoint
    (``characters:character-action``) validates the action's form and lets its rule change
    the locked character (``characters.services.sheet_change``)."""

    actions: Mapping[str, TrackAction] = field(default_factory=dict)
    """The sheet's in-place changes by name, the name being the URL's ``<action>``
    (``/characters/<pk>/sheet/<action>/``); an unknown name is a 404, and a ``gm_only`` one
    too for players. Empty by default: a sheet changed only by XP and rolls."""

    live_tracks: ClassVar[tuple[str, ...]] = ("sheet-tracks",)
    """The sheet's regions a track change redraws (``trackChanged-<id>``): DOM ids, each the
    name of a ``{% partialdef %}`` of the system's ``sheet.html`` that draws it alone
    (core/regions.py)."""


# --- rolling --------------------------------------------------------------------------------


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


_TRAILING_PARENTHESES = re.compile(r"^(?P<head>[^()]+?) \((?P<inner>[^()]*)\)$")


@dataclass(kw_only=True)
class RollingPart(SystemPart):
    """The roll dialog (``roll_form``, its odds, the roll itself), follow-ups on a stored roll,
    what the GM may ask the players to roll, and how a stored roll reads and what it may
    claim. ``_roll.html`` draws one roll's dice and outcome (``roll`` in its context)."""

    roll_actions: Mapping[str, RollAction] = field(default_factory=dict)
    """Follow-ups on a stored roll by name, the name being the URL's ``<action>``
    (``rolls:roll-act``, ``/rolls/<code>/act/<action>/``); an unknown name is a 404. Empty
    by default: a roll is over once rolled."""

    roll_locks_campaign: ClassVar[bool] = False
    """Whether a roll may change the campaign's row (Genesys: a Destiny flip moves a point of
    the campaign's pool): the roll service then locks the campaign before the character, the
    order a seat's change takes them, so the two never deadlock. False by default."""

    @abstractmethod
    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        """The roll dialog's form for this character, bound to ``data`` (the POST, or the
        odds preview's GET) or unbound; :meth:`roll` and :meth:`odds` take its
        ``cleaned_data``."""

    @abstractmethod
    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Build the pool from the sheet and roll it with ``rng`` (the server's dice), the
        form's data with :data:`systems.initiative.ENCOUNTER_TURN` added. Runs locked in the
        transaction and may change ``character.sheet`` (plot points spent); the caller saves
        it and stores the roll. Raises RuleError for an illegal pool."""

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The exact odds of the pool the form describes, as ``rolls/_odds.html``'s context:
        ``"odds"`` (any true value: there are odds to show), ``"pool"`` (its ``notes`` are
        listed), ``"pool_text"`` (the pool in words), ``"odds_rows"``: ``[(label,
        probability 0-1, text, more_is_better)]`` drawn as meters, ``"odds_lines"``: more
        sentences, ``"odds_headline"``: the phone's roll bar. Raises RuleError for an
        illegal pool (the box shows its message instead). ``{}`` by default: no odds
        shown."""
        return {}

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> forms.Form | None:
        """What the GM may ask the players to roll, in campaign-wide terms (a skill and a
        difficulty; a statistic and a target number), bound to ``data`` or unbound, or
        ``None`` (the default) when the system has no requests. Its fields are shown in the
        dashboard's "Ask for a roll" form."""
        return None

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The roll dialog's data (as the dialog would POST it: field name -> value or list
        of values) that answers the GM's request (:meth:`request_form`'s ``cleaned_data``)
        for ``character``, and the request in words ("Athletics (Brawn), Average"). Raises
        RuleError, naming why, when this character cannot make that roll; the generic
        service also checks the data with :meth:`roll_form` and :meth:`odds` before
        anything is asked. The default refuses: no requests."""
        raise RuleError("This system has no roll requests yet.", "Roll requests")

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

    @final
    def roll_description(self, roll: Roll) -> str:
        """``roll.description`` without the "NPC: " an NPC quick roll's carries: what
        :meth:`roll_header` reads. Told by the words, not by ``roll.kind`` (see
        :meth:`roll_header`); no pool a character rolls is described starting so."""
        return roll.description.removeprefix(NPC_PREFIX)

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


# --- awards: what XP is earned for ----------------------------------------------------------


@dataclass(kw_only=True)
class AwardsPart(SystemPart):
    """The named awards the GM ticks per character at a session's end (the session page's
    award grid, ``table.services.session_award``), beside the custom amounts every system
    has. The defaults name none."""

    rule_earning: ClassVar[str] = "Earning experience"
    """What the shared award services cite when they refuse an award (an amount out of
    range, no reason): the system's own rule for earning XP."""

    def session_awards(self, campaign: Campaign) -> tuple[str, ...]:
        """The named awards the GM can tick per character at the end of a session (Shattered
        World's universal achievements), in the order the award grid shows them; ``()`` (the
        default) when the system has only custom amounts."""
        return ()

    def session_awards_help(self, campaign: Campaign) -> str:
        """The sentence above the award grid saying what the named awards are worth, or
        ``""`` (the default) for none. Where there is one, the XP page's award box offers
        the named awards too (Maelstrom's chapter and story awards)."""
        return ""

    def award_label(self, name: str) -> str:
        """How the XP page's award box reads the named award ``name`` (Maelstrom:
        "Participation (chapter)"); the name itself by default."""
        return name

    def session_award(self, character: Character, name: str, *, by: User,
                      session: Any) -> XpEntry:
        """Give ``character`` the named award ``name`` as a ledger entry linked to ``session``
        (through ``characters.ledger.ledger_append``) and return it. Should be called while
        holding a SELECT FOR UPDATE lock on the character. Raises RuleError to refuse it (a
        milestone already earned); the default refuses every name."""
        raise RuleError(f"{name!r} is not an award of this system.", "Sessions and awards")


# --- the campaign and the GM's panel --------------------------------------------------------


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


@dataclass(kw_only=True)
class PanelPart(SystemPart):
    """What the system keeps per campaign (``Campaign.system_data``: a skill list, trait names,
    a die chart, the tension pool) and the GM's panel that shows and changes it
    (``dashboard.html``, partial ``system-panel``). The defaults keep nothing."""

    campaign_actions: Mapping[str, CampaignAction] = field(default_factory=dict)
    """The GM's changes of the campaign's system data by name, the name being the URL's
    ``<action>`` (``table:campaign-system-action``, ``/campaigns/<pk>/system/<action>/``);
    an unknown name is a 404, and every one is a 404 for players. Empty by default."""

    system_data_roll_ids: tuple[tuple[str, str], ...] = ()
    """Where ``Campaign.system_data`` keeps ids of ``Roll`` rows: ``(key, id_key)`` pairs,
    each meaning ``system_data[key][id_key]`` is a roll's pk (or ``None``) when
    ``system_data[key]`` is an object. A campaign export turns them into the file's roll
    numbers and an import back into the new rows' ids (``transfer.format``); ``()`` when
    the data holds none."""

    panel_in_play: ClassVar[bool] = False
    """Whether the GM's panel is played with at the table (Shahquest's tension pool: the
    dashboard shows it beside the party and the rolls), rather than the campaign's
    configuration (a skill list, trait names, a buy-in catalogue), which only the settings
    page shows, so that the dashboard's first screen is play. False by default."""

    def default_system_data(self) -> dict[str, Any]:
        """A new campaign's ``system_data`` (skill list, trait names, die chart, tension
        pool), a JSON object; ``{}`` by default."""
        return {}

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """What the GM's ``dashboard.html`` panel needs beyond ``campaign``, without database
        queries. ``{}`` by default."""
        return {}

    @property
    @final
    def template_dashboard(self) -> str:
        """The GM's panel (``systems/<slug>/dashboard.html``): on the settings page always,
        and on the dashboard too when :attr:`panel_in_play` says the table uses it in play."""
        return self.template("dashboard.html")

    def check_system_data(self, data: dict[str, Any]) -> None:
        """Refuse campaign data the rules could never have produced, before it is stored
        (an import writes ``Campaign.system_data`` as the file holds it: docs/backup.md).

        Args:
            data: the would-be ``Campaign.system_data``, a JSON object (the caller has
                checked that much); it is not changed.

        Raises:
            RuleError: naming the first value the rules refuse and citing the rule (a die
                steps table that shrinks: "Shattered World Core Engine, ..."), or
                ``systems.stored.RULE_STORED`` for a value of the wrong shape. On a shape it
                does not expect at all a check may instead raise KeyError, TypeError,
                ValueError, AttributeError or IndexError; the caller reports those as
                unreadable data.

        The default accepts any object: a system without checks of its own still has its
        GM panel drawn from the data once it is written (``transfer.checks``), which refuses
        what :meth:`dashboard_context` cannot read.
        """


# --- the whole contract ---------------------------------------------------------------------


@dataclass(kw_only=True)
class SheetSystem(SheetPart, CreationPart, TracksPart, RollingPart, AdvancementPart,
                  AwardsPart, PanelPart, NpcPart, EquipmentPart, InitiativePart,
                  ReadingsPart, HistoryPart, LuckPart):
    """How one system's sheet is built, shown, changed, rolled and advanced: every part of the
    contract in one object, which the generic views get from :mod:`systems.registry` and
    call.

    A system subclasses it (``systems/<slug>/system.py``, exporting ``SYSTEM`` built with
    its ``slug`` and its actions) and overrides the hooks its rules need; the parts say what
    each default does. Its templates live in the package's own ``templates/``, named
    ``systems/<slug>/...``: ``create.html`` (:class:`CreationPart`), ``sheet.html`` and
    ``_card.html`` (:class:`SheetPart`), ``_roll.html`` (:class:`RollingPart`), ``xp.html``
    (:class:`AdvancementPart`) and ``dashboard.html`` (:class:`PanelPart`).
    """
