"""Rules engine for Shattered World, "Core Engine" (Alpha v6.0.0, Thorin Teague).

The seed text (``seeds/003_28cde41ac6ec4075.txt``, cited below as "Shattered World Core
Engine, <section>") is the authority; /work/shared/RULES.md section 3 summarises it and settles
its gaps with **Decision** lines (the die chart, the ``N/xM`` cost notation). Where both are
silent, the decision taken is written in the docstring of the function concerned.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: die sizes as ints (8 for a d8), target numbers and totals
as ints, XP (experience points; one achievement is one XP), statistic points. Every rule
violation raises :class:`RuleError`, whose message a player can read and whose ``rule`` names
the seed section.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.notation import split_clauses
from rulesets.query import Parameter, read_query
from rulesets.stored import Stored

SOURCE = "Shattered World Core Engine"
"""Prefix of every rule citation."""

SYSTEM = "shattered_world"
"""The slug stored in every serialised pool and roll."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_CORE = _rule("The Core Mechanic")
_DICE = _rule("Action Dice and Field Role Dice")
_STANDARD = _rule("Standard Success")
_BUY_INS = _rule("Achievements and Buy-Ins")
_UNIVERSAL_BUY_INS = _rule("Universal Buy-Ins")
_ACHIEVEMENTS = _rule("Universal Achievements")
_INITIATIVE = _rule("Initiative Order")
_STATISTICS = _rule("Mechanical (Non-Roleplay) Actions")


# ---------------------------------------------------------------------------------------------
# The die chart: Shattered World Core Engine, Action Dice and Field Role Dice
# ---------------------------------------------------------------------------------------------

DIE_CHART: tuple[int, ...] = (4, 6, 8, 10, 12, 20)
"""The default die chart, smallest first: d4, d6, d8, d10, d12, d20.

The seed's own table ("Buy-in AD FRD Notes") is missing from every copy; RULES.md section 3
**Decision**: the chart is data, this default, editable per campaign (pass ``chart=``)."""

FIELD_ROLE_OFFSET = 2
"""Slots between the action die and the field role die on the chart: d4 -> d8 at the start.

RULES.md section 3 **Decision**: "FRD starting at d8" on the default chart, two slots above
the d4 action die. Both dice move together along the chart as the action die is bought up."""

ACTION_DIE_START = DIE_CHART[0]
"""The action die (AD) a career starts with: a d4 (Shattered World Core Engine, The Core
Mechanic)."""

FIELD_ROLE_DIE_START = DIE_CHART[FIELD_ROLE_OFFSET]
"""The field role die (FRD) a career starts with: a d8 (Shattered World Core Engine, Action
Dice and Field Role Dice; RULES.md section 3)."""


def check_chart(chart: Sequence[int]) -> tuple[int, ...]:
    """Check a campaign's die chart and return it as a tuple.

    Args:
        chart: die sizes smallest first, e.g. ``(4, 6, 8, 10, 12, 20)``.

    Returns:
        The chart as a tuple of ints.

    Raises:
        RuleError: an empty chart, a size below 2 (or not a whole number), or sizes not
            strictly increasing; the message names the bad size.

    Source: Shattered World Core Engine, Action Dice and Field Role Dice (RULES.md section 3
    Decision: the chart is data, editable per campaign).
    """
    sizes = tuple(chart)
    if not sizes:
        raise RuleError("the die chart is empty: give die sizes such as 4, 6, 8", _DICE)
    for size in sizes:
        if not isinstance(size, int) or isinstance(size, bool) or size < 2:
            raise RuleError(f"die size {size!r} on the chart must be 2 or more", _DICE)
    for smaller, larger in zip(sizes, sizes[1:], strict=False):
        if larger <= smaller:
            raise RuleError(f"the die chart must grow: d{larger} cannot follow d{smaller}", _DICE)
    return sizes


def _chart_index(size: int, chart: Sequence[int]) -> int:
    sizes = check_chart(chart)
    if size not in sizes:
        allowed = ", ".join(f"d{s}" for s in sizes)
        raise RuleError(f"d{size} is not on the die chart ({allowed})", _DICE)
    return sizes.index(size)


def step_up(size: int, steps: int = 1, chart: Sequence[int] = DIE_CHART) -> int:
    """The die ``steps`` slots further up the chart (d4 -> d6 -> ... -> d20 by default).

    Args:
        size: a die size on ``chart``, e.g. 8 for a d8.
        steps: slots to move, >= 0.
        chart: the campaign's die chart (default :data:`DIE_CHART`).

    Returns:
        The new die size, e.g. ``step_up(12) == 20``.

    Raises:
        RuleError: ``size`` is not on the chart, ``steps`` is negative, or the step goes past
            the largest die of the chart.

    Source: Shattered World Core Engine, Action Dice and Field Role Dice.
    """
    if steps < 0:
        raise RuleError(f"cannot step up by {steps} slots", _DICE)
    sizes = check_chart(chart)
    index = _chart_index(size, sizes) + steps
    if index >= len(sizes):
        raise RuleError(
            f"d{size} cannot step up {steps} slot{'s' if steps != 1 else ''}: "
            f"d{sizes[-1]} is the largest die on the chart",
            _DICE,
        )
    return sizes[index]


def step_down(size: int, steps: int = 1, chart: Sequence[int] = DIE_CHART) -> int:
    """The die ``steps`` slots further down the chart (d20 -> d12 -> ... -> d4 by default).

    Args:
        size: a die size on ``chart``.
        steps: slots to move, >= 0.
        chart: the campaign's die chart (default :data:`DIE_CHART`).

    Returns:
        The new die size, e.g. ``step_down(20) == 12``.

    Raises:
        RuleError: ``size`` is not on the chart, ``steps`` is negative, or the step goes below
            the smallest die of the chart (Shattered World never removes a die).

    Source: Shattered World Core Engine, Action Dice and Field Role Dice.
    """
    if steps < 0:
        raise RuleError(f"cannot step down by {steps} slots", _DICE)
    sizes = check_chart(chart)
    index = _chart_index(size, sizes) - steps
    if index < 0:
        raise RuleError(
            f"d{size} cannot step down {steps} slot{'s' if steps != 1 else ''}: "
            f"d{sizes[0]} is the smallest die on the chart",
            _DICE,
        )
    return sizes[index]


def action_die(level: int = 0, chart: Sequence[int] = DIE_CHART) -> int:
    """The action die (AD) after ``level`` action-die buy-ins.

    Args:
        level: action-die buy-ins taken, >= 0; level 0 is the starting die.
        chart: the campaign's die chart (default :data:`DIE_CHART`).

    Returns:
        The die size: ``chart[level]``, a d4 at level 0 on the default chart.

    Raises:
        RuleError: a negative level, or a level past the end of the chart.

    Source: Shattered World Core Engine, The Core Mechanic ("starts at a d4").
    """
    sizes = check_chart(chart)
    if not 0 <= level < len(sizes):
        raise RuleError(
            f"action die level {level} is off the chart (levels 0 to {len(sizes) - 1})", _DICE
        )
    return sizes[level]


def field_role_die(
    action_die_size: int,
    chart: Sequence[int] = DIE_CHART,
    offset: int = FIELD_ROLE_OFFSET,
) -> int:
    """The field role die (FRD) that goes with an action die.

    The FRD is the action die moved ``offset`` slots up the chart (RULES.md section 3
    Decision: d8 for the starting d4). **Decision** (seed and RULES.md silent): when that slot
    is past the end of the chart, the FRD is the chart's largest die (d10 and d12 action dice
    both give a d20 FRD on the default chart).

    Args:
        action_die_size: the character's action die, on ``chart``.
        chart: the campaign's die chart.
        offset: slots between AD and FRD, >= 0 (default :data:`FIELD_ROLE_OFFSET`).

    Returns:
        The FRD size, e.g. ``field_role_die(4) == 8``.

    Raises:
        RuleError: the action die is not on the chart, or a negative offset.

    Source: Shattered World Core Engine, Action Dice and Field Role Dice.
    """
    if offset < 0:
        raise RuleError(f"the field role die offset {offset} cannot be negative", _DICE)
    sizes = check_chart(chart)
    index = _chart_index(action_die_size, sizes) + offset
    return sizes[min(index, len(sizes) - 1)]


