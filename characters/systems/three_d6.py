"""The 3d6 tests system's sheet: six traits and twelve subtraits with modifiers, tests against
a test difficulty (TD) with favor and disfavor, contests with the seed's tie-breakers, a
health track and a level (decisions, see docs/systems/three_d6.md).

The seed ("3d6 Rolls and Tests", ``seeds/002_6302363384505e15.txt``; RULES.md section 5) is
the authority for the dice; the rules engine is :mod:`rulesets.three_d6`. The seed names
neither the traits nor the subtraits, has no advancement, no character creation and no health:
everything here that is not a roll is a **decision**, written where it is made and collected
in the doc.

Shapes:

- ``Campaign.system_data``: ``{"traits": [6 names], "subtraits": [12 names]}``; subtraits
  ``2i`` and ``2i + 1`` are listed under trait ``i``. A campaign whose data is ``{}`` (made by
  a factory) reads :func:`default_names`.
- ``Character.sheet``: ``{"modifiers": {"t0".."t5", "s0".."s11": int}, "level": int,
  "health": {"current": int, "max": int}}``. Modifiers are keyed by slot, not by name, so the
  GM may rename a trait without touching any sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms

from characters.systems import (
    Advance,
    CampaignAction,
    RolledResult,
    SheetSystem,
    TrackAction,
    percent_text,
    require,
    stored_int,
    stored_names,
    stored_object,
)
from rulesets import three_d6
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng

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


def _system_data(campaign: Campaign) -> dict[str, Any]:
    """``campaign.system_data``, or ``{}`` when it is not a dict (damaged)."""
    return campaign.system_data if isinstance(campaign.system_data, dict) else {}


def names(campaign: Campaign) -> dict[str, str]:
    """Slot -> name for a campaign ("t0" -> "Power", "s0" -> "Might"), any missing or damaged
    entry of ``campaign.system_data`` read from :func:`default_names`. No queries."""
    data = _system_data(campaign)
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


def _field_groups(form: forms.Form) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
    """Each trait's bound field with its two subtraits', for a template (the form has one
    field per slot)."""
    return [(form[t], [form[s] for s in subtraits]) for t, subtraits in SLOT_GROUPS]


# --- Creation -------------------------------------------------------------------------------


class CreationForm(forms.Form):
    """Name, concept and a modifier for every trait and subtrait, checked against the
    creation budgets (decision, see :data:`TRAIT_BUDGET`): six points over the traits (0 to
    +3 each) and six over the subtraits (0 to +2 each), all spent."""

    name = forms.CharField(max_length=100)
    concept = forms.CharField(max_length=200, required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, *, campaign: Campaign) -> None:
        super().__init__(data)
        named = names(campaign)
        for slot, start in zip(TRAIT_SLOTS, DEFAULT_TRAIT_SPREAD, strict=True):
            self.fields[slot] = forms.IntegerField(
                label=named[slot], min_value=0, max_value=TRAIT_CREATION_MAX, initial=start)
        for slot, start in zip(SUBTRAIT_SLOTS, DEFAULT_SUBTRAIT_SPREAD, strict=True):
            self.fields[slot] = forms.IntegerField(
                label=named[slot], min_value=0, max_value=SUBTRAIT_CREATION_MAX, initial=start)
        for slot in SLOTS:
            self.fields[slot].widget.attrs.update({"inputmode": "numeric", "class": "rank-input"})

    budgets: dict[str, int] = {  # read-only, for the template
        "traits": TRAIT_BUDGET, "trait_max": TRAIT_CREATION_MAX,
        "subtraits": SUBTRAIT_BUDGET, "subtrait_max": SUBTRAIT_CREATION_MAX,
    }

    def field_groups(self) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
        """Each trait's bound field with its two subtraits', for the template."""
        return _field_groups(self)

    def clean(self) -> dict[str, Any]:
        """Refuse a spread that does not spend each budget exactly, naming the sum and the
        difference (ValidationError)."""
        cleaned = super().clean() or {}
        if any(slot not in cleaned for slot in SLOTS):
            return cleaned  # a field error already names the broken value
        for slots, budget, what in ((TRAIT_SLOTS, TRAIT_BUDGET, "trait"),
                                    (SUBTRAIT_SLOTS, SUBTRAIT_BUDGET, "subtrait")):
            spent = sum(cleaned[slot] for slot in slots)
            if spent != budget:
                more = "too many" if spent > budget else "left to spend"
                raise forms.ValidationError(
                    f"The {what} modifiers add up to {spent}; spend exactly {budget} points "
                    f"on {what}s ({abs(spent - budget)} {more}). ({RULE_CREATION})")
        return cleaned


# --- Track actions --------------------------------------------------------------------------


class HealthForm(forms.Form):
    """Damage taken or healed, in health points."""

    change = forms.ChoiceField(choices=[("damage", "Damage"), ("heal", "Heal")])
    amount = forms.IntegerField(min_value=1, max_value=HEALTH_LIMIT, initial=1)


def health_apply(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
    """Take ``data["amount"]`` health points of damage or heal them (``data["change"]``);
    returns the message (decision: a plain health track, 0 to its maximum, that no roll
    reads). Raises RuleError for a change that would do nothing. Runs with the character
    locked."""
    current, maximum = health(character)
    amount = data["amount"]
    if data["change"] == "damage":
        if current == 0:
            raise RuleError(f"{character.name} is already at 0 health.", RULE_HEALTH)
        after = max(0, current - amount)
        message = f"{character.name} took {current - after} damage: {after}/{maximum} health."
    else:
        if current >= maximum:
            raise RuleError(f"{character.name} is already at full health ({maximum}).",
                            RULE_HEALTH)
        after = min(maximum, current + amount)
        message = f"{character.name} healed {after - current}: {after}/{maximum} health."
    character.sheet = {**character.sheet, "health": {"current": after, "max": maximum}}
    return message


class LevelForm(forms.Form):
    """The GM's setting of a character's level and maximum health."""

    level = forms.IntegerField(min_value=LEVEL_START, max_value=LEVEL_MAX)
    health_max = forms.IntegerField(min_value=1, max_value=HEALTH_LIMIT, label="Maximum health")


def level_apply(character: Character, data: dict[str, Any], by: AbstractBaseUser) -> str:
    """Set the level (the tie-breakers' "level or DR", 3d6 Rolls and Tests, Tie Breakers) and
    the maximum health; current health is kept, cut down to a lower maximum. GM only."""
    maximum = data["health_max"]
    current = min(health(character)[0], maximum)
    character.sheet = {**character.sheet, "level": data["level"],
                       "health": {"current": current, "max": maximum}}
    return f"{character.name} is level {data['level']}, {current}/{maximum} health."


# --- Campaign actions -----------------------------------------------------------------------


class NamesForm(forms.Form):
    """The campaign's six trait and twelve subtrait names, each unique: one field per slot,
    at most :data:`NAME_MAX_LENGTH` characters; ``initial`` maps slot -> current name."""

    def __init__(self, data: Mapping[str, Any] | None = None, *,
                 initial: Mapping[str, str] | None = None) -> None:
        super().__init__(data, initial=initial)
        for slot in SLOTS:
            kind = "Trait" if is_trait(slot) else "Subtrait"
            self.fields[slot] = forms.CharField(max_length=NAME_MAX_LENGTH,
                                                label=f"{kind} {int(slot[1:]) + 1}")

    def field_groups(self) -> list[tuple[forms.BoundField, list[forms.BoundField]]]:
        """Each trait's bound field with its two subtraits', for the template."""
        return _field_groups(self)

    def clean(self) -> dict[str, Any]:
        """Refuse a name used twice, ignoring case (ValidationError)."""
        cleaned = super().clean() or {}
        seen: dict[str, str] = {}
        for slot in SLOTS:
            name = cleaned.get(slot)
            if not name:
                continue
            if name.casefold() in seen:
                raise forms.ValidationError(
                    f"{name!r} is used twice; each trait and subtrait needs its own name.")
            seen[name.casefold()] = slot
        return cleaned


def names_apply(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser, rng: Rng
                ) -> tuple[str, Roll | None]:
    """Rename the campaign's traits and subtraits (decision: the GM names them, 3d6 Rolls and
    Tests names none). Sheets keep their modifiers: they are keyed by slot."""
    campaign.system_data = {
        **_system_data(campaign),
        "traits": [data[slot].strip() for slot in TRAIT_SLOTS],
        "subtraits": [data[slot].strip() for slot in SUBTRAIT_SLOTS],
    }
    return "Trait and subtrait names saved.", None


class EmptyForm(forms.Form):
    """A button with nothing to fill in."""


def names_reset_apply(campaign: Campaign, data: dict[str, Any], by: AbstractBaseUser,
                      rng: Rng) -> tuple[str, Roll | None]:
    """Put the default names back (:func:`default_names`); sheets keep their modifiers."""
    campaign.system_data = {**_system_data(campaign), **default_names()}
    return "The default names are back.", None


# --- Rolls ----------------------------------------------------------------------------------

MODES = [("test", "Test against a TD"), ("contest", "Contest")]
"""The roll dialog's kinds of roll (3d6 Rolls and Tests, Test Difficulty; Contesting)."""
DEFENDERS = [("neither", "Neither defends"), ("me", "I defend"),
             ("opponent", "The opponent defends"), ("both", "Both defend")]
