"""The GM's NPC quick roll notation, e.g. "d10 2d8 d6" (Shahquest wiki, Dice Pools / Dice,
Step Up, Step Down, and Spreads).
"""

from __future__ import annotations

import re

from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError
from rulesets.notation import check_length
from rulesets.shahquest.catalogue import _POOLS, _STEPS, _die, _rule
from rulesets.shahquest.odds import MAX_ODDS_DICE
from rulesets.shahquest.pools import DicePool, pool_from_dice
from rulesets.shahquest.readings import SEED_READINGS, ShahquestReadings

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


def quick_roll(text: str, readings: ShahquestReadings = SEED_READINGS) -> DicePool:
    """Parse the GM's NPC quick roll, e.g. "d10 2d8 d6", into a dice pool.

    Dice notation as :func:`rulesets.dice.parse_dice` reads it (Shahquest wiki, Dice, Step
    Up, Step Down, and Spreads): terms ``[count]d<sides>`` separated by spaces, commas or
    ``+``, any case, "2 d8" read as "2d8"; step dice only (d4, d6, d8, d10, d12); 1 to
    :data:`QUICK_ROLL_MAX_DICE` dice. An NPC's pool is the dice the GM names (Shahquest wiki,
    Dice Pools), so nothing is spent or earned: the pool is :func:`pool_from_dice`'s.
    **Decision:** a flat number ("d8+1") is refused, as Shahquest pools have no modifiers.
    The campaign's table readings apply as to a player's pool (:meth:`DicePool.under`): the
    effect die when no die is left for it.

    Args:
        text: the notation, e.g. ``"d10 2d8 d6"``; at most :data:`QUICK_ROLL_MAX_LENGTH`
            characters.
        readings: the campaign's table readings (the seed's by default).

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
    return pool_from_dice(clean).under(readings)
