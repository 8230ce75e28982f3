"""Maelstrom's catalogue: the rule citation, attributes, abilities and their suggested
specialties, merits and flaws, and the constants the other modules share (Maelstrom
rules.md, Traits / Attributes / Abilities / Merits and Flaws)."""

from __future__ import annotations

from dataclasses import dataclass

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

SIGHT_WORDS: tuple[str, ...] = ("sight", "vision", "visual", "eye", "blind", "seeing")
"""A Defective Sense whose detail holds one of these (any case, anywhere: "Sight",
"nearsighted", "colorblind", "eyes") is in the sense of sight, the one Visually Impaired is
taken instead of and Blind leaves nothing of (Maelstrom rules.md, Flaws, Visually Impaired;
the seed names no sense by a fixed word, so the detail is read for these; docs/systems/
maelstrom.md)."""


def is_sight(detail: str) -> bool:
    """Whether a Defective Sense's ``detail`` names sight (:data:`SIGHT_WORDS`): "Vision" and
    "nearsighted" do, "hearing" and "" do not."""
    text = detail.casefold()
    return any(word in text for word in SIGHT_WORDS)


def ability_named(detail: str) -> str | None:
    """The catalogue's ability ``detail`` names, ignoring case and surrounding spaces
    ("  piloting" -> "Piloting"), or None: what an Inept flaw's detail must be (Maelstrom
    rules.md, Flaws, Inept: "Choose an ability")."""
    wanted = detail.strip().casefold()
    return next((name for name in ABILITIES if name.casefold() == wanted), None)

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