"""Who defends in a contest (3d6 Rolls and Tests, Tie Breakers: the defender wins a tie)."""
NPC = "npc"
"""The opponent choice for an NPC described in the dialog rather than a character's pk."""


class RollForm(forms.Form):
    """The roll dialog: a test of one trait or subtrait against a TD, or a contest against
    another character of the campaign or an NPC, with favor and disfavor on each side.
    ``opponents`` lists the campaign's other characters as (pk, name)."""

    mode = forms.ChoiceField(choices=MODES, initial="test", widget=forms.RadioSelect,
                             label="Kind of roll")
    target = forms.ChoiceField(label="Trait or subtrait")
    td = forms.IntegerField(label="Test difficulty (TD)", min_value=three_d6.TD_MIN,
                            max_value=TD_LIMIT, required=False, initial=10)
    situational = forms.IntegerField(label="Situational modifier", required=False, initial=0,
                                     min_value=-SITUATIONAL_LIMIT, max_value=SITUATIONAL_LIMIT)
    favor = forms.IntegerField(min_value=0, max_value=three_d6.MAX_FAVOR, initial=0,
                               required=False)
    disfavor = forms.IntegerField(min_value=0, max_value=three_d6.MAX_FAVOR, initial=0,
                                  required=False)
    opponent = forms.ChoiceField(label="Opponent", required=False)
    opponent_target = forms.ChoiceField(label="Opponent's trait or subtrait", required=False)
    npc_name = forms.CharField(label="NPC's name", max_length=60, required=False, initial="NPC")
    npc_modifier = forms.IntegerField(label="NPC's modifier", required=False, initial=0,
                                      min_value=-NPC_MODIFIER_LIMIT, max_value=NPC_MODIFIER_LIMIT)
    npc_rating = forms.IntegerField(label="NPC's rating (DR)", required=False, initial=1,
                                    min_value=0, max_value=99)
    opponent_favor = forms.IntegerField(label="Opponent's favor", min_value=0,
                                        max_value=three_d6.MAX_FAVOR, initial=0, required=False)
    opponent_disfavor = forms.IntegerField(label="Opponent's disfavor", min_value=0,
                                           max_value=three_d6.MAX_FAVOR, initial=0,
                                           required=False)
    defender = forms.ChoiceField(choices=DEFENDERS, initial="neither", required=False,
                                 label="Who defends")

    def __init__(self, data: Mapping[str, Any] | None = None, *, character: Character,
                 opponents: list[tuple[int, str]]) -> None:
        super().__init__(data)
        self.fields["target"].choices = slot_choices(character.campaign, character)
        self.fields["opponent_target"].choices = slot_choices(character.campaign)
        self.fields["opponent"].choices = [(NPC, "An NPC"),
                                           *[(str(pk), name) for pk, name in opponents]]

    def clean(self) -> dict[str, Any]:
        """Blank numbers read 0; a test needs a TD, a contest an opponent (and a character
        opponent the trait it tests). Errors are added to their fields."""
        cleaned = super().clean() or {}
        for name in ("situational", "favor", "disfavor", "npc_modifier", "npc_rating",
                     "opponent_favor", "opponent_disfavor"):
            if cleaned.get(name) is None and name not in self.errors:
                cleaned[name] = 0
        if cleaned.get("mode") == "test":
            if cleaned.get("td") is None and "td" not in self.errors:
                self.add_error("td", f"A test needs a test difficulty (TD) of "
                                     f"{three_d6.TD_MIN} or more ({SEED}, Test Difficulty).")
        elif cleaned.get("mode") == "contest":
            if not cleaned.get("opponent"):
                self.add_error("opponent", "Choose who you contest: a character or an NPC.")
            elif cleaned["opponent"] != NPC and not cleaned.get("opponent_target"):
                self.add_error("opponent_target",
                               "Choose the trait or subtrait your opponent tests.")
            cleaned["defender"] = cleaned.get("defender") or "neither"
            cleaned["npc_name"] = (cleaned.get("npc_name") or "").strip() or "NPC"
        return cleaned


