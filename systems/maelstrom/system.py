"""Maelstrom's sheet on the shared layer: traits as dots in the seed's groups, specialties under
their ability, Willpower, the health chart, merits and flaws; XP bought dot by dot with banked
XP first; the seed's chapter and story awards (Maelstrom rules.md; docs/rules.md).

The rules live in :mod:`rulesets.maelstrom`; the sheet's shape and its readers in
:mod:`systems.maelstrom.sheet`; its changes in :mod:`~systems.maelstrom.actions`; its rolls
in :mod:`~systems.maelstrom.rolling`; its creation steps in
:mod:`~systems.maelstrom.creation` (pages of their own: :meth:`Maelstrom.creation_url`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.urls import reverse

from characters.ledger import banked_xp
from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.maelstrom.luck import MEASURE as LUCK_MEASURE
from rulesets.maelstrom.storage import LedgerKind
from systems import Advance, RolledResult, SheetSystem
from systems.base import RollHeader
from systems.maelstrom import history, luck, npcs, rolling
from systems.maelstrom.actions import (
    ACTIONS,
    AWARDS_HELP,
    SESSION_AWARDS,
    award_label,
    session_award,
)
from systems.maelstrom.checks import (
    SPECIALTY_NAME_MAX,
    check_roll,
    check_sheet,
)
from systems.maelstrom.equipment import ITEM_ACTIONS, MaelstromEquipment
from systems.maelstrom.forms import (
    ADVANCED_SPECIALTY,
    DAMAGE_CHOICES,
    HEAL_CHOICES,
    BankForm,
    MeritFlawGrantForm,
    MeritFlawRemoveForm,
    SpendForm,
)
from systems.maelstrom.sheet import (
    ABILITY,
    ATTRIBUTE,
    GROUPS,
    SLUG,
    SPECIALTY,
    WILLPOWER_KEY,
    health,
    incapacitation_resolved,
    is_dead,
    trait_key,
    trait_label,
    trait_refs,
    willpower,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character, XpEntry
    from rolls.models import Roll
    from rulesets.dice import Rng
    from rulesets.luck import RollLuck
    from systems.npcs import TrackLine

RULE_INEPT = "Maelstrom rules.md, Flaws"
RULE_SPENDING = "Maelstrom rules.md, Spending Experience"
RULE_SPECIALTIES = "Maelstrom rules.md, Specialties"

# The XP page holds several forms with an "amount" field: distinct ids keep each label on
# its own input.
BANK_IDS = "bank_%s"

# The seed's advanced specialties, suggested for the GM's required specialties on every sheet.
_CATALOGUE_ADVANCED = frozenset(
    name for info in maelstrom.ABILITIES.values() for name in info.advanced_specialties
)

_MARK_LABELS = {"/": "bashing", "X": "lethal", "*": "aggravated"}


def _dots(value: int, maximum: int, on: str = "●", off: str = "○") -> str:
    """``maximum`` dot characters, the first ``value`` of them filled: ``●●●○○``.

    Built here rather than by a loop in the template: the sheet draws some forty of these.
    """
    filled = max(0, min(value, maximum))
    return on * filled + off * (maximum - filled)


def _dots_label(name: str, value: int) -> str:
    """A trait's dots as a screen reader hears them: ``Driving: 3 dots``, ``Melee: 1 dot``."""
    return f"{name}: {value} dot{'' if value == 1 else 's'}"


