"""Creating a Maelstrom character in guided steps (Maelstrom rules.md, Character Creation).

The wizard (``systems.maelstrom.views``) keeps a :class:`Draft` in the session, one step at a
time, and nothing reaches the database until the last step: :func:`finished_character` checks
the whole draft again and turns it into the new sheet and its ledger lines, which the view
writes in one transaction (``characters.services.character_create``), so no half-valid
character is ever saved. Every rule comes from ``rulesets.maelstrom``: the allotments
(``validate_attributes``, ``validate_abilities``), the XP costs (``xp_cost``,
``xp_cost_between``) and the catalogue of abilities, merits and flaws.

Steps: name and concept; attributes; abilities; starting XP (willpower, extra dots,
specialties, merits and flaws); review.

This module sits below the services (it reads and builds data, it writes nothing).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from django import forms

from characters.ledger import LedgerLine
from characters.models import XpEntry
from core.forms import Form
from rulesets import maelstrom
from rulesets.maelstrom import RuleError
from systems.fields import character_name_field
from systems.maelstrom import checks
from systems.maelstrom import sheet as maelstrom_sheet
from systems.maelstrom.sheet import ABILITY, ATTRIBUTE, SPECIALTY, WILLPOWER_KEY, trait_key

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase


def _rule(section: str) -> str:
    return f"{maelstrom.SOURCE}, {section}"


# ---------------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of the wizard: ``slug`` in the URL (``?step=xp``), ``title`` on the page."""

    slug: str
    title: str


STEPS: tuple[Step, ...] = (
    Step("concept", "Name and concept"),
    Step("attributes", "Attributes"),
    Step("abilities", "Abilities"),
    Step("xp", "Starting XP"),
    Step("review", "Review"),
)
STEP_SLUGS: tuple[str, ...] = tuple(step.slug for step in STEPS)


# ---------------------------------------------------------------------------------------------
# The draft
# ---------------------------------------------------------------------------------------------


@dataclass
class Specialty:
    """A specialty bought with starting XP: ``ability`` "Driving", ``name`` "Motorcycles"."""

    ability: str
    name: str
    advanced: bool

    @property
    def xp_kind(self) -> str:
        """The cost kind of ``rulesets.maelstrom.xp_cost``: general or advanced specialty."""
        return "advanced_specialty" if self.advanced else "general_specialty"

    @property
    def label(self) -> str:
        """"Driving: Motorcycles", as the sheet and the ledger name it."""
        return f"{self.ability}: {self.name}"


@dataclass
class MeritFlawChoice:
    """A merit or flaw taken at creation, at one of its listed prices (``points``, in XP)."""

    name: str
    kind: str  # "merit" or "flaw"
    points: int
    detail: str = ""

    @property
    def label(self) -> str:
        """"Addict (nicotine)", or the bare name without a detail."""
        return f"{self.name} ({self.detail})" if self.detail else self.name

    @property
    def price(self) -> str:
        """"gives 1 XP" for a flaw, "costs 4 XP" for a merit (:func:`merit_flaw_price`)."""
        return merit_flaw_price(self.kind, self.points)


