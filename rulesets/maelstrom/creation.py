"""Maelstrom's character creation rules (Maelstrom rules.md, Character Creation): the
allotments of attribute and ability dots, and what starting XP buys (Starting Experience,
Spending Experience, Merits and Flaws).

Shapes: a purchase made with starting XP is a :class:`Specialty` or a :class:`MeritFlawChoice`
(plain frozen dataclasses, which the creation wizard's draft keeps in the session); ranks are
dots (ints), prices XP (ints). Every refusal is a :class:`RuleError` naming the seed section.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import (
    ABILITIES,
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    DOTS_MAX,
    FLAWS,
    MERITS,
    REPEATABLE_WITH_DETAIL,
    WILLPOWER_MAX,
    MeritFlaw,
    _rule,
    ability_named,
    is_sight,
)
from rulesets.maelstrom.costs import xp_cost_between

# ---------------------------------------------------------------------------------------------
# Character creation: Maelstrom rules.md, Character Creation
# ---------------------------------------------------------------------------------------------

_ATTRIBUTE_DOTS = {True: 6, False: 4}  # primary?, extra dots on top of the 1 in each


def validate_attributes(primary: str, dots: Mapping[str, int]) -> None:
    """Check a new character's attributes against the creation allotment.

    Each attribute starts at 1 dot; the primary group gets 6 additional dots and the other
    group 4 (Maelstrom rules.md, Starting Attributes).

    Args:
        primary: "Physical" or "Mental".
        dots: the final rank (dots) of each of the six attributes, keyed by name; all six must
            be present and nothing else.

    Returns:
        None when the allotment is valid.

    Raises:
        RuleError: unknown primary group, an unknown or missing attribute, a rank below 1 or
            above 5, or a group that did not receive exactly its 6 or 4 extra dots (the
            message names the group and the dots allocated).
    """
    rule = _rule("Starting Attributes")
    if primary not in ATTRIBUTE_GROUPS:
        raise RuleError(
            f"the primary attribute group must be Physical or Mental, not {primary!r}", rule
        )
    unknown = sorted(set(dots) - set(ATTRIBUTES))
    if unknown:
        raise RuleError(f"unknown attribute: {', '.join(unknown)}", rule)
    missing = [name for name in ATTRIBUTES if name not in dots]
    if missing:
        raise RuleError(f"missing attribute: {', '.join(missing)}", rule)
    for name in ATTRIBUTES:
        rank = dots[name]
        if not 1 <= rank <= DOTS_MAX:
            raise RuleError(
                f"{name} has {rank} dots; a new character's attributes are 1 to {DOTS_MAX}",
                rule,
            )
    for group, names in ATTRIBUTE_GROUPS.items():
        is_primary = group == primary
        wanted = _ATTRIBUTE_DOTS[is_primary]
        allocated = sum(dots[name] - 1 for name in names)
        if allocated != wanted:
            role = "primary" if is_primary else "secondary"
            raise RuleError(
                f"{group} is the {role} group: allocate {wanted} dots on top of the 1 in "
                f"each; you allocated {allocated}",
                rule,
            )


_ABILITY_ALLOTMENT: tuple[tuple[int, int], ...] = ((3, 2), (2, 4), (1, 6))  # (dots, abilities)


def validate_abilities(dots: Mapping[str, int]) -> None:
    """Check a new character's abilities against the creation allotment.

    Two abilities at 3 dots, four at 2 and six at 1: twelve different abilities, the rest at
    0 (Maelstrom rules.md, Starting Abilities).

    Args:
        dots: dots per ability name; abilities left out count as 0.

    Returns:
        None when the allotment is valid.

    Raises:
        RuleError: an unknown ability, a rank outside 0-3, or a wrong count at some rank
            (e.g. "2 abilities at 3 dots are required; you have 1").
    """
    rule = _rule("Starting Abilities")
    unknown = sorted(set(dots) - set(ABILITIES))
    if unknown:
        raise RuleError(f"unknown ability: {', '.join(unknown)}", rule)
    for name, rank in dots.items():
        if not 0 <= rank <= 3:
            raise RuleError(f"{name} has {rank} dots; at creation an ability has 0 to 3 dots", rule)
    for rank, wanted in _ABILITY_ALLOTMENT:
        have = sum(1 for value in dots.values() if value == rank)
        if have != wanted:
            unit = "dot" if rank == 1 else "dots"
            raise RuleError(
                f"{wanted} abilities at {rank} {unit} are required; you have {have}", rule
            )


# ---------------------------------------------------------------------------------------------
# Starting experience: Maelstrom rules.md, Starting Experience, Spending Experience, Merits and
# Flaws
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Specialty:
    """A specialty bought with starting XP (Maelstrom rules.md, Specialties).

    Attributes:
        ability: the ability it belongs to, e.g. "Driving".
        name: the specialty's own name, e.g. "Motorcycles".
        advanced: whether it is an advanced specialty (3 XP) rather than a general one (2 XP).
    """

    ability: str
    name: str
    advanced: bool

    @property
    def xp_kind(self) -> str:
        """The cost kind of :func:`~rulesets.maelstrom.costs.xp_cost`: "general_specialty"
        or "advanced_specialty"."""
        return "advanced_specialty" if self.advanced else "general_specialty"

    @property
    def label(self) -> str:
        """"Driving: Motorcycles", as the sheet and the ledger name it."""
        return f"{self.ability}: {self.name}"


@dataclass(frozen=True)
class MeritFlawChoice:
    """A merit or flaw taken at creation (Maelstrom rules.md, Merits and Flaws).

    Attributes:
        name: as the seed spells it, e.g. "Acute Sense".
        kind: "merit" (costs XP) or "flaw" (gives XP).
        points: the price chosen, in XP: one of the catalogue entry's ``points``.
        detail: what it applies to, e.g. the sense or the substance; "" for none.
    """

    name: str
    kind: str
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


def merit_flaw_price(kind: str, points: int) -> str:
    """Which way a merit's or flaw's points go, in words: "costs 2 XP" for a merit, "gives
    1 XP" for a flaw (Maelstrom rules.md, Merits and Flaws). A bare "1 XP" read the same for
    both, and a chosen option shows without its group's heading."""
    return f"{'gives' if kind == 'flaw' else 'costs'} {points} XP"


