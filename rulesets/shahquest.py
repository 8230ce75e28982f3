"""Rules engine for Shahquest, a Cortex Plus derivative (the main page of the Shahquest wiki).

The seed text (``seeds/000_f80b8c0f83e34825.txt``, cited below as "Shahquest wiki,
<section>") is the authority; /work/shared/RULES.md section 2 summarises it and settles its
gaps with **Decision** lines. Where both are silent, the decision taken is written in the
docstring of the function concerned.

Units: dice are given by their number of sides as ints (8 for a d8), on the step-dice ladder
d4, d6, d8, d10, d12 (:data:`rulesets.dice.STEP_DICE`); plot points are whole numbers.

What lives here:

- pool building from features (:class:`Feature`, :func:`build_pool`, :func:`pool_from_dice`);
- rolling (:func:`roll`), the preselected best effort total and effect die
  (:func:`best_selection`), the player's own choice after the roll with the plot-point
  options (:func:`check_selection`, :func:`choose_dice`);
- stress and trauma (:class:`StressTrack`, :func:`take_stress`, :func:`recover_stress`,
  :func:`recover_trauma`, :func:`downtime_recovery`, :func:`trauma_recovery_time`);
- the tension pool (:class:`TensionPool`, :func:`roll_general_danger`);
- exact odds of the effort total and of opportunities (:func:`odds`, :func:`odds_query`).

Everything is pure Python with an injected RNG (:class:`rulesets.dice.Rng`). Every rule
violation raises :class:`RuleError`, whose message a player can read and whose ``rule`` names
the seed section.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rulesets import dice as _dice
from rulesets.dice import STEP_DICE, Rng, format_dice, parse_dice, roll_die
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.notation import check_length
from rulesets.query import QUERY_RULE, Parameter, read_query
from rulesets.stored import Stored

SOURCE = "Shahquest wiki"
"""Prefix of every rule citation."""

SYSTEM = "shahquest"
"""The slug stored in every ``as_dict()``."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_STEPS = "Dice, Step Up, Step Down, and Spreads"
_POOLS = "Dice Pools"
_FEATURE_TYPES_SECTION = "Feature Types"
_EXTRA_FEATURE = "Extra Feature"
_PUSH = "Push die"
_QUIRK = "Use a Quirk \u201cIn the negative\u201d"
_OWN_STRESS = "Using Your Own Stress"
_EFFORT = "Add to Effort total"
_EXTRA_EFFECT = "Extra Effect die"
_STRESS = "Stress and Trauma"
_STRESS_OUT = "Stressing Out and Trauma"
_DOWNTIME = "During Downtime, you may spend a Plot Point to\u2026"
_TENSION = "Tension Pool"
_BUILDING_TENSION = "Building the Tension"
_USING_TENSION = "Using the Tension Pool"
_DANGER = "Tension Pool as General Danger"
_AFFILIATIONS = "Affiliations"


def _die(size: int) -> str:
    return f"d{size}"


def _check_step_die(size: object, what: str, section: str = _STEPS) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size not in STEP_DICE:
        sizes = ", ".join(_die(s) for s in STEP_DICE)
        raise RuleError(f"{what} must be one of {sizes}, not {size!r}", _rule(section))
    return size


# ---------------------------------------------------------------------------------------------
# Features and dice pools: Shahquest wiki, Dice Pools / Feature Types / Plot Points
# ---------------------------------------------------------------------------------------------

FEATURE_TYPES: tuple[str, ...] = (
    "affiliation",
    "attribute",
    "complication",
    "power_set",
    "quirk",
    "resource",
    "skill",
    "stress",
    "trauma",
    "asset",
)
"""Feature types a dice pool draws from, one feature of each unless plot points are spent.

The seed's nine types (Affiliations, Attributes, Complications, Power Sets, Quirks, Resources,
Skills, Stress, Trauma) plus assets, which it lists among the temporary features (Shahquest
wiki, Feature Types). A specialization is not a type: it modifies its skill."""

OTHER_DIE_SOURCES: tuple[str, ...] = ("push", "setting", "tension", "dice")
"""Where a pool die comes from when it is not a feature: the push die, the GM's setting die,
a tension die moved into an NPC's pool, or plain dice notation (:func:`pool_from_dice`)."""

AFFILIATIONS: tuple[str, ...] = ("Solo", "Partner", "Gang")
"""The three affiliations every character is ranked in (Shahquest wiki, Affiliations)."""

AFFILIATION_DICE: tuple[int, ...] = (4, 6, 8)
"""Each character assigns a d4, a d6 and a d8 to the three affiliations, one each."""

QUIRK_DIE = 8
"""A quirk normally adds a d8 (Shahquest wiki, Use a Quirk "In the negative")."""

NEGATIVE_QUIRK_DIE = 4
"""A quirk used "in the negative" adds a d4 instead and earns a plot point."""

PUSH_DIE = 6
"""A push die is a d6 bought with a plot point before the roll (Shahquest wiki, Push die)."""

SPECIALIZATION_USES: tuple[str, ...] = ("step_up", "spread")
"""A specialization either steps up its skill's die or spreads it (Shahquest wiki, Dice Pools,
the example of Dice Pool: "He could have used his Specialization to Step Up the die")."""

STRESS_TYPES: tuple[str, ...] = ("physical", "mental", "emotional")
"""The three kinds of stress and trauma (Shahquest wiki, Stress and Trauma)."""


@dataclass(frozen=True, kw_only=True)
class Feature:
    """One feature a character (or the situation) puts into a dice pool.

    Attributes:
        type: one of :data:`FEATURE_TYPES`, e.g. "attribute".
        name: the feature's name as on the sheet, e.g. "Coordination", "Solo", "Athletics";
            for a stress or trauma feature, one of :data:`STRESS_TYPES`.
        die: the feature's die size (4-12); a quirk's die is always 8.
        count: how many dice of that size (1; more only for a spread Solo affiliation of a
            large creature, e.g. 2 for a Giant's 2d8 Solo).
        specialization: for a skill, the name of the specialization used, or "".
        specialization_use: "step_up" or "spread" when a specialization is used, else "".
        negative: for a quirk, used "in the negative" (a d4 that earns a plot point).
        own: for a stress feature, the character's own stress die (costs a plot point and
            steps the stress up after the roll; Shahquest wiki, Using Your Own Stress).
        step_ups: further steps up of this feature's die, e.g. 1 after the player spent a
            plot point on a GM's opportunity die "to Step Up any one die in his Pool for his
            next action" (Shahquest wiki, Dice Pools); applied before any spread.
    """

    type: str
    name: str
    die: int
    count: int = 1
    specialization: str = ""
    specialization_use: str = ""
    negative: bool = False
    own: bool = False
    step_ups: int = 0

    def dice(self) -> tuple[int, ...]:
        """The dice this feature adds, largest first, after its rules.

        A negative quirk is a d4; a specialization steps the skill up one step or spreads it
        by one die; ``step_ups`` step the die up; steps before spreads (Shahquest wiki,
        Dice, Step Up, Step Down, and Spreads).

        Returns:
            Die sizes, e.g. ``(8, 8)`` for a d8 skill spread by its specialization.

        Raises:
            RuleError: see :func:`check_feature`.
        """
        check_feature(self)
        size = self.die
        if self.type == "quirk":
            size = NEGATIVE_QUIRK_DIE if self.negative else QUIRK_DIE
        steps = self.step_ups + (1 if self.specialization_use == "step_up" else 0)
        stepped = _dice.step_up(size, steps)
        assert stepped is not None  # check_feature refused a step past d12
        size = stepped
        spreads = self.count - 1 + (1 if self.specialization_use == "spread" else 0)
        return _dice.spread(size, spreads)

    def label(self) -> str:
        """The feature as the UI names it, e.g. "Physical (skill, Athletics spread)"."""
        kind = self.type.replace("_", " ")
        extra = ""
        if self.specialization:
            extra = f", {self.specialization} {self.specialization_use.replace('_', ' ')}"
        if self.negative:
            extra = ", in the negative"
        if self.own:
            extra = ", own"
        return f"{self.name} ({kind}{extra})"


