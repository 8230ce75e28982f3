"""Rules engine for the Maelstrom RPG (Tanndev/Maelstrom, ``documentation/rules.md``, MIT).

The seed text (``seeds/004_d17e38a7060ddbe0.txt``, cited below as "Maelstrom rules.md,
<section>") is the authority; /work/shared/RULES.md section 1 summarises it and fills the
health chart from the repository's character sheet. Where the seed is silent, the decision
taken is written in the docstring of the function concerned.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: dice (d10s in a dice pool), dots (trait ranks), XP
(experience points), levels (boxes of the health chart). Every rule violation raises
:class:`RuleError`, whose message a player can read and whose ``rule`` names the seed section.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from math import comb

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.notation import split_clauses
from rulesets.query import Parameter, read_query
from rulesets.stored import Stored

SOURCE = "Maelstrom rules.md"
"""Prefix of every rule citation."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_STORED_RULE = _rule("Resolving the Result")
"""The rule a damaged stored pool or roll cites."""

# ---------------------------------------------------------------------------------------------
# Catalogue: Maelstrom rules.md, Traits / Attributes / Abilities / Merits and Flaws
# ---------------------------------------------------------------------------------------------

ATTRIBUTE_GROUPS: dict[str, tuple[str, ...]] = {
    "Physical": ("Strength", "Precision", "Reflexes"),
    "Mental": ("Perception", "Intelligence", "Wits"),
}
"""Attribute groups and their attributes in the seed's order (Maelstrom rules.md, Attributes)."""

ATTRIBUTES: tuple[str, ...] = tuple(name for group in ATTRIBUTE_GROUPS.values() for name in group)
"""The six attributes: Strength, Precision, Reflexes, Perception, Intelligence, Wits."""

DOTS_MAX = 5
"""Highest rank (dots) of an attribute or an ability (Maelstrom rules.md, Attributes)."""

WILLPOWER_MAX = 10
"""Highest Willpower rank: "Willpower is on a scale from 1 to 10" (Maelstrom rules.md,
Willpower)."""

STARTING_WILLPOWER = 3
"""Willpower dots of a new character (Maelstrom rules.md, Starting Willpower)."""

DEFAULT_STARTING_XP = 30
"""Starting XP the seed calls "reasonable for a normal game"; the storyteller sets the real
amount per campaign (Maelstrom rules.md, Starting Experience)."""

DIFFICULTY_MIN, DIFFICULTY_MAX, DEFAULT_DIFFICULTY = 2, 10, 6
"""Difficulty range and default: "anywhere between two and ten ... the default difficulty of
six" (Maelstrom rules.md, Difficulty)."""

DIE_SIDES = 10
"""Maelstrom rolls ten-sided dice only (Maelstrom rules.md, Resolving the Result)."""

MAX_BONUS_DICE = 10_000
"""Safety cap on bonus dice in one roll (exploding tens and the experience die together).

Exploding tens can chain forever in principle; with a fair d10 reaching the cap is
astronomically unlikely, so a roll simply stops adding bonus dice there. It guards against a
broken RNG that returns 10 for ever."""


@dataclass(frozen=True)
class AbilityInfo:
    """Catalogue entry of one ability (Maelstrom rules.md, Abilities).

    Attributes:
        name: the ability, e.g. "Driving".
        group: "Talents", "Skills" or "Knowledges" (decides the zero-dot rule).
        common_attributes: attributes commonly paired with it, in the seed's order; empty for
            Artistry, whose seed entry reads "Varies".
        general_specialties: the seed's suggested general specialties (2 XP each).
        advanced_specialties: the seed's suggested advanced specialties (3 XP each).

    The specialty lists are suggestions, "not exhaustive" (Maelstrom rules.md, Specialties).
    """

    name: str
    group: str
    common_attributes: tuple[str, ...]
    general_specialties: tuple[str, ...]
    advanced_specialties: tuple[str, ...]


def _ability(name: str, group: str, common: str, advanced: str, general: str) -> AbilityInfo:
    def split(text: str) -> tuple[str, ...]:
        # Split on commas outside parentheses: "Terrain (Urban, Forest, Plains, etc)" is one.
        items: list[str] = []
        depth, current = 0, ""
        for char in text:
            depth += (char == "(") - (char == ")")
            if char == "," and depth == 0:
                items.append(current.strip())
                current = ""
            else:
                current += char
        if current.strip():
            items.append(current.strip())
        return tuple(items)

    return AbilityInfo(
        name=name,
        group=group,
        common_attributes=split(common),
        general_specialties=split(general),
        advanced_specialties=split(advanced),
    )


# Copied from the seed's "Common Attributes", "Advanced Specialties" and "General Specialties"
# lines, in the seed's order (the trailing full stop after Alertness's "Ambushes" dropped).
_ABILITY_LIST: tuple[AbilityInfo, ...] = (
    # Talents (Maelstrom rules.md, Talents)
    _ability(
        "Alertness",
        "Talents",
        "Perception",
        "Night Vision, Vacuum",
        "Terrain (Urban, Forest, Plains, etc), Followers, Ambushes",
    ),
    _ability(
        "Athletics",
        "Talents",
        "Strength, Precision, Reflexes",
        "Grenades, Power Armor, Zero-G, Acrobatics, Parkour, Specific Exotic Thrown Weapon",
        "Run, Jump, Dodge, Thrown Weapons, Surprise Attack",
    ),
    _ability(
        "Investigation",
        "Talents",
        "Intelligence, Wits, Perception",
        "Forensics, Missing Persons",
        "Research, Computer Records, Crime Scenes",
    ),
    _ability(
        "Melee",
        "Talents",
        "Strength, Precision, Reflexes",
        "Power Armor, Energy Weapons, Swords, Specific Exotic Melee Weapon",
        "Clubs, Grapple, Shields, Spears, Brawling, Surprise Attack, Specific Martial Art",
    ),
    _ability(
        "Performance",
        "Talents",
        "Precision, Wits",
        "Specific Musical Instrument (Piano, Guitar, Drums, etc)",
        "Dancing, Singing, Acting, Speeches",
    ),
    _ability(
        "Stealth",
        "Talents",
        "Wits, Precision",
        "Power Armor",
        "Terrain (Urban, Forests, Plains, etc), Surveillance",
    ),
    _ability(
        "Streetwise",
        "Talents",
        "Wits",
        "Black Markets, Criminal Networks, Megacities",
        "Colonies, Outposts, Research Stations, Industrial Stations, Docks, Shipyards",
    ),
    _ability(
        "Technology",
        "Talents",
        "Intelligence, Wits",
        "Hacking, Data Recovery, Data Forgery, AI Modules, Remote Access",
        "Data Storage, Communications, Security Systems, Navigation Systems",
    ),
    # Skills (Maelstrom rules.md, Skills)
    _ability(
        "Artistry",
        "Skills",
        "",  # the seed says "Varies"
        "Forgery, Electronics, Metalwork",
        "Sketching, Painting, Sculpting, Photography",
    ),
    _ability(
        "Driving",
        "Skills",
        "Precision, Reflexes",
        "Motorcycles, Transport Trucks",
        "Gravitic Vehicles, Cars, Trucks, Buses",
    ),
    _ability(
        "Firearms",
        "Skills",
        "Strength, Precision, Reflexes",
        "Power Armor, Energy Weapons, Extreme Range, Advanced Maintenance",
        "Pistols, Shotguns, PDWs, Battle Rifles, Sniper Rifles, Surprise Attack",
    ),
    _ability(
        "Heavy Weapons",
        "Skills",
        "Strength, Precision",
        "Power Armor, Mortars, Artillery, Advanced Maintenance",
        "Grenade Launchers, Missile Launchers",
    ),
    _ability(
        "Piloting",
        "Skills",
        "Precision, Reflexes",
        "Atmospheric Flight, Close Quarters, Fighters, Freighters, Power Armor",
        "Space Flight, Shuttles, Frigates, Cruisers",
    ),
    _ability(
        "Remote Weapons",
        "Skills",
        "Wits, Reflexes",
        "Defensive Fire, Power Armor, Mining Equipment, Advanced Maintenance",
        "PDCs, Missiles, Torpedoes, Rail Guns",
    ),
    _ability(
        "Survival",
        "Skills",
        "Intelligence, Wits",
        "Extreme Temperatures, Radiation, Biochemical Agents",
        "Terrain (Urban, Forests, Plains, etc), Vacuum, Non-Breathable Atmosphere",
    ),
    _ability(
        "Tradecraft",
        "Skills",
        "Wits, Precision",
        "Lockpick, Pickpocket",
        "Weapon Concealment, Dead Drops, Traps, Surveillance, Alarms",
    ),
    # Knowledges (Maelstrom rules.md, Knowledges)
    _ability(
        "Computer Science",
        "Knowledges",
        "Intelligence",
        "Hacking, AI Research, Quantum Computing",
        "Encryption, Programming, Data Processing",
    ),
    _ability(
        "Engineering",
        "Knowledges",
        "Intelligence, Wits",
        "Jury Rigging, Power Armor, Weapon Systems, Reactors, Gravitics",
        "Spacecraft, Aircraft, Stations, Ground Vehicles, Life Support, Electrical, "
        "Mining Equipment",
    ),
    _ability(
        "Humanities",
        "Knowledges",
        "Intelligence",
        "Linguistics, Specific Language (Chinese, Russian, etc)",
        "History, Philosophy, Religion, Literature, Anthropology",
    ),
    _ability(
        "Manufacturing",
        "Knowledges",
        "Intelligence, Wits",
        "Mechanical Design, Electronics, Explosives, Textiles",
        "Autofabrication, Manual Machining, Metals, Plastics, Ceramics, Composites",
    ),
    _ability(
        "Medicine",
        "Knowledges",
        "Intelligence",
        "Surgery, Battlefield Medicine, Zero-G, Prosthetics",
        "First Aid, Wound Management, Poisons, Radiation",
    ),
    _ability(
        "Science",
        "Knowledges",
        "Intelligence",
        "Astrophysics, Quantum Theory, Gravitics, Jump Technology",
        "Physics, Chemistry, Biology, Earth Science, Astronomy, Economics, Psychology, Sociology",
    ),
    _ability(
        "Statecraft",
        "Knowledges",
        "Intelligence, Wits",
        "Statutory Law, Contracts",
        "Corporate Politics, Government Politics, Specific System (Sol, Maelstrom, etc)",
    ),
    _ability(
        "Navigation",
        "Knowledges",
        "Intelligence",
        "Stealth, Close Approach, Precise Arrival, Jump Plotting",
        "Gravity Assists, Low Energy Transfers, Constant Thrust, Suborbital Routes",
    ),
)