def merit_flaw_entry(name: str) -> MeritFlaw | None:
    """The seed's merit or flaw of that name (exact spelling), or None (Maelstrom rules.md,
    Merits, Flaws)."""
    return MERITS.get(name) or FLAWS.get(name)


def rank_cost(kind: str, label: str, start: int, final: int) -> int:
    """XP to raise a trait from its starting rank to ``final`` with starting XP.

    Priced by :func:`~rulesets.maelstrom.costs.xp_cost_between` (Maelstrom rules.md,
    Spending Experience); its refusals are reworded to name the trait.

    Args:
        kind: "attribute", "ability" or "willpower".
        label: the trait's name as the player reads it, e.g. "Wits", "Willpower".
        start: its rank from the allotment, in dots (Willpower starts at 3).
        final: the rank wanted, in dots.

    Returns:
        The cost in XP; 0 when ``final == start``.

    Raises:
        RuleError: "<label> can have at most 5 dots, not 6" (10 for Willpower), "<label>
            starts at 2 dots; starting XP can raise it, not lower it to 1", or the engine's
            own refusal prefixed with the label (an unknown kind).
    """
    try:
        return xp_cost_between(kind, start, final)
    except RuleError as error:
        maximum = WILLPOWER_MAX if kind == "willpower" else DOTS_MAX
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