def quirk(name: str, *, negative: bool = False) -> Feature:
    """A quirk feature: a d8, or a d4 "in the negative" that earns a plot point.

    Args:
        name: the quirk, e.g. "I've got your back".
        negative: use it in the negative (Shahquest wiki, Use a Quirk "In the negative").

    Returns:
        ``Feature(type="quirk", name=name, die=8, negative=negative)``.
    """
    return Feature(type="quirk", name=name, die=QUIRK_DIE, negative=negative)


def check_feature(feature: Feature) -> None:
    """Check one feature against the rules of its type.

    Rules: the type is one of :data:`FEATURE_TYPES`; the die is a step die; a quirk's die is
    a d8 (Shahquest wiki, Use a Quirk "In the negative"); only a quirk may be negative; an
    affiliation is Solo, Partner or Gang with a d4, d6 or d8, and only Solo may hold several
    dice (large creatures spread their Solo die, e.g. 2d8; Shaluum roll 3d12 Solo;
    Shahquest wiki, Affiliations); only a skill takes a specialization, used to step up or to
    spread, and a d12 cannot be stepped up; only a stress feature may be the character's
    own, and stress and trauma features are named physical, mental or emotional (Shahquest
    wiki, Stress and Trauma).

    Args:
        feature: the feature to check.

    Raises:
        RuleError: the first broken rule, naming the feature and the bad value.
    """
    if feature.type not in FEATURE_TYPES:
        types = ", ".join(FEATURE_TYPES)
        raise RuleError(
            f"{feature.name!r} has feature type {feature.type!r}, not one of {types}",
            _rule(_FEATURE_TYPES_SECTION),
        )
    _check_step_die(feature.die, f"the die of {feature.name}")
    if feature.count < 1:
        raise RuleError(
            f"{feature.name} must have at least one die, not {feature.count}",
            _rule(_STEPS),
        )
    if feature.type == "quirk" and feature.die != QUIRK_DIE:
        raise RuleError(
            f"the quirk {feature.name} adds a d8 (or a d4 in the negative), not a "
            f"{_die(feature.die)}",
            _rule(_QUIRK),
        )
    if feature.negative and feature.type != "quirk":
        raise RuleError(
            f"only a quirk can be used in the negative, and {feature.name} is a "
            f"{feature.type.replace('_', ' ')}",
            _rule(_QUIRK),
        )
    if feature.type == "affiliation":
        if feature.name not in AFFILIATIONS:
            raise RuleError(
                f"{feature.name!r} is not an affiliation; they are Solo, Partner and Gang",
                _rule(_AFFILIATIONS),
            )
        if feature.count == 1 and feature.die not in AFFILIATION_DICE:
            raise RuleError(
                f"the {feature.name} affiliation is a d4, d6 or d8, not a {_die(feature.die)}",
                _rule(_AFFILIATIONS),
            )
        if feature.count > 1 and feature.name != "Solo":
            raise RuleError(
                f"only a large creature's Solo affiliation is spread, not {feature.name} "
                f"({feature.count}{_die(feature.die)})",
                _rule(_AFFILIATIONS),
            )
    elif feature.count > 1:
        raise RuleError(
            f"{feature.name} adds one die, not {feature.count}; only a large creature's Solo "
            "affiliation is spread",
            _rule(_FEATURE_TYPES_SECTION),
        )
    if feature.specialization_use or feature.specialization:
        if feature.type != "skill":
            raise RuleError(
                f"only a skill has specializations, and {feature.name} is a "
                f"{feature.type.replace('_', ' ')}",
                _rule(_POOLS),
            )
        if feature.specialization_use not in SPECIALIZATION_USES:
            raise RuleError(
                f"the specialization {feature.specialization or '(unnamed)'} must step up or "
                f"spread {feature.name}, not {feature.specialization_use!r}",
                _rule(_POOLS),
            )
    if feature.step_ups < 0:
        raise RuleError(
            f"{feature.name} cannot be stepped up {feature.step_ups} times", _rule(_STEPS)
        )
    base = feature.die
    if feature.type == "quirk":
        base = NEGATIVE_QUIRK_DIE if feature.negative else QUIRK_DIE
    steps = feature.step_ups + (1 if feature.specialization_use == "step_up" else 0)
    if _dice.step_up(base, steps) is None:
        raise RuleError(
            f"{feature.name} ({_die(base)}) cannot be stepped up {_plural(steps, 'time')}: "
            "d12 is the largest die",
            _rule(_STEPS),
        )
    if feature.own and feature.type != "stress":
        raise RuleError(
            f"only your own stress die can join your pool this way, not {feature.name}",
            _rule(_OWN_STRESS),
        )
    if feature.type in ("stress", "trauma") and feature.name not in STRESS_TYPES:
        raise RuleError(
            f"{feature.type} is physical, mental or emotional, not {feature.name!r}",
            _rule(_STRESS),
        )


@dataclass(frozen=True)
class PoolDie:
    """One die of a dice pool and where it came from.

    Attributes:
        size: die sides (4-12).
        source: a feature type (:data:`FEATURE_TYPES`) or one of :data:`OTHER_DIE_SOURCES`.
        name: the feature's label, e.g. "Coordination (attribute)", "Push die".
    """

    size: int
    source: str
    name: str


