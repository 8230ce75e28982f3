"""Shahquest's dice pools: features, the pool built from them with its plot-point cost, a
plain pool of dice, and the character's affiliation dice (Shahquest wiki, Dice Pools / Feature
Types / Plot Points; Affiliations).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from rulesets import dice as _dice
from rulesets.dice import format_dice, parse_dice
from rulesets.errors import RuleError
from rulesets.shahquest.catalogue import (
    _AFFILIATIONS,
    _FEATURE_TYPES_SECTION,
    _OWN_STRESS,
    _POOLS,
    _QUIRK,
    _STEPS,
    _STRESS,
    _USING_TENSION,
    AFFILIATION_DICE,
    AFFILIATIONS,
    FEATURE_TYPES,
    NEGATIVE_QUIRK_DIE,
    NO_EFFECT_DIE,
    OTHER_DIE_SOURCES,
    PUSH_DIE,
    QUIRK_DIE,
    SPECIALIZATION_USES,
    STRESS_TYPES,
    _check_step_die,
    _check_stress_type,
    _die,
    _plural,
    _rule,
)
from rulesets.shahquest.readings import SEED_READINGS, ShahquestReadings
from rulesets.stored import Stored

NO_EFFECT_NOTE = "No effect die when no die is left after the effort total (table reading)"
"""The pool note under the table reading ``effect_die_default="no_effect"``."""


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
        no_effect_die: the effect die's size when no die is left for it after the effort
            total: :data:`NO_EFFECT_DIE` (4, the RULES.md decision), or None for no effect die
            under the campaign's table reading ``effect_die_default="no_effect"``
            (:mod:`rulesets.shahquest.readings`; set by :meth:`under`).
    """

    dice: tuple[PoolDie, ...]
    plot_points_spent: int = 0
    plot_points_earned: int = 0
    stress_step_up: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    no_effect_die: int | None = NO_EFFECT_DIE

    def under(self, readings: ShahquestReadings) -> DicePool:
        """This pool as the campaign's table ``readings`` roll it: with their effect die for
        when no die is left (:attr:`ShahquestReadings.no_effect_die`), and a note saying so
        when it is not the default d4. The same pool when nothing changes."""
        if readings.no_effect_die == self.no_effect_die:
            return self
        notes = tuple(note for note in self.notes if note != NO_EFFECT_NOTE)
        if readings.no_effect_die is None:
            notes = (*notes, NO_EFFECT_NOTE)
        return replace(self, no_effect_die=readings.no_effect_die, notes=notes)

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
        "plot_points_spent", "plot_points_earned", "stress_step_up", "notes"; and
        "no_effect_die": null only under the table reading of no effect die (absent, the
        default d4, so a pool stored before readings existed reads as it was made).
        """
        # Stored only away from the default: every earlier roll's pool stays byte-identical.
        reading = {} if self.no_effect_die == NO_EFFECT_DIE else {"no_effect_die": None}
        return {**reading,
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
            RuleError: a missing or mistyped field, a die that is not a step die, an
                unknown die source or stress type, or a ``no_effect_die`` other than null
                or 4.
        """
        stored = Stored(data, _rule(_POOLS))
        no_effect_die = data.get("no_effect_die", NO_EFFECT_DIE)
        if no_effect_die is not None and (type(no_effect_die) is not int
                                          or no_effect_die != NO_EFFECT_DIE):
            raise RuleError(f"no_effect_die must be null or {NO_EFFECT_DIE}, not "
                            f"{no_effect_die!r}", _rule(_POOLS))
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
            no_effect_die=None if no_effect_die is None else NO_EFFECT_DIE,
        )


def build_pool(
    features: Sequence[Feature],
    *,
    push_die: bool = False,
    stepped_up_push_die: bool = False,
    setting_die: int | None = None,
    tension_dice: Sequence[int] = (),
    plot_points: int | None = None,
    readings: ShahquestReadings = SEED_READINGS,
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
    - the pool holds at least one die;
    - the campaign's table ``readings`` give the effect die when no die is left for it
      (:meth:`DicePool.under`).

    Args:
        features: the features used, e.g. ``[Feature(type="attribute", name="Coordination",
            die=10), ...]``.
        push_die: buy a push die (d6) with a plot point.
        stepped_up_push_die: add the stepped up push die (d8) bought on a GM's opportunity.
        setting_die: the GM's setting die size (4-12), or None.
        tension_dice: sizes of tension dice moved into an NPC pool (see
            :meth:`TensionPool.take`).
        plot_points: the plot points the character has; None skips the check.
        readings: the campaign's table readings (the seed's by default).

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
    ).under(readings)


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