@dataclass
class Draft:
    """A character being created, kept in the session until the last step.

    ``attributes`` and ``abilities`` are the ranks from the creation allotment (before XP);
    ``attribute_xp`` and ``ability_xp`` the extra dots bought with starting XP; ``willpower``
    the final rank. ``completed`` lists the steps submitted successfully (each is re-checked
    whenever it matters, because an earlier step may have changed since).
    """

    name: str = ""
    concept: str = ""
    primary: str = ""
    attributes: dict[str, int] = field(default_factory=dict)
    abilities: dict[str, int] = field(default_factory=dict)
    willpower: int = maelstrom.STARTING_WILLPOWER
    attribute_xp: dict[str, int] = field(default_factory=dict)
    ability_xp: dict[str, int] = field(default_factory=dict)
    specialties: list[Specialty] = field(default_factory=list)
    merits_flaws: list[MeritFlawChoice] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)

    def to_session(self) -> dict[str, Any]:
        """A JSON-serialisable dict (lists, dicts, strings, ints, bools)."""
        return asdict(self)

    @classmethod
    def from_session(cls, data: Mapping[str, Any] | None) -> Draft:
        """Rebuild a draft from :meth:`to_session`; anything malformed gives a fresh draft."""
        if not data:
            return cls()
        try:
            return cls(
                name=str(data.get("name", "")),
                concept=str(data.get("concept", "")),
                primary=str(data.get("primary", "")),
                attributes={str(k): int(v) for k, v in data.get("attributes", {}).items()},
                abilities={str(k): int(v) for k, v in data.get("abilities", {}).items()},
                willpower=int(data.get("willpower", maelstrom.STARTING_WILLPOWER)),
                attribute_xp={str(k): int(v) for k, v in data.get("attribute_xp", {}).items()},
                ability_xp={str(k): int(v) for k, v in data.get("ability_xp", {}).items()},
                specialties=[
                    Specialty(str(s["ability"]), str(s["name"]), bool(s["advanced"]))
                    for s in data.get("specialties", [])
                ],
                merits_flaws=[
                    MeritFlawChoice(
                        str(m["name"]), str(m["kind"]), int(m["points"]), str(m.get("detail", ""))
                    )
                    for m in data.get("merits_flaws", [])
                ],
                completed=[str(slug) for slug in data.get("completed", []) if slug in STEP_SLUGS],
            )
        except (AttributeError, KeyError, TypeError, ValueError):
            return cls()

    def copy(self) -> Draft:
        """A deep copy (a step's candidate changes never leak into the saved draft)."""
        return copy.deepcopy(self)

    def complete(self, slug: str) -> None:
        """Mark the step ``slug`` submitted successfully."""
        if slug not in self.completed:
            self.completed.append(slug)

    def attribute_start(self, name: str) -> int:
        """The attribute's rank from the allotment (1 until chosen), before XP."""
        return self.attributes.get(name, 1)

    def ability_start(self, name: str) -> int:
        """The ability's rank from the allotment (0 until chosen), before XP."""
        return self.abilities.get(name, 0)

    def attribute_final(self, name: str) -> int:
        """The attribute's rank after the dots bought with starting XP."""
        return self.attribute_start(name) + self.attribute_xp.get(name, 0)

    def ability_final(self, name: str) -> int:
        """The ability's rank after the dots bought with starting XP."""
        return self.ability_start(name) + self.ability_xp.get(name, 0)

    @property
    def merits(self) -> list[MeritFlawChoice]:
        """The merits taken, in the order chosen."""
        return [m for m in self.merits_flaws if m.kind == "merit"]

    @property
    def flaws(self) -> list[MeritFlawChoice]:
        """The flaws taken, in the order chosen."""
        return [m for m in self.merits_flaws if m.kind == "flaw"]

    @property
    def huge_size(self) -> bool:
        """Whether the Huge Size merit is taken (a ninth health box: Maelstrom rules.md,
        Merits)."""
        return any(m.kind == "merit" and m.name == "Huge Size" for m in self.merits_flaws)


def _session_key(campaign_id: int) -> str:
    return f"character_draft:{campaign_id}"


def draft_load(session: SessionBase, campaign_id: int) -> Draft:
    """The campaign's creation draft from the session (a fresh one if none or damaged)."""
    return Draft.from_session(session.get(_session_key(campaign_id)))


def draft_save(session: SessionBase, campaign_id: int, draft: Draft) -> None:
    """Keep the draft in the session until the last step (nothing is in the database)."""
    session[_session_key(campaign_id)] = draft.to_session()


def draft_clear(session: SessionBase, campaign_id: int) -> None:
    """Forget the draft once the character exists."""
    session.pop(_session_key(campaign_id), None)


# ---------------------------------------------------------------------------------------------
# Checks, one per item; the wizard's forms and finished_character share them
# ---------------------------------------------------------------------------------------------


def check_concept(draft: Draft) -> None:
    """A character needs a name (not a rule of the seed: the sheet needs something to show)."""
    if not draft.name.strip():
        raise ValueError("Give the character a name.")


def rank_cost(kind: str, label: str, start: int, final: int) -> int:
    """XP to raise a trait from its starting rank to ``final`` (Maelstrom rules.md, Spending
    Experience), through ``maelstrom.xp_cost_between``; its refusals are reworded to name the
    trait."""
    try:
        return maelstrom.xp_cost_between(kind, start, final)
    except RuleError as error:
        maximum = maelstrom.WILLPOWER_MAX if kind == WILLPOWER_KEY else maelstrom.DOTS_MAX
        if final > maximum:
            message = f"{label} can have at most {maximum} dots, not {final}"
        elif final < start:
            message = (
                f"{label} starts at {start} dots; starting XP can raise it, not lower it "
                f"to {final}"
            )
        else:
            message = f"{label}: {error.message}"
        raise RuleError(message, error.rule) from error


def suggested_classification(ability: str, name: str) -> tuple[str, bool] | None:
    """The seed's spelling and classification (advanced?) of a suggested specialty, or None
    when ``name`` is not among the ability's suggestions (Maelstrom rules.md, Abilities)."""
    return maelstrom.suggested_specialty(ability, name)


def check_specialty(specialty: Specialty) -> int:
    """A specialty of a known ability with a name the sheet can keep
    (:func:`systems.maelstrom.checks.check_specialty`); returns its XP cost (Maelstrom
    rules.md, Specialties and Spending Experience). Raises RuleError naming what is wrong."""
    checks.check_specialty(specialty.ability, specialty.name)
    return maelstrom.xp_cost(specialty.xp_kind, 1)


def catalogue_entry(name: str) -> maelstrom.MeritFlaw | None:
    """The seed's merit or flaw of that name, or None."""
    return maelstrom.MERITS.get(name) or maelstrom.FLAWS.get(name)