@dataclass(frozen=True, kw_only=True)
class DicePool:
    """A dice pool ready to roll, with what it cost and what happens afterwards.

    Built by :func:`build_pool`, :func:`pool_from_dice` or :class:`TensionPool`.

    Attributes:
        dice: the dice in building order (features first, then push, tension and setting).
        plot_points_spent: plot points the pool costs before the roll: one per extra feature
            of a type, one for the push die, one per own stress die (Shahquest wiki, Before
            you roll the dice, you may spend a Plot Point to...).
        plot_points_earned: plot points earned, one per quirk used in the negative.
        stress_step_up: stress types ("physical", ...) of the character's own stress dice in
            the pool: each is stepped up once after the roll (Shahquest wiki, Using Your Own
            Stress; apply with :func:`step_up_stress`).
        notes: human-readable explanations, e.g. "extra skill feature: 1 plot point".
    """

    dice: tuple[PoolDie, ...]
    plot_points_spent: int = 0
    plot_points_earned: int = 0
    stress_step_up: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def sizes(self) -> tuple[int, ...]:
        """The die sizes in pool order, e.g. ``(10, 6, 8, 8, 8, 6)``."""
        return tuple(die.size for die in self.dice)

    def notation(self) -> str:
        """The pool in dice notation, largest first, e.g. "d10 3d8 2d6"."""
        return format_dice(self.sizes)

    def describe(self) -> str:
        """One line for the UI.

        E.g. "d10 3d8 2d6 (Coordination d10, Partner d6, ...); 1 plot point spent, own
        physical stress steps up afterwards".
        """
        parts = [
            f"{die.name.split(' (')[0]}"
            f"{' ' + die.source if die.source in ('stress', 'trauma') else ''} {_die(die.size)}"
            for die in self.dice
        ]
        text = f"{self.notation()} ({', '.join(parts)})"
        costs: list[str] = []
        if self.plot_points_spent:
            costs.append(f"{_plural(self.plot_points_spent, 'plot point')} spent")
        if self.plot_points_earned:
            costs.append(f"{_plural(self.plot_points_earned, 'plot point')} earned")
        costs.extend(f"own {kind} stress steps up afterwards" for kind in self.stress_step_up)
        return text + ("; " + ", ".join(costs) if costs else "")

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict; see :meth:`from_dict`.

        Keys: "dice" (list of ``{"size", "source", "name"}``), "notation",
        "plot_points_spent", "plot_points_earned", "stress_step_up", "notes".
        """
        return {
            "dice": [
                {"size": die.size, "source": die.source, "name": die.name} for die in self.dice
            ],
            "notation": self.notation(),
            "plot_points_spent": self.plot_points_spent,
            "plot_points_earned": self.plot_points_earned,
            "stress_step_up": list(self.stress_step_up),
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> DicePool:
        """Rebuild a pool stored with :meth:`as_dict` ("notation" is ignored, recomputed).

        Raises:
            RuleError: a missing or mistyped field, a die that is not a step die, or an
                unknown die source or stress type.
        """
        stored = Stored(data, _rule(_POOLS))
        dice: list[PoolDie] = []
        for item in stored.mappings("dice"):
            stored_die = Stored(item, _rule(_POOLS))
            size = _check_step_die(stored_die.value("size"), "a stored die")
            source = stored_die.str("source")
            if source not in FEATURE_TYPES + OTHER_DIE_SOURCES:
                raise RuleError(f"unknown die source {source!r}", _rule(_POOLS))
            dice.append(PoolDie(size=size, source=source, name=stored_die.str("name")))
        step_up = stored.strs("stress_step_up")
        for kind in step_up:
            _check_stress_type(kind)
        return cls(
            dice=tuple(dice),
            plot_points_spent=stored.int("plot_points_spent"),
            plot_points_earned=stored.int("plot_points_earned"),
            stress_step_up=step_up,
            notes=stored.strs("notes"),
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def build_pool(
    features: Sequence[Feature],
    *,
    push_die: bool = False,
    stepped_up_push_die: bool = False,
    setting_die: int | None = None,
    tension_dice: Sequence[int] = (),
    plot_points: int | None = None,
) -> DicePool:
    """Build a dice pool from features and the situation, counting its plot-point cost.

    Rules applied:

    - every feature is checked (:func:`check_feature`) and adds its dice: a quirk d8 or d4
      in the negative (earning a plot point), a specialization stepping up or spreading its
      skill (steps before spreads), a large creature's spread Solo;
    - one feature of each type; each further feature of a type costs a plot point
      (Shahquest wiki, Extra Feature);
    - a push die adds a d6 for a plot point (Shahquest wiki, Push die); a stepped up push
      die (d8) comes from a plot point already spent on a GM's opportunity die (Shahquest
      wiki, Activate Opportunity die), so it costs nothing more here;
    - the character's own stress die (``own=True``) costs a plot point and is stepped up
      after the roll, which the pool reports in ``stress_step_up`` (Shahquest wiki, Using
      Your Own Stress). **Decision:** it also counts as the pool's stress feature, so an
      opponent's stress added beside it costs the extra-feature plot point as well;
    - the GM may add one setting die (Shahquest wiki, Dice Pools, the example; Tension Pool
      as General Danger), free; **Decision:** at most one per pool;
    - tension dice the GM moves into an NPC's pool are free to the pool (their price is paid
      from the tension pool; Shahquest wiki, Using the Tension Pool);
    - the pool holds at least one die.

    Args:
        features: the features used, e.g. ``[Feature(type="attribute", name="Coordination",
            die=10), ...]``.
        push_die: buy a push die (d6) with a plot point.
        stepped_up_push_die: add the stepped up push die (d8) bought on a GM's opportunity.
        setting_die: the GM's setting die size (4-12), or None.
        tension_dice: sizes of tension dice moved into an NPC pool (see
            :meth:`TensionPool.take`).
        plot_points: the plot points the character has; None skips the check.

    Returns:
        A :class:`DicePool` with ``plot_points_spent``, ``plot_points_earned`` and
        ``stress_step_up`` filled in.

    Raises:
        RuleError: an illegal feature, a bad setting or tension die, an empty pool, or a
            pool costing more plot points than ``plot_points``.
    """
    dice: list[PoolDie] = []
    notes: list[str] = []
    spent = 0
    earned = 0
    step_up: list[str] = []
    per_type: dict[str, int] = {}
    for feature in features:
        sizes = feature.dice()
        label = feature.label()
        dice.extend(PoolDie(size=size, source=feature.type, name=label) for size in sizes)
        per_type[feature.type] = per_type.get(feature.type, 0) + 1
        if per_type[feature.type] > 1:
            spent += 1
            notes.append(
                f"extra {feature.type.replace('_', ' ')} feature {feature.name}: 1 plot point"
            )
        if feature.negative:
            earned += 1
            notes.append(f"quirk {feature.name} in the negative (d4): earns 1 plot point")
        if feature.own:
            spent += 1
            step_up.append(feature.name)
            notes.append(
                f"own {feature.name} stress: 1 plot point, steps up after the roll, and the "
                "opponent may use it too"
            )
    if push_die:
        spent += 1
        dice.append(PoolDie(size=PUSH_DIE, source="push", name="Push die"))
        notes.append("push die (d6): 1 plot point")
    if stepped_up_push_die:
        dice.append(PoolDie(size=PUSH_DIE + 2, source="push", name="Stepped up push die"))
        notes.append("stepped up push die (d8): paid for on the GM's opportunity")
    for size in tension_dice:
        _check_step_die(size, "a tension die", _USING_TENSION)
        dice.append(PoolDie(size=size, source="tension", name="Tension die"))
    if setting_die is not None:
        _check_step_die(setting_die, "the setting die", _POOLS)
        dice.append(PoolDie(size=setting_die, source="setting", name="Setting die"))
    if not dice:
        raise RuleError("a dice pool needs at least one die", _rule(_POOLS))
    if plot_points is not None and spent > plot_points:
        raise RuleError(
            f"this pool costs {_plural(spent, 'plot point')} but you have {plot_points}",
            _rule("Plot Points"),
        )
    return DicePool(
        dice=tuple(dice),
        plot_points_spent=spent,
        plot_points_earned=earned,
        stress_step_up=tuple(step_up),
        notes=tuple(notes),
    )


def pool_from_dice(notation: str | Sequence[int]) -> DicePool:
    """A plain pool of step dice, e.g. for the odds or an NPC, with no plot-point cost.

    Args:
        notation: dice notation such as "d10 3d8 d6", or die sizes such as ``(10, 8, 8)``.

    Returns:
        A :class:`DicePool` whose dice have source "dice", in the order given (notation is
        sorted largest first by :func:`rulesets.dice.parse_dice`).

    Raises:
        RuleError: bad notation, a size that is not a step die, or an empty pool.
    """
    sizes = parse_dice(notation) if isinstance(notation, str) else tuple(notation)
    if not sizes:
        raise RuleError("a dice pool needs at least one die", _rule(_POOLS))
    for size in sizes:
        _check_step_die(size, "a pool die", _POOLS)
    return DicePool(dice=tuple(PoolDie(size=s, source="dice", name="Die") for s in sizes))


def validate_affiliations(solo: int, partner: int, gang: int, *, solo_count: int = 1) -> None:
    """Check a character's three affiliation dice.

    "Each character assigns a d4 to one Affiliation, a d6 to another, and a d8 to the third";
    large creatures spread their Solo die (a Giant's 2d4, 2d6 or 2d8; Shaluum 3d12)
    (Shahquest wiki, Affiliations). **Decision:** a spread Solo may be any step die (the
    Shaluum's d12); Partner and Gang then hold two different dice of d4, d6, d8, and when the
    Solo die is one of those, the three are still d4, d6 and d8 once each.

    Args:
        solo, partner, gang: die sizes.
        solo_count: Solo dice (1, or more for a large creature).

    Raises:
        RuleError: the dice are not d4, d6 and d8 once each, or ``solo_count`` < 1.
    """
    rule = _rule(_AFFILIATIONS)
    if solo_count < 1:
        raise RuleError(f"Solo needs at least one die, not {solo_count}", rule)
    for name, size in (("Solo", solo), ("Partner", partner), ("Gang", gang)):
        _check_step_die(size, f"the {name} affiliation", _AFFILIATIONS)
    given = f"Solo {_die(solo)}, Partner {_die(partner)}, Gang {_die(gang)}"
    if solo_count > 1 and solo not in AFFILIATION_DICE:
        if partner == gang or {partner, gang} - set(AFFILIATION_DICE):
            raise RuleError(
                f"Partner and Gang take two different dice of d4, d6 and d8 ({given})", rule
            )
        return
    if sorted((solo, partner, gang)) != list(AFFILIATION_DICE):
        raise RuleError(f"the affiliations take a d4, a d6 and a d8 once each, not {given}", rule)


# ---------------------------------------------------------------------------------------------
# Rolling: Shahquest wiki, Dice Pools / After you roll the dice ...
# ---------------------------------------------------------------------------------------------

NO_EFFECT_DIE = 4
"""**Decision** (RULES.md, the Cortex convention): the effect die is a d4 when no die is left
for it after the effort total."""


@dataclass(frozen=True)
class Selection:
    """Which rolled dice make the effort total and the effect dice, by index into the roll.

    Attributes:
        effort: indices of the effort dice; the first two are free, each further one costs a
            plot point (Shahquest wiki, Add to Effort total).
        effect: indices of the effect dice; the first is free, each further one costs a plot
            point (Shahquest wiki, Extra Effect die). Empty when no die is left (effect d4).
    """

    effort: tuple[int, ...]
    effect: tuple[int, ...]

    @property
    def plot_points(self) -> int:
        """Plot points this selection costs after the roll: extra effort and effect dice."""
        return max(0, len(self.effort) - 2) + max(0, len(self.effect) - 1)


def _check_faces(sizes: Sequence[int], faces: Sequence[int]) -> None:
    if len(faces) != len(sizes):
        raise RuleError(
            f"{len(faces)} faces were given for a pool of {len(sizes)} dice", _rule(_POOLS)
        )
    for size, face in zip(sizes, faces, strict=True):
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= size:
            raise RuleError(f"a d{size} cannot show {face!r}", _rule(_POOLS))


def best_selection(sizes: Sequence[int], faces: Sequence[int]) -> Selection:
    """The preselected choice: the best effort total, then the largest effect die.

    Set aside the 1s (opportunities). Effort: the two highest faces among the other dice (one
    when only one is left, none when every die shows 1). Among equal faces the smaller die
    goes to effort, keeping larger dice for the effect. Effect: the largest die size among
    the dice left (it is the size that counts, not the face); among equal sizes the lowest
    face, keeping higher faces for a plot-point effort die. The seed's example: d10, d8, d8,
    d8, d6 showing 7, 2, 1, 3, 4 -> effort 7 + 4 = 11, effect d8 (the d8 showing 2)
    (Shahquest wiki, Dice Pools).

    Args:
        sizes: die sizes in roll order.
        faces: the faces rolled, same order.

    Returns:
        A :class:`Selection` costing no plot points.

    Raises:
        RuleError: faces and sizes disagree in length, or a face is impossible for its die.
    """
    _check_faces(sizes, faces)
    live = [i for i, face in enumerate(faces) if face != 1]
    by_face = sorted(live, key=lambda i: (-faces[i], sizes[i], i))
    effort = tuple(by_face[:2])
    rest = [i for i in live if i not in effort]
    by_size = sorted(rest, key=lambda i: (-sizes[i], faces[i], i))
    return Selection(effort=effort, effect=tuple(by_size[:1]))


def check_selection(
    sizes: Sequence[int],
    faces: Sequence[int],
    selection: Selection,
    *,
    plot_points: int | None = None,
) -> None:
    """Check a player's choice of effort and effect dice after the roll.

    Rules: 1s are opportunities and count for neither (Shahquest wiki, Dice Pools); every
    chosen die is a different die of the roll; effort takes two dice (all the non-1 dice
    when fewer than two are left), each further effort die costs a plot point (Add to Effort
    total); one effect die is kept from the dice left whenever any is left, and each further
    effect die costs a plot point (Extra Effect die); a die used for effort cannot be an
    effect die.

    Args:
        sizes: die sizes in roll order.
        faces: the faces rolled, same order.
        selection: the player's choice (indices into the roll).
        plot_points: the plot points the player has; None skips the check.

    Raises:
        RuleError: an index outside the roll, an opportunity chosen, a die chosen twice, too
            few effort dice, no effect die while one is left, or more plot points than the
            player has.
    """
    _check_faces(sizes, faces)
    chosen = list(selection.effort) + list(selection.effect)
    for index in chosen:
        if not 0 <= index < len(faces):
            raise RuleError(
                f"there is no die number {index + 1} in a pool of {len(faces)} dice",
                _rule(_POOLS),
            )
        if faces[index] == 1:
            raise RuleError(
                f"the d{sizes[index]} (die {index + 1}) rolled a 1: an opportunity die counts "
                "for neither effort nor effect",
                _rule(_POOLS),
            )
    if len(set(chosen)) != len(chosen):
        raise RuleError(
            "each die can be used once: a die used for the effort total cannot also be an "
            "effect die",
            _rule(_EFFORT),
        )
    live = sum(1 for face in faces if face != 1)
    if len(selection.effort) < min(2, live):
        raise RuleError(
            f"the effort total takes two dice, not {len(selection.effort)}", _rule(_POOLS)
        )
    if not selection.effect and live > len(selection.effort):
        raise RuleError("keep one of the dice left as your effect die", _rule(_POOLS))
    if plot_points is not None and selection.plot_points > plot_points:
        raise RuleError(
            f"these extra effort and effect dice cost "
            f"{_plural(selection.plot_points, 'plot point')} but you have {plot_points}",
            _rule(_EFFORT if len(selection.effort) > 2 else _EXTRA_EFFECT),
        )


@dataclass(frozen=True)
class RollResult:
    """A rolled dice pool: every die, the choice of dice and the outcome.

    Attributes:
        pool: the :class:`DicePool` rolled.
        faces: the face of each pool die, in pool order.
        selection: effort and effect dice (checked on creation with
            :func:`check_selection`).

    The outcome is derived from the dice and the selection: :attr:`effort`,
    :attr:`effect_die`, :attr:`extra_effect_dice`, :attr:`opportunities`.

    Raises:
        RuleError: on creation, when the faces or selection break the rules.
    """

    pool: DicePool
    faces: tuple[int, ...]
    selection: Selection

    def __post_init__(self) -> None:
        check_selection(self.pool.sizes, self.faces, self.selection)

    @property
    def effort(self) -> int:
        """The effort total: the sum of the effort dice's faces (0 when every die shows 1)."""
        return sum(self.faces[i] for i in self.selection.effort)

    @property
    def effect_die(self) -> int:
        """The effect die's size; d4 when no die was left for it (RULES.md Decision)."""
        if not self.selection.effect:
            return NO_EFFECT_DIE
        return self.pool.sizes[self.selection.effect[0]]

    @property
    def extra_effect_dice(self) -> tuple[int, ...]:
        """Sizes of the extra effect dice kept with plot points."""
        return tuple(self.pool.sizes[i] for i in self.selection.effect[1:])

    @property
    def opportunities(self) -> tuple[int, ...]:
        """Indices of the opportunity dice (the 1s), set aside."""
        return tuple(i for i, face in enumerate(self.faces) if face == 1)

    @property
    def opportunity_dice(self) -> tuple[int, ...]:
        """Sizes of the opportunity dice, e.g. ``(8,)``; each may go to the tension pool for
        a plot point (Shahquest wiki, Dice Pools)."""
        return tuple(self.pool.sizes[i] for i in self.opportunities)

    @property
    def plot_points_after_roll(self) -> int:
        """Plot points the selection costs after the roll (extra effort and effect dice)."""
        return self.selection.plot_points

    @property
    def stress_step_up(self) -> tuple[str, ...]:
        """Own stress types to step up now the roll is over (from the pool)."""
        return self.pool.stress_step_up

    def summary(self) -> str:
        """One line for the roll log, e.g. "Effort 11, effect d8, 1 opportunity"."""
        effects = [_die(self.effect_die), *(_die(s) for s in self.extra_effect_dice)]
        text = f"Effort {self.effort}, effect {' + '.join(effects)}"
        if self.opportunities:
            count = len(self.opportunities)
            text += f", {count} {'opportunity' if count == 1 else 'opportunities'}"
        return text

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage; see :meth:`from_dict`.

        Keys: "system" ("shahquest"), "pool" (:meth:`DicePool.as_dict`), "dice" (list of
        ``{"size", "face"}`` in pool order), "effort_dice" and "effect_dice" (indices),
        "effort", "effect_die", "extra_effect_dice", "opportunities" (indices),
        "opportunity_dice" (sizes), "plot_points_after_roll", "stress_step_up", "summary".
        """
        return {
            "system": SYSTEM,
            "pool": self.pool.as_dict(),
            "dice": [
                {"size": size, "face": face}
                for size, face in zip(self.pool.sizes, self.faces, strict=True)
            ],
            "effort_dice": list(self.selection.effort),
            "effect_dice": list(self.selection.effect),
            "effort": self.effort,
            "effect_die": self.effect_die,
            "extra_effect_dice": list(self.extra_effect_dice),
            "opportunities": list(self.opportunities),
            "opportunity_dice": list(self.opportunity_dice),
            "plot_points_after_roll": self.plot_points_after_roll,
            "stress_step_up": list(self.stress_step_up),
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict`.

        Only the pool, the faces and the chosen indices are read; the effort total, effect
        die and opportunities are recomputed from them.

        Raises:
            RuleError: a missing or mistyped field, or dice and selection that break the
                rules.
        """
        stored = Stored(data, _rule(_POOLS))
        pool = DicePool.from_dict(stored.mapping("pool"))
        faces = tuple(Stored(item, _rule(_POOLS)).int("face") for item in stored.mappings("dice"))
        return cls(
            pool=pool,
            faces=faces,
            selection=Selection(
                effort=stored.ints("effort_dice"), effect=stored.ints("effect_dice")
            ),
        )


def roll(pool: DicePool, rng: Rng) -> RollResult:
    """Roll a dice pool and preselect the best effort total and effect die.

    One ``rng.randint(1, size)`` per die, in pool order; the selection is
    :func:`best_selection` (Shahquest wiki, Dice Pools). The player may then choose other
    dice with :func:`choose_dice`.

    Args:
        pool: the pool to roll.
        rng: the injected random source.

    Returns:
        A :class:`RollResult`.
    """
    faces = tuple(roll_die(rng, size) for size in pool.sizes)
    return RollResult(pool=pool, faces=faces, selection=best_selection(pool.sizes, faces))


def choose_dice(
    result: RollResult,
    *,
    effort: Sequence[int],
    effect: Sequence[int],
    plot_points: int | None = None,
) -> RollResult:
    """The player's own choice of dice after the roll, with the plot-point options.

    Two effort dice and one effect die are free; each further effort die and each further
    effect die costs a plot point (Shahquest wiki, Add to Effort total; Extra Effect die).
    The cost is :attr:`RollResult.plot_points_after_roll`.

    Args:
        result: the roll.
        effort: indices (0-based, pool order) of the effort dice.
        effect: indices of the effect dice, the main one first.
        plot_points: the plot points the player has; None skips the check.

    Returns:
        A new :class:`RollResult` with that selection.

    Raises:
        RuleError: see :func:`check_selection`.
    """
    selection = Selection(effort=tuple(effort), effect=tuple(effect))
    check_selection(result.pool.sizes, result.faces, selection, plot_points=plot_points)
    return replace(result, selection=selection)


# ---------------------------------------------------------------------------------------------
# Stress and trauma: Shahquest wiki, Stress and Trauma / Stressing Out and Trauma
# ---------------------------------------------------------------------------------------------

TRAUMA_RECOVERY_TIME: dict[int, str] = {
    4: "1 day",
    6: "3 days",
    8: "1 week",
    10: "1 month",
    12: "6 months",
}
"""Downtime required for each attempt to recover from trauma, by trauma die (Shahquest wiki,
Stressing Out and Trauma)."""


def _check_stress_type(kind: str) -> None:
    if kind not in STRESS_TYPES:
        raise RuleError(
            f"stress and trauma are physical, mental or emotional, not {kind!r}", _rule(_STRESS)
        )


@dataclass(frozen=True)
class StressLine:
    """Stress and trauma of one type (physical, mental or emotional).

    Attributes:
        stress: the stress die size, or None.
        stressed_out: the stress stepped up from d12: the character can't act until he
            recovers (the stress die stays at d12 meanwhile).
        trauma: the trauma die size, or None.
        taken_out: the trauma stepped up from d12: killed, mindwiped or comatose.
    """

    stress: int | None = None
    stressed_out: bool = False
    trauma: int | None = None
    taken_out: bool = False


_TAKEN_OUT = {"physical": "killed", "mental": "mindwiped", "emotional": "comatose"}


@dataclass(frozen=True)
class StressTrack:
    """A character's stress and trauma of the three types (Shahquest wiki, Stress and Trauma).

    Attributes:
        physical, mental, emotional: one :class:`StressLine` each.
    """

    physical: StressLine = StressLine()
    mental: StressLine = StressLine()
    emotional: StressLine = StressLine()

    def line(self, kind: str) -> StressLine:
        """The :class:`StressLine` of ``kind`` ("physical", "mental" or "emotional").

        Raises:
            RuleError: an unknown stress type.
        """
        _check_stress_type(kind)
        line: StressLine = getattr(self, kind)
        return line

    def with_line(self, kind: str, line: StressLine) -> StressTrack:
        """A copy with the line of ``kind`` replaced."""
        _check_stress_type(kind)
        return replace(self, **{kind: line})

    @property
    def stressed_out(self) -> bool:
        """Whether any type is stressed out (the character can't take actions)."""
        return any(self.line(kind).stressed_out for kind in STRESS_TYPES)

    @property
    def taken_out(self) -> bool:
        """Whether any trauma stepped up from d12 (killed, mindwiped or comatose)."""
        return any(self.line(kind).taken_out for kind in STRESS_TYPES)

    def describe(self) -> str:
        """The track in words, e.g. "Stressed out: physical trauma d6; mental stress d8".

        Each type with anything on it gives one part: "Taken out (killed): physical trauma
        past d12", "Stressed out: physical trauma d6", "physical stress d10, physical trauma
        d4" or "mental stress d8"; "No stress" when there is none.
        """
        parts: list[str] = []
        for kind in STRESS_TYPES:
            line = self.line(kind)
            if line.taken_out:
                parts.append(f"Taken out ({_TAKEN_OUT[kind]}): {kind} trauma past d12")
            elif line.stressed_out:
                parts.append(f"Stressed out: {kind} trauma {_die(line.trauma or 4)}")
            else:
                bits = []
                if line.stress is not None:
                    bits.append(f"{kind} stress {_die(line.stress)}")
                if line.trauma is not None:
                    bits.append(f"{kind} trauma {_die(line.trauma)}")
                if bits:
                    parts.append(", ".join(bits))
        if not parts:
            return "No stress"
        text = "; ".join(parts)
        return text[0].upper() + text[1:]

    def as_dict(self) -> dict[str, object]:
        """JSON-serialisable: ``{"physical": {"stress": 8 | None, "stressed_out": bool,
        "trauma": ..., "taken_out": bool}, ...}``; see :meth:`from_dict`."""
        return {
            kind: {
                "stress": self.line(kind).stress,
                "stressed_out": self.line(kind).stressed_out,
                "trauma": self.line(kind).trauma,
                "taken_out": self.line(kind).taken_out,
            }
            for kind in STRESS_TYPES
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> StressTrack:
        """Rebuild a track stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field or a die that is not a step die.
        """
        stored = Stored(data, _rule(_STRESS))
        track = cls()
        for kind in STRESS_TYPES:
            line = Stored(stored.mapping(kind), stored.rule)
            stress, trauma = line.value("stress"), line.value("trauma")
            track = track.with_line(
                kind,
                StressLine(
                    stress=None if stress is None else _check_step_die(stress, "stress"),
                    stressed_out=line.bool("stressed_out"),
                    trauma=None if trauma is None else _check_step_die(trauma, "trauma"),
                    taken_out=line.bool("taken_out"),
                ),
            )
        return track


def _apply_effect(current: int | None, effect: int) -> int | None:
    """Stress-style step: a larger die replaces, an equal or smaller one steps up.

    Returns None when the die steps up from d12.
    """
    if current is None or effect > current:
        return effect
    return _dice.step_up(current)


def take_stress(track: StressTrack, kind: str, effect_die: int) -> StressTrack:
    """Apply a stress effect die of one type to a character.

    "If the new Stress die is a higher die type, replace the current die with the new die.
    If it is the same or lower, Step Up the Stress die" (Shahquest wiki, Stress and Trauma:
    d8 stress + d12 effect -> d12; + d10 or less -> d10). Stepping up from d12 stresses the
    character out, with a d4 trauma of the same type; further stress effects of that type
    step the trauma up the same way, and trauma stepping up from d12 takes the character
    out: killed, mindwiped or comatose (Shahquest wiki, Stressing Out and Trauma).

    **Decisions:** while stressed out, the stress die stays at d12 and further stress of the
    type goes to the trauma; stressing out again with a trauma die already there applies the
    d4 to it in the same fashion (a step up); a character taken out takes no more stress.

    Args:
        track: the current stress and trauma.
        kind: "physical", "mental" or "emotional".
        effect_die: the effect die size (4-12).

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: an unknown type, a bad die, or a character already taken out.
    """
    _check_step_die(effect_die, "the stress effect die", _STRESS)
    line = track.line(kind)
    if line.taken_out:
        raise RuleError(f"the character is already taken out by {kind} trauma", _rule(_STRESS_OUT))
    if line.stressed_out:
        return track.with_line(kind, _trauma_effect(line, effect_die))
    stress = _apply_effect(line.stress, effect_die)
    if stress is None:
        stressed = replace(line, stress=STEP_DICE[-1], stressed_out=True)
        return track.with_line(kind, _trauma_effect(stressed, 4))
    return track.with_line(kind, replace(line, stress=stress))


def _trauma_effect(line: StressLine, effect_die: int) -> StressLine:
    trauma = _apply_effect(line.trauma, effect_die)
    if trauma is None:
        return replace(line, trauma=STEP_DICE[-1], taken_out=True)
    return replace(line, trauma=trauma)


def step_up_stress(track: StressTrack, kind: str) -> StressTrack:
    """Step a stress die up once, e.g. the own stress die used in a pool, after the roll.

    "You Step Up the Stress die afterwards" (Shahquest wiki, Using Your Own Stress). Stepping
    up from d12 stresses the character out (as in :func:`take_stress`).

    Args:
        track: the current track.
        kind: the stress type (a pool's ``stress_step_up`` entry).

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: there is no stress of that type to step up, or the character is taken
            out.
    """
    line = track.line(kind)
    if line.stress is None:
        raise RuleError(f"there is no {kind} stress die to step up", _rule(_OWN_STRESS))
    return take_stress(track, kind, 4 if line.stressed_out else line.stress)


def recover_stress(track: StressTrack, kind: str, effect_die: int) -> StressTrack:
    """Apply a successful recovery action's effect die to a stress die.

    The effect die smaller than the stress die steps it down once; equal or larger, twice
    (RULES.md Decision on the seed's overlapping wording; the seed's example: d10 stress,
    d6 effect -> d8; d10 or better -> d6). Stepped down below d4 it is removed. A stressed
    out character so treated is back in action (Shahquest wiki, Stress and Trauma).

    Args:
        track: the current track.
        kind: the stress type.
        effect_die: the recovery action's effect die (4-12).

    Returns:
        The new :class:`StressTrack`; trauma is unchanged.

    Raises:
        RuleError: no stress of that type, a bad die, or a character taken out.
    """
    _check_step_die(effect_die, "the recovery effect die", _STRESS)
    line = track.line(kind)
    if line.taken_out:
        raise RuleError(f"the character was taken out by {kind} trauma", _rule(_STRESS_OUT))
    if line.stress is None:
        raise RuleError(f"there is no {kind} stress to recover", _rule(_STRESS))
    steps = 1 if effect_die < line.stress else 2
    stress = _dice.step_down(line.stress, steps)
    return track.with_line(kind, replace(line, stress=stress, stressed_out=False))


def recover_trauma(track: StressTrack, kind: str, effect_die: int) -> StressTrack:
    """Apply a successful trauma recovery action's effect die to a trauma die.

    "An Effect equal to or less than the Trauma die Steps Down the Trauma die ... an Effect
    greater than the Trauma die Steps Down the Trauma die twice" (Shahquest wiki, Stressing
    Out and Trauma); note equality steps once here but twice for stress (RULES.md Decision).
    Below d4 the trauma is removed. Each attempt takes the downtime of
    :func:`trauma_recovery_time`.

    Args:
        track: the current track.
        kind: the trauma type.
        effect_die: the recovery action's effect die (4-12).

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: no trauma of that type, a bad die, or a character taken out.
    """
    _check_step_die(effect_die, "the recovery effect die", _STRESS_OUT)
    line = _trauma_line(track, kind)
    assert line.trauma is not None
    steps = 1 if effect_die <= line.trauma else 2
    return track.with_line(kind, replace(line, trauma=_dice.step_down(line.trauma, steps)))


def _trauma_line(track: StressTrack, kind: str) -> StressLine:
    line = track.line(kind)
    if line.taken_out:
        raise RuleError(
            f"the character was taken out by {kind} trauma and cannot recover",
            _rule(_STRESS_OUT),
        )
    if line.trauma is None:
        raise RuleError(f"there is no {kind} trauma to recover", _rule(_STRESS_OUT))
    return line


def downtime_recovery(
    track: StressTrack, *, stress: Sequence[str] = (), trauma: str = ""
) -> StressTrack:
    """Spend one plot point during downtime to step down stress or trauma.

    One plot point steps down any two stress dice, or one stress die by two steps, OR steps
    down a trauma die (Shahquest wiki, During Downtime, you may spend a Plot Point to...; a
    trauma die only after the time of :func:`trauma_recovery_time`, Stressing Out and
    Trauma). Stepped below d4 a die is removed; a stressed-out type stepped down is back in
    action.

    Args:
        track: the current track.
        stress: two different stress types (each steps down once), or one type (steps down
            twice); empty when stepping down trauma.
        trauma: the trauma type to step down once, or "".

    Returns:
        The new :class:`StressTrack`.

    Raises:
        RuleError: both or neither option chosen, more than two stress types, a type with no
            die to step down, or a character taken out.
    """
    rule = _rule(_DOWNTIME)
    if bool(stress) == bool(trauma):
        raise RuleError(
            "one plot point steps down two stress dice, one stress die by two steps, or one "
            "trauma die: choose one of these",
            rule,
        )
    if trauma:
        line = _trauma_line(track, trauma)
        assert line.trauma is not None
        return track.with_line(trauma, replace(line, trauma=_dice.step_down(line.trauma)))
    if len(stress) > 2:
        raise RuleError(
            f"one plot point steps down at most two stress dice, not {len(stress)}", rule
        )
    steps = dict.fromkeys(stress, 0)
    for kind in stress:
        steps[kind] += 1
    if len(steps) == 1:
        steps = dict.fromkeys(steps, 2)
    for kind, count in steps.items():
        line = track.line(kind)
        if line.taken_out:
            raise RuleError(f"the character was taken out by {kind} trauma", rule)
        if line.stress is None:
            raise RuleError(f"there is no {kind} stress die to step down", rule)
        track = track.with_line(
            kind, replace(line, stress=_dice.step_down(line.stress, count), stressed_out=False)
        )
    return track


def trauma_recovery_time(trauma_die: int) -> str:
    """Downtime required for each attempt to recover from a trauma die, e.g. "1 week".

    d4 1 day, d6 3 days, d8 1 week, d10 1 month, d12 6 months (Shahquest wiki, Stressing Out
    and Trauma).

    Raises:
        RuleError: not a step die.
    """
    _check_step_die(trauma_die, "the trauma die", _STRESS_OUT)
    return TRAUMA_RECOVERY_TIME[trauma_die]


# ---------------------------------------------------------------------------------------------
# Tension pool: Shahquest wiki, Tension Pool
# ---------------------------------------------------------------------------------------------

STARTING_TENSION: tuple[int, ...] = (6, 6, 6)
"""The tension pool "usually starts at 3d6" (Shahquest wiki, Tension Pool)."""


@dataclass(frozen=True)
class TensionPool:
    """The GM's tension pool: tension dice, largest first (Shahquest wiki, Tension Pool).

    Attributes:
        dice: die sizes, e.g. ``(6, 6, 6)``; :meth:`start` builds one.
    """

    dice: tuple[int, ...] = STARTING_TENSION

    def __post_init__(self) -> None:
        for size in self.dice:
            _check_step_die(size, "a tension die", _TENSION)
        object.__setattr__(self, "dice", tuple(sorted(self.dice, reverse=True)))

    @classmethod
    def start(cls, dice: str | Sequence[int] = STARTING_TENSION) -> TensionPool:
        """A new tension pool: 3d6 unless a challenging adventure steps up or spreads it.

        Args:
            dice: notation ("3d6", "d8 3d6") or sizes.

        Raises:
            RuleError: bad notation or a die that is not a step die.
        """
        sizes = parse_dice(dice) if isinstance(dice, str) else tuple(dice)
        return cls(dice=sizes)

    def describe(self) -> str:
        """One line for the GM, e.g. "Tension pool: d8 3d6" or "Tension pool: empty"."""
        return f"Tension pool: {format_dice(self.dice) or 'empty'}"

    def as_dict(self) -> dict[str, object]:
        """``{"system": "shahquest", "tension_pool": [8, 6, 6, 6]}``; see :meth:`from_dict`."""
        return {"system": SYSTEM, "tension_pool": list(self.dice)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TensionPool:
        """Rebuild a pool stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field or a die that is not a step die.
        """
        return cls(dice=Stored(data, _rule(_TENSION)).ints("tension_pool"))

    def activate_opportunity(self, step_up: int | None = None, *, add: int = 6) -> TensionPool:
        """The GM activates one opportunity die: add a d6, or step up one tension die.

        "When the GM activates an Opportunity die, he adds a d6 to the Tension Pool or Steps
        Up a Tension die" (Shahquest wiki, Building the Tension). Call once per opportunity
        activated (the player gets a plot point for each). **Decision:** the Dice Pools
        example instead adds the opportunity die itself ("add the d8 into the Tension
        Pool"), so the die added may be given; it defaults to the d6.

        Args:
            step_up: None to add a die; else the size of the tension die to step up.
            add: the size of the die added when not stepping up (default 6).

        Returns:
            The new :class:`TensionPool`.

        Raises:
            RuleError: no tension die of that size, or a d12 (it cannot step up).
        """
        if step_up is None:
            _check_step_die(add, "the tension die added", _BUILDING_TENSION)
            return TensionPool(dice=(*self.dice, add))
        remaining = self._without(step_up, _BUILDING_TENSION)
        stepped = _dice.step_up(step_up)
        if stepped is None:
            raise RuleError("a d12 tension die cannot be stepped up", _rule(_BUILDING_TENSION))
        return TensionPool(dice=(*remaining, stepped))

    def _without(self, size: int, section: str) -> tuple[int, ...]:
        _check_step_die(size, "the tension die", section)
        if size not in self.dice:
            raise RuleError(
                f"there is no d{size} in the tension pool ({format_dice(self.dice) or 'empty'})",
                _rule(section),
            )
        dice = list(self.dice)
        dice.remove(size)
        return tuple(dice)

    def take(self, size: int) -> TensionPool:
        """Remove one tension die, to add it to an NPC's pool or to spend it on effort or
        effect by matching a die of the same size (Shahquest wiki, Using the Tension Pool).

        Args:
            size: the die size to take out.

        Returns:
            The pool without that die (pass the size to :func:`build_pool`'s
            ``tension_dice`` for an NPC roll).

        Raises:
            RuleError: no such die in the pool.
        """
        return TensionPool(dice=self._without(size, _USING_TENSION))

    def give_back(self, size: int, *, opportunity_activated: bool = False) -> TensionPool:
        """Return a used tension die to the pool; the GM gives the player a plot point.

        Not allowed when "the die rolled an Opportunity and the Player activated that
        Opportunity" (Shahquest wiki, Using the Tension Pool).

        Args:
            size: the die size returned.
            opportunity_activated: the die rolled a 1 and the player activated it.

        Returns:
            The pool with the die back.

        Raises:
            RuleError: the opportunity was activated, or the size is not a step die.
        """
        _check_step_die(size, "the tension die", _USING_TENSION)
        if opportunity_activated:
            raise RuleError(
                f"the d{size} rolled an opportunity the player activated, so it cannot return "
                "to the tension pool",
                _rule(_USING_TENSION),
            )
        return TensionPool(dice=(*self.dice, size))

    def danger_pool(
        self, *, setting_die: int | None = None, complications: Sequence[int] = ()
    ) -> DicePool:
        """The pool the GM rolls as general danger: every tension die, the setting die and
        any complication dice (Shahquest wiki, Tension Pool as General Danger; A Complication
        "is added as a die to Tension Pool rolls in addition to any Setting die").

        Args:
            setting_die: the GM's setting die (sides, d4-d12), or ``None``.
            complications: the sides of each complication die in play.

        Returns:
            A :class:`DicePool` costing no plot points, ready for :func:`roll`.

        Raises:
            RuleError: an empty pool or a bad die.
        """
        dice = [PoolDie(size=size, source="tension", name="Tension die") for size in self.dice]
        if setting_die is not None:
            _check_step_die(setting_die, "the setting die", _DANGER)
            dice.append(PoolDie(size=setting_die, source="setting", name="Setting die"))
        for size in complications:
            _check_step_die(size, "a complication die", _DANGER)
            dice.append(PoolDie(size=size, source="complication", name="Complication"))
        if not dice:
            raise RuleError("the tension pool is empty and there is no setting die", _rule(_DANGER))
        return DicePool(dice=tuple(dice))


def roll_general_danger(
    tension: TensionPool,
    rng: Rng,
    *,
    setting_die: int | None = None,
    complications: Sequence[int] = (),
) -> RollResult:
    """Roll the whole tension pool as general danger: two dice for effort, one for effect.

    The GM rolls the tension pool plus a setting die and complication dice, and takes the
    best two for the effort total and one for the effect (:func:`best_selection`); a PC
    whose effort total is less takes stress or a complication (Shahquest wiki, Tension Pool
    as General Danger). The tension pool itself is unchanged.

    Args:
        tension: the tension pool.
        rng: the injected random source.
        setting_die: the setting die size, or None.
        complications: complication die sizes on the PC.

    Returns:
        A :class:`RollResult`.

    Raises:
        RuleError: see :meth:`TensionPool.danger_pool`.
    """
    return roll(tension.danger_pool(setting_die=setting_die, complications=complications), rng)


# ---------------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------------

MAX_ODDS_DICE = 60
"""Largest pool the odds query accepts (a guard against runaway input, not a game rule)."""


@dataclass(frozen=True)
class Odds:
    """Exact odds of a pool: the best effort total and the number of opportunities.

    Attributes:
        pool: die sizes, largest first.
        effort: ``(total, probability)`` pairs, ascending, zero probabilities left out; the
            total is the largest sum two non-1 dice make (the single non-1 face when only one
            die is not 1; 0 when every die shows 1).
        opportunities: ``(number of 1s, probability)`` pairs, ascending.
    """

    pool: tuple[int, ...]
    effort: tuple[tuple[int, Fraction], ...]
    opportunities: tuple[tuple[int, Fraction], ...]

    def effort_at_least(self, total: int) -> Fraction:
        """P(best effort total >= ``total``), e.g. the chance to beat an effort of total-1."""
        return sum((p for value, p in self.effort if value >= total), Fraction(0))

    def as_dict(self) -> dict[str, object]:
        """The command-line shape: ``{"effort": {"11": p, ...}, "opportunities": {"0": p,
        ...}}`` with float probabilities and ascending decimal-string keys."""
        return {
            "effort": {str(value): float(p) for value, p in self.effort},
            "opportunities": {str(value): float(p) for value, p in self.opportunities},
        }


def odds(pool: str | Sequence[int]) -> Odds:
    """Exact distributions of the best effort total and of the opportunities of a pool.

    Effort: dynamic programming over the dice with the state (largest, second largest non-1
    face), 0 for "none", counting outcomes as integers; the effort total of a state is their
    sum. Opportunities: the count of 1s, convolved die by die. Both are exact Fractions
    (Shahquest wiki, Dice Pools: "set aside any 1s ... select two dice and add their
    results together").

    Args:
        pool: dice notation such as "d10 2d8 d6", or die sizes.

    Returns:
        An :class:`Odds`.

    Raises:
        RuleError: bad notation, a die that is not a step die, an empty pool or more than
            :data:`MAX_ODDS_DICE` dice.
    """
    sizes = pool_from_dice(pool).sizes
    if len(sizes) > MAX_ODDS_DICE:
        raise RuleError(
            f"a pool of {len(sizes)} dice is more than the {MAX_ODDS_DICE} the odds accept",
            QUERY_RULE,
        )
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    ones = [1]
    total = 1
    for size in sizes:
        nxt: dict[tuple[int, int], int] = {}
        for (first, second), count in states.items():
            key = (first, second)
            nxt[key] = nxt.get(key, 0) + count  # the die shows 1
            for face in range(2, size + 1):
                if face > first:
                    key = (face, first)
                elif face > second:
                    key = (first, face)
                else:
                    key = (first, second)
                nxt[key] = nxt.get(key, 0) + count
        states = nxt
        shifted = [0, *ones]
        ones = [(size - 1) * a + b for a, b in zip([*ones, 0], shifted, strict=True)]
        total *= size
    effort: dict[int, int] = {}
    for (first, second), count in states.items():
        effort[first + second] = effort.get(first + second, 0) + count
    return Odds(
        pool=sizes,
        effort=tuple(
            (value, Fraction(count, total)) for value, count in sorted(effort.items()) if count
        ),
        opportunities=tuple(
            (value, Fraction(count, total)) for value, count in enumerate(ones) if count
        ),
    )


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        name="pool",
        kind=str,
        default=None,
        help='the dice pool in step-dice notation, e.g. "d10 2d8 d6"',
    ),
)
"""Parameters of the Shahquest odds query (``--pool``)."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query: ``{"pool": "d10 2d8 d6"}`` -> :meth:`Odds.as_dict`.

    Raises:
        RuleError: an unknown or mistyped key, a missing pool, or a bad pool (see
            :func:`odds`).
    """
    values = read_query(query, ODDS_PARAMETERS)
    pool = values["pool"]
    assert isinstance(pool, str)
    return odds(pool).as_dict()


# ---------------------------------------------------------------------------------------------
# NPC quick roll: Shahquest wiki, Dice Pools / Dice, Step Up, Step Down, and Spreads
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "d10 2d8 d6",
    "2d8 d6",
    "d12 d10 d4",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

QUICK_ROLL_MAX_DICE = MAX_ODDS_DICE
"""Most dice in a quick roll, the same guard as the odds (a typing mistake, not a rule)."""

_QUICK_TERM = re.compile(r"(\d*)d(\d+)")
_QUICK_SPACED_COUNT = re.compile(r"(?<!\w)(\d+)\s+(?=d\d)")


def quick_roll(text: str) -> DicePool:
    """Parse the GM's NPC quick roll, e.g. "d10 2d8 d6", into a dice pool.

    Dice notation as :func:`rulesets.dice.parse_dice` reads it (Shahquest wiki, Dice, Step
    Up, Step Down, and Spreads): terms ``[count]d<sides>`` separated by spaces, commas or
    ``+``, any case, "2 d8" read as "2d8"; step dice only (d4, d6, d8, d10, d12); 1 to
    :data:`QUICK_ROLL_MAX_DICE` dice. An NPC's pool is the dice the GM names (Shahquest wiki,
    Dice Pools), so nothing is spent or earned: the pool is :func:`pool_from_dice`'s.
    **Decision:** a flat number ("d8+1") is refused, as Shahquest pools have no modifiers.

    Args:
        text: the notation, e.g. ``"d10 2d8 d6"``; at most :data:`QUICK_ROLL_MAX_LENGTH`
            characters.

    Returns:
        A :class:`DicePool` (dice largest first, source "dice") that :func:`roll` accepts.

    Raises:
        RuleError: empty or over-long text, a term that is not dice notation, a count of 0,
            a die that is not a step die, or more than :data:`QUICK_ROLL_MAX_DICE` dice; the
            message quotes the term, e.g. "'d7': d7 is not a step die (d4, d6, d8, d10,
            d12)".
    """
    rule = _rule(_POOLS)
    example = QUICK_ROLL_EXAMPLES[0]
    check_length(text, max_length=QUICK_ROLL_MAX_LENGTH, example=example, rule=rule)
    clean = " ".join(_QUICK_SPACED_COUNT.sub(r"\1", text.lower()).split())
    terms = [term for term in re.split(r"[\s,+]+", clean) if term]
    if not terms:
        raise RuleError(f"the quick roll is empty: write e.g. {example!r}", rule)
    total = 0
    for term in terms:
        match = _QUICK_TERM.fullmatch(term)
        if match is None:
            hint = " (a pool has dice only, no flat numbers)" if term.isdigit() else ""
            raise RuleError(f"{term!r} is not understood{hint}: write e.g. {example!r}", rule)
        count = int(match.group(1) or "1")
        size = int(match.group(2))
        if size not in STEP_DICE:
            sizes = ", ".join(_die(s) for s in STEP_DICE)
            raise RuleError(f"{term!r}: d{size} is not a step die ({sizes})", _rule(_STEPS))
        if count < 1:
            raise RuleError(f"{term!r} has no dice: write e.g. {example!r}", rule)
        total += count
    if total > QUICK_ROLL_MAX_DICE:
        raise RuleError(
            f"{clean!r} is {total} dice: a quick roll takes at most {QUICK_ROLL_MAX_DICE}", rule
        )
    return pool_from_dice(clean)


# ---------------------------------------------------------------------------------------------
# Advancement: not in the seed (RULES.md: "Unknown"); a house rule, documented in
# docs/systems/shahquest.md
# ---------------------------------------------------------------------------------------------

ADVANCEABLE_TYPES: tuple[str, ...] = ("attribute", "skill", "power_set")
"""Feature types whose die XP steps up (**Decision**: the seed has no advancement rules;
affiliations stay d4, d6 and d8 once each, a quirk is always a d8, resources, assets and
stress are bought or made in play, not with XP)."""

SPECIALIZATION_COST = 5
"""XP a new specialization of a skill costs (**Decision**, see :data:`ADVANCEABLE_TYPES`)."""

ADVANCEMENT_RULE = "House rule, Shahquest advancement (docs/systems/shahquest.md)"
"""The rule cited by advancement refusals: ours, not the seed's."""


def step_up_cost(die: int) -> int:
    """XP to step a feature's die up once: the new die's size (**Decision**: the seed has no
    advancement rules; a d6 -> d8 costs 8 XP, so each step costs more than the last and the
    whole ladder d4 -> d12 costs 6 + 8 + 10 + 12 = 36 XP).

    Args:
        die: the current die size (4-10).

    Returns:
        The price in XP.

    Raises:
        RuleError: not a step die, or a d12 (the largest die; it cannot step up).
    """
    _check_step_die(die, "the die to step up", _STEPS)
    stepped = _dice.step_up(die)
    if stepped is None:
        raise RuleError("a d12 is the largest die and cannot step up", ADVANCEMENT_RULE)
    return stepped
