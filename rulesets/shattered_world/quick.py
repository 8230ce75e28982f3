"""The GM's NPC quick roll notation, e.g. "d8+1 vs 6" (Shattered World Core Engine, The Core
Mechanic).
"""

from __future__ import annotations

import re

from rulesets.errors import RuleError
from rulesets.notation import split_clauses
from rulesets.shattered_world.catalogue import _CORE, _DICE
from rulesets.shattered_world.chart import DIE_CHART
from rulesets.shattered_world.pools import ActionPool, build_pool
from rulesets.shattered_world.readings import SEED_READINGS, ShatteredWorldReadings
from rulesets.shattered_world.totals import _MULTIPLY

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


def quick_roll(text: str, readings: ShatteredWorldReadings = SEED_READINGS) -> ActionPool:
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
    The campaign's table readings apply as to a player's roll (:func:`build_pool`): how the
    factors combine and which totals of 0 become 1.

    Args:
        text: the notation, e.g. ``"d8+1 vs 6"``, ``"d20 +3 x2 vs 15"`` or
            ``"d6 -1 x3 /2 vs 9"``; at most :data:`QUICK_ROLL_MAX_LENGTH` characters.
        readings: the campaign's table readings (the seed's by default).

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
        readings=readings,
    )