def check_merit_flaw(choice: MeritFlawChoice) -> None:
    """A merit or flaw from the seed's lists at one of its listed prices
    (:func:`systems.maelstrom.checks.check_merit_flaw`: Maelstrom rules.md, Merits and
    Flaws). Raises RuleError naming the name or the price refused."""
    checks.check_merit_flaw(choice.kind, choice.name, choice.points)


def choice_points(choice: MeritFlawChoice) -> tuple[int, ...]:
    """The listed prices of a merit or flaw choice, in XP; () when it is not in the seed."""
    entry = catalogue_entry(choice.name)
    return entry.points if entry is not None else ()


def check_combinations(draft: Draft) -> list[RuleError]:
    """Refusals that involve more than one purchase: a specialty bought twice, a merit or flaw
    taken twice for the same detail, Defective Sense with Acute Sense in the same sense
    (Maelstrom rules.md, Flaws, Defective Sense; 5-point Acute Sense covers all senses)."""
    problems: list[RuleError] = []
    seen_specialties: set[tuple[str, str]] = set()
    for specialty in draft.specialties:
        key = (specialty.ability, specialty.name.strip().casefold())
        if key in seen_specialties:
            problems.append(
                RuleError(
                    f"The specialty {specialty.label} is listed twice; buy it once",
                    _rule("Specialties"),
                )
            )
        seen_specialties.add(key)
    seen_choices: set[tuple[str, str]] = set()
    seen_names: set[str] = set()
    for choice in draft.merits_flaws:
        key = (choice.name, choice.detail.strip().casefold())
        repeatable = choice.name in maelstrom.REPEATABLE_WITH_DETAIL and not (
            choice.name == "Acute Sense" and choice.points == max(choice_points(choice))
        )
        if choice.name in seen_names and not repeatable:
            problems.append(
                RuleError(
                    f"{choice.name} can be taken only once",
                    _rule("Merits and Flaws"),
                )
            )
        elif key in seen_choices:
            problems.append(
                RuleError(
                    f"{choice.label} is taken twice; take a merit or flaw again only for a "
                    "different detail (e.g. another sense)",
                    _rule("Merits and Flaws"),
                )
            )
        seen_choices.add(key)
        seen_names.add(choice.name)
    acute = [m for m in draft.merits_flaws if m.name == "Acute Sense"]
    for defective in (m for m in draft.merits_flaws if m.name == "Defective Sense"):
        sense = defective.detail.strip().casefold()
        for merit in acute:
            if merit.points == max(maelstrom.MERITS["Acute Sense"].points):
                problems.append(
                    RuleError(
                        f"Defective Sense cannot be taken with Acute Sense for all senses "
                        f"({merit.points} points)",
                        _rule("Flaws"),
                    )
                )
            elif merit.detail.strip().casefold() == sense:
                where = f" ({defective.detail.strip()})" if sense else ""
                problems.append(
                    RuleError(
                        f"Defective Sense cannot be taken with Acute Sense in the same "
                        f"sense{where}",
                        _rule("Flaws"),
                    )
                )
    return problems


# ---------------------------------------------------------------------------------------------
# Starting XP
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class XpLine:
    """One line of the starting-XP breakdown, and later one ledger entry.

    ``kind`` is an ``XpEntry.Kind`` value (starting, flaw, merit, spend); ``delta`` the signed
    change to available XP; ``label`` doubles as the ledger entry's reason.
    """

    kind: str
    label: str
    delta: int
    trait_key: str = ""
    rank_from: int | None = None
    rank_to: int | None = None

    @property
    def cost(self) -> int:
        """XP this line costs (negative for starting XP and a flaw's award)."""
        return -self.delta


def xp_breakdown(draft: Draft, starting_xp: int) -> tuple[list[XpLine], int]:
    """The starting XP, each flaw, merit and purchase, and what remains.

    Costs come from ``rulesets.maelstrom`` (Maelstrom rules.md, Spending Experience); merits
    cost and flaws award their points (Merits and Flaws). Lines come in ledger order: starting
    XP, flaws, merits, then purchases (willpower, attributes, abilities, specialties), so a
    running balance never dips below zero when the total does not.

    Returns:
        ``(lines, remaining)``: remaining is the sum of the deltas; it may be negative (the
        caller refuses that).

    Raises:
        RuleError: an item breaks a rule (rank out of range, unknown merit, wrong price...).
    """
    lines = [XpLine(XpEntry.Kind.STARTING, "Starting XP", starting_xp)]
    for choice in draft.flaws:
        check_merit_flaw(choice)
        lines.append(XpLine(XpEntry.Kind.FLAW, f"Flaw: {choice.label}", choice.points))
    for choice in draft.merits:
        check_merit_flaw(choice)
        lines.append(XpLine(XpEntry.Kind.MERIT, f"Merit: {choice.label}", -choice.points))

    def purchase(kind: str, key: str, label: str, start: int, final: int) -> None:
        cost = rank_cost(kind, label, start, final)
        if cost:
            lines.append(
                XpLine(
                    XpEntry.Kind.SPEND,
                    f"Creation: {label} {start} → {final}",
                    -cost,
                    trait_key=key,
                    rank_from=start,
                    rank_to=final,
                )
            )

    purchase(
        WILLPOWER_KEY, WILLPOWER_KEY, "Willpower", maelstrom.STARTING_WILLPOWER, draft.willpower
    )
    for name in maelstrom.ATTRIBUTES:
        purchase(
            "attribute",
            trait_key(ATTRIBUTE, name),
            name,
            draft.attribute_start(name),
            draft.attribute_final(name),
        )
    for name in maelstrom.ABILITIES:
        purchase(
            "ability",
            trait_key(ABILITY, name),
            name,
            draft.ability_start(name),
            draft.ability_final(name),
        )
    for specialty in draft.specialties:
        cost = check_specialty(specialty)
        lines.append(
            XpLine(
                XpEntry.Kind.SPEND,
                f"Creation: {specialty.label} 0 → 1",
                -cost,
                trait_key=trait_key(SPECIALTY, specialty.name, specialty.ability),
                rank_from=0,
                rank_to=1,
            )
        )
    return lines, sum(line.delta for line in lines)