ABILITY_GROUP_NAMES: tuple[str, ...] = ("Talents", "Skills", "Knowledges")
"""The three ability groups in the seed's order."""

ABILITY_GROUPS: dict[str, tuple[str, ...]] = {
    group: tuple(info.name for info in _ABILITY_LIST if info.group == group)
    for group in ABILITY_GROUP_NAMES
}
"""Ability names by group, 8 each, in the seed's order (Maelstrom rules.md, Abilities)."""

ABILITIES: dict[str, AbilityInfo] = {info.name: info for info in _ABILITY_LIST}
"""All 24 abilities by name, Talents then Skills then Knowledges (Maelstrom rules.md,
Abilities)."""


@dataclass(frozen=True)
class MeritFlaw:
    """Catalogue entry of a merit (costs XP) or a flaw (awards XP).

    Attributes:
        name: as the seed spells it (including "Ambidexterous").
        kind: "merit" or "flaw".
        points: the allowed prices in XP, e.g. ``(2, 5)`` for Acute Sense, ``(4,)`` for Huge
            Size.
        description: one sentence summarising the seed's text, saying what each price buys
            where there are two.

    Source: Maelstrom rules.md, Merits and Flaws (Merits, Flaws).
    """

    name: str
    kind: str
    points: tuple[int, ...]
    description: str


def _merit(name: str, points: tuple[int, ...], description: str) -> MeritFlaw:
    return MeritFlaw(name=name, kind="merit", points=points, description=description)


def _flaw(name: str, points: tuple[int, ...], description: str) -> MeritFlaw:
    return MeritFlaw(name=name, kind="flaw", points=points, description=description)


def suggested_specialty(ability: str, name: str) -> tuple[str, bool] | None:
    """The seed's spelling and kind of a suggested specialty.

    Args:
        ability: an ability name, e.g. "Firearms".
        name: a specialty name as typed, any case, e.g. "extreme range".

    Returns:
        ``(name as the seed spells it, advanced?)``, e.g. ``("Extreme Range", True)``, or
        None when the name is not among the ability's suggestions (Maelstrom rules.md,
        Abilities; a specialty off the list is the storyteller's call).
    """
    info = ABILITIES.get(ability)
    if info is None:
        return None
    wanted = name.strip().casefold()
    for suggestion in info.advanced_specialties:
        if suggestion.casefold() == wanted:
            return suggestion, True
    for suggestion in info.general_specialties:
        if suggestion.casefold() == wanted:
            return suggestion, False
    return None


# Merits and flaws that make sense more than once, for different details: Acute Sense at
# 2 points is "each sense" (the 5-point price is all senses), a Defective Sense per sense.
REPEATABLE_WITH_DETAIL: frozenset[str] = frozenset({"Acute Sense", "Defective Sense"})

MERITS: dict[str, MeritFlaw] = {
    merit.name: merit
    for merit in (
        _merit(
            "Acute Sense",
            (2, 5),
            "An exceptionally honed natural sense gives -2 difficulty on perception rolls "
            "using it: 2 points for one sense, 5 points for all senses.",
        ),
        _merit("Ambidexterous", (1,), "Equally capable with either hand: no off-hand penalties."),
        _merit(
            "Exceptional Balance",
            (1,),
            "All balance-related rolls (tightropes, narrow ledges) have -2 difficulty.",
        ),
        _merit(
            "Huge Size",
            (4,),
            "Enormous bulk adds one health level with 0 penalty at the top of the health "
            "chart, at the cost of more oxygen and a poor fit in vehicles and suits.",
        ),
        _merit(
            "Strong Bond",
            (4,),
            "A bond with another person gives one automatic success on all Willpower rolls, "
            "lost if the character believes that person dead or lost.",
        ),
        _merit(
            "Common Sense",
            (1,),
            "The storyteller warns you before your character does something unwise; no bonus "
            "to rolls.",
        ),
        _merit(
            "Laser Focus",
            (1,),
            "No penalties for being distracted or acting in a loud or adverse environment.",
        ),
        _merit("Early Riser", (1,), "Needs only 4-5 hours of sleep a night."),
        _merit(
            "Mental Mathematician",
            (1,),
            "Does complex math in their head instantly; the player may use a calculator at "
            "any time.",
        ),
        _merit(
            "Timekeeper",
            (1,),
            "Always aware of elapsed time (to seconds for up to an hour) unless incapacitated.",
        ),
        _merit(
            "Eidetic Memory",
            (2,),
            "Remembers almost everything and can recall text, sounds and images in precise detail.",
        ),
    )
}
"""Every merit in the seed, by name, in the seed's order (Maelstrom rules.md, Merits)."""

FLAWS: dict[str, MeritFlaw] = {
    flaw.name: flaw
    for flaw in (
        _flaw(
            "Addict",
            (1, 3),
            "Addicted to a substance and suffers withdrawal without it: 1 point for something "
            "mundane like nicotine or alcohol, 3 points for something illegal, dangerous or "
            "exotic.",
        ),
        _flaw(
            "Defective Sense",
            (2,),
            "A dulled natural sense gives +2 difficulty on rolls it affects (less with a "
            "corrective aid); not with Acute Sense in the same sense.",
        ),
        _flaw(
            "Visually Impaired",
            (4,),
            "An uncorrectable vision impairment gives +2 difficulty on all rolls where vision "
            "is a factor.",
        ),
        _flaw(
            "Deaf",
            (5,),
            "Fails all hearing-related rolls and many alertness rolls have +3 difficulty.",
        ),
        _flaw("Mute", (6,), "Cannot speak in character; may write or sign."),
        _flaw(
            "Blind",
            (8,),
            "Fails all vision-related rolls and alertness rolls have +3 difficulty.",
        ),
        _flaw(
            "Short",
            (1,),
            "At 4.5 feet or less: trouble reaching things and reduced speed, but small spaces "
            "are easier.",
        ),
        _flaw(
            "Disfigured",
            (2,),
            "Hideously deformed or disfigured: memorable, and many social interactions are harder.",
        ),
        _flaw(
            "Lame",
            (5,),
            "Cannot walk without a cane, brace or other aid; severely reduced speed, cannot "
            "run or jump.",
        ),
        _flaw(
            "Paraplegic",
            (8, 10),
            "Confined to a wheelchair or similar device: 8 points if specifically designed "
            "power armor can still be operated, 10 points if even that is impossible.",
        ),
        _flaw(
            "Dark Secret",
            (1,),
            "Something terrible in the past will cause trouble if it is discovered.",
        ),
        _flaw(
            "Mistaken Identity",
            (1,),
            "Looks remarkably like someone famous or legendary and is sometimes taken for them.",
        ),
        _flaw(
            "Hunted",
            (4,),
            "A relentless hunter wants the character dead and endangers their companions too.",
        ),
        _flaw(
            "Deep Sleeper",
            (1,),
            "+2 difficulty to wake up, then +1 difficulty to all rolls in that scene.",
        ),
        _flaw(
            "Inept",
            (2,),
            "+2 difficulty on all rolls with one important ability the character has at "
            "least one dot in.",
        ),
        _flaw(
            "Soft-Hearted",
            (1,),
            "Needs a difficulty 8 Willpower roll to take part in anything that causes "
            "someone pain.",
        ),
        _flaw(
            "Phobia",
            (2,),
            "Must roll Willpower when facing a common fear: a botch may incapacitate, a "
            "failure means fleeing or +2 difficulty on all rolls while facing it.",
        ),
    )
}
"""Every flaw in the seed, by name, in the seed's order (Maelstrom rules.md, Flaws)."""


# ---------------------------------------------------------------------------------------------
# Experience: Maelstrom rules.md, Spending Experience
# ---------------------------------------------------------------------------------------------

TRAIT_KINDS: tuple[str, ...] = (
    "attribute",
    "ability",
    "willpower",
    "general_specialty",
    "advanced_specialty",
)
"""Kinds of trait that can be bought with XP (Maelstrom rules.md, Spending Experience)."""

_MAX_RANK: dict[str, int] = {
    "attribute": DOTS_MAX,
    "ability": DOTS_MAX,
    "willpower": WILLPOWER_MAX,
    "general_specialty": 1,
    "advanced_specialty": 1,
}