def health_context(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The health chart as the sheet and the GM's card draw it: ``chart`` (the engine's
    :class:`~rulesets.maelstrom.HealthChart`), ``boxes`` (name, penalty, mark, label,
    penalty_text, filled, aria per box, top to bottom) and the damage and heal forms'
    choices. No queries (Maelstrom rules.md, Marking Damage)."""
    chart = health(sheet)
    boxes = []
    for (name, penalty), mark in zip(chart.levels(), chart.marks(), strict=True):
        label = _MARK_LABELS.get(mark, "empty")
        # The sheet prints penalty_text, filled and aria as they are (fewer template tests).
        boxes.append({"name": name, "penalty": penalty, "mark": mark, "label": label,
                      "penalty_text": "—" if penalty is None else str(penalty),
                      "filled": mark != maelstrom.EMPTY_MARK, "aria": f"{name}: {label}"})
    return {"chart": chart, "boxes": boxes, "damage_choices": DAMAGE_CHOICES,
            "heal_choices": HEAL_CHOICES}


def willpower_context(sheet: Mapping[str, Any], banked: Mapping[str, int]) -> dict[str, Any]:
    """Willpower as the sheet draws it (Maelstrom rules.md, Willpower): ``wp`` with
    ``permanent`` and ``current`` (ranks), ``permanent_dots`` (``●●●○○○○○○○``),
    ``current_dots`` (``■■□□□□□□□□``), ``banked`` (XP banked in it) and ``resolved`` (at
    zero, the incapacitation resolved: Zero Willpower)."""
    permanent, current = willpower(sheet)
    return {"wp": {
        "permanent": permanent, "current": current,
        "resolved": incapacitation_resolved(sheet),
        "permanent_dots": _dots(permanent, maelstrom.WILLPOWER_MAX),
        "current_dots": _dots(current, maelstrom.WILLPOWER_MAX, on="■", off="□"),
        "banked": banked.get(WILLPOWER_KEY, 0),
    }}


def _layout(sheet: Mapping[str, Any], banked: Mapping[str, int]) -> dict[str, Any]:
    """The traits grouped as the seed's sheet does: ``attributes`` and ``abilities`` as
    ``{group: [row]}`` in the catalogue's order, each row a dict (name, dots, label, banked),
    an ability's with its ``specialties`` sorted by name."""
    specialties: dict[str, list[dict[str, Any]]] = {}
    for s in sheet.get("specialties", []):
        specialties.setdefault(s["ability"], []).append(s)
    attributes: dict[str, list[dict[str, Any]]] = {g: [] for g in maelstrom.ATTRIBUTE_GROUPS}
    abilities: dict[str, list[dict[str, Any]]] = {g: [] for g in maelstrom.ABILITY_GROUPS}
    for ref in trait_refs(sheet).values():
        # Plain values the trait-row partial prints as they are.
        row: dict[str, Any] = {"name": ref.name, "dots": _dots(ref.dots, maelstrom.DOTS_MAX),
                               "label": _dots_label(ref.name, ref.dots),
                               "banked": banked.get(trait_key(ref.kind, ref.name), 0)}
        if ref.kind == ATTRIBUTE:
            attributes[ref.group].append(row)
        else:
            row["specialties"] = sorted(specialties.get(ref.name, []), key=lambda s: s["name"])
            abilities[ref.group].append(row)
    return {"attributes": attributes, "abilities": abilities}


def _specialty(key: str, *, as_typed: bool = False) -> tuple[str, str, bool]:
    """``(ability, name, advanced)`` of a specialty request key (``specialty:A:N`` or
    ``advanced-specialty:A:N``), the name's spaces squeezed. Unless ``as_typed``, the seed's
    classification of its suggestions wins, and their spelling ("extreme range" is the
    advanced "Extreme Range")."""
    kind, _, rest = key.partition(":")
    ability, _, name = rest.partition(":")
    name = " ".join(name.split())
    advanced = kind == ADVANCED_SPECIALTY
    suggestion = None if as_typed else maelstrom.suggested_specialty(ability, name)
    if suggestion is not None:
        name, advanced = suggestion
    return ability, name, advanced


def _owns_specialty(sheet: Mapping[str, Any], ability: str, name: str) -> bool:
    return any(s["ability"] == ability and s["name"].casefold() == name.casefold()
               for s in sheet.get("specialties", []))


