"""The die chart and the die steps table (Shattered World Core Engine, Action Dice and Field
Role Dice; the table "Buy-in AD FRD Notes" is missing from every copy of the seed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _DICE

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