def check_balance(lines: list[XpLine], remaining: int) -> None:
    """Refuse spending more than the starting XP plus the flaws' points (Maelstrom rules.md,
    Starting Experience); the message gives the cost and the balance."""
    if remaining >= 0:
        return
    available = sum(line.delta for line in lines if line.delta > 0)
    flaws = sum(line.delta for line in lines if line.kind == XpEntry.Kind.FLAW)
    cost = available - remaining
    source = f" ({available - flaws} starting + {flaws} from flaws)" if flaws else ""
    raise RuleError(
        f"These choices cost {cost} XP but only {available} XP are available{source}; "
        f"you are {-remaining} XP short",
        _rule("Starting Experience"),
    )


def check_purchases(draft: Draft, starting_xp: int) -> list[RuleError]:
    """Every problem with the starting-XP step, overspending included (empty when valid)."""
    try:
        lines, remaining = xp_breakdown(draft, starting_xp)
    except RuleError as error:
        return [error]
    problems = check_combinations(draft)
    try:
        check_balance(lines, remaining)
    except RuleError as error:
        problems.append(error)
    return problems


def step_problem(draft: Draft, slug: str, starting_xp: int) -> str | None:
    """Why ``slug`` is not done yet (not submitted, or broken by a later change), or None."""
    if slug == "review":
        return None
    if slug not in draft.completed:
        return "not done yet"
    try:
        if slug == "concept":
            check_concept(draft)
        elif slug == "attributes":
            maelstrom.validate_attributes(draft.primary, draft.attributes)
        elif slug == "abilities":
            maelstrom.validate_abilities(draft.abilities)
        elif slug == "xp":
            problems = check_purchases(draft, starting_xp)
            if problems:
                raise problems[0]
    except ValueError as error:
        return str(error)
    return None


def first_open_step(draft: Draft, starting_xp: int) -> str:
    """The first step that still needs the player; "review" when all are done."""
    for step in STEPS:
        if step_problem(draft, step.slug, starting_xp) is not None:
            return step.slug
    return "review"


def validate_draft(draft: Draft, starting_xp: int) -> None:
    """Check the whole draft, in step order; raise the first problem (RuleError, a ValueError,
    for a broken rule; ValueError for a missing name)."""
    check_concept(draft)
    maelstrom.validate_attributes(draft.primary, draft.attributes)
    maelstrom.validate_abilities(draft.abilities)
    problems = check_purchases(draft, starting_xp)
    if problems:
        raise problems[0]


# ---------------------------------------------------------------------------------------------
# The finished character
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FinishedCharacter:
    """What the last step writes: the new character's name, concept, ``sheet`` (the shape of
    :mod:`systems.maelstrom.sheet`) and its ledger's first entries, in order."""

    name: str
    concept: str
    sheet: dict[str, Any]
    entries: tuple[LedgerLine, ...]


def ledger_line(line: XpLine) -> LedgerLine:
    """The ledger entry of one breakdown line: starting XP and a flaw's points count towards
    the XP ever earned (``total_delta``), a merit's price and a purchase only spend
    (Maelstrom rules.md, Starting Experience, Merits and Flaws)."""
    earned = line.kind in (XpEntry.Kind.STARTING, XpEntry.Kind.FLAW)
    return LedgerLine(
        kind=line.kind, available_delta=line.delta, total_delta=line.delta if earned else 0,
        trait_key=line.trait_key, reason=line.label, rank_from=line.rank_from,
        rank_to=line.rank_to,
    )