class RequestForm(forms.Form):
    """What the GM asks players to roll: a test of one trait or subtrait against a TD, with
    favor and disfavor (3d6 Rolls and Tests, Test Difficulty; Favor and Disfavor)."""

    target = forms.ChoiceField(label="Trait or subtrait to test")
    td = forms.IntegerField(label="Test difficulty (TD)", min_value=three_d6.TD_MIN,
                            max_value=TD_LIMIT, initial=10)
    favor = forms.IntegerField(min_value=0, max_value=three_d6.MAX_FAVOR, initial=0,
                               required=False)
    disfavor = forms.IntegerField(min_value=0, max_value=three_d6.MAX_FAVOR, initial=0,
                                  required=False)

    def __init__(self, data: Mapping[str, Any] | None = None, *, campaign: Campaign) -> None:
        super().__init__(data, auto_id="d6-request-%s")
        self.fields["target"].choices = slot_choices(campaign)


def _opponents(character: Character) -> list[tuple[int, str]]:
    from characters.models import Character as CharacterModel

    return list(CharacterModel.objects.filter(campaign_id=character.campaign_id)
                .exclude(pk=character.pk).order_by("name").values_list("pk", "name"))


def _own_pool(character: Character, data: Mapping[str, Any], *, td: int | None
              ) -> three_d6.TestPool:
    slot = data["target"]
    return three_d6.build_test(
        label=names(character.campaign)[slot],
        modifier=modifier(character, slot) + (data.get("situational") or 0),
        favor=data.get("favor") or 0, disfavor=data.get("disfavor") or 0, td=td)