_KIND_NOUN: dict[str, str] = {
    "attribute": "an attribute",
    "ability": "an ability",
    "willpower": "Willpower",
    "general_specialty": "a general specialty",
    "advanced_specialty": "an advanced specialty",
}


def _check_trait_kind(kind: str) -> None:
    if kind not in _MAX_RANK:
        raise RuleError(
            f"unknown trait kind {kind!r}; expected one of {', '.join(TRAIT_KINDS)}",
            _rule("Spending Experience"),
        )


def xp_cost(kind: str, new_rank: int) -> int:
    """XP cost of buying one dot that brings a trait to ``new_rank``.

    Table (Maelstrom rules.md, Spending Experience): general specialty 2; advanced specialty
    3; Willpower new rank x 1; ability new rank x 2; attribute 15 (flat).

    Args:
        kind: one of :data:`TRAIT_KINDS`.
        new_rank: the rank in dots after the purchase: 1-5 for attributes and abilities,
            1-10 for Willpower, 1 for a specialty (a specialty is owned or not).

    Returns:
        The cost in XP (a positive int).

    Raises:
        RuleError: unknown kind, or a rank below 1 or above the trait's maximum.
    """
    _check_trait_kind(kind)
    maximum = _MAX_RANK[kind]
    if not 1 <= new_rank <= maximum:
        raise RuleError(
            f"{_KIND_NOUN[kind]} can only be bought up to rank {maximum}, not rank {new_rank}",
            _rule("Spending Experience"),
        )
    if kind == "attribute":
        return 15
    if kind == "ability":
        return 2 * new_rank
    if kind == "willpower":
        return new_rank
    if kind == "general_specialty":
        return 2
    return 3


def xp_cost_between(kind: str, current: int, target: int) -> int:
    """XP cost of raising a trait from ``current`` dots to ``target`` dots, one dot at a time.

    Sums :func:`xp_cost` over the new ranks ``current + 1`` .. ``target`` (Maelstrom rules.md,
    Spending Experience); an ability 0 -> 3 costs 2 + 4 + 6 = 12 XP.

    Args:
        kind: one of :data:`TRAIT_KINDS`.
        current: dots owned now (>= 0).
        target: dots wanted (>= current, at most the trait's maximum).

    Returns:
        Total XP; 0 when ``target == current``.

    Raises:
        RuleError: unknown kind, negative ``current``, ``target`` below ``current`` (XP is
            never refunded) or above the maximum.
    """
    _check_trait_kind(kind)
    if current < 0:
        raise RuleError(f"a trait cannot have {current} dots", _rule("Spending Experience"))
    if target < current:
        raise RuleError(
            f"cannot lower {_KIND_NOUN[kind]} from {current} to {target} with XP",
            _rule("Spending Experience"),
        )
    return sum(xp_cost(kind, rank) for rank in range(current + 1, target + 1))


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
# Health: Maelstrom rules.md, Health / Marking Damage / Wound Penalties /
# Incapacitation and Death
# ---------------------------------------------------------------------------------------------

HEALTH_LEVELS: tuple[tuple[str, int | None], ...] = (
    ("Bruised", 0),
    ("Scratched", -1),
    ("Hurt", -1),
    ("Injured", -2),
    ("Wounded", -2),
    ("Mauled", -3),
    ("Crippled", -5),
    ("Incapacitated", None),
)
"""The health chart top to bottom as (level name, wound penalty in dice); the Incapacitated
box has no wound penalty (Maelstrom rules.md, Incapacitation and Death; names and penalties from
the repository's character sheet, see RULES.md section 1)."""

HUGE_SIZE_LEVEL: tuple[str, int | None] = ("Huge Size", 0)
"""Extra box with 0 penalty at the top of the chart for the Huge Size merit (Maelstrom
rules.md, Merits, Huge Size)."""

DAMAGE_KINDS: tuple[str, ...] = ("bashing", "lethal", "aggravated")
"""Damage types, least serious first (Maelstrom rules.md, Types of Damage)."""

DAMAGE_MARKS: dict[str, str] = {"aggravated": "*", "lethal": "X", "bashing": "/"}
"""How each damage type is marked in a box (Maelstrom rules.md, Marking Damage)."""

EMPTY_MARK = " "
"""Mark of an undamaged box."""


def _check_damage_kind(kind: str, section: str) -> None:
    if kind not in DAMAGE_KINDS:
        raise RuleError(
            f"unknown damage type {kind!r}; expected bashing, lethal or aggravated",
            _rule(section),
        )


def _check_levels(levels: int, section: str) -> None:
    if levels < 1:
        raise RuleError(f"levels must be at least 1, not {levels}", _rule(section))


@dataclass(frozen=True)
class HealthChart:
    """A character's health chart, stored as counts of each damage type.

    The order of the boxes is implied by the counts: aggravated damage fills the top boxes,
    then lethal, then bashing, then the empty boxes (Maelstrom rules.md, Marking Damage).

    Attributes:
        bashing: levels of bashing damage ("/").
        lethal: levels of lethal damage ("X").
        aggravated: levels of aggravated damage ("*").
        huge_size: the character has the Huge Size merit: a ninth box at the top, 0 penalty.
        dead: the character has taken fatal damage (Maelstrom rules.md, Incapacitation and
            Death).

    Raises:
        RuleError: on construction, if a count is negative or the damage exceeds the boxes.
    """

    bashing: int = 0
    lethal: int = 0
    aggravated: int = 0
    huge_size: bool = False
    dead: bool = False

    def __post_init__(self) -> None:
        for kind in DAMAGE_KINDS:
            if getattr(self, kind) < 0:
                raise RuleError(f"{kind} damage cannot be negative", _rule("Marking Damage"))
        if self.damaged > self.boxes:
            raise RuleError(
                f"{self.damaged} levels of damage do not fit in {self.boxes} health boxes",
                _rule("Marking Damage"),
            )

    @property
    def boxes(self) -> int:
        """Number of boxes (levels) on the chart: 8, or 9 with Huge Size."""
        return len(HEALTH_LEVELS) + (1 if self.huge_size else 0)

    @property
    def damaged(self) -> int:
        """Number of damaged boxes (levels of damage of all types)."""
        return self.bashing + self.lethal + self.aggravated

    def levels(self) -> list[tuple[str, int | None]]:
        """The chart's boxes top to bottom as (level name, wound penalty) pairs.

        Returns:
            :data:`HEALTH_LEVELS` as a list, preceded by :data:`HUGE_SIZE_LEVEL` when
            ``huge_size`` is set.
        """
        top = [HUGE_SIZE_LEVEL] if self.huge_size else []
        return top + list(HEALTH_LEVELS)

    def marks(self) -> list[str]:
        """The box marks top to bottom: "*" per aggravated, "X" per lethal, "/" per bashing,
        then " " for each empty box (Maelstrom rules.md, Marking Damage).

        Returns:
            A list of ``boxes`` one-character strings.
        """
        return (
            [DAMAGE_MARKS["aggravated"]] * self.aggravated
            + [DAMAGE_MARKS["lethal"]] * self.lethal
            + [DAMAGE_MARKS["bashing"]] * self.bashing
            + [EMPTY_MARK] * (self.boxes - self.damaged)
        )

    @property
    def wound_penalty(self) -> int:
        """Dice removed from action pools, as a positive number (Maelstrom rules.md, Wound
        Penalties).

        0 when undamaged; otherwise the penalty of the bottom-most damaged box. The
        Incapacitated box has no penalty ("marked Incapacitated with no wound penalty"): once
        it is damaged this is 0, and :attr:`incapacitated` forbids actions instead.
        """
        if self.incapacitated:
            return 0
        levels = self.levels()
        for index in range(self.damaged - 1, -1, -1):
            penalty = levels[index][1]
            if penalty is not None:
                return -penalty
        return 0

    @property
    def incapacitated(self) -> bool:
        """True when the bottom (Incapacitated) box holds damage: the character is unconscious
        and cannot act (Maelstrom rules.md, Incapacitation and Death). Also true when dead."""
        return self.dead or self.damaged >= self.boxes

    @property
    def level_name(self) -> str:
        """Level name: "Healthy" when undamaged, "Dead" when dead, else the bottom-most damaged
        box's name (e.g. "Hurt" after three levels)."""
        if self.dead:
            return "Dead"
        if self.damaged == 0:
            return "Healthy"
        return self.levels()[self.damaged - 1][0]


def _take_one_level(chart: HealthChart, kind: str) -> HealthChart:
    if chart.damaged < chart.boxes:
        return replace(chart, **{kind: getattr(chart, kind) + 1})
    if chart.bashing > 0:
        # Full chart, the bottom box holds bashing. A further bashing converts the top-most
        # bashing to lethal; a lethal or aggravated level takes the place of one bashing.
        if kind == "aggravated":
            return replace(chart, bashing=chart.bashing - 1, aggravated=chart.aggravated + 1)
        return replace(chart, bashing=chart.bashing - 1, lethal=chart.lethal + 1)
    # Full chart, the bottom box holds lethal or aggravated: the next level is fatal.
    return replace(chart, dead=True)