def finished_character(draft: Draft, starting_xp: int) -> FinishedCharacter:
    """Check a whole creation draft again and build the character it describes.

    Maelstrom rules.md, Character Creation: attributes start at 1 with +6 dots in the primary
    group and +4 in the secondary; abilities two at 3, four at 2, six at 1 (twelve different);
    Willpower 3; no specialties; then the campaign's starting XP is spent at the table's costs
    (Spending Experience), merits cost XP and flaws award it (Merits and Flaws). Everything is
    re-validated here (the draft may have changed since its steps were checked); the remaining
    XP must be >= 0.

    Args:
        draft: a :class:`Draft`: ``name`` and ``concept`` strings; ``primary`` "Physical" or
            "Mental"; ``attributes`` {attribute: 1-5} and ``abilities`` {ability: 0-3} from the
            allotment; ``willpower`` the final rank (3-10); ``attribute_xp``/``ability_xp``
            {name: extra dots bought}; ``specialties`` [Specialty(ability, name, advanced)];
            ``merits_flaws`` [MeritFlawChoice(name, kind, points, detail)].
        starting_xp: the campaign's starting XP (the budget).

    Returns:
        A :class:`FinishedCharacter`: the name and concept stripped; the sheet with every
        attribute and ability at its final rank (0 dots included), each specialty, each merit
        and flaw, Willpower permanent = current = the final rank and Huge Size's ninth health
        box; and the ledger lines: STARTING, then a FLAW per flaw, a MERIT per merit, a SPEND
        per trait bought (``rank_from``/``rank_to`` set), whose sums are the new character's
        available and total XP.

    Raises:
        RuleError: a rule is broken (the first one found, in step order).
        ValueError: the draft has no name.
    """
    validate_draft(draft, starting_xp)
    lines, _ = xp_breakdown(draft, starting_xp)
    sheet = maelstrom_sheet.new_sheet(
        attributes={n: draft.attribute_final(n) for n in maelstrom.ATTRIBUTES},
        abilities={n: draft.ability_final(n) for n in maelstrom.ABILITIES},
        specialties=[(sp.ability, sp.name, sp.advanced) for sp in draft.specialties],
        merits_flaws=[{"kind": choice.kind, "name": choice.name, "points": choice.points,
                       "detail": choice.detail} for choice in draft.merits_flaws],
        willpower=draft.willpower,
        huge_size=draft.huge_size,
    )
    return FinishedCharacter(
        name=draft.name.strip(), concept=draft.concept.strip(), sheet=sheet,
        entries=tuple(ledger_line(line) for line in lines),
    )


# ---------------------------------------------------------------------------------------------
# Step forms
# ---------------------------------------------------------------------------------------------


def field_slug(name: str) -> str:
    """``Heavy Weapons`` -> ``heavy_weapons`` (form field names and HTML ids)."""
    return name.lower().replace(" ", "_").replace("-", "_")


def _rank_input(low: int, high: int) -> forms.NumberInput:
    # The engine refuses ranks out of range with its own message; min/max only guide browsers.
    return forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"})


class ConceptForm(Form):
    """Step 1: the character's name (required) and concept (optional)."""

    name = character_name_field()
    concept = forms.CharField(
        max_length=200, required=False, label="Concept",
        help_text="A few words, e.g. “Smuggler with a past”.",
    )

    @classmethod
    def initial_from(cls, draft: Draft) -> dict[str, Any]:
        """The form's initial values from ``draft`` (what the step shows when it is opened
        again)."""
        return {"name": draft.name, "concept": draft.concept}

    def apply(self, draft: Draft) -> None:
        """Write the valid form's values into ``draft`` (the caller saves the draft in the
        session)."""
        draft.name = self.cleaned_data["name"].strip()
        draft.concept = self.cleaned_data["concept"].strip()


class RuleCheckedForm(Form):
    """A form whose ``clean`` runs a rules-engine check and shows its RuleError."""

    def clean(self) -> dict[str, Any]:
        """The cleaned data as a dict (never ``None``): each step's form checks its rule on
        top of it."""
        data = super().clean()
        # Form.clean returns cleaned_data; django-stubs says None because an override may.
        assert data is not None
        return data

    def add_rule_error(self, error: RuleError, field_name: str | None = None) -> None:
        """Show ``error`` (its message and the rule it cites) on ``field_name``, or on the whole
        form."""
        self.add_error(field_name, str(error))