@dataclass(frozen=True)
class Opponent:
    """The other side of a contest, from the roll form: a character or an NPC."""

    name: str
    pool: three_d6.TestPool
    is_pc: bool
    level: int


def _opponent(character: Character, data: Mapping[str, Any]) -> Opponent:
    """The opponent's side, read from the form (an NPC) or the opponent's sheet (a character
    of the same campaign). Raises RuleError when the character is not in the campaign."""
    favor, disfavor = data.get("opponent_favor") or 0, data.get("opponent_disfavor") or 0
    if data["opponent"] == NPC:
        pool = three_d6.build_test(label="", modifier=data.get("npc_modifier") or 0,
                                   favor=favor, disfavor=disfavor)
        return Opponent(name=data.get("npc_name") or "NPC", pool=pool, is_pc=False,
                        level=data.get("npc_rating") or 0)
    from characters.models import Character as CharacterModel

    other = (CharacterModel.objects
             .filter(campaign_id=character.campaign_id, pk=int(data["opponent"]))
             .exclude(pk=character.pk).first())
    if other is None:
        raise RuleError("That opponent is not a character of this campaign.", RULE_CONTEST)
    slot = data["opponent_target"]
    pool = three_d6.build_test(label=names(character.campaign)[slot],
                               modifier=modifier(other, slot), favor=favor, disfavor=disfavor)
    return Opponent(name=other.name, pool=pool, is_pc=True, level=level(other))