# ---------------------------------------------------------------------------------------------
# Multipliers and totals: Shattered World Core Engine, The Core Mechanic (step 3)
# ---------------------------------------------------------------------------------------------

_MULTIPLIER_TOKEN = re.compile(r"([x×*/÷])\s*(\d+)")
_MULTIPLY = frozenset("x×*")


def parse_multipliers(text: str) -> tuple[int, ...]:
    """Parse multiplier notation such as ``"x2 x2"`` or ``"x3 /2"``.

    Terms are separated by spaces or commas; each is ``x<n>`` (also ``×<n>``, ``*<n>``) for a
    multiplier or ``/<n>`` (also ``÷<n>``) for a divisor, with n >= 2.

    Args:
        text: the notation; empty or blank means no multiplier.

    Returns:
        One signed int per factor, in the order given: ``+n`` for ×n, ``-n`` for ÷n, e.g.
        ``parse_multipliers("x3 /2") == (3, -2)``.

    Raises:
        RuleError: a term that is not multiplier notation, or a factor below 2; the message
            quotes the bad term.

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    factors: list[int] = []
    for term in re.split(r"[\s,]+", text.strip().lower()):
        if not term:
            continue
        match = _MULTIPLIER_TOKEN.fullmatch(term)
        if match is None:
            raise RuleError(
                f"{term!r} is not a multiplier such as 'x2' or a divisor such as '/2'", _CORE
            )
        amount = int(match.group(2))
        if amount < 2:
            raise RuleError(f"{term!r} changes nothing: a factor must be 2 or more", _CORE)
        factors.append(amount if match.group(1) in _MULTIPLY else -amount)
    return tuple(factors)


def format_multipliers(factors: Iterable[int]) -> str:
    """Multiplier notation for signed factors: ``(3, -2)`` -> ``"x3 /2"``; ``()`` -> ``""``."""
    return " ".join(f"x{f}" if f > 0 else f"/{-f}" for f in factors)


def final_factor(multipliers: str | Sequence[int]) -> Fraction:
    """The final factor of several ×/÷ modifiers.

    The seed: "After the first, every multiplier or divisor from relevant ×/÷ modifiers adds
    (divisors subtract) together to create the final factor": ×2 and ×2 give ×3; ×3 and ÷2
    give 2. So after the first factor, each further ×n adds n - 1 and each further ÷n
    subtracts n - 1.

    **Decision** (the seed gives no example with a divisor first or a factor falling to 1 or
    below): factors sit on one ladder ... ÷3, ÷2, ×1, ×2, ×3 ..., ×n at rung n - 1 and ÷n at
    rung -(n - 1), and the final factor is the rung of the sum. This reproduces both seed
    examples, is the plain product for a single factor (÷2 alone halves), does not depend on
    the order the modifiers are listed in, and keeps going below ×1 (×2 and ÷3 give ÷2; ÷2 and
    ÷2 give ÷3) instead of reaching zero or a negative factor.

    Args:
        multipliers: notation such as ``"x2 x2"`` or the signed factors of
            :func:`parse_multipliers`.

    Returns:
        The factor as a Fraction: ``Fraction(3)`` for ``"x2 x2"``, ``Fraction(1, 2)`` for
        ``"/2"``, ``Fraction(1)`` for none.

    Raises:
        RuleError: bad notation (see :func:`parse_multipliers`).

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    factors = parse_multipliers(multipliers) if isinstance(multipliers, str) else multipliers
    rung = 0
    for factor in factors:
        if abs(factor) < 2:
            raise RuleError(f"factor {factor} changes nothing: a factor must be 2 or more", _CORE)
        rung += factor - 1 if factor > 0 else factor + 1
    return Fraction(rung + 1) if rung >= 0 else Fraction(1, 1 - rung)