class AttributesForm(RuleCheckedForm):
    """Primary group and the final rank of each attribute (Maelstrom rules.md, Starting
    Attributes)."""

    primary = forms.ChoiceField(
        label="Primary group",
        choices=[(group, group) for group in maelstrom.ATTRIBUTE_GROUPS],
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in maelstrom.ATTRIBUTES:
            self.fields[field_slug(name)] = forms.IntegerField(
                label=name, initial=1, widget=_rank_input(1, maelstrom.DOTS_MAX)
            )

    @classmethod
    def initial_from(cls, draft: Draft) -> dict[str, Any]:
        """The form's initial values from ``draft`` (what the step shows when it is opened
        again)."""
        initial: dict[str, Any] = {field_slug(n): draft.attribute_start(n)
                                   for n in maelstrom.ATTRIBUTES}
        if draft.primary:
            initial["primary"] = draft.primary
        return initial

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields in the seed's groups, in order: ``[(group, [bound field, ...])]``."""
        return [(group, [self[field_slug(n)] for n in names])
                for group, names in maelstrom.ATTRIBUTE_GROUPS.items()]

    def clean(self) -> dict[str, Any]:
        """The cleaned data, once the rules engine accepts the dots: 7/5/3 over the groups,
        the primary group first (Maelstrom rules.md, Attributes); else a form error naming
        the rule."""
        data = super().clean()
        if self.errors:
            return data
        try:
            maelstrom.validate_attributes(
                data["primary"], {n: data[field_slug(n)] for n in maelstrom.ATTRIBUTES}
            )
        except RuleError as error:
            self.add_rule_error(error)
        return data

    def apply(self, draft: Draft) -> None:
        """Write the valid form's values into ``draft`` (the caller saves the draft in the
        session)."""
        draft.primary = self.cleaned_data["primary"]
        draft.attributes = {n: self.cleaned_data[field_slug(n)] for n in maelstrom.ATTRIBUTES}


class AbilitiesForm(RuleCheckedForm):
    """The rank of each of the 24 abilities (Maelstrom rules.md, Starting Abilities)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in maelstrom.ABILITIES:
            self.fields[field_slug(name)] = forms.IntegerField(
                label=name, initial=0, widget=_rank_input(0, 3)
            )

    @classmethod
    def initial_from(cls, draft: Draft) -> dict[str, Any]:
        """The form's initial values from ``draft`` (what the step shows when it is opened
        again)."""
        return {field_slug(n): draft.ability_start(n) for n in maelstrom.ABILITIES}

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        """The fields in the seed's groups, in order: ``[(group, [bound field, ...])]``."""
        return [(group, [self[field_slug(n)] for n in names])
                for group, names in maelstrom.ABILITY_GROUPS.items()]

    def clean(self) -> dict[str, Any]:
        """The cleaned data, once the rules engine accepts the ability dots (Maelstrom
        rules.md, Abilities); else a form error naming the rule."""
        data = super().clean()
        if self.errors:
            return data
        try:
            maelstrom.validate_abilities({n: data[field_slug(n)] for n in maelstrom.ABILITIES})
        except RuleError as error:
            self.add_rule_error(error)
        return data

    def apply(self, draft: Draft) -> None:
        """Write the valid form's values into ``draft`` (the caller saves the draft in the
        session)."""
        draft.abilities = {n: self.cleaned_data[field_slug(n)] for n in maelstrom.ABILITIES}


class RanksForm(RuleCheckedForm):
    """Final Willpower, attribute and ability ranks after spending starting XP."""

    def __init__(self, draft: Draft, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.draft = draft
        # (field name, engine trait kind, trait name, starting rank)
        self.specs: list[tuple[str, str, str, int]] = [
            ("willpower", WILLPOWER_KEY, "Willpower", maelstrom.STARTING_WILLPOWER)
        ]
        self.fields["willpower"] = forms.IntegerField(
            label="Willpower", initial=draft.willpower,
            widget=_rank_input(maelstrom.STARTING_WILLPOWER, maelstrom.WILLPOWER_MAX),
        )
        for name in maelstrom.ATTRIBUTES:
            slug = f"attribute_{field_slug(name)}"
            start = draft.attribute_start(name)
            self.specs.append((slug, "attribute", name, start))
            self.fields[slug] = forms.IntegerField(
                label=name, initial=draft.attribute_final(name),
                widget=_rank_input(start, maelstrom.DOTS_MAX),
            )
        for name in maelstrom.ABILITIES:
            slug = f"ability_{field_slug(name)}"
            start = draft.ability_start(name)
            self.specs.append((slug, "ability", name, start))
            self.fields[slug] = forms.IntegerField(
                label=name, initial=draft.ability_final(name),
                widget=_rank_input(start, maelstrom.DOTS_MAX),
            )

    def willpower_field(self) -> forms.BoundField:
        """The Willpower rank's bound field (1-10 dots)."""
        return self["willpower"]

    def attribute_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, int]]]]:
        """The attribute fields with each attribute's starting dots, in the seed's groups:
        ``[(group, [(bound field, dots), ...])]``."""
        return [
            (group, [(self[f"attribute_{field_slug(n)}"], self.draft.attribute_start(n))
                     for n in names])
            for group, names in maelstrom.ATTRIBUTE_GROUPS.items()
        ]

    def ability_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, int]]]]:
        """The ability fields with each ability's starting dots, in the seed's groups: ``[(group,
        [(bound field, dots), ...])]``."""
        return [
            (group, [(self[f"ability_{field_slug(n)}"], self.draft.ability_start(n))
                     for n in names])
            for group, names in maelstrom.ABILITY_GROUPS.items()
        ]

    def clean(self) -> dict[str, Any]:
        """The cleaned data; each rank the XP cannot buy is a form error on its field,
        naming the rule (Maelstrom rules.md, Spending Experience)."""
        data = super().clean()
        for slug, kind, label, start in self.specs:
            if slug in data:
                try:
                    rank_cost(kind, label, start, data[slug])
                except RuleError as error:
                    self.add_rule_error(error, slug)
        return data

    def apply(self, draft: Draft) -> None:
        """Copy the valid ranks onto ``draft`` (invalid fields keep the draft's value)."""
        data = getattr(self, "cleaned_data", {})
        if "willpower" in data:
            draft.willpower = data["willpower"]
        for slug, kind, name, start in self.specs:
            if slug not in data or kind == WILLPOWER_KEY:
                continue
            extras = draft.attribute_xp if kind == "attribute" else draft.ability_xp
            if data[slug] > start:
                extras[name] = data[slug] - start
            else:
                extras.pop(name, None)