def take_damage(chart: HealthChart, kind: str, levels: int = 1) -> HealthChart:
    """Mark ``levels`` levels of ``kind`` damage (after soaking) on the chart.

    Levels are applied one at a time (Maelstrom rules.md, Marking Damage; Incapacitation and
    Death):

    - while a box is free, the level fills one; the more serious types sit on top, so a new
      lethal level "pushes the bashing damage down" (seed example: ``X / /`` + 1 lethal =
      ``X X / /``);
    - when every box is full and the bottom box holds bashing, a further bashing level
      converts the top-most bashing to lethal. A further lethal or aggravated level takes the
      place of one bashing level (one bashing is pushed off the chart). The seed is silent on
      this second case; this is our documented decision, and it moves the chart towards
      death exactly as the bashing conversion does;
    - when every box is full and the bottom box holds lethal or aggravated (no bashing left),
      the next level of any type is fatal: the result has ``dead=True`` and the remaining
      levels of this call are ignored.

    Args:
        chart: the current chart (not modified; charts are immutable).
        kind: "bashing", "lethal" or "aggravated".
        levels: levels of damage, >= 1.

    Returns:
        The new chart.

    Raises:
        RuleError: unknown kind, ``levels`` < 1, or the character is already dead.
    """
    _check_damage_kind(kind, "Types of Damage")
    _check_levels(levels, "Marking Damage")
    if chart.dead:
        raise RuleError(
            "the character is dead and cannot take more damage",
            _rule("Incapacitation and Death"),
        )
    for _ in range(levels):
        chart = _take_one_level(chart, kind)
        if chart.dead:
            break
    return chart


def heal(chart: HealthChart, kind: str | None = None, levels: int = 1) -> HealthChart:
    """Remove ``levels`` levels of damage from the chart.

    With ``kind`` given, only that type is removed. With ``kind`` None the least serious
    damage goes first (bashing, then lethal, then aggravated): "less serious damage types are
    healed first" (Maelstrom rules.md, Marking Damage). How long healing takes is not written
    in the seed and is left to the storyteller.

    Args:
        chart: the current chart.
        kind: "bashing", "lethal", "aggravated" or None for the least serious first.
        levels: levels to heal, >= 1.

    Returns:
        The new chart.

    Raises:
        RuleError: unknown kind, ``levels`` < 1, not that much damage (of that kind) to heal,
            or the character is dead.
    """
    _check_levels(levels, "Marking Damage")
    if kind is not None:
        _check_damage_kind(kind, "Types of Damage")
    if chart.dead:
        raise RuleError(
            "the character is dead; damage cannot be healed", _rule("Incapacitation and Death")
        )
    if kind is not None:
        have = getattr(chart, kind)
        if have < levels:
            raise RuleError(
                f"there {'is' if have == 1 else 'are'} only {have} level"
                f"{'' if have == 1 else 's'} of {kind} damage to heal, not {levels}",
                _rule("Marking Damage"),
            )
        return replace(chart, **{kind: have - levels})
    if chart.damaged < levels:
        raise RuleError(
            f"there {'is' if chart.damaged == 1 else 'are'} only {chart.damaged} level"
            f"{'' if chart.damaged == 1 else 's'} of damage to heal, not {levels}",
            _rule("Marking Damage"),
        )
    counts = {name: getattr(chart, name) for name in DAMAGE_KINDS}
    remaining = levels
    for name in DAMAGE_KINDS:
        taken = min(counts[name], remaining)
        counts[name] -= taken
        remaining -= taken
    return replace(chart, **counts)


# ---------------------------------------------------------------------------------------------
# Dice pools: Maelstrom rules.md, Dice Pool / Difficulty / Threshold / Required Specialties /
# Using Specialties / Talents / Skills / Knowledges / Wound Penalties / Rolling Willpower /
# Soaking Damage
# ---------------------------------------------------------------------------------------------

POOL_KINDS: tuple[str, ...] = ("action", "willpower", "soak")
"""Kinds of roll: an action (attribute + ability), a Willpower roll, a soak roll."""


@dataclass(frozen=True)
class TraitRef:
    """A trait used in an action's dice pool.

    Attributes:
        name: e.g. "Precision" or "Firearms".
        kind: "attribute" or "ability".
        dots: the character's rank in it (0-5); one die per dot (Maelstrom rules.md, Dice
            Pool).
        group: for an ability, "Talents", "Skills" or "Knowledges"; may be left "" for an
            ability of the catalogue, whose group is then looked up in :data:`ABILITIES`.
    """

    name: str
    kind: str
    dots: int
    group: str = ""


@dataclass(frozen=True)
class SpecialtyRef:
    """A specialty the character owns and wants to use in a roll.

    Attributes:
        name: e.g. "Extreme Range".
        ability: the ability it belongs to, e.g. "Firearms" (a specialty is connected to a
            single ability; Maelstrom rules.md, Specialties).
        advanced: True for an advanced specialty, False for a general one.
    """

    name: str
    ability: str
    advanced: bool


