"""The GM's NPC quick roll for Genesys: "2A 1P vs 3D 1C" read into a dice pool (Genesys
dice pool, Basic Dice Pool)."""

from __future__ import annotations

import re

from rulesets.errors import RuleError
from rulesets.genesys.catalogue import MAX_POOL_DICE, _rule
from rulesets.genesys.pools import _TERM, DicePool, _pool, modify_pool, parse_pool
from rulesets.genesys.readings import SEED_READINGS, GenesysReadings
from rulesets.notation import check_length

# ---------------------------------------------------------------------------------------------
# NPC quick roll: Genesys dice pool, Basic Dice Pool
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "2A 1P vs 3D 1C",
    "3A vs 2D",
    "2A 1B vs 2D 1S",
    "1P 2A 2D",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

_QUICK_VS = re.compile(r"versus|vs\.?", re.IGNORECASE)
_QUICK_SPACED_COUNT = re.compile(r"(?<!\w)(\d+)\s+(?=[apdcbs](?![a-z]))", re.IGNORECASE)
_QUICK_WRONG_SIDE: tuple[tuple[str, str, str], ...] = (
    ("dc", "before", "difficulty and challenge dice are the GM's: put them after 'vs'"),
    ("ap", "after", "ability and proficiency dice are the roller's: put them before 'vs'"),
)


def _quick_terms(side: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The tokens of one side with their (count, letter) terms; tokens are checked later."""
    return [
        (token, _TERM.findall(token.lower()))
        for token in re.split(r"[\s,+]+", side.strip())
        if token
    ]


def quick_roll(text: str, readings: GenesysReadings = SEED_READINGS) -> DicePool:
    """Parse the GM's NPC quick roll, e.g. "2A 1P vs 3D 1C", into a dice pool.

    The letter notation of :func:`parse_pool` (any case; A ability, P proficiency,
    D difficulty, C challenge, B boost, S setback; a missing count is 1; "2 A" is read as
    "2A"), with one optional ``vs`` (also "vs." or "versus") between the roller's dice and
    the GM's (Genesys dice pool, Basic Dice Pool). With ``vs``, both sides must hold dice, and
    the side is checked: ability and proficiency only before it, difficulty and challenge
    only after it; boost and setback may stand on either side, as either party may add them.
    Without ``vs`` the letters alone say whose die is whose.

    **Decision:** the pool is labelled with the trait "NPC" and carries no difficulty level
    (the GM types the dice, not a level), so no Destiny point is asked for.

    The campaign's table readings apply as to a player's check (:func:`modify_pool`): under
    ``boost_setback="cancel"`` each boost die cancels one setback die ("1B vs 1S" rolls no
    dice and fails, cancelled out).

    Args:
        text: the notation, e.g. ``"2A 1P vs 3D 1C"`` or ``"3A 2D"``; at most
            :data:`QUICK_ROLL_MAX_LENGTH` characters.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        A :class:`DicePool` that :func:`roll` accepts.

    Raises:
        RuleError: empty or over-long text, a token that is not notation, "vs" more than
            once or with nothing on one side, a die on the wrong side of "vs", a term of more
            than :data:`MAX_POOL_DICE` dice, or a pool of more than :data:`MAX_POOL_DICE`
            dice; the message quotes the part, e.g. "'3D' before 'vs': difficulty and
            challenge dice are the GM's: put them after 'vs'".
    """
    rule = _rule("Basic Dice Pool")
    example = QUICK_ROLL_EXAMPLES[0]
    check_length(text, max_length=QUICK_ROLL_MAX_LENGTH, example=example, rule=rule)
    clean = " ".join(_QUICK_SPACED_COUNT.sub(r"\1", text).split())
    if not clean:
        raise RuleError(f"the quick roll is empty: write e.g. {example!r}", rule)
    sides = [side.strip() for side in _QUICK_VS.split(clean)]
    if len(sides) > 2:
        raise RuleError(f"{clean!r} has 'vs' more than once: write e.g. {example!r}", rule)
    if len(sides) == 2:
        for side, where in zip(sides, ("before", "after"), strict=True):
            if not side:
                raise RuleError(f"{clean!r} has nothing {where} 'vs': write e.g. {example!r}", rule)
    total = 0
    for token, terms in _quick_terms(" ".join(sides)):
        for count, _letter in terms:
            if int(count or "1") > MAX_POOL_DICE:
                raise RuleError(
                    f"{token!r}: a pool holds at most {MAX_POOL_DICE} dice; write e.g. {example!r}",
                    rule,
                )
            total += int(count or "1")
    if total > MAX_POOL_DICE:
        raise RuleError(f"{clean!r} is {total} dice: a pool holds at most {MAX_POOL_DICE}", rule)
    pool = parse_pool(" ".join(sides))  # checks every token and quotes a bad one
    if len(sides) == 2:
        for side, where in zip(sides, ("before", "after"), strict=True):
            for letters, wrong_where, message in _QUICK_WRONG_SIDE:
                if where != wrong_where:
                    continue
                for token, terms in _quick_terms(side):
                    if any(letter.lower() in letters for _count, letter in terms):
                        raise RuleError(f"{token!r} {where} 'vs': {message}", rule)
    return modify_pool(_pool(pool.counts(), traits=("NPC",)), readings=readings)
