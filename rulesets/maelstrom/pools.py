"""Maelstrom's dice pools: actions, Willpower rolls and soak rolls, built from traits and
circumstances (Maelstrom rules.md, Dice Pool / Difficulty / Threshold / Using
Specialties / Wound Penalties / Rolling Willpower / Soaking Damage)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import (
    _STORED_RULE,
    ABILITIES,
    ABILITY_GROUP_NAMES,
    ATTRIBUTES,
    DEFAULT_DIFFICULTY,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    DOTS_MAX,
    WILLPOWER_MAX,
    _rule,
)
from rulesets.maelstrom.health import _check_damage_kind
from rulesets.maelstrom.readings import SEED_READINGS, MaelstromReadings
from rulesets.stored import Stored

# ---------------------------------------------------------------------------------------------
# Dice pools: Maelstrom rules.md, Dice Pool / Difficulty / Threshold / Required Specialties /
# Using Specialties / Talents / Skills / Knowledges / Wound Penalties / Rolling Willpower /
# Soaking Damage
# ---------------------------------------------------------------------------------------------

POOL_KINDS: tuple[str, ...] = ("action", "willpower", "soak")
"""Kinds of roll: an action (attribute + ability), a Willpower roll, a soak roll."""

AUTOMATIC_AT: tuple[str, ...] = ("before_threshold", "after_threshold", "kept")
"""Where a pool's automatic successes count (the Strong Bond table reading,
:data:`rulesets.maelstrom.readings.STRONG_BOND`): with the dice's successes, so the threshold
removes them first; after the threshold; or after it and beyond a botch's reach."""


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
        botches: whether 1s on the regular dice botch (False only under the table reading
            "a specialty's dice do not botch", when a specialty is used).
        automatic_at: where the automatic successes count, one of :data:`AUTOMATIC_AT`
            ("before_threshold", the seed as docs/rules.md reads it, unless the campaign
            reads Strong Bond another way).

    The last two are stored (:meth:`as_dict`) only when they differ from their default, so
    a pool built under the seed's readings stores what it always stored, and a stored roll is
    resolved again under the readings it was made under.
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
    botches: bool = True
    automatic_at: str = "before_threshold"

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
            **({} if self.botches else {"botches": False}),
            **({} if self.automatic_at == AUTOMATIC_AT[0]
               else {"automatic_at": self.automatic_at}),
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
        # Both came with the table readings: a roll stored before them holds neither.
        automatic_at = stored.str("automatic_at") if "automatic_at" in data else AUTOMATIC_AT[0]
        if automatic_at not in AUTOMATIC_AT:
            raise RuleError(f"unknown place for automatic successes {automatic_at!r}",
                            _rule("Rolling Willpower"))
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
            botches=stored.bool("botches") if "botches" in data else True,
            automatic_at=automatic_at,
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
    readings: MaelstromReadings = SEED_READINGS,
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
    - using at least one specialty gives exploding tens (Using Specialties); under the table
      reading ``tens_explode="always"`` every action's tens explode, and under
      ``specialty_botch="no_botch"`` a roll using a specialty does not botch
      (:mod:`rulesets.maelstrom.readings`);
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
        readings: the campaign's table readings (the seed's by default).

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
    exploding = bool(used) or readings.tens_explode == "always"
    if exploding and not used:
        notes.append("Exploding tens without a specialty (table reading)")
    botches = not (used and readings.specialty_botch == "no_botch")
    if not botches:
        notes.append("A specialty is used: 1s do not botch (table reading)")

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
        exploding=exploding,
        wound_penalty=wound_penalty,
        traits=tuple(trait.name for trait in traits),
        specialties=tuple(used),
        experience_die_allowed=True,
        notes=tuple(notes),
        botches=botches,
    )


def build_willpower_pool(
    *,
    current: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    threshold: int = 0,
    automatic_successes: int = 0,
    readings: MaelstromReadings = SEED_READINGS,
) -> ActionPool:
    """Build the dice pool of a Willpower roll (Maelstrom rules.md, Rolling Willpower).

    The pool is the current Willpower rank, rolled alone; a Willpower roll is not an action,
    so there is no wound penalty; no specialties, so no exploding tens. An experience die may
    be added (Willpower is the trait used; Maelstrom rules.md, Adding Experience Dice) unless
    the campaign reads "not an action" as forbidding it (``willpower_experience_die``), and the
    automatic successes count where the campaign reads Strong Bond (``strong_bond``;
    :mod:`rulesets.maelstrom.readings`).

    Args:
        current: current Willpower dots (1-10).
        difficulty: 2-10 (recovery rolls while resting use 8).
        threshold: >= 0.
        automatic_successes: successes added without dice, >= 0; 1 with the Strong Bond merit
            ("one automatic success on all Willpower rolls").
        readings: the campaign's table readings (the seed's by default).

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
    automatic_at = AUTOMATIC_AT[0]
    if automatic_successes:
        automatic_at = readings.strong_bond
        placed = {"after_threshold": ", after the threshold (table reading)",
                  "kept": ", after the threshold and beyond a botch (table reading)"}
        notes.append(
            f"{automatic_successes} automatic success"
            f"{'es' if automatic_successes != 1 else ''} (Strong Bond)"
            + placed.get(automatic_at, "")
        )
    allowed = readings.willpower_experience_die == "allowed"
    if not allowed:
        notes.append("Willpower is not an action: no experience die (table reading)")
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
        experience_die_allowed=allowed,
        notes=tuple(notes),
        automatic_at=automatic_at,
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

