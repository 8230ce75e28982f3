"""3d6's stored data and its readers: the decisions' numbers, the campaign's trait and
subtrait names, the sheet's modifiers, level and health, and the XP keys and prices (see
:mod:`systems.three_d6.system` for the seed and the decisions).

Shapes:

- ``Campaign.system_data``: ``{"traits": [6 names], "subtraits": [12 names]}``; subtraits
  ``2i`` and ``2i + 1`` are listed under trait ``i``. A campaign whose data is ``{}`` (made by
  a factory) reads :func:`default_names`.
- ``Character.sheet``: ``{"modifiers": {"t0".."t5", "s0".."s11": int}, "level": int,
  "health": {"current": int, "max": int}}``. Modifiers are keyed by slot, not by name, so the
  GM may rename a trait without touching any sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulesets import three_d6
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character


SEED = "3d6 Rolls and Tests"
RULE_CONTEST = f"{SEED}, Contesting"
RULE_CREATION = "3d6 sheet decision, Character Creation"
RULE_ADVANCE = "3d6 sheet decision, Advancement"
RULE_HEALTH = "3d6 sheet decision, Health"

TRAIT_SLOTS: tuple[str, ...] = tuple(f"t{i}" for i in range(three_d6.TRAIT_COUNT))
"""The six trait slots, "t0".."t5" (3d6 Rolls and Tests, Rolls and Tests: "one of 6 traits")."""

SUBTRAIT_SLOTS: tuple[str, ...] = tuple(f"s{i}" for i in range(three_d6.SUBTRAIT_COUNT))
"""The twelve subtrait slots, "s0".."s11" ("or one of 12 Subtraits")."""

SLOTS: tuple[str, ...] = TRAIT_SLOTS + SUBTRAIT_SLOTS

SLOT_GROUPS: tuple[tuple[str, tuple[str, str]], ...] = tuple(
    (f"t{i}", (f"s{2 * i}", f"s{2 * i + 1}")) for i in range(three_d6.TRAIT_COUNT))
"""Each trait slot with the two subtrait slots listed under it: ("t0", ("s0", "s1")), ...
(decision: the seed does not say which subtraits belong to which trait)."""

DEFAULT_TRAITS: tuple[str, ...] = ("Power", "Agility", "Awareness", "Intellect", "Presence",
                                   "Resolve")
"""Decision: neutral default trait names. The seed uses Power, Agility, Awareness and
Dexterity as examples of tests without saying which are traits; the GM renames them all."""

DEFAULT_SUBTRAITS: tuple[str, ...] = (
    "Might", "Endurance",
    "Dexterity", "Speed",
    "Perception", "Insight",
    "Knowledge", "Reasoning",
    "Persuasion", "Deception",
    "Willpower", "Composure",
)
"""Decision: neutral default subtrait names, two under each trait in order."""

NAME_MAX_LENGTH = 40

# Creation (decision: the seed has no character creation).
TRAIT_BUDGET = 6
"""Points to spread over the six trait modifiers at creation; all must be spent."""
SUBTRAIT_BUDGET = 6
"""Points to spread over the twelve subtrait modifiers at creation; all must be spent."""
TRAIT_CREATION_MAX = 3
"""Highest trait modifier at creation (lowest 0)."""
SUBTRAIT_CREATION_MAX = 2
"""Highest subtrait modifier at creation (lowest 0)."""
DEFAULT_TRAIT_SPREAD: tuple[int, ...] = (2, 1, 1, 1, 1, 0)
"""The creation form's starting values: a valid spread the player edits."""
DEFAULT_SUBTRAIT_SPREAD: tuple[int, ...] = (1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0)

# Advancement (decision: the seed has no advancement).
MODIFIER_CAP = 5
"""Highest modifier XP can buy, for a trait or a subtrait."""
TRAIT_PRICE = 4
"""Raising a trait modifier to +n costs ``TRAIT_PRICE * n`` XP."""
SUBTRAIT_PRICE = 2
"""Raising a subtrait modifier to +n costs ``SUBTRAIT_PRICE * n`` XP."""

# Tracks (decision: the seed has neither health nor levels; the tie-breakers need a level).
LEVEL_START, LEVEL_MAX = 1, 20
HEALTH_START, HEALTH_LIMIT = 10, 99
SITUATIONAL_LIMIT = 20
"""Largest situational modifier (either sign) the roll dialog takes: a typing guard."""
NPC_MODIFIER_LIMIT = 99
TD_LIMIT = 99


# --- Names ----------------------------------------------------------------------------------