def _side_text(name: str, pool: three_d6.TestPool) -> str:
    """"Wren (Brawn test: 3d6 + 2)", "Toll keeper (3d6 + 1)" for an NPC's unlabelled test."""
    text = pool.describe().removeprefix("Test: ")
    return f"{name} ({text})"


def _tie_text(decided_by: str, winner: int | None, mine: str, theirs: str) -> str:
    """How a tie would be settled, in words, from :func:`rulesets.three_d6.tie_break`."""
    if winner is None:
        return "A tie is settled at random."
    who = mine if winner == 1 else theirs
    reason = {"pc_beats_npc": "a PC wins against an NPC", "defender": "the defender wins",
              "modifier": "the better modifier wins",
              "level": "the higher level or rating wins"}[decided_by]
    return f"A tie goes to {who}: {reason}."


def _defends(data: Mapping[str, Any]) -> tuple[bool, bool]:
    """(I defend?, the opponent defends?) from the dialog's "defender" choice."""
    who = data.get("defender") or "neither"
    return who in ("me", "both"), who in ("opponent", "both")


# --- XP -------------------------------------------------------------------------------------


def price(slot: str, rank_to: int) -> int:
    """XP to raise a modifier to ``rank_to`` (decision): a trait costs 4 x the new modifier, a
    subtrait 2 x."""
    return (TRAIT_PRICE if is_trait(slot) else SUBTRAIT_PRICE) * rank_to


def _slot_of(key: str) -> str:
    kind, _, slot = key.partition(":")
    if (kind == "trait" and slot in TRAIT_SLOTS) or (
            kind == "subtrait" and slot in SUBTRAIT_SLOTS):
        return slot
    raise RuleError(f"{key!r} is not a trait or subtrait XP can raise.", RULE_ADVANCE)


def advance_key(slot: str) -> str:
    """The ledger key of a slot: "trait:t0", "subtrait:s3"."""
    return f"{'trait' if is_trait(slot) else 'subtrait'}:{slot}"


# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) ------------------------


def check_sheet(sheet: Mapping[str, Any], campaign: Campaign) -> None:
    """:meth:`ThreeD6System.check_sheet`: modifiers only on the eighteen slots, each 0 to
    :data:`MODIFIER_CAP`, and a level :data:`LEVEL_START` to :data:`LEVEL_MAX` (3d6 sheet
    decision, Advancement); health 0 to its maximum, the maximum 1 to :data:`HEALTH_LIMIT`
    (3d6 sheet decision, Health). The campaign's :func:`names` name the modifiers.

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    modifiers = stored_object(sheet, "modifiers", "The modifiers")
    unknown = sorted(set(modifiers) - set(SLOTS))
    require(not unknown, f"unknown trait slots {', '.join(unknown)}", RULE_ADVANCE)
    named = names(campaign)
    for slot, value in modifiers.items():
        stored_int(value, f"The modifier of {named[slot]}", 0, MODIFIER_CAP, RULE_ADVANCE)
    stored_int(sheet.get("level", LEVEL_START), "The level", LEVEL_START, LEVEL_MAX,
               RULE_ADVANCE)
    track = stored_object(sheet, "health", "Health")
    maximum = stored_int(track.get("max"), "Maximum health", 1, HEALTH_LIMIT, RULE_HEALTH)
    stored_int(track.get("current"), "Health", 0, maximum, RULE_HEALTH)


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`ThreeD6System.check_system_data`: ``traits`` and ``subtraits``, where present,
    list six and twelve names of 1 to :data:`NAME_MAX_LENGTH` characters, no name twice
    (ignoring case), as the GM's names form takes them (a missing list reads as
    :func:`default_names`).

    Raises:
        RuleError: a list of another length or a name out of range (cited to the stored
            shape, :data:`characters.systems.RULE_STORED`: the seed names no traits).
    """
    for key, count in (("traits", len(TRAIT_SLOTS)), ("subtraits", len(SUBTRAIT_SLOTS))):
        if key in data:
            listed = stored_names(data[key], f"The {key}' names")
            require(len(listed) == count and all(
                0 < len(n.strip()) <= NAME_MAX_LENGTH for n in listed),
                f"the campaign names {count} {key}, each 1 to {NAME_MAX_LENGTH} characters")
    # As the names form refuses it: one name for two slots would make a roll ambiguous.
    seen: set[str] = set()
    for name in [*data.get("traits", []), *data.get("subtraits", [])]:
        require(name.strip().casefold() not in seen,
                f"{name.strip()!r} is used twice; each trait and subtrait needs its own name")
        seen.add(name.strip().casefold())