def check_combinations(
    specialties: Sequence[Specialty], merits_flaws: Sequence[MeritFlawChoice],
    abilities: Mapping[str, int] | None = None,
) -> list[RuleError]:
    """Refusals that involve more than one purchase, or a flaw and the traits it needs.

    A specialty bought twice (the same ability, the name matched ignoring case: Maelstrom
    rules.md, Specialties); a merit or flaw taken twice, except Acute Sense at 2 points and
    Defective Sense, which are taken again only for a different detail (Merits and Flaws);
    Defective Sense with Acute Sense in the same sense, or with the 5-point Acute Sense that
    covers all senses (Flaws, Defective Sense); Visually Impaired with a Defective Sense of
    sight, which it is "used instead of" (Flaws, Visually Impaired), and Blind with either
    (Flaws, Blind); Inept on anything but an ability with at least one dot ("Choose an
    ability in which your character has at least one dot": Flaws, Inept), its detail naming
    the ability. A Defective Sense is of sight when its detail says so
    (:func:`~rulesets.maelstrom.catalogue.is_sight`).

    Args:
        specialties: the specialties bought, in the order chosen.
        merits_flaws: the merits and flaws taken, in the order chosen; each is assumed on
            the seed's lists at one of its prices (the wizard checks each row first).
        abilities: the character's dots by ability (its final ranks; one left out has 0),
            which Inept is checked against; None leaves Inept unchecked.

    Returns:
        One RuleError per problem, in the order found; empty when the combination holds.
        Each cites its section ("Maelstrom rules.md, Flaws" for the flaws' own conditions).
    """
    problems: list[RuleError] = []
    seen_specialties: set[tuple[str, str]] = set()
    for specialty in specialties:
        key = (specialty.ability, specialty.name.strip().casefold())
        if key in seen_specialties:
            problems.append(
                RuleError(
                    f"The specialty {specialty.label} is listed twice; buy it once",
                    _rule("Specialties"),
                )
            )
        seen_specialties.add(key)
    all_senses = max(MERITS["Acute Sense"].points)
    seen_choices: set[tuple[str, str]] = set()
    seen_names: set[str] = set()
    for choice in merits_flaws:
        key = (choice.name, choice.detail.strip().casefold())
        repeatable = choice.name in REPEATABLE_WITH_DETAIL and not (
            choice.name == "Acute Sense" and choice.points == all_senses
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
    acute = [m for m in merits_flaws if m.name == "Acute Sense"]
    for defective in (m for m in merits_flaws if m.name == "Defective Sense"):
        sense = defective.detail.strip().casefold()
        for merit in acute:
            if merit.points == all_senses:
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
    problems.extend(_sight_conflicts(merits_flaws))
    if abilities is not None:
        problems.extend(_inept_conflicts(merits_flaws, abilities))
    return problems


def _sight_conflicts(merits_flaws: Sequence[MeritFlawChoice]) -> list[RuleError]:
    """Visually Impaired with a Defective Sense of sight; Blind with either (Maelstrom
    rules.md, Flaws: Visually Impaired "is used instead of Defective Sense")."""
    names = {choice.name for choice in merits_flaws}
    sight = [choice for choice in merits_flaws
             if choice.name == "Defective Sense" and is_sight(choice.detail)]
    problems: list[RuleError] = []
    if "Visually Impaired" in names:
        problems.extend(
            RuleError(f"Visually Impaired is taken instead of Defective Sense for sight, not "
                      f"with it: drop {defective.label} or Visually Impaired", _rule("Flaws"))
            for defective in sight)
    if "Blind" in names:
        blind_with = ([choice.label for choice in sight]
                      + (["Visually Impaired"] if "Visually Impaired" in names else []))
        problems.extend(
            RuleError(f"Blind cannot be taken with {other}: a blind character has no sight "
                      "left to impair", _rule("Flaws"))
            for other in blind_with)
    return problems


def _inept_conflicts(merits_flaws: Sequence[MeritFlawChoice],
                     abilities: Mapping[str, int]) -> list[RuleError]:
    """Inept on an ability named in its detail, with at least one dot (Maelstrom rules.md,
    Flaws, Inept)."""
    problems: list[RuleError] = []
    for choice in merits_flaws:
        if choice.name != "Inept":
            continue
        ability = ability_named(choice.detail)
        if ability is None:
            shown = f"; {choice.detail.strip()!r} is not one" if choice.detail.strip() else ""
            problems.append(RuleError(
                f"Inept applies to one ability: name it as the flaw's detail (e.g. Piloting)"
                f"{shown}", _rule("Flaws")))
        elif abilities.get(ability, 0) < 1:
            problems.append(RuleError(
                f"Inept is taken in an ability with at least one dot; {ability} has none",
                _rule("Flaws")))
    return problems


def check_balance(starting_xp: int, flaw_points: int, cost: int) -> None:
    """Refuse spending more than the starting XP plus the flaws' points (Maelstrom rules.md,
    Starting Experience; Merits and Flaws: a flaw awards its points, a merit costs them).

    Args:
        starting_xp: the campaign's starting XP (>= 0).
        flaw_points: the XP the flaws taken award (>= 0).
        cost: the XP the merits and the purchases cost together (>= 0).

    Returns:
        None when ``cost <= starting_xp + flaw_points``.

    Raises:
        RuleError: "These choices cost 47 XP but only 32 XP are available (30 starting +
            2 from flaws); you are 15 XP short" (the part in brackets only with flaws).
    """
    available = starting_xp + flaw_points
    if cost <= available:
        return
    source = f" ({starting_xp} starting + {flaw_points} from flaws)" if flaw_points else ""
    raise RuleError(
        f"These choices cost {cost} XP but only {available} XP are available{source}; "
        f"you are {cost - available} XP short",
        _rule("Starting Experience"),
    )