CLASSIFICATION_AUTO = ""


class SpecialtyForm(RuleCheckedForm):
    """One specialty row; a row without a name is ignored (that is how one is removed)."""

    ability = forms.ChoiceField(required=False, label="Ability")
    name = forms.CharField(required=False, max_length=80, label="Specialty")
    classification = forms.ChoiceField(required=False, label="Kind")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["ability"].choices = [("", "Choose an ability")] + [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (group, [(name, name) for name in names])
            for group, names in maelstrom.ABILITY_GROUPS.items()
        ]
        self.fields["classification"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            (CLASSIFICATION_AUTO, "As the rules suggest (else general)"),
            ("general", f"General ({maelstrom.xp_cost('general_specialty', 1)} XP)"),
            ("advanced", f"Advanced ({maelstrom.xp_cost('advanced_specialty', 1)} XP)"),
        ]
        self.fields["name"].widget.attrs["list"] = "specialty-suggestions"

    def clean(self) -> dict[str, Any]:
        """The cleaned data with ``specialty`` (a :class:`Specialty` or ``None`` for an
        empty row); a specialty the rules refuse is a form error (Maelstrom rules.md,
        Specialties)."""
        data = super().clean()
        data["specialty"] = None
        name = (data.get("name") or "").strip()
        if self.errors or not name:
            return data
        ability = data.get("ability") or ""
        if not ability:
            self.add_error("ability", f"Choose the ability the specialty {name} belongs to.")
            return data
        suggestion = suggested_classification(ability, name)
        classification = data.get("classification") or CLASSIFICATION_AUTO
        if suggestion is not None:
            # The seed classifies its suggestions; an advanced one is never sold as general.
            name, advanced = suggestion
        else:
            advanced = classification == "advanced"
        specialty = Specialty(ability=ability, name=name, advanced=advanced)
        try:
            check_specialty(specialty)
        except RuleError as error:
            self.add_rule_error(error)
            return data
        data["specialty"] = specialty
        return data


def merit_flaw_value(name: str, points: int) -> str:
    """A merit or flaw row's select value: ``"Addict|1"`` (the name and one listed price)."""
    return f"{name}|{points}"


def merit_flaw_price(kind: str, points: int) -> str:
    """Which way a merit's or flaw's points go, in words: "costs 2 XP" for a merit, "gives
    1 XP" for a flaw (Maelstrom rules.md, Merits and Flaws). A bare "1 XP" read the same for
    both, and a chosen option shows without its group's heading."""
    return f"{'gives' if kind == 'flaw' else 'costs'} {points} XP"


def merit_flaw_options() -> list[tuple[str, Any]]:
    """Select options: every merit and flaw at each of its prices, grouped, each saying
    whether it costs or gives XP ("Addict, gives 1 XP")."""

    def options(entries: Mapping[str, maelstrom.MeritFlaw]) -> list[tuple[str, str]]:
        return [
            (merit_flaw_value(entry.name, points),
             f"{entry.name}, {merit_flaw_price(entry.kind, points)}")
            for entry in entries.values()
            for points in entry.points
        ]

    return [
        ("", "None"),
        ("Merits (cost XP)", options(maelstrom.MERITS)),
        ("Flaws (give XP)", options(maelstrom.FLAWS)),
    ]