# --- The system -----------------------------------------------------------------------------


class ThreeD6System(SheetSystem):
    """The 3d6 tests sheet (see the module docstring for its shapes and decisions)."""

    def default_system_data(self) -> dict[str, Any]:
        """``{"traits": [6 default names], "subtraits": [12]}``."""
        return default_names()

    def check_system_data(self, data: dict[str, Any]) -> None:
        """The trait and subtrait names (:func:`check_system_data`). Raises RuleError."""
        check_system_data(data)

    # creation

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> CreationForm:
        """The one-page creation form (see :class:`CreationForm` for the budgets)."""
        return CreationForm(data, campaign=campaign)

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The sheet from a valid creation form: its modifiers, level 1, 10 health."""
        return {
            "modifiers": {slot: cleaned_data[slot] for slot in SLOTS},
            "level": LEVEL_START,
            "health": {"current": HEALTH_START, "max": HEALTH_START},
        }

    def creation_xp(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> int:
        """The campaign's starting XP (decision: the GM sets it when creating the campaign)."""
        return int(campaign.starting_xp)

    def check_sheet(self, sheet: dict[str, Any], campaign: Campaign) -> None:
        """Modifiers, level and health in their ranges (:func:`check_sheet`). Raises
        RuleError naming the first value refused."""
        check_sheet(sheet, campaign)

    def demo(self, *, campaign: Campaign, gm: AbstractBaseUser, player: AbstractBaseUser,
             rng: Rng) -> None:
        """Mara, a finished character with a test, a contest against an NPC, a wound and 10
        XP to spend."""
        from characters.services import sheet_change, xp_award
        from rolls.services import system_roll_create

        data: dict[str, Any] = {"name": "Mara Quill", "concept": "Ferry pilot with debts"}
        data.update({slot: str(v) for slot, v in zip(TRAIT_SLOTS, (3, 1, 1, 1, 0, 0),
                                                      strict=True)})
        data.update({slot: str(v) for slot, v in
                     zip(SUBTRAIT_SLOTS, (0, 1, 2, 0, 1, 0, 1, 0, 1, 0, 0, 0), strict=True)})
        character = self.create_character(campaign=campaign, owner=player, data=data)
        system_roll_create(character=character, by=player, rng=rng, data={
            "mode": "test", "target": "t1", "td": 10, "situational": 0, "favor": 1,
            "disfavor": 0})
        system_roll_create(character=character, by=player, rng=rng, data={
            "mode": "contest", "target": "t0", "td": None, "situational": 0, "favor": 0,
            "disfavor": 0, "opponent": NPC, "npc_name": "Dock guard", "npc_modifier": 2,
            "npc_rating": 2, "opponent_favor": 0, "opponent_disfavor": 0,
            "defender": "opponent", "opponent_target": ""})
        sheet_change(character=character, action=self.actions["health"],
                     data={"change": "damage", "amount": 3}, by=gm)
        xp_award(character=character, amount=10, reason="Crossed the strait", by=gm)

    # the sheet

    def sheet_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The groups of traits, the level and health (no queries)."""
        current, maximum = health(character)
        return {"d6_groups": groups(character), "d6_level": level(character),
                "d6_health": current, "d6_health_max": maximum,
                "d6_level_max": LEVEL_MAX, "d6_health_limit": HEALTH_LIMIT}

    def card_context(self, character: Character) -> dict[str, Any]:
        """The party card: level, health, the six traits (no queries)."""
        current, maximum = health(character)
        return {"d6_traits": [row for row, _ in groups(character)], "d6_level": level(character),
                "d6_health": current, "d6_health_max": maximum}

    def dashboard_context(self, campaign: Campaign) -> dict[str, Any]:
        """The GM's names form, filled with the campaign's names (no queries)."""
        return {"d6_names_form": NamesForm(initial=names(campaign)),
                "d6_defaults": default_names()}

    # XP

    def advances(self, character: Character) -> list[Advance]:
        """The next +1 of every trait and subtrait below :data:`MODIFIER_CAP`."""
        return [self.quote(character, advance_key(slot)) for slot in SLOTS
                if modifier(character, slot) < MODIFIER_CAP]

    def quote(self, character: Character, key: str) -> Advance:
        """The price of +1 on ``key`` ("trait:t0"). Raises RuleError for an unknown key or a
        modifier at the cap."""
        slot = _slot_of(key)
        name = names(character.campaign)[slot]
        current = modifier(character, slot)
        if current >= MODIFIER_CAP:
            raise RuleError(f"{name} is at {signed(current)}, the most XP can buy.",
                            RULE_ADVANCE)
        each = TRAIT_PRICE if is_trait(slot) else SUBTRAIT_PRICE
        kind = "trait" if is_trait(slot) else "subtrait"
        return Advance(key=key, label=f"{name} {signed(current)} → {signed(current + 1)}",
                       rank_from=current, rank_to=current + 1, cost=price(slot, current + 1),
                       notes=(f"A {kind} costs {each} XP × the new modifier.",))

    def rank(self, character: Character, key: str) -> int:
        """The modifier of ``key``'s slot."""
        return modifier(character, _slot_of(key))

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        """Set the modifier of ``key``'s slot (a spend or its undo)."""
        slot = _slot_of(key)
        character.sheet = {**character.sheet,
                           "modifiers": {**character.sheet.get("modifiers", {}), slot: rank}}

    def xp_context(self, character: Character, *, is_gm: bool) -> dict[str, Any]:
        """The price list for ``xp.html``."""
        return {"d6_trait_price": TRAIT_PRICE, "d6_subtrait_price": SUBTRAIT_PRICE,
                "d6_cap": MODIFIER_CAP}

    # rolls

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> RollForm:
        """The roll dialog's form; lists the campaign's other characters (one query)."""
        return RollForm(data, character=character, opponents=_opponents(character))

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Rng
             ) -> RolledResult:
        """Roll a test (3d6 Rolls and Tests, Rolls and Tests) or a contest (Contesting, Tie
        Breakers): the character's dice first, then the opponent's, then a d2 if a tie goes
        to chance. Stored once, with both sides for a contest."""
        if cleaned_data["mode"] != "contest":
            pool = _own_pool(character, cleaned_data, td=cleaned_data["td"])
            result = three_d6.roll_test(pool, rng)
            return RolledResult(kind="test", description=pool.describe(), result=result,
                                outcome=result.outcome, net=result.total,
                                summary=result.summary())
        pool = _own_pool(character, cleaned_data, td=None)
        other = _opponent(character, cleaned_data)
        mine, theirs = three_d6.roll_test(pool, rng), three_d6.roll_test(other.pool, rng)
        i_defend, they_defend = _defends(cleaned_data)
        contest = three_d6.resolve_contest(
            three_d6.ContestSide(result=mine, is_pc=True, is_defender=i_defend,
                                 level=level(character), name=character.name),
            three_d6.ContestSide(result=theirs, is_pc=other.is_pc, is_defender=they_defend,
                                 level=other.level, name=other.name),
            rng)
        description = (f"Contest: {_side_text(character.name, pool)} against "
                       f"{_side_text(other.name, other.pool)}")
        return RolledResult(kind="contest", description=description, result=contest,
                            outcome="success" if contest.winner == 1 else "failure",
                            net=mine.total - theirs.total, summary=contest.summary())

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> RequestForm:
        """The GM's "Ask for a roll": a trait or subtrait, a TD, favor and disfavor."""
        return RequestForm(data, campaign=campaign)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        """The roll dialog's data for the GM's request, and the request in words ("Power
        test vs TD 12, 1 favor")."""
        favor, disfavor = cleaned_data.get("favor") or 0, cleaned_data.get("disfavor") or 0
        data = {"mode": "test", "target": cleaned_data["target"], "td": cleaned_data["td"],
                "situational": 0, "favor": favor, "disfavor": disfavor}
        name = names(character.campaign)[cleaned_data["target"]]
        words = f"{name} test vs TD {cleaned_data['td']}"
        words += f", {favor} favor" if favor else ""
        words += f", {disfavor} disfavor" if disfavor else ""
        return data, words

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """Exact odds: of success and of each critical for a test; of winning a contest,
        ties settled as the tie-breakers would."""
        if cleaned_data["mode"] != "contest":
            pool = _own_pool(character, cleaned_data, td=cleaned_data["td"])
            chances = three_d6.odds(pool.td or three_d6.TD_MIN, pool.modifier, pool.favor,
                                    pool.disfavor)
            rows = [("Success", chances.success, True),
                    ("Critical success", chances.critical_success, True),
                    ("Critical failure", chances.critical_failure, False)]
            return {"odds": True, "pool_text": pool.describe(),
                    "odds_rows": [(label, float(p), percent_text(float(p)), good)
                                  for label, p, good in rows],
                    "odds_headline": f"Success {percent_text(float(chances.success))}",
                    "odds_lines": (["No dice: the test fails automatically."]
                                   if pool.automatic_failure else [])}
        pool = _own_pool(character, cleaned_data, td=None)
        other = _opponent(character, cleaned_data)
        i_defend, they_defend = _defends(cleaned_data)
        chances_c = three_d6.contest_odds(
            pool, other.pool,
            three_d6.TieFacts(is_pc=True, is_defender=i_defend, modifier=pool.modifier,
                              level=level(character)),
            three_d6.TieFacts(is_pc=other.is_pc, is_defender=they_defend,
                              modifier=other.pool.modifier, level=other.level))
        win, tie = float(chances_c.win), float(chances_c.tie)
        return {"odds": True,
                "pool_text": (f"{_side_text(character.name, pool)} against "
                              f"{_side_text(other.name, other.pool)}"),
                "odds_rows": [("Win", win, percent_text(win), True),
                              ("Tie", tie, percent_text(tie), True)],
                "odds_headline": f"Win {percent_text(win)}",
                "odds_lines": [_tie_text(chances_c.tie_decided_by, chances_c.tie_winner,
                                         character.name, other.name)]}


SYSTEM = ThreeD6System(
    slug="three_d6",
    demo_campaign_name="The Crossing (3d6 demo)",
    actions={
        "health": TrackAction(form=HealthForm, apply=health_apply, partial="sheet-tracks"),
        "level": TrackAction(form=LevelForm, apply=level_apply, partial="sheet-tracks",
                             gm_only=True),
    },
    campaign_actions={
        "names": CampaignAction(form=NamesForm, apply=names_apply, partial="system-panel"),
        "names-reset": CampaignAction(form=EmptyForm, apply=names_reset_apply,
                                      partial="system-panel"),
    },
)