@dataclass(frozen=True, kw_only=True)
class ActionPool:
    """A dice pool ready to roll, with everything the roll needs and why.

    Built by :func:`build_action_pool`, :func:`build_willpower_pool` or
    :func:`build_soak_pool`; keyword-only.

    Attributes:
        kind: "action", "willpower" or "soak".
        dice: number of d10s to roll (after the wound penalty); >= 0 (0 only for soak).
        difficulty: a die showing this or more is a success (2-10).
        threshold: successes removed before botches are counted (>= 0), including +1 per
            required specialty not used.
        exploding: exploding tens (a specialty is used): every 10 adds two bonus dice.
        wound_penalty: dice removed by the wound penalty (>= 0).
        traits: names of the traits rolled, e.g. ("Precision", "Driving").
        specialties: names of the specialties used.
        automatic_successes: successes added without dice (Strong Bond on Willpower rolls).
        experience_die_allowed: whether an experience die may be added after the roll.
        notes: human-readable explanations, e.g. "Driving at 0 dots (skill): difficulty +1".
    """

    kind: str
    dice: int
    difficulty: int
    threshold: int
    exploding: bool
    wound_penalty: int
    traits: tuple[str, ...]
    specialties: tuple[str, ...]
    automatic_successes: int = 0
    experience_die_allowed: bool
    notes: tuple[str, ...] = field(default=())

    def describe(self) -> str:
        """One line for the UI, e.g. "Precision + Driving: 5 dice, difficulty 6, threshold 0".

        Exploding tens, specialties and automatic successes are appended when present.
        """
        name = " + ".join(self.traits) or self.kind.capitalize()
        text = (
            f"{name}: {self.dice} {'die' if self.dice == 1 else 'dice'}, "
            f"difficulty {self.difficulty}, threshold {self.threshold}"
        )
        if self.specialties:
            text += f", specialties {', '.join(self.specialties)}"
        if self.exploding:
            text += ", exploding tens"
        if self.automatic_successes:
            plural = "es" if self.automatic_successes != 1 else ""
            text += f", {self.automatic_successes} automatic success{plural}"
        return text

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict (tuples become lists); see :meth:`from_dict`."""
        return {
            "kind": self.kind,
            "dice": self.dice,
            "difficulty": self.difficulty,
            "threshold": self.threshold,
            "exploding": self.exploding,
            "wound_penalty": self.wound_penalty,
            "traits": list(self.traits),
            "specialties": list(self.specialties),
            "automatic_successes": self.automatic_successes,
            "experience_die_allowed": self.experience_die_allowed,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ActionPool:
        """Rebuild a pool stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field, or an unknown pool kind.
        """
        stored = Stored(data, _STORED_RULE)
        kind = stored.str("kind")
        if kind not in POOL_KINDS:
            raise RuleError(f"unknown pool kind {kind!r}", _rule("Dice Pool"))
        return cls(
            kind=kind,
            dice=stored.int("dice"),
            difficulty=stored.int("difficulty"),
            threshold=stored.int("threshold"),
            exploding=stored.bool("exploding"),
            wound_penalty=stored.int("wound_penalty"),
            traits=stored.strs("traits"),
            specialties=stored.strs("specialties"),
            automatic_successes=stored.int("automatic_successes"),
            experience_die_allowed=stored.bool("experience_die_allowed"),
            notes=stored.strs("notes"),
        )


def _check_difficulty(difficulty: int) -> None:
    if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
        raise RuleError(
            f"difficulty must be between {DIFFICULTY_MIN} and {DIFFICULTY_MAX}, not {difficulty}",
            _rule("Difficulty"),
        )


def _check_threshold(threshold: int) -> None:
    if threshold < 0:
        raise RuleError(f"threshold cannot be negative ({threshold})", _rule("Threshold"))


def _dots(count: int) -> str:
    return f"{count} dot" if count == 1 else f"{count} dots"


def _ability_group(trait: TraitRef) -> str:
    known = ABILITIES.get(trait.name)
    if known is not None and trait.group and trait.group != known.group:
        raise RuleError(
            f"{trait.name} is one of the {known.group}, not the {trait.group}",
            _rule("Abilities"),
        )
    group = trait.group or (known.group if known is not None else "")
    if group not in ABILITY_GROUP_NAMES:
        raise RuleError(
            f"{trait.name} needs an ability group (Talents, Skills or Knowledges)",
            _rule("Abilities"),
        )
    return group


def build_action_pool(
    *,
    traits: Sequence[TraitRef],
    specialties: Sequence[SpecialtyRef] = (),
    difficulty: int = DEFAULT_DIFFICULTY,
    threshold: int = 0,
    required_specialties: Sequence[str] = (),
    wound_penalty: int = 0,
    incapacitated: bool = False,
    wound_level: str = "",
) -> ActionPool:
    """Build the dice pool of an action from its traits, specialties and circumstances.

    Rules applied:

    - one or two traits, never more: an attribute and an ability, two attributes, or one
      trait alone; never two abilities, and not the same trait twice; one d10 per dot
      (Maelstrom rules.md, Dice Pool);
    - difficulty 2-10 (Maelstrom rules.md, Difficulty); threshold >= 0 (Threshold);
    - an ability at 0 dots: a Talent rolls the attribute alone with no penalty (Talents); a
      Skill rolls the attribute alone at difficulty +1, and a resulting difficulty above 10
      is refused (Skills); a Knowledge cannot be rolled (Knowledges);
    - each specialty must belong to the ability in the pool, and at most one specialty per
      dot of that ability may be used, so none at 0 dots (Using Specialties);
    - using at least one specialty gives exploding tens (Using Specialties);
    - each required specialty not among those used adds 1 to the threshold (Required
      Specialties);
    - the wound penalty removes dice (Wound Penalties); an incapacitated character cannot
      act (Incapacitation and Death); a pool with no dice left is refused.

    Args:
        traits: the one or two :class:`TraitRef` rolled.
        specialties: the specialties the player chooses to use (owned by the character).
        difficulty: the storyteller's difficulty before the zero-dot skill penalty.
        threshold: the storyteller's base threshold, before required specialties.
        required_specialties: names of the advanced specialties the task requires.
        wound_penalty: dice removed, as a positive number (e.g.
            ``HealthChart.wound_penalty``; pass 0 when Willpower is spent to ignore it).
        incapacitated: the character is incapacitated (bottom health box damaged, or zero
            Willpower).
        wound_level: optional level name for the note, e.g. "Hurt".

    Returns:
        An :class:`ActionPool` of kind "action" with explanatory notes.

    Raises:
        RuleError: for any rule above, with a message naming what is wrong.
    """
    if incapacitated:
        raise RuleError("an incapacitated character cannot act", _rule("Incapacitation and Death"))
    if not 1 <= len(traits) <= 2:
        raise RuleError(
            f"a dice pool uses one or two traits, never {len(traits)}", _rule("Dice Pool")
        )
    for trait in traits:
        if trait.kind not in ("attribute", "ability"):
            raise RuleError(
                f"{trait.name}: an action rolls attributes and abilities, not a "
                f"{trait.kind!r} (Willpower is always rolled alone)",
                _rule("Dice Pool"),
            )
        if not 0 <= trait.dots <= DOTS_MAX:
            raise RuleError(
                f"{trait.name} has {trait.dots} dots; traits have 0 to {DOTS_MAX}",
                _rule("Dice Pool"),
            )
        if trait.kind == "attribute" and trait.name not in ATTRIBUTES:
            raise RuleError(f"unknown attribute {trait.name!r}", _rule("Attributes"))
    if len(traits) == 2 and traits[0].name == traits[1].name:
        raise RuleError(f"{traits[0].name} cannot be used twice in one pool", _rule("Dice Pool"))
    abilities = [trait for trait in traits if trait.kind == "ability"]
    if len(abilities) > 1:
        raise RuleError(
            "a dice pool is an attribute and an ability, or two attributes; "
            f"not two abilities ({abilities[0].name} and {abilities[1].name})",
            _rule("Dice Pool"),
        )
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if wound_penalty < 0:
        raise RuleError(
            f"the wound penalty is a number of dice removed, not {wound_penalty}",
            _rule("Wound Penalties"),
        )

    notes: list[str] = []
    ability = abilities[0] if abilities else None

    # Specialties (Maelstrom rules.md, Using Specialties).
    used: list[str] = []
    for specialty in specialties:
        if ability is None or specialty.ability != ability.name:
            rolled = f"the pool rolls {ability.name}" if ability else "the pool has no ability"
            raise RuleError(
                f"{specialty.name} is a {specialty.ability} specialty and {rolled}",
                _rule("Using Specialties"),
            )
        if specialty.name in used:
            raise RuleError(f"{specialty.name} is listed twice", _rule("Using Specialties"))
        used.append(specialty.name)
    if ability is not None and len(used) > ability.dots:
        if ability.dots == 0:
            message = f"{ability.name} has 0 dots, so no specialty can be used in this roll"
        else:
            noun = "specialty" if ability.dots == 1 else "specialties"
            message = (
                f"{ability.name} has {_dots(ability.dots)}, so at most {ability.dots} {noun} "
                "can be used in this roll"
            )
        raise RuleError(message, _rule("Using Specialties"))
    for specialty in specialties:
        level = "advanced" if specialty.advanced else "general"
        notes.append(f"Specialty {specialty.name} ({level}) used: exploding tens")

    # Zero-dot abilities (Maelstrom rules.md, Talents / Skills / Knowledges).
    if ability is not None and ability.dots == 0:
        group = _ability_group(ability)
        if group == "Knowledges":
            raise RuleError(
                f"{ability.name} is a knowledge with 0 dots: you cannot roll a knowledge at 0 dots",
                _rule("Knowledges"),
            )
        if group == "Skills":
            difficulty += 1
            if difficulty > DIFFICULTY_MAX:
                raise RuleError(
                    f"{ability.name} at 0 dots raises the difficulty to {difficulty}, "
                    f"above {DIFFICULTY_MAX}: success is impossible",
                    _rule("Skills"),
                )
            notes.append(f"{ability.name} at 0 dots (skill): difficulty +1")
        else:
            notes.append(f"{ability.name} at 0 dots (talent): attribute alone, no penalty")
    elif ability is not None:
        _ability_group(ability)

    # Required specialties (Maelstrom rules.md, Required Specialties).
    seen_required: set[str] = set()
    for name in required_specialties:
        if name in seen_required:
            raise RuleError(
                f"required specialty {name} is listed twice", _rule("Required Specialties")
            )
        seen_required.add(name)
        # Players type required specialties; "extreme range" is the Extreme Range they use.
        if name.casefold() not in {specialty.casefold() for specialty in used}:
            threshold += 1
            notes.append(f"Required specialty {name} not used: threshold +1")

    # Wound penalty (Maelstrom rules.md, Wound Penalties).
    total = sum(trait.dots for trait in traits)
    if total == 0:
        raise RuleError(
            f"{' + '.join(trait.name for trait in traits)} gives no dice to roll",
            _rule("Dice Pool"),
        )
    if wound_penalty:
        suffix = f" ({wound_level})" if wound_level else ""
        notes.append(f"Wound penalty -{wound_penalty}{suffix}")
    dice = max(0, total - wound_penalty)
    if dice == 0:
        raise RuleError(
            f"no dice left after the wound penalty ({total} dice, penalty -{wound_penalty})",
            _rule("Wound Penalties"),
        )
    return ActionPool(
        kind="action",
        dice=dice,
        difficulty=difficulty,
        threshold=threshold,
        exploding=bool(used),
        wound_penalty=wound_penalty,
        traits=tuple(trait.name for trait in traits),
        specialties=tuple(used),
        experience_die_allowed=True,
        notes=tuple(notes),
    )


def build_willpower_pool(
    *,
    current: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    threshold: int = 0,
    automatic_successes: int = 0,
) -> ActionPool:
    """Build the dice pool of a Willpower roll (Maelstrom rules.md, Rolling Willpower).

    The pool is the current Willpower rank, rolled alone; a Willpower roll is not an action,
    so there is no wound penalty; no specialties, so no exploding tens. An experience die may
    be added (Willpower is the trait used; Maelstrom rules.md, Adding Experience Dice).

    Args:
        current: current Willpower dots (1-10).
        difficulty: 2-10 (recovery rolls while resting use 8).
        threshold: >= 0.
        automatic_successes: successes added without dice, >= 0; 1 with the Strong Bond merit
            ("one automatic success on all Willpower rolls").

    Returns:
        An :class:`ActionPool` of kind "willpower".

    Raises:
        RuleError: current 0 (zero Willpower: the character is incapacitated; Maelstrom
            rules.md, Zero Willpower), current outside 0-10, bad difficulty, threshold or
            automatic successes.
    """
    if current == 0:
        raise RuleError(
            "the character has zero Willpower and is incapacitated", _rule("Zero Willpower")
        )
    if not 1 <= current <= WILLPOWER_MAX:
        raise RuleError(
            f"current Willpower must be between 0 and {WILLPOWER_MAX}, not {current}",
            _rule("Willpower"),
        )
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if automatic_successes < 0:
        raise RuleError("automatic successes cannot be negative", _rule("Rolling Willpower"))
    notes = ["Willpower is rolled alone and ignores wound penalties"]
    if automatic_successes:
        notes.append(
            f"{automatic_successes} automatic success"
            f"{'es' if automatic_successes != 1 else ''} (Strong Bond)"
        )
    return ActionPool(
        kind="willpower",
        dice=current,
        difficulty=difficulty,
        threshold=threshold,
        exploding=False,
        wound_penalty=0,
        traits=("Willpower",),
        specialties=(),
        automatic_successes=automatic_successes,
        experience_die_allowed=True,
        notes=tuple(notes),
    )


SOAK_DIFFICULTY = 6
"""Soak rolls are "always at a difficulty 6" (Maelstrom rules.md, Soaking Damage)."""


def build_soak_pool(*, damage_kind: str, strength: int, armor: int = 0) -> ActionPool:
    """Build the soak dice pool against incoming damage (Maelstrom rules.md, Soaking Damage).

    Bashing: Strength + armor; lethal and aggravated: armor only. Always difficulty 6, no
    wound penalty, no exploding tens, no experience die, and allowed while incapacitated.
    Each success subtracts one level from the incoming damage; 0 dice is allowed and means the
    full damage is taken.

    Args:
        damage_kind: "bashing", "lethal" or "aggravated".
        strength: the character's Strength dots (>= 0).
        armor: the armor's soak bonus in dice (>= 0) against this damage.

    Returns:
        An :class:`ActionPool` of kind "soak" (``dice`` may be 0).

    Raises:
        RuleError: unknown damage type, or negative Strength or armor.
    """
    _check_damage_kind(damage_kind, "Soaking Damage")
    if strength < 0 or armor < 0:
        raise RuleError("Strength and armor cannot be negative", _rule("Soaking Damage"))
    if damage_kind == "bashing":
        dice = strength + armor
        traits: tuple[str, ...] = ("Strength", "Armor") if armor else ("Strength",)
        notes = ["Bashing damage: Strength + armor"]
    else:
        dice = armor
        traits = ("Armor",)
        notes = [f"{damage_kind.capitalize()} damage: armor only"]
    if dice == 0:
        notes.append("No soak dice: the full damage is taken")
    return ActionPool(
        kind="soak",
        dice=dice,
        difficulty=SOAK_DIFFICULTY,
        threshold=0,
        exploding=False,
        wound_penalty=0,
        traits=traits,
        specialties=(),
        experience_die_allowed=False,
        notes=tuple(notes),
    )


# ---------------------------------------------------------------------------------------------
# Rolling and resolving: Maelstrom rules.md, Resolving the Result / Threshold /
# Using Specialties / Adding Experience Dice / Rolling Willpower
# ---------------------------------------------------------------------------------------------

OUTCOMES: tuple[str, ...] = ("success", "failure", "botch")
"""The three results of a roll (Maelstrom rules.md, Resolving the Result, Step 4)."""


@dataclass(frozen=True)
class Resolution:
    """The counted result of a roll.

    Attributes:
        successes: raw successes on all dice (regular and bonus) plus automatic successes.
        removed_by_threshold: successes removed by the threshold, min(threshold, successes).
        botches: 1s on the regular dice (bonus dice never botch).
        net: successes left after the threshold and the botches, >= 0.
        outcome: "success" (net > 0), "botch" (more botches than the successes left after the
            threshold) or "failure".
    """

    successes: int
    removed_by_threshold: int
    botches: int
    net: int
    outcome: str

    @property
    def remaining(self) -> int:
        """Successes left after the threshold, before botches cancel them."""
        return self.successes - self.removed_by_threshold


def _check_faces(dice: Sequence[int], what: str) -> None:
    for face in dice:
        if not 1 <= face <= DIE_SIDES:
            raise RuleError(
                f"{what} must show 1 to {DIE_SIDES}, not {face}", _rule("Resolving the Result")
            )


def resolve(
    *,
    dice: Sequence[int],
    bonus_dice: Sequence[int],
    difficulty: int,
    threshold: int,
    automatic_successes: int = 0,
) -> Resolution:
    """Count a roll's successes and botches and decide the outcome.

    Maelstrom rules.md, Resolving the Result (Steps 2-4) and Threshold:

    1. successes = dice and bonus dice showing ``difficulty`` or more, plus
       ``automatic_successes``;
    2. the threshold removes min(threshold, successes); removed successes "effectively never
       happened", not even against botches;
    3. botches = 1s on the regular dice (1s on bonus dice are ignored); each cancels one
       remaining success;
    4. successes left: success with that many; more botches than remaining successes: botch;
       otherwise failure.

    Args:
        dice: faces of the regular dice (1-10).
        bonus_dice: faces of bonus dice from exploding tens and the experience die (1-10).
        difficulty: 2-10.
        threshold: >= 0.
        automatic_successes: >= 0 (Strong Bond on Willpower rolls).

    Returns:
        A :class:`Resolution`.

    Raises:
        RuleError: a face outside 1-10, or a bad difficulty, threshold or automatic successes.
    """
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if automatic_successes < 0:
        raise RuleError("automatic successes cannot be negative", _rule("Rolling Willpower"))
    _check_faces(dice, "dice")
    _check_faces(bonus_dice, "bonus dice")
    successes = (
        sum(1 for face in dice if face >= difficulty)
        + sum(1 for face in bonus_dice if face >= difficulty)
        + automatic_successes
    )
    removed = min(threshold, successes)
    remaining = successes - removed
    botches = sum(1 for face in dice if face == 1)
    net = max(0, remaining - botches)
    if net > 0:
        outcome = "success"
    elif botches > remaining:
        outcome = "botch"
    else:
        outcome = "failure"
    return Resolution(
        successes=successes,
        removed_by_threshold=removed,
        botches=botches,
        net=net,
        outcome=outcome,
    )


@dataclass(frozen=True)
class RollResult:
    """A rolled pool with its dice and resolution.

    Attributes:
        pool: the :class:`ActionPool` rolled.
        dice: faces of the regular dice, in the order rolled.
        bonus_dice: faces of the bonus dice from exploding tens, breadth-first.
        experience_die: the experience die followed by the bonus dice its tens chained; empty
            when none was added.
        resolution: the :class:`Resolution` over all dice (bonus and experience dice
            included).
    """

    pool: ActionPool
    dice: tuple[int, ...]
    bonus_dice: tuple[int, ...]
    experience_die: tuple[int, ...]
    resolution: Resolution

    @property
    def outcome(self) -> str:
        """The outcome: "success", "failure" or "botch"."""
        return self.resolution.outcome

    @property
    def net(self) -> int:
        """Net successes (0 unless the outcome is a success)."""
        return self.resolution.net

    def summary(self) -> str:
        """Short text for the UI: "2 successes", "1 success", "Failure" or "Botch (2 botches)"."""
        if self.outcome == "success":
            return f"{self.net} success{'es' if self.net != 1 else ''}"
        if self.outcome == "botch":
            botches = self.resolution.botches
            return f"Botch ({botches} botch{'es' if botches != 1 else ''})"
        return "Failure"

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage (lists, ints, strings, bools).

        Keys: "system" ("maelstrom"), "pool" (:meth:`ActionPool.as_dict`), "dice",
        "bonus_dice", "experience_die", "resolution" (the :class:`Resolution` fields) and
        "summary". :meth:`from_dict` rebuilds the result.
        """
        resolution = self.resolution
        return {
            "system": "maelstrom",
            "pool": self.pool.as_dict(),
            "dice": list(self.dice),
            "bonus_dice": list(self.bonus_dice),
            "experience_die": list(self.experience_die),
            "resolution": {
                "successes": resolution.successes,
                "removed_by_threshold": resolution.removed_by_threshold,
                "botches": resolution.botches,
                "net": resolution.net,
                "outcome": resolution.outcome,
            },
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict` (e.g. to add an experience die later).

        The resolution is recomputed from the stored dice with :func:`resolve`, so a stored
        result can never disagree with the rules.

        Raises:
            RuleError: a missing or mistyped field, or dice outside 1-10.
        """
        stored = Stored(data, _STORED_RULE)
        pool = ActionPool.from_dict(stored.mapping("pool"))
        dice = stored.ints("dice")
        bonus = stored.ints("bonus_dice")
        experience = stored.ints("experience_die")
        return cls(
            pool=pool,
            dice=dice,
            bonus_dice=bonus,
            experience_die=experience,
            resolution=_resolve_pool(pool, dice, bonus + experience),
        )


def _resolve_pool(pool: ActionPool, dice: Sequence[int], bonus: Sequence[int]) -> Resolution:
    return resolve(
        dice=dice,
        bonus_dice=bonus,
        difficulty=pool.difficulty,
        threshold=pool.threshold,
        automatic_successes=pool.automatic_successes,
    )


def _explode(rng: Rng, tens: int, room: int) -> list[int]:
    """Bonus dice for ``tens`` tens, breadth-first and chained, at most ``room`` dice."""
    bonus: list[int] = []
    pending = 2 * tens
    while pending and len(bonus) < room:
        batch = [roll_die(rng, DIE_SIDES) for _ in range(min(pending, room - len(bonus)))]
        bonus.extend(batch)
        pending = 2 * batch.count(10)
    return bonus


def roll(pool: ActionPool, rng: Rng) -> RollResult:
    """Roll a dice pool and resolve it (Maelstrom rules.md, Resolving the Result, Step 1).

    Rolls ``pool.dice`` d10s in order (one ``rng.randint(1, 10)`` each). If the pool is
    exploding (a specialty is used; never for soak pools), bonus dice follow breadth-first:
    two per 10 among the regular dice, then two per 10 among those bonus dice, and so on
    (Maelstrom rules.md, Using Specialties). A threshold removes successes, not dice, so it
    never stops bonus dice. At most :data:`MAX_BONUS_DICE` bonus dice are rolled (a safety
    cap against a broken RNG).

    Args:
        pool: the pool to roll.
        rng: the injected random source.

    Returns:
        A :class:`RollResult` with no experience die.
    """
    dice = tuple(roll_die(rng, DIE_SIDES) for _ in range(pool.dice))
    bonus: tuple[int, ...] = ()
    if pool.exploding and pool.kind != "soak":
        bonus = tuple(_explode(rng, dice.count(10), MAX_BONUS_DICE))
    return RollResult(
        pool=pool,
        dice=dice,
        bonus_dice=bonus,
        experience_die=(),
        resolution=_resolve_pool(pool, dice, bonus),
    )


def add_experience_die(result: RollResult, rng: Rng) -> RollResult:
    """Add the experience die to a resolved roll (Maelstrom rules.md, Adding Experience Dice).

    Once per roll, after resolving, if the roll did not botch: one bonus die is rolled; it
    does not botch on a 1 and, if the pool uses a specialty, its 10s explode (two more bonus
    dice each, chained). The roll is then resolved again with all bonus dice.

    Banking the XP (one available XP banked in a trait used by the roll, which the player
    must have) is the app's job: this function only rolls and re-resolves.

    Args:
        result: the resolved roll.
        rng: the injected random source.

    Returns:
        A new :class:`RollResult` whose ``experience_die`` holds the die and its chained
        bonus dice.

    Raises:
        RuleError: the roll botched, the pool forbids it (soak rolls), or an experience die
            was already added to this roll.
    """
    rule = _rule("Adding Experience Dice")
    if not result.pool.experience_die_allowed:
        raise RuleError(
            f"an experience die cannot be added to a {result.pool.kind} roll",
            _rule("Soaking Damage") if result.pool.kind == "soak" else rule,
        )
    if result.experience_die:
        raise RuleError("an experience die can be added only once per roll", rule)
    if result.outcome == "botch":
        raise RuleError("an experience die cannot be added to a botched roll", rule)
    die = roll_die(rng, DIE_SIDES)
    experience = [die]
    if result.pool.exploding and die == 10:
        room = max(0, MAX_BONUS_DICE - len(result.bonus_dice) - 1)
        experience.extend(_explode(rng, 1, room))
    experience_die = tuple(experience)
    return replace(
        result,
        experience_die=experience_die,
        resolution=_resolve_pool(result.pool, result.dice, result.bonus_dice + experience_die),
    )


def willpower_spend_successes(current: int, *, botched: bool = False) -> int:
    """Successes of a Willpower roll cancelled by spending a Willpower dot.

    After a Willpower roll the player may spend a dot to succeed automatically, with
    successes equal to the remaining dots; the final dot may not be spent this way, and a
    botched roll cannot be cancelled (Maelstrom rules.md, Rolling Willpower).

    Args:
        current: current Willpower dots before spending.
        botched: whether the roll being cancelled botched.

    Returns:
        The successes: ``current - 1`` (the dots left after spending one).

    Raises:
        RuleError: ``current`` <= 1 (may not spend the final dot) or the roll botched.
    """
    rule = _rule("Rolling Willpower")
    if botched:
        raise RuleError("you cannot spend Willpower to cancel a botched roll", rule)
    if current <= 1:
        raise RuleError(
            "you may not spend your final Willpower dot to succeed (it would give zero successes)",
            rule,
        )
    return current - 1


def willpower_botch_loss(result: RollResult) -> int:
    """Current Willpower dots lost to a botched Willpower roll.

    "Botching a Willpower roll reduces your character's current Willpower by one dot per
    uncancelled botch" (Maelstrom rules.md, Rolling Willpower): botches minus the successes
    left after the threshold.

    Args:
        result: any roll.

    Returns:
        Dots lost (>= 1) for a botched Willpower roll; 0 for any other roll.
    """
    if result.pool.kind != "willpower" or result.outcome != "botch":
        return 0
    return max(0, result.resolution.botches - result.resolution.remaining)


# ---------------------------------------------------------------------------------------------
# Exact odds: Maelstrom rules.md, Resolving the Result, Threshold, Using Specialties
# ---------------------------------------------------------------------------------------------

ODDS_MAX_DICE = 60
"""Largest pool :func:`odds` accepts (d10s); far above any legal pool, it bounds the work."""

ODDS_CUTOFF = 1e-12
"""Probability mass of long explosion chains that :func:`odds` may leave out, at most."""


@dataclass(frozen=True)
class MaelstromOdds:
    """Exact probabilities of a pool's outcomes.

    Attributes:
        success: P(outcome is "success"), a float in [0, 1].
        failure: P(outcome is "failure").
        botch: P(outcome is "botch").
        successes: net successes (1, 2, ...) -> probability, for successful rolls only;
            ascending, zero entries left out; sums to ``success``.
        cutoff: probability of the explosion chains too long to count (exploding pools
            only), below :data:`ODDS_CUTOFF`; ``success + failure + botch == 1 - cutoff``.
    """

    success: float
    failure: float
    botch: float
    successes: Mapping[int, float]
    cutoff: float = 0.0

    def as_dict(self) -> dict[str, object]:
        """``{"success", "failure", "botch", "successes": {"1": p, ...}}`` (the odds command)."""
        return {
            "success": self.success,
            "failure": self.failure,
            "botch": self.botch,
            "successes": {str(net): p for net, p in self.successes.items()},
        }


def _bonus_die_series(difficulty: int, degree: int) -> list[float]:
    """Successes from one bonus die and every die its tens chain, as a power series.

    With g(x) the generating function (coefficient of x**s = P(s successes)), a bonus die
    shows a 1 (ignored for bonus dice) or another failing face, a success, or a 10 (a success
    and two more bonus dice): g = a + b*x + c*x*g**2. Matching coefficients gives each one
    exactly from the lower ones, so no chain depth is ever cut; only degrees above
    ``degree`` are left out.
    """
    a = (difficulty - 1) / 10  # faces 1 .. difficulty-1
    b = (10 - difficulty) / 10  # faces difficulty .. 9
    c = 0.1  # face 10
    g = [0.0] * (degree + 1)
    g[0] = a
    square = [0.0] * (degree + 1)  # g**2, filled up to the degree needed next
    for n in range(1, degree + 1):
        # coefficient n-1 of g**2 only needs g[0..n-1], all known now.
        k = n - 1
        square[k] = sum(g[i] * g[k - i] for i in range(k + 1))
        g[n] = (b if n == 1 else 0.0) + c * square[k]
    return g


def _non_botch_die(difficulty: int, exploding: bool, degree: int) -> list[float]:
    """Successes of one regular die that does not show a 1, as a power series (sums to 0.9)."""
    low = (difficulty - 2) / 10  # faces 2 .. difficulty-1
    mid = (10 - difficulty) / 10  # faces difficulty .. 9
    q = [0.0] * (degree + 1)
    q[0] = low
    if not exploding:
        q[1] = mid + 0.1
        return q
    g = _bonus_die_series(difficulty, degree)
    g_squared = _multiply(g, g, degree)
    q[1] = mid
    for s in range(1, degree + 1):
        q[s] += 0.1 * g_squared[s - 1]  # a 10: one success and two bonus dice
    return q


def _multiply(p: Sequence[float], q: Sequence[float], degree: int) -> list[float]:
    """Product of two power series, truncated after ``degree``."""
    out = [0.0] * (degree + 1)
    q_terms = [(j, qj) for j, qj in enumerate(q) if qj]
    for i, pi in enumerate(p):
        if not pi:
            continue
        for j, qj in q_terms:
            if i + j > degree:
                break
            out[i + j] += pi * qj
    return out


def _joint(
    dice: int, difficulty: int, exploding: bool, degree: int
) -> tuple[list[tuple[int, float, list[float]]], float]:
    """(botches, P(exactly these dice botch ... ), success series) rows and the mass left out.

    P(B = b, S = s) = C(dice, b) * 0.1**b * [x**s] q**(dice - b), where q is
    :func:`_non_botch_die`: the b dice showing 1 add no successes.
    """
    q = _non_botch_die(difficulty, exploding, degree)
    powers = [[1.0] + [0.0] * degree]
    for _ in range(dice):
        powers.append(_multiply(powers[-1], q, degree))
    rows: list[tuple[int, float, list[float]]] = []
    missing = 0.0
    for b in range(dice + 1):
        weight = comb(dice, b) * 0.1**b
        series = powers[dice - b]
        missing += weight * (0.9 ** (dice - b) - sum(series))
        rows.append((b, weight, series))
    return rows, missing


def odds(
    *,
    dice: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    threshold: int = 0,
    exploding: bool = False,
    automatic_successes: int = 0,
) -> MaelstromOdds:
    """Exact probabilities of success, failure and botch, and of each net success count.

    The rules are those of :func:`resolve` (Maelstrom rules.md, Resolving the Result and
    Threshold): successes on every die, the threshold removes successes first, 1s on the
    regular dice cancel the rest, bonus dice never botch. With ``exploding`` (a specialty is
    used, Maelstrom rules.md, Using Specialties) every 10 adds two bonus dice whose 10s
    explode again, without limit.

    Method: generating functions in floats (error well below 1e-9). Each bonus die's chain
    is summed exactly to any number of successes (:func:`_bonus_die_series`); the only cut is
    pools with more successes than the series keeps. The series is lengthened until the
    probability left out is below :data:`ODDS_CUTOFF` (1e-12) and that mass is reported as
    ``cutoff``. Without exploding tens nothing is cut. 20 dice with exploding tens and
    threshold 3 take a few milliseconds.

    Args:
        dice: d10s rolled, 0 to :data:`ODDS_MAX_DICE` (0 is a soak pool with no Strength and
            no armor, which soaks nothing: a certain failure).
        difficulty: 2 to 10.
        threshold: successes removed first, >= 0.
        exploding: exploding tens (a specialty is used).
        automatic_successes: successes without dice (Strong Bond), >= 0.

    Returns:
        A :class:`MaelstromOdds`.

    Raises:
        RuleError: dice, difficulty, threshold or automatic successes out of range; the
            message names the value.
    """
    if not 0 <= dice <= ODDS_MAX_DICE:
        raise RuleError(f"dice {dice} must be 0 to {ODDS_MAX_DICE}", _rule("Dice Pool"))
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if automatic_successes < 0:
        raise RuleError(
            f"automatic successes {automatic_successes} cannot be negative",
            _rule("Rolling Willpower"),
        )
    # Without explosions a pool has at most one success a die. With them the tail is longer
    # the lower the difficulty; this first guess, fitted to the terms needed for 1-30 dice at
    # every difficulty, leaves out less than 1e-12 in one pass. Should it not, the series
    # grows a quarter at a time until it does.
    easier = 10 - difficulty
    degree = max(dice, 1) if not exploding else 26 + 5 * easier // 2 + (5 + 2 * easier) * dice // 10
    while True:
        rows, missing = _joint(dice, difficulty, exploding, degree)
        if missing < ODDS_CUTOFF or not exploding:
            break
        degree += degree // 4
    success = failure = botch = 0.0
    by_net: dict[int, float] = {}
    for botches, weight, series in rows:
        for s, p in enumerate(series):
            if not p:
                continue
            remaining = max(0, s + automatic_successes - threshold)
            net = remaining - botches
            probability = weight * p
            if net > 0:
                success += probability
                by_net[net] = by_net.get(net, 0.0) + probability
            elif botches > remaining:
                botch += probability
            else:
                failure += probability
    # Summing thousands of float terms can land a hair above 1 (1 + 2e-15 for 60 dice at
    # difficulty 2); a probability must never print or draw as more than certain.
    return MaelstromOdds(
        success=min(success, 1.0),
        failure=min(failure, 1.0),
        botch=min(botch, 1.0),
        successes=dict(sorted(by_net.items())),
        cutoff=max(0.0, missing) if exploding else 0.0,
    )


def pool_odds(pool: ActionPool) -> MaelstromOdds:
    """Exact odds of an :class:`ActionPool` as built for the sheet; see :func:`odds`.

    Soak pools never explode (Maelstrom rules.md, Soaking Damage), whatever the pool says.

    Args:
        pool: a pool from :func:`build_action_pool`, :func:`build_willpower_pool` or
            :func:`build_soak_pool`.

    Returns:
        The :class:`MaelstromOdds` of its dice, difficulty, threshold, exploding tens and
        automatic successes.

    Raises:
        RuleError: only for a pool built by hand with values out of range.
    """
    return odds(
        dice=pool.dice,
        difficulty=pool.difficulty,
        threshold=pool.threshold,
        exploding=pool.exploding and pool.kind != "soak",
        automatic_successes=pool.automatic_successes,
    )


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("dice", int, None, "d10s in the pool"),
    Parameter("difficulty", int, DEFAULT_DIFFICULTY, "2 to 10; a die showing this or more"),
    Parameter("threshold", int, 0, "successes removed first"),
    Parameter("specialty", bool, False, "a specialty is used: exploding tens"),
)
"""Parameters of the ``odds maelstrom`` command and of a batch line."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer an odds query (the ``odds`` command, a batch line); see :func:`odds`.

    Args:
        query: ``{"dice": 5, "difficulty": 6, "threshold": 1, "specialty": true}``; only
            ``dice`` is required.

    Returns:
        :meth:`MaelstromOdds.as_dict`.

    Raises:
        RuleError: an unknown key, a mistyped value or a value out of range.
    """
    values = read_query(query, ODDS_PARAMETERS)
    return odds(
        dice=int(values["dice"]),
        difficulty=int(values["difficulty"]),
        threshold=int(values["threshold"]),
        exploding=bool(values["specialty"]),
    ).as_dict()


# ---------------------------------------------------------------------------------------------
# NPC quick roll: Maelstrom rules.md, Dice Pool / Difficulty / Threshold / Using Specialties
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "5 dice diff 7 threshold 1",
    "5d10 diff 7",
    "5 dice",
    "6 dice diff 8 specialty",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

QUICK_ROLL_MAX_DICE = ODDS_MAX_DICE
"""Most dice in a quick roll, the same guard as the odds (a typing mistake, not a rule)."""

_QUICK_CLAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dice", re.compile(r"d10(?![a-z0-9])")),  # one die: no number needed
    ("dice", re.compile(r"(?P<n>[-+]?\d+)?\s*(?:dice|die|d10)(?![a-z0-9])")),
    ("other die", re.compile(r"\d*\s*d\d+(?![a-z0-9])")),
    ("difficulty", re.compile(r"(?:difficulty|diff)(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    ("threshold", re.compile(r"threshold(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    ("specialty", re.compile(r"specialty(?![a-z0-9])")),
)


def _quick_refuse_other_die(name: str, part: str) -> None:
    """Refuse any die but a d10 as soon as it is read (Maelstrom rolls d10s only)."""
    if name == "other die":
        raise RuleError(
            f"{part!r}: Maelstrom rolls d10s only; write e.g. '5d10' or '5 dice'",
            _rule("Resolving the Result"),
        )


def quick_roll(text: str) -> ActionPool:
    """Parse the GM's NPC quick roll, e.g. "5 dice diff 7 threshold 1", into a dice pool.

    Grammar (any case; spaces and commas between clauses are free; each clause at most once,
    in any order):

    - the dice, required: ``<n> dice`` (also ``<n> die``), ``<n>d10`` or ``d10`` for one
      die; 1 to :data:`QUICK_ROLL_MAX_DICE` (Maelstrom rules.md, Dice Pool);
    - ``diff <n>`` (also ``difficulty <n>``): 2 to 10, default 6 (Maelstrom rules.md,
      Difficulty);
    - ``threshold <n>``: 0 to :data:`QUICK_ROLL_MAX_DICE`, default 0 (Maelstrom rules.md,
      Threshold);
    - ``specialty``: the NPC uses a specialty, so tens explode (Maelstrom rules.md, Using
      Specialties).

    An NPC rolls a number of dice the storyteller sets, so no traits, wound penalty or
    experience die are involved: the pool is of kind "action", its only trait is "NPC", and
    ``experience_die_allowed`` is False (the experience die banks a player's XP; Maelstrom
    rules.md, Adding Experience Dice). **Decision:** the dice and threshold caps are typing
    guards, not rules; "dif", a bare number ("5 diff 7") or any die but a d10 is refused
    rather than guessed.

    Args:
        text: the notation, e.g. ``"5 dice diff 7 threshold 1"``, ``"5d10 diff 7"`` or
            ``"6 dice diff 8 specialty"``; at most :data:`QUICK_ROLL_MAX_LENGTH` characters.

    Returns:
        An :class:`ActionPool` that :func:`roll` accepts.

    Raises:
        RuleError: empty or over-long text, a part that is not understood, a clause without
            its number or given twice, a die other than a d10, or dice, difficulty or
            threshold out of range; the message quotes the part, e.g. "'dif 7' is not
            understood: write e.g. '5 dice diff 7 threshold 1'".
    """
    clauses = {
        name: (part, match)
        for name, part, match in split_clauses(
            text,
            _QUICK_CLAUSES,
            example=QUICK_ROLL_EXAMPLES[0],
            rule=_rule("Dice Pool"),
            max_length=QUICK_ROLL_MAX_LENGTH,
            minus_signs=False,
            check=_quick_refuse_other_die,
        )
    }
    if "dice" not in clauses:
        raise RuleError(
            f"{text.strip()!r} does not say how many dice: write e.g. {QUICK_ROLL_EXAMPLES[0]!r}",
            _rule("Dice Pool"),
        )
    dice_part, dice_match = clauses["dice"]
    dice = int(dice_match.groupdict().get("n") or "1")
    if not 1 <= dice <= QUICK_ROLL_MAX_DICE:
        raise RuleError(
            f"{dice_part!r}: an NPC quick roll takes 1 to {QUICK_ROLL_MAX_DICE} dice",
            _rule("Dice Pool"),
        )
    difficulty = DEFAULT_DIFFICULTY
    if "difficulty" in clauses:
        part, match = clauses["difficulty"]
        difficulty = int(match.group("n"))
        if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
            raise RuleError(
                f"{part!r}: the difficulty must be between {DIFFICULTY_MIN} and {DIFFICULTY_MAX}",
                _rule("Difficulty"),
            )
    threshold = 0
    if "threshold" in clauses:
        part, match = clauses["threshold"]
        threshold = int(match.group("n"))
        if not 0 <= threshold <= QUICK_ROLL_MAX_DICE:
            raise RuleError(
                f"{part!r}: the threshold must be between 0 and {QUICK_ROLL_MAX_DICE}",
                _rule("Threshold"),
            )
    exploding = "specialty" in clauses
    notes = ["NPC quick roll: the storyteller sets the dice"]
    if exploding:
        notes.append("specialty: tens explode")
    return ActionPool(
        kind="action",
        dice=dice,
        difficulty=difficulty,
        threshold=threshold,
        exploding=exploding,
        wound_penalty=0,
        traits=("NPC",),
        specialties=(),
        experience_die_allowed=False,
        notes=tuple(notes),
    )