def round_half_up(value: Fraction | int) -> int:
    """Round "to whatever is mathematically correct": .49 or lower down, .5 or higher up.

    Args:
        value: an exact number, e.g. ``Fraction(5, 2)``.

    Returns:
        The rounded int (``floor(value + 1/2)``): 5/2 -> 3, 49/20 -> 2, -5/2 -> -2.

    The "0 results always become 1" exception is applied by :func:`total` to the final total.

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    return math.floor(Fraction(value) + Fraction(1, 2))


def total(face: int, modifier: int = 0, multipliers: str | Sequence[int] = "") -> int:
    """The final result of a roll: face plus modifiers, times the final factor, rounded.

    Steps (Shattered World Core Engine, The Core Mechanic, step 3): every +/- modifier
    stacks (pass their sum); the ×/÷ modifiers combine into :func:`final_factor`; the product
    is rounded half up; a result of 0 becomes 1. **Decision**: the factor applies to face and
    modifiers together (the seed lists the +/- modifiers before the ×/÷ ones), and "0 results
    always become 1" applies to every total, with or without a factor; negative totals stay
    negative (they can never meet a target number of 1 or more anyway).

    Args:
        face: the die face rolled (>= 1).
        modifier: the sum of every relevant +/- modifier.
        multipliers: notation such as ``"x3 /2"`` or signed factors.

    Returns:
        The total, an int, e.g. ``total(5, 2, "x2 x2") == 21``; ``total(1, 0, "/3") == 1``.

    Raises:
        RuleError: bad multiplier notation.
    """
    value = round_half_up((face + modifier) * final_factor(multipliers))
    return 1 if value == 0 else value


# ---------------------------------------------------------------------------------------------
# Pool building: Shattered World Core Engine, The Core Mechanic / Action Dice and Field Role
# Dice
# ---------------------------------------------------------------------------------------------

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

    Source: Shattered World Core Engine, The Core Mechanic.
    """

    die: int
    die_kind: str
    target: int
    modifiers: tuple[int, ...] = ()
    multipliers: str = ""
    action: str = ""
    notes: tuple[str, ...] = field(default=())

    @property
    def modifier(self) -> int:
        """The sum of every +/- modifier (they all stack)."""
        return sum(self.modifiers)

    @property
    def factor(self) -> Fraction:
        """The final ×/÷ factor (:func:`final_factor`)."""
        return final_factor(self.multipliers)

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
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ActionPool:
        """Rebuild a pool stored with :meth:`as_dict`.

        Raises:
            RuleError: a missing or mistyped field, an unknown die kind, a die below 2 sides,
                a target below 1 or bad multiplier notation.
        """
        stored = Stored(data, _CORE)
        die_kind = stored.str("die_kind")
        if die_kind not in DIE_KINDS:
            raise RuleError(f"unknown die kind {die_kind!r}", _DICE)
        die = stored.int("die")
        if die < 2:
            raise RuleError(f"stored die d{die} needs at least 2 sides", _DICE)
        multipliers = stored.str("multipliers")
        return cls(
            die=die,
            die_kind=die_kind,
            target=_check_target(stored.int("target")),
            modifiers=stored.ints("modifiers"),
            multipliers=format_multipliers(parse_multipliers(multipliers)),
            action=stored.str("action"),
            notes=stored.strs("notes"),
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
) -> ActionPool:
    """Build the pool for an action from a character's dice and the situation.

    The character rolls the action die, or the field role die for an action of its field
    role; humans always roll the field role die ("all rolls for humans are FRD"). Every +/-
    modifier stacks (a class or proficiency bonus such as Resist Toxins is added to the base
    modifier); the ×/÷ modifiers combine by :func:`final_factor`.

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
    return ActionPool(
        die=frd if use_frd else action_die,
        die_kind="field role die" if use_frd else "action die",
        target=target,
        modifiers=tuple(modifiers),
        multipliers=notation,
        action=action,
        notes=tuple(notes),
    )


def _frd_for(action_die_size: int, chart: Sequence[int]) -> int:
    return field_role_die(action_die_size, chart)


# ---------------------------------------------------------------------------------------------
# Resolving and rolling: Shattered World Core Engine, The Core Mechanic / Standard Success
# ---------------------------------------------------------------------------------------------

OUTCOMES: tuple[str, ...] = ("success", "standard success", "failure")
"""A roll's outcomes: a success on the total, an automatic standard success on the die's
highest face, or a failure."""


@dataclass(frozen=True)
class Resolution:
    """The resolved result of one die against a target number.

    Attributes:
        total: the final result (:func:`total`).
        outcome: "success" (total >= target), "standard success" (the highest face rescued a
            total below the target) or "failure".
        degree: degree of success, >= 1 on a success (the base damage), 0 on a failure.
        automatic: the face decided the outcome regardless of the total (a 1 fails; the
            highest face gives a standard success).
    """

    total: int
    outcome: str
    degree: int
    automatic: bool

    @property
    def success(self) -> bool:
        """Whether the action succeeds (a success or a standard success)."""
        return self.outcome != "failure"


def resolve(
    face: int, die: int, target: int, modifier: int = 0, multipliers: str | Sequence[int] = ""
) -> Resolution:
    """Resolve one rolled face against a target number.

    Shattered World Core Engine, The Core Mechanic and Standard Success:

    1. a 1 is a failure regardless of modifiers (there are no critical failures);
    2. otherwise the total (:func:`total`) succeeds if it equals or exceeds the target number;
       the degree of success is total - target, and a bare match counts 1 ("zero Damage
       always becomes one");
    3. the highest face is an automatic standard success (degree 1: the target "exceeded by
       1") if and only if the total would otherwise fail; a better total keeps its degree.

    Args:
        face: the face rolled, 1..die.
        die: the die size, >= 2.
        target: the target number, >= 1.
        modifier: the sum of every +/- modifier.
        multipliers: ×/÷ notation or signed factors.

    Returns:
        A :class:`Resolution`.

    Raises:
        RuleError: a die below 2 sides, a face outside 1..die, a target below 1, or bad
            multiplier notation.
    """
    if die < 2:
        raise RuleError(f"a d{die} needs at least 2 sides", _DICE)
    if not 1 <= face <= die:
        raise RuleError(f"a d{die} shows 1 to {die}, not {face}", _CORE)
    _check_target(target)
    value = total(face, modifier, multipliers)
    if face == 1:
        return Resolution(total=value, outcome="failure", degree=0, automatic=True)
    if value >= target:
        return Resolution(
            total=value, outcome="success", degree=max(1, value - target), automatic=False
        )
    if face == die:
        return Resolution(total=value, outcome="standard success", degree=1, automatic=True)
    return Resolution(total=value, outcome="failure", degree=0, automatic=False)


@dataclass(frozen=True)
class RollResult:
    """A rolled pool: the die's face and the resolution.

    Attributes:
        pool: the :class:`ActionPool` rolled.
        face: the face rolled, 1..pool.die.
        resolution: the :class:`Resolution` of that face.
    """

    pool: ActionPool
    face: int
    resolution: Resolution

    @property
    def outcome(self) -> str:
        """The outcome: "success", "standard success" or "failure"."""
        return self.resolution.outcome

    @property
    def success(self) -> bool:
        """Whether the action succeeds."""
        return self.resolution.success

    @property
    def degree(self) -> int:
        """Degree of success (>= 1), or 0 on a failure."""
        return self.resolution.degree

    @property
    def total(self) -> int:
        """The final result after modifiers and multipliers."""
        return self.resolution.total

    def summary(self) -> str:
        """One short line for the roll log.

        E.g. "Success, degree 3 (12 vs 9)", "Standard success, degree 1 (d8 showed 8)",
        "Failure (a 1)", "Failure (5 vs 9)".
        """
        resolution = self.resolution
        if resolution.outcome == "success":
            return f"Success, degree {resolution.degree} ({resolution.total} vs {self.pool.target})"
        if resolution.outcome == "standard success":
            return f"Standard success, degree 1 (d{self.pool.die} showed {self.face})"
        if resolution.automatic:
            return "Failure (a 1)"
        return f"Failure ({resolution.total} vs {self.pool.target})"

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage.

        Keys: "system" ("shattered_world"), "pool" (:meth:`ActionPool.as_dict`), "dice" (the
        one face, as a list), "total", "outcome", "success", "degree", "automatic" and
        "summary". :meth:`from_dict` rebuilds the result.
        """
        resolution = self.resolution
        return {
            "system": SYSTEM,
            "pool": self.pool.as_dict(),
            "dice": [self.face],
            "total": resolution.total,
            "outcome": resolution.outcome,
            "success": resolution.success,
            "degree": resolution.degree,
            "automatic": resolution.automatic,
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict`, recomputing the resolution.

        The outcome is recomputed from the stored face with :func:`resolve`, so a stored
        result can never disagree with the rules.

        Raises:
            RuleError: a missing or mistyped field, not exactly one die, or a face outside
                the die.
        """
        stored = Stored(data, _CORE)
        pool = ActionPool.from_dict(stored.mapping("pool"))
        dice = stored.ints("dice")
        if len(dice) != 1:
            raise RuleError(f"a Shattered World roll has one die, not {len(dice)}", _CORE)
        return cls(pool=pool, face=dice[0], resolution=_resolve_pool(pool, dice[0]))


def _resolve_pool(pool: ActionPool, face: int) -> Resolution:
    return resolve(face, pool.die, pool.target, pool.modifier, pool.multipliers)


def roll(pool: ActionPool, rng: Rng) -> RollResult:
    """Roll a pool's die and resolve it (Shattered World Core Engine, The Core Mechanic).

    Args:
        pool: the pool to roll.
        rng: the injected random source; exactly one ``rng.randint(1, pool.die)`` call.

    Returns:
        A :class:`RollResult`.
    """
    face = roll_die(rng, pool.die)
    return RollResult(pool=pool, face=face, resolution=_resolve_pool(pool, face))


def standard_success(pool: ActionPool) -> Resolution:
    """Take a standard success without rolling, where the player has that option.

    "A roll is a standard success ... when the player has the option to choose standard
    success and does not wish to roll any dice": the target is exceeded by 1, degree 1.
    Whether the option exists is the GM's call, not checked here.

    Args:
        pool: the pool that would have been rolled.

    Returns:
        A :class:`Resolution` with outcome "standard success", degree 1, total target + 1.

    Source: Shattered World Core Engine, Standard Success.
    """
    return Resolution(total=pool.target + 1, outcome="standard success", degree=1, automatic=True)


# ---------------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Odds:
    """Exact odds of one roll.

    Attributes:
        die, target, modifier, multipliers: the query (die size, target number, the sum of
            the +/- modifiers, ×/÷ notation).
        success: P(success), standard successes included, as a Fraction.
        standard_success: P(the highest face rescues a failing total).
        degrees: ``(degree, probability)`` pairs, ascending, zero probabilities left out;
            degree 0 is not listed (it is the failure).
    """

    die: int
    target: int
    modifier: int
    multipliers: str
    success: Fraction
    standard_success: Fraction
    degrees: tuple[tuple[int, Fraction], ...]

    @property
    def failure(self) -> Fraction:
        """P(failure) = 1 - P(success)."""
        return 1 - self.success

    @property
    def degree(self) -> dict[int, Fraction]:
        """The degree distribution as a dict, degree -> probability."""
        return dict(self.degrees)

    def as_dict(self) -> dict[str, object]:
        """The command-line JSON shape: ``{"success": p, "degree": {"1": p, ...}}`` (floats)."""
        return {
            "success": float(self.success),
            "degree": {str(degree): float(p) for degree, p in self.degrees},
        }


def odds(
    die: int,
    target: int,
    modifier: int = 0,
    multipliers: str = "",
    chart: Sequence[int] = DIE_CHART,
) -> Odds:
    """Exact P(success) and degree distribution of one roll.

    Each face of the die is equally likely; every face is resolved with :func:`resolve` and
    the probabilities summed exactly (Fractions). A single die has at most a few dozen faces,
    so this is both exact and fast (well under a millisecond for a d20).

    Args:
        die: the die size (4 for a d4), on ``chart``.
        target: the target number, >= 1.
        modifier: the sum of the +/- modifiers.
        multipliers: ×/÷ notation, e.g. ``"x2 x2"``.
        chart: the campaign's die chart (default :data:`DIE_CHART`).

    Returns:
        An :class:`Odds`.

    Raises:
        RuleError: a die not on the chart, a target below 1, or bad multiplier notation.

    Source: Shattered World Core Engine, The Core Mechanic; Standard Success.
    """
    _check_int(die, "the die", _DICE)
    _check_int(modifier, "the modifier", _CORE)
    _chart_index(die, chart)
    _check_target(target)
    factors = parse_multipliers(multipliers)
    each = Fraction(1, die)
    success = Fraction(0)
    standard = Fraction(0)
    degree: dict[int, Fraction] = {}
    for face in range(1, die + 1):
        resolution = resolve(face, die, target, modifier, factors)
        if not resolution.success:
            continue
        success += each
        if resolution.outcome == "standard success":
            standard += each
        degree[resolution.degree] = degree.get(resolution.degree, Fraction(0)) + each
    return Odds(
        die=die,
        target=target,
        modifier=modifier,
        multipliers=format_multipliers(factors),
        success=success,
        standard_success=standard,
        degrees=tuple(sorted(degree.items())),
    )


def pool_odds(pool: ActionPool) -> Odds:
    """Exact odds of a built pool (see :func:`odds`); the die needs no chart check here.

    Args:
        pool: an :class:`ActionPool`.

    Returns:
        An :class:`Odds`.
    """
    return odds(pool.die, pool.target, pool.modifier, pool.multipliers, chart=(pool.die,))


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("die", int, None, "die size rolled, e.g. 4 for a d4 (d4 d6 d8 d10 d12 d20)"),
    Parameter("target", int, None, "target number, 1 or more"),
    Parameter("modifier", int, 0, "sum of every +/- modifier"),
    Parameter("multipliers", str, "", "x/÷ modifiers, e.g. 'x2 x2' or 'x3 /2'"),
)
"""The odds query's parameters: ``--die 4 --target 5 --modifier 1 --multipliers "x2"``."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query (the command line and ``--batch`` lines).

    Args:
        query: parameter name -> value, e.g. ``{"die": 4, "target": 5, "modifier": 1}``.

    Returns:
        ``{"success": p, "degree": {"1": p, ...}}`` with float probabilities.

    Raises:
        RuleError: an unknown, missing or mistyped parameter, a die not on the default chart,
            a target below 1 or bad multiplier notation.
    """
    values = read_query(query, ODDS_PARAMETERS)
    die, target, modifier, multipliers = (
        values["die"],
        values["target"],
        values["modifier"],
        values["multipliers"],
    )
    assert isinstance(die, int) and isinstance(target, int) and isinstance(modifier, int)
    assert isinstance(multipliers, str)
    return odds(die, target, modifier, multipliers).as_dict()


# ---------------------------------------------------------------------------------------------
# NPC quick roll: Shattered World Core Engine, The Core Mechanic
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "d8+1 vs 6",
    "d20 +3 x2 vs 15",
    "d6 -1 x3 /2 vs 9",
    "d4 vs 3",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

QUICK_ROLL_MAX_NUMBER = 999
"""Largest modifier (either sign), factor and target number in a quick roll: a typing-mistake
guard, not a rule of the seed."""

_QUICK_CLAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("die", re.compile(r"(?P<count>\d+)?\s*d(?P<n>\d+)(?![a-z0-9])")),
    ("modifier", re.compile(r"(?P<sign>[-+])\s*(?P<n>\d+)")),
    ("multiplier", re.compile(r"(?P<op>[x×*/÷])\s*(?P<n>\d+)")),
    ("target", re.compile(r"(?:vs\.?|versus|target|tn)(?![a-z])\s*(?P<n>[-+]?\d+)?")),
)
_QUICK_REPEATABLE = frozenset({"modifier", "multiplier"})


def quick_roll(text: str) -> ActionPool:
    """Parse the GM's NPC quick roll, e.g. "d8+1 vs 6", into a pool.

    Grammar (any case; spaces and commas between clauses are free; any order):

    - the die, required: ``d<n>`` (also ``1d<n>``), a die of the default chart
      :data:`DIE_CHART`; one die only, as every roll is one die (Shattered World Core Engine,
      The Core Mechanic; Action Dice and Field Role Dice);
    - modifiers ``+<n>`` / ``-<n>``, as many as wanted; they all stack;
    - multipliers and divisors ``x<n>`` (also ``×<n>``, ``*<n>``) and ``/<n>`` (also
      ``÷<n>``), as many as wanted, n from 2 (the notation of :func:`parse_multipliers`,
      combined by :func:`final_factor`);
    - the target number, required: ``vs <n>`` (also ``target <n>``, ``tn <n>``), n >= 1.

    Numbers are capped at :data:`QUICK_ROLL_MAX_NUMBER` (a typing guard). The NPC rolls the
    die it is given as its action die, labelled "NPC": **Decision:** a quick roll does not ask
    whether that die is an action or a field role die, as the NPC's die is typed directly.

    Args:
        text: the notation, e.g. ``"d8+1 vs 6"``, ``"d20 +3 x2 vs 15"`` or
            ``"d6 -1 x3 /2 vs 9"``; at most :data:`QUICK_ROLL_MAX_LENGTH` characters.

    Returns:
        An :class:`ActionPool` built by :func:`build_pool`, which :func:`roll` accepts.

    Raises:
        RuleError: empty or over-long text, a part that is not understood, no die or more
            than one, a die not on the chart, a missing target, a clause without its number,
            or a modifier, factor or target out of range; the message quotes the part, e.g.
            "'d7': d7 is not on the die chart (d4, d6, d8, d10, d12, d20)".

    Source: Shattered World Core Engine, The Core Mechanic.
    """
    die: int | None = None
    target: int | None = None
    modifiers: list[int] = []
    multipliers: list[str] = []
    clauses = split_clauses(
        text,
        _QUICK_CLAUSES,
        example=QUICK_ROLL_EXAMPLES[0],
        rule=_CORE,
        max_length=QUICK_ROLL_MAX_LENGTH,
        repeatable=_QUICK_REPEATABLE,
    )
    for name, part, match in clauses:
        number = int(match.group("n"))
        if name == "die":
            count = int(match.group("count") or "1")
            if count != 1:
                raise RuleError(
                    f"{part!r}: a Shattered World roll is one die; write e.g. "
                    f"{QUICK_ROLL_EXAMPLES[0]!r}",
                    _CORE,
                )
            if number not in DIE_CHART:
                allowed = ", ".join(f"d{size}" for size in DIE_CHART)
                raise RuleError(f"{part!r}: d{number} is not on the die chart ({allowed})", _DICE)
            die = number
        elif name == "modifier":
            if number > QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: a modifier must be between -{QUICK_ROLL_MAX_NUMBER} and "
                    f"+{QUICK_ROLL_MAX_NUMBER}",
                    _CORE,
                )
            modifiers.append(-number if match.group("sign") == "-" else number)
        elif name == "multiplier":
            if not 2 <= number <= QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: a multiplier or divisor must be between 2 and "
                    f"{QUICK_ROLL_MAX_NUMBER}",
                    _CORE,
                )
            multipliers.append(f"{'x' if match.group('op') in _MULTIPLY else '/'}{number}")
        else:
            if not 1 <= number <= QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: the target number must be between 1 and {QUICK_ROLL_MAX_NUMBER}",
                    _CORE,
                )
            target = number
    if die is None:
        raise RuleError(
            f"{text.strip()!r} has no die: write e.g. {QUICK_ROLL_EXAMPLES[0]!r}", _CORE
        )
    if target is None:
        raise RuleError(
            f"{text.strip()!r} has no target number: add 'vs <target>', e.g. "
            f"{QUICK_ROLL_EXAMPLES[0]!r}",
            _CORE,
        )
    return build_pool(
        target=target,
        action_die=die,
        modifiers=tuple(modifiers),
        multipliers=" ".join(multipliers),
        action="NPC",
    )


# ---------------------------------------------------------------------------------------------
# Buy-in costs: Shattered World Core Engine, Achievements and Buy-Ins
# ---------------------------------------------------------------------------------------------

COST_KINDS: tuple[str, ...] = ("flat", "escalating", "exponential")
"""Buy-in cost kinds: ``N`` flat, ``N/e`` escalating, ``N/x`` or ``N/xM`` exponential."""

_COST = re.compile(r"(\d+)(?:/(e|x)(\d+)?)?")


@dataclass(frozen=True)
class BuyInCost:
    """A parsed buy-in cost notation.

    Attributes:
        base: N, the XP cost of the first purchase (>= 1).
        kind: "flat" (``N``), "escalating" (``N/e``) or "exponential" (``N/x``, ``N/xM``).
        ratio: M, the growth of an exponential cost (>= 2); 1 for the other kinds.

    Source: Shattered World Core Engine, Achievements and Buy-Ins; RULES.md section 3
    Decision on ``N/xM``.
    """

    base: int
    kind: str
    ratio: int = 1

    @property
    def levelled(self) -> bool:
        """Whether the buy-in is purchased in levels (``/e`` or ``/x``)."""
        return self.kind != "flat"

    def notation(self) -> str:
        """The canonical notation: "5", "3/e", "1/x" (ratio 2), "3/x" (ratio 3), "5/x2"."""
        if self.kind == "flat":
            return str(self.base)
        if self.kind == "escalating":
            return f"{self.base}/e"
        if self.ratio == _bare_ratio(self.base):
            return f"{self.base}/x"
        return f"{self.base}/x{self.ratio}"


def _bare_ratio(base: int) -> int:
    return 2 if base == 1 else base


def parse_cost(notation: str) -> BuyInCost:
    """Parse buy-in cost notation: ``N``, ``N/e``, ``N/x`` or ``N/xM``.

    ``N/xM``: the k-th purchase costs N * M^(k-1); a bare ``N/x`` uses M = N, except M = 2
    when N = 1 (RULES.md section 3 Decision: 1/x gives 1, 2, 4, 8; 2/x gives 2, 4, 8; 3/x
    gives 3, 9, 27; 5/x2 gives 5, 10, 20). Spaces are ignored, letters may be capitals.

    Args:
        notation: e.g. "32", "1/e", "3/x", "5/x2".

    Returns:
        A :class:`BuyInCost`.

    Raises:
        RuleError: text that is not cost notation (e.g. "5/y", "/e", "3/e2"), N of 0, or an
            exponential M below 2; the message quotes the notation.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """
    text = re.sub(r"\s+", "", notation).lower()
    match = _COST.fullmatch(text)
    if match is None:
        raise RuleError(
            f"{notation!r} is not buy-in cost notation such as '5', '1/e', '3/x' or '5/x2'",
            _BUY_INS,
        )
    base = int(match.group(1))
    if base < 1:
        raise RuleError(f"{notation!r}: a buy-in costs at least 1 XP", _BUY_INS)
    suffix, ratio_text = match.group(2), match.group(3)
    if suffix is None:
        return BuyInCost(base=base, kind="flat")
    if suffix == "e":
        if ratio_text is not None:
            raise RuleError(f"{notation!r}: an escalating cost '/e' takes no number", _BUY_INS)
        return BuyInCost(base=base, kind="escalating")
    ratio = _bare_ratio(base) if ratio_text is None else int(ratio_text)
    if ratio < 2:
        raise RuleError(f"{notation!r}: an exponential cost must grow by 2 or more", _BUY_INS)
    return BuyInCost(base=base, kind="exponential", ratio=ratio)


def _as_cost(cost: str | BuyInCost) -> BuyInCost:
    return parse_cost(cost) if isinstance(cost, str) else cost


def next_cost(cost: str | BuyInCost, purchase: int) -> int:
    """XP cost of the ``purchase``-th purchase of a buy-in, before any multiplier.

    Flat ``N``: N, bought once. **Decision**: the seed says the /e and /x notations indicate
    "that the Buy-in is purchased in levels", so a flat cost is a single purchase; a second
    one is refused. Escalating ``N/e``: N * k (3/e: 3, 6, 9). Exponential ``N/xM``:
    N * M^(k-1) (1/x: 1, 2, 4, 8; 5/x2: 5, 10, 20).

    Args:
        cost: notation such as "3/e" or a :class:`BuyInCost`.
        purchase: k, the purchase being made, >= 1 (1 for the first).

    Returns:
        The cost in XP.

    Raises:
        RuleError: bad notation, k below 1, or k above 1 for a flat cost.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """
    parsed = _as_cost(cost)
    if purchase < 1:
        raise RuleError(f"purchase {purchase} does not exist: the first purchase is 1", _BUY_INS)
    if parsed.kind == "flat":
        if purchase > 1:
            raise RuleError(
                f"a flat {parsed.base} XP buy-in is bought once, not {purchase} times", _BUY_INS
            )
        return parsed.base
    if parsed.kind == "escalating":
        return parsed.base * purchase
    return int(parsed.base * parsed.ratio ** (purchase - 1))


def cumulative_cost(cost: str | BuyInCost, start: int, end: int) -> int:
    """XP to raise a levelled buy-in from level ``start`` to level ``end``.

    The sum of :func:`next_cost` for purchases start + 1 .. end (3/e from 0 to 3: 3 + 6 + 9 =
    18), before any multiplier.

    Args:
        cost: notation or a :class:`BuyInCost`.
        start: levels already bought, >= 0.
        end: levels owned afterwards, >= start.

    Returns:
        The total XP (0 when start == end).

    Raises:
        RuleError: bad notation, a negative start, an end below start, or a flat cost past
            level 1.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """
    parsed = _as_cost(cost)
    if start < 0:
        raise RuleError(f"level {start} cannot be negative", _BUY_INS)
    if end < start:
        raise RuleError(f"cannot go down from level {start} to level {end} by buying", _BUY_INS)
    return sum(next_cost(parsed, k) for k in range(start + 1, end + 1))


PURCHASE_SOURCES: dict[str, int] = {
    "own": 1,
    "adjacent subrole": 2,
    "first additional field role": 2,
    "second additional field role": 3,
}
"""Cost multiplier by where a buy-in is bought from (Shattered World Core Engine, Universal
Buy-Ins): your own subrole ×1; an adjacent subrole within your primary field role ×2; the
first field role outside your own ×2; the second ×3 (both of those exclude hit points)."""


def cost_multiplier(source: str = "own", *, hit_points: bool = False) -> int:
    """The multiplier on a buy-in's cost for where it is bought from.

    Args:
        source: a key of :data:`PURCHASE_SOURCES`: "own", "adjacent subrole", "first
            additional field role" or "second additional field role".
        hit_points: the buy-in raises hit points; the additional field role multipliers
            "exclude hit points", so they are ×1 for it (the adjacent subrole ×2 still
            applies: the seed excludes hit points only for field roles).

    Returns:
        1, 2 or 3.

    Raises:
        RuleError: an unknown source; the message lists the known ones.

    Source: Shattered World Core Engine, Universal Buy-Ins.
    """
    if source not in PURCHASE_SOURCES:
        known = ", ".join(PURCHASE_SOURCES)
        raise RuleError(f"unknown buy-in source {source!r}; use one of {known}", _UNIVERSAL_BUY_INS)
    if hit_points and source.endswith("additional field role"):
        return 1
    return PURCHASE_SOURCES[source]


def buy_in_cost(
    cost: str | BuyInCost,
    purchase: int = 1,
    *,
    source: str = "own",
    hit_points: bool = False,
) -> int:
    """XP for the ``purchase``-th purchase of a buy-in, with the multiplier for its source.

    Args:
        cost: notation such as "2/x" or a :class:`BuyInCost`.
        purchase: k, >= 1.
        source: where it is bought from (see :func:`cost_multiplier`).
        hit_points: the buy-in raises hit points.

    Returns:
        ``next_cost(cost, purchase) * cost_multiplier(source, hit_points=hit_points)``.

    Raises:
        RuleError: see :func:`next_cost` and :func:`cost_multiplier`.

    Source: Shattered World Core Engine, Achievements and Buy-Ins; Universal Buy-Ins.
    """
    return next_cost(cost, purchase) * cost_multiplier(source, hit_points=hit_points)


@dataclass(frozen=True)
class BuyIn:
    """A catalogue entry of a buy-in (Shattered World Core Engine, Universal Buy-Ins).

    Attributes:
        name: as the seed spells it, e.g. "Exceptional Ability, Each".
        cost: cost notation ("5/x2", "32", "1/e"), or "" for an entry that multiplies other
            costs instead.
        multiplier: the cost multiplier such an entry sets ("×2 Normal" is 2), else 1.
        effect: the seed's Effect column.
        special: the seed's Special column ("" for None).
        prerequisites: the seed's Prerequisite(s) column as text ("" for None).
        requires: names of buy-ins that must be owned first (from the prerequisites).
        min_achievements: Total Achievements required (0 for none).
        requires_proficiency: proficiency in the appropriate ability is required.
        requires_foible: the character must accept a foible.
    """

    name: str
    cost: str
    multiplier: int
    effect: str
    special: str
    prerequisites: str
    requires: tuple[str, ...] = ()
    min_achievements: int = 0
    requires_proficiency: bool = False
    requires_foible: bool = False

    @property
    def parsed_cost(self) -> BuyInCost | None:
        """The parsed :attr:`cost`, or None for a multiplier entry."""
        return parse_cost(self.cost) if self.cost else None


UNIVERSAL_BUY_INS: dict[str, BuyIn] = {
    buy_in.name: buy_in
    for buy_in in (
        BuyIn(
            name="Exceptional Ability, Each",
            cost="5/x2",
            multiplier=1,
            effect="Ability Score Cap to 40; +2 to that score",
            special="",
            prerequisites="",
        ),
        BuyIn(
            name="Uncanny Ability, Each",
            cost="8/x2",
            multiplier=1,
            effect="Ability Score Cap to 50; +2 to that score",
            special="Exceptional Abilities Only",
            prerequisites="Exceptional Abilities Only",
            requires=("Exceptional Ability, Each",),
        ),
        BuyIn(
            name="Super Ability, Each",
            cost="16/x2",
            multiplier=1,
            effect="Ability Score Cap to 60; +2 to that score",
            special="Uncanny + Proficient Abilities Only",
            prerequisites="Uncanny + Proficient Abilities Only",
            requires=("Uncanny Ability, Each",),
            requires_proficiency=True,
        ),
        BuyIn(
            name="Godly Ability",
            cost="32",
            multiplier=1,
            effect="No maximum; cannot critically fail any roll pertaining to this ability",
            special="Super + Proficient Ability only",
            prerequisites="Super + Proficient Ability only",
            requires=("Super Ability, Each",),
            requires_proficiency=True,
        ),
        BuyIn(
            name="Buy Into Adjacent Field Subrole",
            cost="",
            multiplier=2,
            effect="Extra cost to purchase Buy-Ins from Subroles within your primary Field Role",
            special="Min. 25 Achievements, Proficiency in appropriate ability, must accept foible",
            prerequisites=(
                "Min. 25 Achievements, Proficiency in appropriate ability, must accept foible"
            ),
            min_achievements=25,
            requires_proficiency=True,
            requires_foible=True,
        ),
        BuyIn(
            name="Buy Into Additional Field Role",
            cost="",
            multiplier=2,
            effect=(
                "Costs double to purchase Buy-Ins from first Field Role outside your own; "
                "excludes hit points"
            ),
            special="Min. 25 Achievements, Proficiency in appropriate ability",
            prerequisites="Min. 25 Achievements, Proficiency in appropriate ability",
            min_achievements=25,
            requires_proficiency=True,
        ),
        BuyIn(
            name="Buy Into Second Additional Field Role",
            cost="",
            multiplier=3,
            effect=(
                "Costs triple to purchase Buy-Ins from second Field Role outside your own; "
                "excludes hit points"
            ),
            special="Min. 50 Achievements, Proficiency in appropriate ability",
            prerequisites="Min. 50 Achievements, Proficiency in appropriate ability",
            min_achievements=50,
            requires_proficiency=True,
        ),
        BuyIn(
            name="Increase UAM",
            cost="1/e",
            multiplier=1,
            effect="UAM +1",
            special="Universal Action Modifier",
            prerequisites="",
        ),
    )
}
"""The seed's Universal Buy-Ins table, by name, in the seed's order (Shattered World Core
Engine, Universal Buy-Ins)."""


def unmet_prerequisites(
    buy_in: BuyIn,
    *,
    total_achievements: int,
    owned: Collection[str] = (),
    proficient: bool = False,
    accepts_foible: bool = False,
) -> tuple[str, ...]:
    """The prerequisites of a buy-in a character does not meet, as readable reasons.

    Args:
        buy_in: a :class:`BuyIn` (e.g. ``UNIVERSAL_BUY_INS["Buy Into Additional Field
            Role"]``).
        total_achievements: the character's Total Achievements (not current XP).
        owned: names of buy-ins the character already has (for the ability the purchase is
            about, where it concerns an ability).
        proficient: the character is proficient in the appropriate ability.
        accepts_foible: the player accepts the foible that comes with it.

    Returns:
        One sentence per unmet prerequisite, e.g. "needs min. 25 achievements (has 12)";
        empty when all are met.

    Source: Shattered World Core Engine, Universal Buy-Ins.
    """
    reasons: list[str] = []
    if total_achievements < buy_in.min_achievements:
        reasons.append(
            f"needs min. {buy_in.min_achievements} achievements (has {total_achievements})"
        )
    reasons.extend(f"needs {name} first" for name in buy_in.requires if name not in owned)
    if buy_in.requires_proficiency and not proficient:
        reasons.append("needs proficiency in the appropriate ability")
    if buy_in.requires_foible and not accepts_foible:
        reasons.append("must accept a foible")
    return tuple(reasons)


def check_prerequisites(
    buy_in: BuyIn,
    *,
    total_achievements: int,
    owned: Collection[str] = (),
    proficient: bool = False,
    accepts_foible: bool = False,
) -> None:
    """Refuse a buy-in whose prerequisites are not met.

    Args:
        buy_in, total_achievements, owned, proficient, accepts_foible: as for
            :func:`unmet_prerequisites`.

    Raises:
        RuleError: naming the buy-in and every unmet prerequisite, e.g. "Buy Into Additional
            Field Role needs min. 25 achievements (has 12)".

    Source: Shattered World Core Engine, Universal Buy-Ins.
    """
    reasons = unmet_prerequisites(
        buy_in,
        total_achievements=total_achievements,
        owned=owned,
        proficient=proficient,
        accepts_foible=accepts_foible,
    )
    if reasons:
        raise RuleError(f"{buy_in.name} {'; '.join(reasons)}", _UNIVERSAL_BUY_INS)


# ---------------------------------------------------------------------------------------------
# Achievements and XP: Shattered World Core Engine, Achievements and Buy-Ins / Universal
# Achievements
# ---------------------------------------------------------------------------------------------

ACHIEVEMENT_KINDS: tuple[str, ...] = ("milestone", "feat")
"""Milestones are earned once per lifetime; feats repeatedly."""

ACHIEVEMENT_CATEGORIES: tuple[str, ...] = ("universal", "special", "field role", "subrole")
"""Where achievements come from: universal, the species' own ("Special"), the field role and
the subrole (Shattered World Core Engine, Achievements and Buy-Ins)."""

XP_PER_ACHIEVEMENT = 1
""""One Achievement equals one Experience Point" (Shattered World Core Engine, Achievements
and Buy-Ins)."""


@dataclass(frozen=True)
class Achievement:
    """A catalogue entry of an achievement.

    Attributes:
        name: as the seed spells it, e.g. "Talk to strangers at the inn".
        kind: "milestone" (once per lifetime) or "feat" (repeatable).
        category: "universal", "special", "field role" or "subrole".
    """

    name: str
    kind: str
    category: str = "universal"

    @property
    def repeatable(self) -> bool:
        """Whether it can be earned again (feats can, milestones cannot)."""
        return self.kind == "feat"


UNIVERSAL_MILESTONES: tuple[Achievement, ...] = tuple(
    Achievement(name, "milestone")
    for name in (
        "Defeat first legendary enemy",
        "Abandon a quest",
        "Buy startup equipment",
        "Stalemate an [established] enemy of the party in combat",
        "Suffer defeat at the hands of an [established] enemy of the party",
        "Talk to strangers at the inn",
        "Advance an age category",
        "Be Resurrected",
        "Operate a Portal",
        "Collect your first 1,000so worth of treasure",
        "Collect your first 10,000so worth of treasure",
        "Collect your first 100,000so worth of treasure",
        "Hear rumors at the pub",
        "Surrender",
        "Get captured",
        "Defeat Your First Dragon",
        "Complete a quest successfully",
        "Encounter Bloodstone",
    )
)
"""The seed's universal Milestones (×1), in order (Shattered World Core Engine, Universal
Achievements)."""

UNIVERSAL_FEATS: tuple[Achievement, ...] = tuple(
    Achievement(name, "feat")
    for name in (
        "Craft anything",
        "Perform a skill successfully",
        "Defeat any enemy",
        "Critically succeed at performing an action",
        "Save one or more party members",
        "Capture enemy standard",
        "Capture important enemy",
        "Complete a quest successfully",
        "Persuade/Influence an NPC",
        "Collect actionable information from any source",
        "Heed call to action",
        "Effective combat tactic",
        "Complete a secondary quest",
        "Accept a quest",
        "Defeat primary enemy/villain of campaign or adventure",
        "Defeat Your First Undead",
        "Hear actionable intel at the pub",
        "GM Fiat",
    )
)
"""The seed's universal Feats (∞), in order (Shattered World Core Engine, Universal
Achievements). "Complete a quest successfully" is in both columns of the seed's table, so it
is here too; "Defeat Your First Undead" stands in the Feats column as the seed has it."""


@dataclass(frozen=True)
class Experience:
    """A character's XP: Current XP (to spend) and Total Achievements (never spent).

    Attributes:
        current_xp: XP available to spend, >= 0.
        total_achievements: every achievement ever earned, >= 0 (needed by the GM to balance
            encounters and by prerequisites such as "Min. 25 Achievements").
        milestones: names of the milestones already earned (once per lifetime each).

    Raises:
        RuleError: on construction, a negative Current XP or Total Achievements.

    Source: Shattered World Core Engine, Achievements and Buy-Ins.
    """

    current_xp: int = 0
    total_achievements: int = 0
    milestones: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.current_xp < 0 or self.total_achievements < 0:
            raise RuleError(
                f"Current XP {self.current_xp} and Total Achievements "
                f"{self.total_achievements} cannot be negative",
                _BUY_INS,
            )

    def earn(self, achievement: Achievement) -> Experience:
        """Record an achievement: +1 Current XP and +1 Total Achievements.

        Args:
            achievement: a milestone or a feat.

        Returns:
            A new :class:`Experience`.

        Raises:
            RuleError: the achievement is a milestone already earned ("can be collected once
                only in your character's lifetime").

        Source: Shattered World Core Engine, Achievements and Buy-Ins.
        """
        if achievement.kind == "milestone":
            if achievement.name in self.milestones:
                raise RuleError(
                    f"the milestone {achievement.name!r} was already earned: milestones are "
                    "collected once per lifetime",
                    _BUY_INS,
                )
            milestones = self.milestones | {achievement.name}
        else:
            milestones = self.milestones
        return replace(
            self,
            current_xp=self.current_xp + XP_PER_ACHIEVEMENT,
            total_achievements=self.total_achievements + 1,
            milestones=milestones,
        )

    def spend(self, xp: int) -> Experience:
        """Spend Current XP on a buy-in; Total Achievements do not change.

        Args:
            xp: the cost, >= 0 (e.g. from :func:`buy_in_cost`).

        Returns:
            A new :class:`Experience` with ``current_xp - xp``.

        Raises:
            RuleError: a negative cost, or more XP than the character has.

        Source: Shattered World Core Engine, Achievements and Buy-Ins.
        """
        if xp < 0:
            raise RuleError(f"cannot spend {xp} XP", _BUY_INS)
        if xp > self.current_xp:
            raise RuleError(
                f"this buy-in costs {xp} XP but only {self.current_xp} XP is available", _BUY_INS
            )
        return replace(self, current_xp=self.current_xp - xp)


# ---------------------------------------------------------------------------------------------
# Statistics: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions
# ---------------------------------------------------------------------------------------------

STATISTICS: dict[str, str] = {
    "PF": "Physical Fitness",
    "MA": "Mental Acuity",
    "EN": "Endurance",
    "PR": "Perception",
    "SP": "Spirit",
    "EM": "Empathy",
}
"""The six Statistics by abbreviation (RULES.md section 3, from the character-creation page)."""

HIT_POINTS = "HP"
"""Code of the Hit Points pool, the one pool a full rest does not restore."""

_POOL_NAMES: dict[str, str] = {**STATISTICS, HIT_POINTS: "Hit Points"}


@dataclass(frozen=True)
class Statistic:
    """One statistic as a resource pool, written current/max ("15/20 Physical Fitness").

    Attributes:
        code: "PF", "MA", "EN", "PR", "SP", "EM" or "HP".
        current: points left, 0..maximum.
        maximum: the normal maximum, >= 0.

    Raises:
        RuleError: on construction, an unknown code, a negative maximum, or current outside
            0..maximum.

    Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions.
    """

    code: str
    current: int
    maximum: int

    def __post_init__(self) -> None:
        if self.code not in _POOL_NAMES:
            known = ", ".join(_POOL_NAMES)
            raise RuleError(f"unknown statistic {self.code!r}; use one of {known}", _STATISTICS)
        if self.maximum < 0:
            raise RuleError(f"{self.name} maximum {self.maximum} cannot be negative", _STATISTICS)
        if not 0 <= self.current <= self.maximum:
            raise RuleError(
                f"{self.name} {self.current} must be between 0 and its maximum {self.maximum}",
                _STATISTICS,
            )

    @property
    def name(self) -> str:
        """The full name, e.g. "Physical Fitness"."""
        return _POOL_NAMES[self.code]

    def __str__(self) -> str:
        return f"{self.current}/{self.maximum} {self.name}"

    def lose(self, points: int) -> Statistic:
        """Lose ``points`` (>= 0); the pool stops at 0 ("when the target's pool reaches zero").

        Raises:
            RuleError: negative points.
        """
        if points < 0:
            raise RuleError(f"cannot lose {points} points of {self.name}", _STATISTICS)
        return replace(self, current=max(0, self.current - points))

    def regain(self, points: int) -> Statistic:
        """Regain ``points`` (>= 0), up to the maximum.

        Raises:
            RuleError: negative points.
        """
        if points < 0:
            raise RuleError(f"cannot regain {points} points of {self.name}", _STATISTICS)
        return replace(self, current=min(self.maximum, self.current + points))


@dataclass(frozen=True)
class Statistics:
    """A character's statistics (and hit points) as resource pools.

    Attributes:
        pools: one :class:`Statistic` per code, codes unique.

    Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions.
    """

    pools: tuple[Statistic, ...]

    def __post_init__(self) -> None:
        codes = [pool.code for pool in self.pools]
        for code in codes:
            if codes.count(code) > 1:
                raise RuleError(f"statistic {code} is listed twice", _STATISTICS)

    def __getitem__(self, code: str) -> Statistic:
        for pool in self.pools:
            if pool.code == code:
                return pool
        raise RuleError(f"the character has no statistic {code!r}", _STATISTICS)

    def with_pool(self, statistic: Statistic) -> Statistics:
        """A copy with ``statistic`` replacing the pool of the same code (or added)."""
        others = tuple(pool for pool in self.pools if pool.code != statistic.code)
        if len(others) == len(self.pools):
            return Statistics(self.pools + (statistic,))
        return Statistics(
            tuple(statistic if pool.code == statistic.code else pool for pool in self.pools)
        )

    def full_rest(self) -> Statistics:
        """A full 8-hour rest: every statistic back to its maximum, hit points excepted.

        Returns:
            A new :class:`Statistics`; the "HP" pool is unchanged.

        Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions ("all
        Statistics excluding Hit Points are normally restored to their normal maximums").
        """
        return Statistics(
            tuple(
                pool if pool.code == HIT_POINTS else replace(pool, current=pool.maximum)
                for pool in self.pools
            )
        )


def new_statistics(maxima: Mapping[str, int], hit_points: int | None = None) -> Statistics:
    """Statistics at their maximums for a new character.

    Args:
        maxima: maximum per code, e.g. ``{"PF": 20, "MA": 15, ...}``; every one of the six
            :data:`STATISTICS` must be given.
        hit_points: maximum hit points, or None to leave hit points out.

    Returns:
        A :class:`Statistics` in the order PF, MA, EN, PR, SP, EM (then HP).

    Raises:
        RuleError: a missing or unknown code, or a negative maximum.

    Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions.
    """
    for code in maxima:
        if code not in STATISTICS:
            raise RuleError(f"unknown statistic {code!r}", _STATISTICS)
    missing = [code for code in STATISTICS if code not in maxima]
    if missing:
        raise RuleError(f"missing statistics: {', '.join(missing)}", _STATISTICS)
    pools = [Statistic(code, maxima[code], maxima[code]) for code in STATISTICS]
    if hit_points is not None:
        pools.append(Statistic(HIT_POINTS, hit_points, hit_points))
    return Statistics(tuple(pools))


# ---------------------------------------------------------------------------------------------
# Initiative: Shattered World Core Engine, Initiative Order
# ---------------------------------------------------------------------------------------------

INITIATIVE_CHOICES: tuple[str, ...] = ("fast", "roll", "slow")
"""What a combatant chooses in Phase 2: fast initiative, rolling, or slow initiative."""


def initiative_key(*, pc: bool, choice: str, roll: int | None = None) -> tuple[int, int]:
    """Sort key for the order of action (smaller acts first): use with ``sorted(key=...)``.

    Priority (Shattered World Core Engine, Initiative Order): 1 PCs choosing fast initiative,
    2 NPCs choosing fast, 3 initiative rollers in order of rolls, 4 PCs choosing slow, 5 NPCs
    choosing slow. **Decision**: "in order of rolls" is the highest roll first; ties keep the
    order given (Python's sort is stable), for the GM to settle.

    Args:
        pc: a player character (False for an NPC).
        choice: "fast", "roll" or "slow".
        roll: the initiative roll, required when ``choice`` is "roll", else ignored.

    Returns:
        ``(priority 1-5, -roll or 0)``.

    Raises:
        RuleError: an unknown choice, or "roll" without a roll.
    """
    if choice == "fast":
        return (1 if pc else 2, 0)
    if choice == "slow":
        return (4 if pc else 5, 0)
    if choice == "roll":
        if roll is None:
            raise RuleError("an initiative roller needs the number rolled", _INITIATIVE)
        return (3, -roll)
    raise RuleError(
        f"initiative choice {choice!r} is not one of {', '.join(INITIATIVE_CHOICES)}", _INITIATIVE
    )


# ---------------------------------------------------------------------------------------------
# The die steps table: Shattered World Core Engine, Action Dice and Field Role Dice ("Buy-in
# AD FRD Notes", a table missing from every copy of the seed)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieStep:
    """One row of the action die buy-in table: the dice a character rolls at that step.

    Attributes:
        action_die: the action die (AD) size at this step, e.g. 6.
        field_role_die: the field role die (FRD) size at this step, e.g. 10.
        cost: XP to buy this step from the one before (0 for the starting step).
        notes: the table's Notes column (may be empty).

    Source: Shattered World Core Engine, Action Dice and Field Role Dice (the seed's table
    "Buy-in AD FRD Notes"; RULES.md section 3 Decision: the chart is campaign data).
    """

    action_die: int
    field_role_die: int
    cost: int
    notes: str = ""

    def line(self) -> str:
        """The row as one editable line, e.g. "d6 d10 10 first step"."""
        text = f"d{self.action_die} d{self.field_role_die} {self.cost}"
        return f"{text} {self.notes}" if self.notes else text


DEFAULT_STEP_COST = 10
"""**Decision** (seed silent, its table is lost): the k-th action die step costs
``DEFAULT_STEP_COST * k`` XP by default (10, 20, 30, 40, 50), the escalating pattern ``10/e``
of the seed's notation; a campaign's GM edits the table."""


def default_die_steps(
    chart: Sequence[int] = DIE_CHART, offset: int = FIELD_ROLE_OFFSET
) -> tuple[DieStep, ...]:
    """The default die steps: one per die of ``chart``, the FRD ``offset`` slots further on.

    Args:
        chart: the die chart (default :data:`DIE_CHART`).
        offset: slots between AD and FRD (default :data:`FIELD_ROLE_OFFSET`).

    Returns:
        ``(DieStep(4, 8, 0), DieStep(6, 10, 10), DieStep(8, 12, 20), DieStep(10, 20, 30),
        DieStep(12, 20, 40), DieStep(20, 20, 50))`` on the default chart.

    Raises:
        RuleError: a bad chart or offset (see :func:`field_role_die`).
    """
    sizes = check_chart(chart)
    return tuple(
        DieStep(size, field_role_die(size, sizes, offset), DEFAULT_STEP_COST * level)
        for level, size in enumerate(sizes)
    )


_STEP_LINE = re.compile(r"d(\d+)\s+d(\d+)\s+(\d+)(?:\s+(.*))?")
MAX_DIE_STEPS = 20
"""Most rows a die steps table may have (a typing guard, not a rule)."""


def check_die_steps(steps: Sequence[DieStep]) -> tuple[DieStep, ...]:
    """Check a die steps table: the action die grows every step, the FRD never shrinks and is
    never smaller than the AD, the first step costs 0 and every later step 1 XP or more.

    Args:
        steps: the rows, starting step first.

    Returns:
        The rows as a tuple.

    Raises:
        RuleError: naming the first bad row.

    Source: Shattered World Core Engine, Action Dice and Field Role Dice.
    """
    rows = tuple(steps)
    if not rows:
        raise RuleError("the die steps table needs at least the starting step", _DICE)
    if len(rows) > MAX_DIE_STEPS:
        raise RuleError(f"the die steps table has at most {MAX_DIE_STEPS} rows", _DICE)
    for number, row in enumerate(rows, start=1):
        if row.action_die < 2 or row.field_role_die < 2:
            raise RuleError(f"row {number}: a die needs at least 2 sides", _DICE)
        if row.field_role_die < row.action_die:
            raise RuleError(
                f"row {number}: the field role die d{row.field_role_die} is smaller than the "
                f"action die d{row.action_die}",
                _DICE,
            )
        if number == 1 and row.cost != 0:
            raise RuleError("row 1 is the starting step: its cost must be 0", _DICE)
        if number > 1:
            before = rows[number - 2]
            if row.cost < 1:
                raise RuleError(f"row {number}: a step costs at least 1 XP", _DICE)
            if row.action_die <= before.action_die:
                raise RuleError(
                    f"row {number}: the action die must grow (d{before.action_die} then "
                    f"d{row.action_die})",
                    _DICE,
                )
            if row.field_role_die < before.field_role_die:
                raise RuleError(
                    f"row {number}: the field role die cannot shrink (d{before.field_role_die} "
                    f"then d{row.field_role_die})",
                    _DICE,
                )
    return rows


def parse_die_steps(text: str) -> tuple[DieStep, ...]:
    """Parse a die steps table typed one row a line: ``d<AD> d<FRD> <cost> [notes]``.

    Example::

        d4 d8 0 starting dice
        d6 d10 10

    Blank lines are skipped.

    Args:
        text: the table.

    Returns:
        The checked rows (:func:`check_die_steps`).

    Raises:
        RuleError: a line not in that shape (quoted), or a table :func:`check_die_steps`
            refuses.
    """
    rows: list[DieStep] = []
    for line in text.splitlines():
        stripped = " ".join(line.split())
        if not stripped:
            continue
        match = _STEP_LINE.fullmatch(stripped.lower())
        if match is None:
            raise RuleError(
                f"{stripped!r} is not a die step such as 'd6 d10 10' (AD, FRD, cost, notes)",
                _DICE,
            )
        notes = stripped[match.start(4):] if match.group(4) else ""
        rows.append(DieStep(int(match.group(1)), int(match.group(2)), int(match.group(3)), notes))
    return check_die_steps(rows)


def die_steps_chart(steps: Sequence[DieStep]) -> tuple[int, ...]:
    """Every die size a die steps table uses, smallest first: the chart its pools are built
    on (for :func:`build_pool`'s ``chart``).

    Args:
        steps: the rows (:func:`check_die_steps` or :func:`default_die_steps`).

    Returns:
        Die sizes, e.g. ``(4, 6, 8, 10, 12, 20)`` for the default steps.

    Source: Shattered World Core Engine, Action Dice and Field Role Dice.
    """
    return tuple(sorted({row.action_die for row in steps} | {row.field_role_die for row in steps}))
