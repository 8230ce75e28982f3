"""Creating a Maelstrom character in guided steps (Maelstrom rules.md, Character Creation):
the draft, its place in the session, and what the last step writes.

The wizard (``systems.maelstrom.views``, its forms in ``systems.maelstrom.creation_forms``)
keeps a :class:`Draft` in the session, one step at a time, and nothing reaches the database
until the last step: :func:`finished_character` checks the whole draft again and turns it into
the new sheet and its ledger lines, which the view writes in one transaction
(``characters.services.character_create``), so no half-valid character is ever saved. Every
rule comes from ``rulesets.maelstrom``: the allotments (``validate_attributes``,
``validate_abilities``), the XP costs (``xp_cost``, ``rank_cost``), the checks across
purchases (``check_combinations``, ``check_balance``) and the catalogue of abilities, merits
and flaws; this module turns the draft into ledger lines (:func:`xp_breakdown`).

Steps: name and concept; attributes; abilities; starting XP (willpower, extra dots,
specialties, merits and flaws); review.

This module sits below the services (it reads and builds data, it writes nothing).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from characters.ledger import LedgerLine
from characters.models import XpEntry
from rulesets import maelstrom
from rulesets.maelstrom import MeritFlawChoice, RuleError, Specialty
from rulesets.maelstrom.storage import LedgerKind
from systems.maelstrom import checks
from systems.maelstrom import sheet as maelstrom_sheet
from systems.maelstrom.sheet import ABILITY, ATTRIBUTE, SPECIALTY, WILLPOWER_KEY, trait_key

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase


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
class Draft:
    """A character being created, kept in the session until the last step.

    ``attributes`` and ``abilities`` are the ranks from the creation allotment (before XP);
    ``attribute_xp`` and ``ability_xp`` the extra dots bought with starting XP; ``willpower``
    the final rank; ``specialties`` and ``merits_flaws`` the engine's purchases
    (``rulesets.maelstrom.Specialty``, ``MeritFlawChoice``), in the order chosen.
    ``completed`` lists the steps submitted successfully (each is re-checked whenever it
    matters, because an earlier step may have changed since).
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


def check_specialty(specialty: Specialty) -> int:
    """A specialty of a known ability with a name the sheet can keep
    (:func:`systems.maelstrom.checks.check_specialty`); returns its XP cost (Maelstrom
    rules.md, Specialties and Spending Experience). Raises RuleError naming what is wrong."""
    checks.check_specialty(specialty.ability, specialty.name)
    return maelstrom.xp_cost(specialty.xp_kind, 1)


def check_merit_flaw(choice: MeritFlawChoice) -> None:
    """A merit or flaw from the seed's lists at one of its listed prices
    (:func:`systems.maelstrom.checks.check_merit_flaw`: Maelstrom rules.md, Merits and
    Flaws). Raises RuleError naming the name or the price refused."""
    checks.check_merit_flaw(choice.kind, choice.name, choice.points)


# ---------------------------------------------------------------------------------------------
# Starting XP
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class XpLine:
    """One line of the starting-XP breakdown, and later one ledger entry.

    ``kind`` is one of ``XpEntry.KINDS`` (starting, flaw, merit, spend); ``delta`` the signed
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
        lines.append(XpLine(LedgerKind.FLAW, f"Flaw: {choice.label}", choice.points))
    for choice in draft.merits:
        check_merit_flaw(choice)
        lines.append(XpLine(LedgerKind.MERIT, f"Merit: {choice.label}", -choice.points))

    def purchase(kind: str, key: str, label: str, start: int, final: int) -> None:
        cost = maelstrom.rank_cost(kind, label, start, final)
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


def check_purchases(draft: Draft, starting_xp: int) -> list[RuleError]:
    """Every problem with the starting-XP step, overspending included (empty when valid):
    the first item refused (:func:`xp_breakdown`), else the refusals across purchases and
    the flaws' conditions on the final abilities (``maelstrom.check_combinations``: Inept in
    an ability with a dot, Visually Impaired and Blind instead of a Defective Sense of sight)
    and the balance (``maelstrom.check_balance``)."""
    try:
        lines, remaining = xp_breakdown(draft, starting_xp)
    except RuleError as error:
        return [error]
    problems = maelstrom.check_combinations(
        draft.specialties, draft.merits_flaws,
        abilities={name: draft.ability_final(name) for name in maelstrom.ABILITIES})
    flaws = sum(line.delta for line in lines if line.kind == LedgerKind.FLAW)
    try:
        maelstrom.check_balance(starting_xp, flaws, starting_xp + flaws - remaining)
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
    earned = line.kind in (XpEntry.Kind.STARTING, LedgerKind.FLAW)
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