@dataclass
class Maelstrom(MaelstromEquipment, SheetSystem):
    """Maelstrom's sheet (Maelstrom rules.md; RULES.md section 1)."""
    live_tracks = ("health-track", "willpower-track", "wound-penalty-note", "merits-flaws-list")

    rule_spending = RULE_SPENDING
    rule_earning = "Maelstrom rules.md, Earning Experience"
    # The creation steps write the starting XP, then a line for each merit and flaw chosen
    # (systems.maelstrom.creation); nothing after creation writes those kinds.
    creation_entry_kinds = ("starting", LedgerKind.MERIT, LedgerKind.FLAW)
    # "Starting XP set by the storyteller per campaign" (Maelstrom rules.md, Character
    # Creation): the creation steps spend the campaign's starting XP.
    uses_starting_xp = True
    # Banking Experience (Maelstrom rules.md): XP banked in a trait pays for it first.
    banks_xp = True

    # --- creation --------------------------------------------------------------------------

    def creation_url(self, campaign: Campaign) -> str | None:
        """The creation steps (``maelstrom:character-create``)."""
        return reverse("maelstrom:character-create", args=[campaign.pk])

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Health, Willpower, traits, specialties, merits and flaws as the rules make them
        (:func:`systems.maelstrom.checks.check_sheet`). Raises RuleError naming the first
        value refused."""
        check_sheet(sheet, campaign)

    def check_roll(self, roll: Roll, parent: Roll | None) -> None:
        """The dice its pool rolls, and what they give (:func:`systems.maelstrom.checks.
        check_roll`). Raises RuleError naming the first disagreement."""
        check_roll(roll, parent)

    # --- the sheet -------------------------------------------------------------------------

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The traits in the seed's groups with their dots and banks, the health chart,
        Willpower, merits and flaws, XP banked in all, and the advanced specialties the
        roll dialog suggests; for the GM, the forms that grant and remove a merit or flaw
        (Maelstrom rules.md, Merits and Flaws). One query: the banks (from the ledger; none
        for a character not saved yet, as an import reads it before writing it)."""
        sheet = character.sheet
        banked = banked_xp(character) if character.pk is not None else {}
        merits_flaws = sheet.get("merits_flaws", [])
        own_advanced = {s["name"] for s in sheet.get("specialties", []) if s.get("advanced")}
        return {
            **_layout(sheet, banked),
            **health_context(sheet),
            **willpower_context(sheet, banked),
            "merits": [m for m in merits_flaws if m["kind"] == "merit"],
            "flaws": [m for m in merits_flaws if m["kind"] == "flaw"],
            "banked_total": sum(banked.values()),
            # Suggestions for the GM's required specialties: the seed's advanced ones and the
            # character's own (Maelstrom rules.md, Required Specialties).
            "advanced_specialties": sorted(_CATALOGUE_ADVANCED | own_advanced),
            **({"merit_grant_form": MeritFlawGrantForm(auto_id="merit-grant-%s"),
                "merit_remove_form": MeritFlawRemoveForm(character=character,
                                                         auto_id="merit-remove-%s")}
               if is_gm else {}),
        }

    def card_context(self, character: Character) -> dict[str, Any]:
        """The GM's card: the health boxes with their names and marks, the wound level and
        Willpower (XP is the character's). No queries."""
        permanent, current = willpower(character.sheet)
        return {**health_context(character.sheet),
                "wp": {"permanent": permanent, "current": current}}

    def is_out_of_play(self, character: Character) -> bool:
        """Dead (Maelstrom rules.md, Incapacitation and Death)."""
        return is_dead(character.sheet)

    # --- NPCs (systems.maelstrom.npcs) -----------------------------------------------------

    def npc_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                 ) -> forms.Form:
        """The stat block (:class:`~systems.maelstrom.npcs.NpcForm`): every trait at its
        dots, the rules checked, no allotment or XP spent."""
        return npcs.NpcForm(data)

    def npc_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The stat block's sheet (:func:`systems.maelstrom.npcs.npc_sheet`)."""
        return npcs.npc_sheet(cleaned_data)

    def track_lines(self, character: Character) -> list[TrackLine]:
        """Health and Willpower in words (:func:`systems.maelstrom.npcs.track_lines`)."""
        return npcs.track_lines(character)

    # --- XP --------------------------------------------------------------------------------

    def quote(self, character: Character, key: str) -> Advance:
        """Price the next dot of ``key`` (Maelstrom rules.md, Spending Experience): an
        attribute 15 XP, an ability new rank × 2, Willpower new rank × 1, a general specialty
        2, an advanced one 3; ``bank_key`` names the bank that pays first (an ability's also
        pays for its specialties). No queries.

        Args:
            key: ``attribute:Strength``, ``ability:Driving``, ``willpower``, or a new
                specialty ``specialty:Driving:Cars`` (general) /
                ``advanced-specialty:Driving:Cars``; the seed's classification of its
                suggested specialties wins, and their spelling.

        Returns:
            An :class:`~systems.Advance` whose ``key`` is the ledger key
            (``specialty:Driving:Cars`` for both specialty kinds) and ``label`` e.g.
            "Driving 3 → 4" or "Driving: Cars (general) 0 → 1".

        Raises:
            RuleError: a trait at its maximum, an unknown trait or kind, a specialty of an
                unknown ability, unnamed, or already owned.
        """
        sheet = character.sheet
        kind, _, name = key.partition(":")
        if key == WILLPOWER_KEY:
            current, xp_kind, ledger_key, bank_key = (willpower(sheet)[0], WILLPOWER_KEY,
                                                      WILLPOWER_KEY, WILLPOWER_KEY)
            label = "Willpower"
        elif kind in (ATTRIBUTE, ABILITY):
            ref = trait_refs(sheet).get(name)
            if ref is None or ref.kind != kind:
                raise RuleError(f"{name} is not a Maelstrom {kind}.", RULE_SPENDING)
            current, xp_kind, ledger_key, bank_key, label = ref.dots, kind, key, key, name
        elif kind in (SPECIALTY, ADVANCED_SPECIALTY):
            ability, name, _ = _specialty(key, as_typed=True)
            if not name:
                raise RuleError("Name the specialty.", RULE_SPENDING)
            if ability not in maelstrom.ABILITIES:
                raise RuleError(f"{ability!r} is not a Maelstrom ability; a specialty belongs "
                                "to one ability.", RULE_SPECIALTIES)
            if len(name) > SPECIALTY_NAME_MAX or ":" in name:
                raise RuleError(f"A specialty's name is one line of at most "
                                f"{SPECIALTY_NAME_MAX} characters, without a colon.",
                                RULE_SPECIALTIES)
            if _owns_specialty(sheet, ability, name):
                raise RuleError(f"{ability}: {name} is already a specialty of this character.",
                                RULE_SPECIALTIES)
            ability, name, advanced = _specialty(key)
            current = 0
            xp_kind = "advanced_specialty" if advanced else "general_specialty"
            ledger_key = trait_key(SPECIALTY, name, ability)
            bank_key = trait_key(ABILITY, ability)
            label = f"{ability}: {name} ({'advanced' if advanced else 'general'})"
        else:
            raise RuleError(f"Unknown trait kind {kind!r}.", RULE_SPENDING)
        cost = maelstrom.xp_cost(xp_kind, current + 1)
        return Advance(key=ledger_key, label=f"{label} {current} → {current + 1}",
                       rank_from=current, rank_to=current + 1, cost=cost, bank_key=bank_key)

    def advances(self, character: Character) -> list[Advance]:
        """None listed: Maelstrom's XP page names what to buy in its own form (a trait from
        the list, or a new specialty: ``_spend.html``), priced by :meth:`quote`."""
        return []

    def rank(self, character: Character, key: str) -> int:
        """The current rank of ledger key ``key``: dots, permanent Willpower, 1 for a
        specialty owned and 0 for one not; -1 for a trait the sheet lacks."""
        sheet = character.sheet
        if key == WILLPOWER_KEY:
            return willpower(sheet)[0]
        kind, _, rest = key.partition(":")
        if kind == SPECIALTY:
            ability, _, name = rest.partition(":")
            return int(any(s["ability"] == ability and s["name"] == name
                           for s in sheet.get("specialties", [])))
        ref = trait_refs(sheet).get(rest)
        return ref.dots if ref is not None and ref.kind == kind else -1

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set ``key`` to ``rank`` on the sheet (a purchase or its undo); the caller holds the
        row lock and saves.

        Willpower raises (or lowers) both ranks: "they gain a dot in both their current and
        maximum ranks" (Maelstrom rules.md, Willpower). A specialty at rank 1 is added, in
        the order acquired, as :meth:`quote` classified it; at rank 0 it is removed.

        Raises:
            RuleError: an undo taking an ability an Inept flaw names down to 0 dots ("an
                ability in which your character has at least one dot": Maelstrom rules.md,
                Flaws, Inept); nothing is changed.
        """
        sheet = dict(character.sheet)
        kind, _, rest = key.partition(":")
        if kind == ABILITY and rank == 0:
            inept = [m for m in sheet.get("merits_flaws", []) if m.get("name") == "Inept"
                     and maelstrom.ability_named(str(m.get("detail", ""))) == rest]
            if inept:
                raise RuleError(f"Inept names {rest}, which keeps at least one dot while the "
                                "flaw stands: the GM removes the flaw first.", RULE_INEPT)
        if key == WILLPOWER_KEY:
            permanent, current = willpower(sheet)
            current = max(0, min(rank, current + rank - permanent))
            sheet["willpower"] = {"permanent": rank, "current": current}
        elif kind in (SPECIALTY, ADVANCED_SPECIALTY):
            ability, name, advanced = _specialty(key)
            owned = [s for s in sheet.get("specialties", [])
                     if not (s["ability"] == ability and s["name"] == name)]
            if rank:
                owned.append({"ability": ability, "name": name, "advanced": advanced})
            sheet["specialties"] = owned
        else:
            group = GROUPS[kind]
            sheet[group] = {**sheet.get(group, {}), rest: rank}
        character.sheet = sheet

    def spend_form(self, character: Character, data: Mapping[str, Any] | None = None
                   ) -> forms.Form:
        """:class:`~systems.maelstrom.forms.SpendForm`: a trait from the list, or a new
        specialty by ability and name."""
        return SpendForm(data, character=character)

    def key_label(self, key: str) -> str:
        """:func:`~systems.maelstrom.sheet.trait_label`: "Driving", "Driving: Cars",
        "Willpower"."""
        return trait_label(key)

    def undo_description(self, character: Character, entry: XpEntry) -> str:
        """What an undo takes back, in dots (Maelstrom rules.md, Spending Experience):
        "Firearms goes back from 3 to 2 dots.", "The specialty Driving: Cars is removed.",
        "Permanent Willpower goes back from 5 to 4 dots, and current Willpower loses a dot
        with it." (a dot bought is one of each: Maelstrom rules.md, Willpower)."""
        label, before, after = trait_label(entry.trait_key), entry.rank_to, entry.rank_from
        if before is None or after is None:
            return super().undo_description(character, entry)
        if entry.trait_key.startswith(f"{SPECIALTY}:"):
            return f"The specialty {label} is removed."
        dots = f"from {before} to {after} dot{'' if after == 1 else 's'}"
        if entry.trait_key == WILLPOWER_KEY:
            return (f"Permanent Willpower goes back {dots}, and current Willpower loses a dot "
                    "with it.")
        return f"{label} goes back {dots}."

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The bank form, the purchase form's template (a trait from the list, or a new
        specialty) and the catalogue's abilities (its specialty suggestions)."""
        return {"bank_form": BankForm(character=character, auto_id=BANK_IDS),
                "spend_template": self.template("_spend.html"),
                "abilities": maelstrom.ABILITIES}

    # --- awards ----------------------------------------------------------------------------

    def session_awards(self, campaign: Campaign) -> tuple[str, ...]:
        """The seed's chapter awards then story awards, 1 XP each (Maelstrom rules.md,
        Chapter and Story Experience Awards)."""
        return SESSION_AWARDS

    def award_label(self, name: str) -> str:
        """"Heroism (chapter)", "Victory (story)"."""
        return award_label(name)

    def session_awards_help(self, campaign: Campaign) -> str:
        """What the award grid's boxes are worth."""
        return AWARDS_HELP

    def session_award(self, character: Character, name: str, *, by: User,
                      session: Any) -> XpEntry:
        """1 XP, reason "<name> award" (:func:`systems.maelstrom.actions.session_award`).
        Needs the row lock. Raises RuleError for a name that is not one of the seed's."""
        return session_award(character, name, by=by, session=session)

    # --- rolls (systems.maelstrom.rolling) -------------------------------------------------

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        """The roll dialog's form (:func:`systems.maelstrom.rolling.roll_form`)."""
        return rolling.roll_form(character, data)

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Roll the dialog's pool (:func:`systems.maelstrom.rolling.roll`)."""
        return rolling.roll(character, cleaned_data, rng)

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The dialog's exact odds (:func:`systems.maelstrom.rolling.odds`)."""
        return rolling.odds(character, cleaned_data)

    def roll_header(self, roll: Roll) -> RollHeader:
        """"Precision + Driving · 7 dice · diff 6", the threshold, specialties, exploding tens
        and automatic successes folded ("threshold 0, specialties Motorcycles, exploding
        tens"), read from the stored description
        (:meth:`rulesets.maelstrom.ActionPool.describe`)."""
        name, _, pool = self.roll_description(roll).partition(": ")
        dice, _, rest = pool.partition(", ")
        difficulty, _, details = rest.partition(", ")
        if not (name and dice.endswith((" dice", " die"))
                and difficulty.startswith("difficulty ")):
            return super().roll_header(roll)
        return RollHeader(
            short=f"{name} · {dice} · diff {difficulty.removeprefix('difficulty ')}",
            details=details)

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> forms.Form | None:
        """What the GM may ask for (:func:`systems.maelstrom.rolling.request_form`)."""
        return rolling.request_form(campaign, data)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The dialog's data answering a request, and the request in words
        (:func:`systems.maelstrom.rolling.request_data`)."""
        return rolling.request_data(character, cleaned_data)

    # --- the table's memory (systems.maelstrom.history, systems.maelstrom.luck) -----------

    luck_measure = LUCK_MEASURE

    def sheet_facts(self, character: Character, sheet: dict[str, Any] | None = None
                    ) -> dict[str, str]:
        """The sheet as facts in its own words
        (:func:`systems.maelstrom.history.sheet_facts`): every trait's dots, each specialty,
        Willpower, the health chart, the merits and flaws. No query."""
        return history.sheet_facts(character.sheet if sheet is None else sheet)

    def roll_luck(self, roll: Roll) -> RollLuck | None:
        """Net successes against their exact odds (:func:`systems.maelstrom.luck.roll_luck`:
        which rolls count). No query."""
        return luck.roll_luck(roll)


SYSTEM = Maelstrom(slug=SLUG, actions=ACTIONS, roll_actions=rolling.ROLL_ACTIONS,
                   item_actions=ITEM_ACTIONS)
"""Maelstrom's sheet layer (``systems.for_ruleset``)."""