def default_names() -> dict[str, list[str]]:
    """The default campaign data: ``{"traits": [6 names], "subtraits": [12 names]}``."""
    return {"traits": list(DEFAULT_TRAITS), "subtraits": list(DEFAULT_SUBTRAITS)}


def system_data(campaign: Campaign) -> dict[str, Any]:
    """``campaign.system_data``, or ``{}`` when it is not a dict (damaged)."""
    return campaign.system_data if isinstance(campaign.system_data, dict) else {}


def names(campaign: Campaign) -> dict[str, str]:
    """Slot -> name for a campaign ("t0" -> "Power", "s0" -> "Might"), any missing or damaged
    entry of ``campaign.system_data`` read from :func:`default_names`. No queries."""
    data = system_data(campaign)
    result: dict[str, str] = {}
    for kind, slots, defaults in (("traits", TRAIT_SLOTS, DEFAULT_TRAITS),
                                  ("subtraits", SUBTRAIT_SLOTS, DEFAULT_SUBTRAITS)):
        stored = data.get(kind)
        listed = stored if isinstance(stored, list) and len(stored) == len(slots) else defaults
        for slot, name, default in zip(slots, listed, defaults, strict=True):
            result[slot] = name if isinstance(name, str) and name.strip() else default
    return result


def is_trait(slot: str) -> bool:
    """Whether a slot is a trait ("t0".."t5") rather than a subtrait."""
    return slot in TRAIT_SLOTS


# --- The sheet ------------------------------------------------------------------------------


def modifier(character: Character, slot: str) -> int:
    """The modifier of a trait or subtrait slot on the sheet (0 when missing)."""
    value = character.sheet.get("modifiers", {}).get(slot, 0)
    return value if isinstance(value, int) else 0


def level(character: Character) -> int:
    """The character's level (the tie-breakers' "level"), :data:`LEVEL_START` when missing."""
    value = character.sheet.get("level", LEVEL_START)
    return value if isinstance(value, int) else LEVEL_START


def health(character: Character) -> tuple[int, int]:
    """``(current, max)`` health points."""
    data = character.sheet.get("health") or {}
    maximum = data.get("max", HEALTH_START)
    current = data.get("current", maximum)
    return int(current), int(maximum)


def signed(value: int) -> str:
    """A modifier the way the sheet writes it: "+2", "0", "-1"."""
    return f"+{value}" if value > 0 else str(value)


@dataclass(frozen=True)
class Row:
    """One trait or subtrait as the sheet shows it: its slot ("t0"), the campaign's name for
    it and the character's modifier."""

    slot: str
    name: str
    modifier: int

    @property
    def signed(self) -> str:
        """The modifier as the sheet writes it ("+2", "0", "-1")."""
        return signed(self.modifier)


def groups(character: Character) -> list[tuple[Row, list[Row]]]:
    """Each trait with its two subtraits, in order, for the sheet and the card (no queries
    once ``character.campaign`` is loaded)."""
    named = names(character.campaign)

    def row(slot: str) -> Row:
        return Row(slot, named[slot], modifier(character, slot))

    return [(row(t), [row(s) for s in subtraits]) for t, subtraits in SLOT_GROUPS]


def slot_choices(campaign: Campaign, character: Character | None = None
                 ) -> list[tuple[str, Any]]:
    """Grouped choices for a select of traits and subtraits ("Power (+2)" under "Power")."""
    named = names(campaign)

    def label(slot: str) -> str:
        if character is None:
            return named[slot]
        return f"{named[slot]} ({signed(modifier(character, slot))})"

    return [(named[t], [(t, label(t)), *[(s, label(s)) for s in subtraits]])
            for t, subtraits in SLOT_GROUPS]


# --- XP -------------------------------------------------------------------------------------


def price(slot: str, rank_to: int) -> int:
    """XP to raise a modifier to ``rank_to`` (decision): a trait costs 4 x the new modifier, a
    subtrait 2 x."""
    return (TRAIT_PRICE if is_trait(slot) else SUBTRAIT_PRICE) * rank_to


def slot_of(key: str) -> str:
    """The slot of a ledger key ("trait:t0" -> "t0"). Raises RuleError for any other key."""
    kind, _, slot = key.partition(":")
    if (kind == "trait" and slot in TRAIT_SLOTS) or (
            kind == "subtrait" and slot in SUBTRAIT_SLOTS):
        return slot
    raise RuleError(f"{key!r} is not a trait or subtrait XP can raise.", RULE_ADVANCE)


def advance_key(slot: str) -> str:
    """The ledger key of a slot: "trait:t0", "subtrait:s3"."""
    return f"{'trait' if is_trait(slot) else 'subtrait'}:{slot}"