class MeritFlawForm(RuleCheckedForm):
    """One merit or flaw row: the choice carries the name and price ("Addict|1")."""

    choice = forms.CharField(required=False, label="Merit or flaw")
    detail = forms.CharField(
        required=False, max_length=120, label="Detail (optional)",
        help_text="e.g. the sense, the substance",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["choice"].widget = forms.Select(choices=merit_flaw_options())

    def clean(self) -> dict[str, Any]:
        """The cleaned data with ``merit_flaw`` (a :class:`MeritFlawChoice` or ``None`` for
        an empty row); one the seed's lists refuse is a form error (Maelstrom rules.md, Merits
        and Flaws)."""
        data = super().clean()
        data["merit_flaw"] = None
        raw = (data.get("choice") or "").strip()
        if self.errors or not raw:
            return data
        name, _, points_text = raw.rpartition("|")
        entry = catalogue_entry(name)
        if entry is None:
            self.add_error(
                "choice", f"“{name or raw}” is not on the seed's lists of merits and flaws."
            )
            return data
        try:
            points = int(points_text)
        except ValueError:
            points = -1
        choice = MeritFlawChoice(
            name=entry.name, kind=entry.kind, points=points,
            detail=(data.get("detail") or "").strip(),
        )
        try:
            check_merit_flaw(choice)
        except RuleError as error:
            self.add_rule_error(error, "choice")
            return data
        data["merit_flaw"] = choice
        return data


MAX_SPECIALTY_ROWS = 100
"""The most specialty rows the XP step takes (at 2 XP each, more than any starting XP buys in
practice). Django builds up to ``absolute_max`` forms from a posted ``TOTAL_FORMS``, 2,000 by
default: the fuzz's ``sp-TOTAL_FORMS=99999`` cost 5.7 s of the processor per request."""

MAX_MERIT_FLAW_ROWS = 40
"""The most merit and flaw rows: the seed lists 28, and only the senses repeat."""

SpecialtyFormSet = forms.formset_factory(
    SpecialtyForm, extra=3, max_num=MAX_SPECIALTY_ROWS, absolute_max=MAX_SPECIALTY_ROWS,
    validate_max=True)
MeritFlawFormSet = forms.formset_factory(
    MeritFlawForm, extra=2, max_num=MAX_MERIT_FLAW_ROWS, absolute_max=MAX_MERIT_FLAW_ROWS,
    validate_max=True)


class XpStep:
    """The starting-XP step: ranks, specialty rows and merit/flaw rows together."""

    def __init__(self, draft: Draft, data: Mapping[str, Any] | None = None) -> None:
        self.draft = draft
        self.ranks = RanksForm(draft, data=data)
        # A bound formset gets no initial: a submitted row equal to its initial would count as
        # unchanged and be skipped, silently dropping it when the page's form counts differ.
        self.specialties = SpecialtyFormSet(
            data=data, prefix="sp",
            initial=None if data is not None else [
                {"ability": s.ability, "name": s.name,
                 "classification": _initial_classification(s)}
                for s in draft.specialties
            ],
        )
        self.merits_flaws = MeritFlawFormSet(
            data=data, prefix="mf",
            initial=None if data is not None else [
                {"choice": merit_flaw_value(m.name, m.points), "detail": m.detail}
                for m in draft.merits_flaws
            ],
        )

    def is_valid(self) -> bool:
        """Whether every row and the whole draft hold; the refusals are in
        :meth:`error_messages`."""
        results = [self.ranks.is_valid(), self.specialties.is_valid(),
                   self.merits_flaws.is_valid()]
        return all(results)

    def candidate(self) -> Draft:
        """The draft with every valid entry of the submitted step applied."""
        self.is_valid()
        draft = self.draft.copy()
        self.ranks.apply(draft)
        if self.specialties.is_bound:
            draft.specialties = _row_values(self.specialties, "specialty")
        if self.merits_flaws.is_bound:
            draft.merits_flaws = _row_values(self.merits_flaws, "merit_flaw")
        return draft

    def error_messages(self) -> list[str]:
        """Every field and row error as one readable line each (for the live summary)."""
        messages: list[str] = []
        if not self.ranks.is_bound:
            return messages
        for name, errors in self.ranks.errors.items():
            label = self.ranks.fields[name].label if name in self.ranks.fields else ""
            for error in errors:
                text = str(error)
                messages.append(text if not label or str(label) in text else f"{label}: {text}")
        for formset, row in ((self.specialties, "Specialty"), (self.merits_flaws, "Merit/flaw")):
            messages.extend(str(e) for e in formset.non_form_errors())
            for index, form_errors in enumerate(formset.errors, start=1):
                for errors in form_errors.values():  # type: ignore[attr-defined]  # django-stubs: BaseFormSet.errors holds each form's ErrorDict, typed as ErrorList
                    for error in errors:
                        messages.append(f"{row} row {index}: {error}")
        return messages


def _initial_classification(specialty: Specialty) -> str:
    """Show "as the rules suggest" when that is what the row resolved to, so renaming the
    row later picks up the new name's classification instead of a stale explicit choice."""
    suggestion = suggested_classification(specialty.ability, specialty.name)
    default = suggestion[1] if suggestion is not None else False
    if specialty.advanced == default:
        return CLASSIFICATION_AUTO
    return "advanced" if specialty.advanced else "general"


def _row_values(formset: forms.BaseFormSet[Any], key: str) -> list[Any]:
    return [
        form.cleaned_data[key]
        for form in formset.forms
        if getattr(form, "cleaned_data", None) and form.cleaned_data.get(key)
    ]


def specialty_suggestions() -> list[tuple[str, str]]:
    """Every suggested specialty as (name, "Ability, general/advanced") for a datalist."""
    suggestions = []
    for info in maelstrom.ABILITIES.values():
        for name in info.general_specialties:
            suggestions.append((name, f"{info.name}, general"))
        for name in info.advanced_specialties:
            suggestions.append((name, f"{info.name}, advanced"))
    return suggestions
