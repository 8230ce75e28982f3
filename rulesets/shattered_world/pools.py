"""Pool building: the die a character rolls against a target number, with its modifiers and
multipliers (Shattered World Core Engine, The Core Mechanic / Action Dice and Field Role Dice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _CORE, _DICE, SYSTEM
from rulesets.shattered_world.chart import (
    ACTION_DIE_START,
    DIE_CHART,
    _chart_index,
    check_chart,
    field_role_die,
)
from rulesets.shattered_world.readings import (
    MULTIPLIER_ORDERS,
    SEED_READINGS,
    ZERO_RULES,
    ShatteredWorldReadings,
)
from rulesets.shattered_world.totals import final_factor, format_multipliers, parse_multipliers
from rulesets.stored import Stored

DIE_KINDS: tuple[str, ...] = ("action die", "field role die")
"""What a pool rolls: the action die (AD) or the field role die (FRD)."""


def _check_int(value: object, what: str, rule: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError(f"{what} must be a whole number, not {value!r}", rule)
    return value


def _check_target(target: int) -> int:
    _check_int(target, "the target number", _CORE)
    if target < 1:
        raise RuleError(f"target number {target} must be 1 or more", _CORE)
    return target


@dataclass(frozen=True, kw_only=True)
class ActionPool:
    """One die ready to roll against a target number, with everything the roll needs.

    Built by :func:`build_pool`; keyword-only.

    Attributes:
        die: the die size rolled, e.g. 8 for a d8.
        die_kind: "action die" or "field role die".
        target: the target number (>= 1).
        modifiers: every relevant +/- modifier, all stacking, e.g. ``(2, 1)``.
        multipliers: the ×/÷ modifiers in notation, e.g. ``"x2 x2"`` (``""`` for none).
        action: what is attempted, e.g. "Resist Toxins" (may be empty).
        notes: why the pool looks as it does, e.g. "human: always the field role die".
        multiplier_order: how the ×/÷ modifiers combine, :data:`MULTIPLIER_ORDERS`
            ("any_order", the ladder of docs/rules.md, unless the campaign reads them
            "as_written"; :func:`final_factor`).
        zero_becomes_one: which totals of 0 become 1, :data:`ZERO_RULES` ("every_total",
            unless the campaign reads it "divisions_only"; :func:`total`).

    The last two are the campaign's table readings (:mod:`rulesets.shattered_world.readings`),
    stored (:meth:`as_dict`) only when they differ from the seed's reading, so a pool built
    under the seed's readings stores what it always stored, and a stored roll is resolved
    again under the readings it was made under.

    Source: Shattered World Core Engine, The Core Mechanic.
    """

    die: int
    die_kind: str
    target: int
    modifiers: tuple[int, ...] = ()
    multipliers: str = ""
    action: str = ""
    notes: tuple[str, ...] = field(default=())
    multiplier_order: str = MULTIPLIER_ORDERS[0]
    zero_becomes_one: str = ZERO_RULES[0]

    @property
    def modifier(self) -> int:
        """The sum of every +/- modifier (they all stack)."""
        return sum(self.modifiers)

    @property
    def factor(self) -> Fraction:
        """The final ×/÷ factor (:func:`final_factor`, in the pool's :attr:`multiplier_order`)."""
        return final_factor(self.multipliers, self.multiplier_order)

    def describe(self) -> str:
        """One line for the UI, e.g. "Resist Toxins: field role die d8 +3 x2, target 9"."""
        text = f"{self.die_kind} d{self.die}"
        if self.modifiers:
            text += f" {self.modifier:+d}"
        if self.multipliers:
            text += f" {self.multipliers}"
        text += f", target {self.target}"
        return f"{self.action}: {text}" if self.action else text[0].upper() + text[1:]

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict (tuples become lists); see :meth:`from_dict`."""
        return {
            "system": SYSTEM,
            "die": self.die,
            "die_kind": self.die_kind,
            "target": self.target,
            "modifiers": list(self.modifiers),
            "multipliers": self.multipliers,
            "action": self.action,
            "notes": list(self.notes),
            **({} if self.multiplier_order == MULTIPLIER_ORDERS[0]
               else {"multiplier_order": self.multiplier_order}),
            **({} if self.zero_becomes_one == ZERO_RULES[0]
               else {"zero_becomes_one": self.zero_becomes_one}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ActionPool:
        """Rebuild a pool stored with :meth:`as_dict`.

        A pool stored before the table readings holds neither ``multiplier_order`` nor
        ``zero_becomes_one``, and reads as the seed's readings.

        Raises:
            RuleError: a missing or mistyped field, an unknown die kind, a die below 2 sides,
                a target below 1, bad multiplier notation or an unknown reading.
        """
        stored = Stored(data, _CORE)
        die_kind = stored.str("die_kind")
        if die_kind not in DIE_KINDS:
            raise RuleError(f"unknown die kind {die_kind!r}", _DICE)
        die = stored.int("die")
        if die < 2:
            raise RuleError(f"stored die d{die} needs at least 2 sides", _DICE)
        multipliers = stored.str("multipliers")
        order = (stored.str("multiplier_order") if "multiplier_order" in data
                 else MULTIPLIER_ORDERS[0])
        zero = stored.str("zero_becomes_one") if "zero_becomes_one" in data else ZERO_RULES[0]
        if order not in MULTIPLIER_ORDERS or zero not in ZERO_RULES:
            raise RuleError(f"unknown table reading {order!r} or {zero!r}", _CORE)
        return cls(
            die=die,
            die_kind=die_kind,
            target=_check_target(stored.int("target")),
            modifiers=stored.ints("modifiers"),
            multipliers=format_multipliers(parse_multipliers(multipliers)),
            action=stored.str("action"),
            notes=stored.strs("notes"),
            multiplier_order=order,
            zero_becomes_one=zero,
        )


def build_pool(
    *,
    target: int,
    action_die: int = ACTION_DIE_START,
    field_role_die: int | None = None,
    field_role_action: bool = False,
    human: bool = False,
    modifiers: Sequence[int] = (),
    multipliers: str = "",
    action: str = "",
    chart: Sequence[int] = DIE_CHART,
    readings: ShatteredWorldReadings = SEED_READINGS,
) -> ActionPool:
    """Build the pool for an action from a character's dice and the situation.

    The character rolls the action die, or the field role die for an action of its field
    role; humans always roll the field role die ("all rolls for humans are FRD"). Every +/-
    modifier stacks (a class or proficiency bonus such as Resist Toxins is added to the base
    modifier); the ×/÷ modifiers combine by :func:`final_factor`. The campaign's table
    readings set how they combine (``multiplier_order``) and which totals of 0 become 1
    (``zero_becomes_one``; :mod:`rulesets.shattered_world.readings`); a note says so where the
    reading can change this pool's total.

    Args:
        target: the target number, >= 1.
        action_die: the character's action die size, on ``chart`` (default d4).
        field_role_die: the character's field role die size, on ``chart``; None derives it
            from the action die with :func:`field_role_die` (d8 for a d4).
        field_role_action: the action is one the character's field role excels at.
        human: the character is human (always the field role die).
        modifiers: every relevant +/- modifier, e.g. ``(2, 1)``.
        multipliers: ×/÷ notation, e.g. ``"x2 x2"`` or ``"x3 /2"``.
        action: what is attempted, for the roll log (may be empty).
        chart: the campaign's die chart (default :data:`DIE_CHART`).
        readings: the campaign's table readings (the seed's by default).

    Returns:
        An :class:`ActionPool`.

    Raises:
        RuleError: a die not on the chart, a target below 1, a modifier that is not a whole
            number, or bad multiplier notation.

    Source: Shattered World Core Engine, The Core Mechanic; Action Dice and Field Role Dice.
    """
    sizes = check_chart(chart)
    _chart_index(action_die, sizes)
    frd = field_role_die if field_role_die is not None else _frd_for(action_die, sizes)
    _chart_index(frd, sizes)
    _check_target(target)
    for modifier in modifiers:
        _check_int(modifier, "a modifier", _CORE)
    notation = format_multipliers(parse_multipliers(multipliers))
    notes: list[str] = []
    if human:
        notes.append("human: always the field role die")
    elif field_role_action:
        notes.append("field role action: the field role die")
    use_frd = human or field_role_action
    die = frd if use_frd else action_die
    notes.extend(_reading_notes(die, sum(modifiers), notation, readings))
    return ActionPool(
        die=die,
        die_kind="field role die" if use_frd else "action die",
        target=target,
        modifiers=tuple(modifiers),
        multipliers=notation,
        action=action,
        notes=tuple(notes),
        multiplier_order=readings.multiplier_order,
        zero_becomes_one=readings.zero_becomes_one,
    )


def _reading_notes(die: int, modifier: int, multipliers: str,
                   readings: ShatteredWorldReadings) -> list[str]:
    """The notes of the table readings at work on a pool: the factor as written, where the
    ladder would give another; a total of 0 that stays 0, where a face of 2 or more can
    make one."""
    notes = []
    factor = final_factor(multipliers, readings.multiplier_order)
    if factor != final_factor(multipliers):
        notes.append(f"{multipliers} in the order written: final factor {_factor_text(factor)}"
                     " (table reading)")
    if readings.zero_becomes_one != ZERO_RULES[0] and factor >= 1 and 2 <= -modifier <= die:
        notes.append("A total of 0 stays 0: only a divided total becomes 1 (table reading)")
    return notes


def _factor_text(factor: Fraction) -> str:
    """"×3", "÷2" or "×5/2"."""
    if factor.denominator == 1:
        return f"×{factor.numerator}"
    if factor.numerator == 1:
        return f"÷{factor.denominator}"
    return f"×{factor.numerator}/{factor.denominator}"


def _frd_for(action_die_size: int, chart: Sequence[int]) -> int:
    return field_role_die(action_die_size, chart)
