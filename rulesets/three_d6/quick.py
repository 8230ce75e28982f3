"""The GM's NPC quick roll for 3d6: "3d6+2 favor 1" read into a test (3d6 Rolls and
Tests, Rolls and Tests; Favor and Disfavor; Test Difficulty)."""

from __future__ import annotations

import re

from rulesets.errors import RuleError
from rulesets.notation import split_clauses
from rulesets.three_d6.catalogue import BASE_DICE, DIE_SIDES, MAX_FAVOR, TD_MIN, _rule
from rulesets.three_d6.pools import TestPool, build_test
from rulesets.three_d6.readings import SEED_READINGS, ThreeD6Readings

# ---------------------------------------------------------------------------------------------
# NPC quick roll: 3d6 Rolls and Tests, Rolls and Tests / Favor and Disfavor / Test Difficulty
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "3d6+2 favor 1",
    "3d6-1",
    "3d6 +2 disfavor 2",
    "3d6+1 td 12",
    "3d6 vs 10",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

QUICK_ROLL_MAX_NUMBER = 999
"""Largest modifier (either sign) and test difficulty in a quick roll: a typing-mistake guard,
not a rule of the seed."""

_QUICK_CLAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dice", re.compile(r"(?P<count>\d+)?\s*d(?P<sides>\d+|%)(?![a-z0-9])")),
    ("modifier", re.compile(r"(?P<n>[-+]\s*\d+)")),
    ("disfavor", re.compile(r"disfavou?r(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    ("favor", re.compile(r"favou?r(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    (
        "test difficulty",
        re.compile(r"(?:td|vs\.?|versus)(?![a-z])\s*(?:td(?![a-z])\s*)?(?P<n>[-+]?\d+)?"),
    ),
)
_QUICK_REPEATABLE = frozenset({"modifier"})


def _quick_dice(part: str, match: re.Match[str]) -> None:
    """Refuse any dice but 3d6, pointing to favor or disfavor for another number of d6s."""
    count = int(match.group("count") or "1")
    if match.group("sides") != str(DIE_SIDES):
        raise RuleError(
            f"{part!r}: a test always rolls 3d6; write e.g. {QUICK_ROLL_EXAMPLES[0]!r}",
            _rule("Your Fate and the Dice"),
        )
    if count > BASE_DICE:
        raise RuleError(
            f"{part!r}: a test always rolls 3d6; write '3d6 favor {count - BASE_DICE}' for "
            f"{count} dice",
            _rule("Favor and Disfavor"),
        )
    if count < BASE_DICE:
        raise RuleError(
            f"{part!r}: a test always rolls 3d6; write '3d6 disfavor {BASE_DICE - count}' for "
            f"{count} {'die' if count == 1 else 'dice'}",
            _rule("Favor and Disfavor"),
        )


def quick_roll(text: str, readings: ThreeD6Readings = SEED_READINGS) -> TestPool:
    """Parse the GM's NPC quick roll, e.g. "3d6+2 favor 1", into a test.

    Grammar (any case; spaces and commas between clauses are free; any order):

    - ``3d6``, required: a test always rolls 3d6 (3d6 Rolls and Tests, Your Fate and the
      Dice); "4d6" or "2d6" is refused with a message saying to write favor or disfavor;
    - modifiers ``+<n>`` / ``-<n>``, as many as wanted, summed (3d6 Rolls and Tests, Rolls
      and Tests: "adds their modifier"), each at most :data:`QUICK_ROLL_MAX_NUMBER`;
    - ``favor <n>`` and ``disfavor <n>`` (also "favour"), each at most once, 0 to
      :data:`MAX_FAVOR` (3d6 Rolls and Tests, Favor and Disfavor);
    - ``td <n>``, ``vs <n>`` or ``vs td <n>``: the test difficulty, 1 to
      :data:`QUICK_ROLL_MAX_NUMBER` (3d6 Rolls and Tests, Test Difficulty); without it the
      roll is a contest roll (no TD), whose result reads "Total N".

    The test is labelled "NPC". **Decision:** several modifiers add up ("3d6+2-1" is +1);
    "favor" without a number is refused rather than read as 1. The campaign's table readings
    apply as to a player's test (:func:`build_test`): favor and disfavor netted or counted
    apart, and whether disfavor rules out a critical success.

    Args:
        text: the notation, e.g. ``"3d6+2 favor 1"``, ``"3d6-1"``, ``"3d6 +2 disfavor 2"`` or
            ``"3d6+1 td 12"``; at most :data:`QUICK_ROLL_MAX_LENGTH` characters.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        A :class:`TestPool` built by :func:`build_test`, which :func:`roll_test` accepts.

    Raises:
        RuleError: empty or over-long text, a part that is not understood, missing 3d6, dice
            other than 3d6, a clause without its number or given twice, or a modifier,
            favor, disfavor or TD out of range; the message quotes the part, e.g. "'4d6': a
            test always rolls 3d6; write '3d6 favor 1' for 4 dice".
    """
    modifier = 0
    favor = disfavor = 0
    td: int | None = None
    has_dice = False
    clauses = split_clauses(
        text,
        _QUICK_CLAUSES,
        example=QUICK_ROLL_EXAMPLES[0],
        rule=_rule("Rolls and Tests"),
        max_length=QUICK_ROLL_MAX_LENGTH,
        repeatable=_QUICK_REPEATABLE,
    )
    for name, part, match in clauses:
        if name == "dice":
            _quick_dice(part, match)
            has_dice = True
            continue
        number = int(match.group("n").replace(" ", ""))
        if name == "modifier":
            if abs(number) > QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: a modifier must be between -{QUICK_ROLL_MAX_NUMBER} and "
                    f"+{QUICK_ROLL_MAX_NUMBER}",
                    _rule("Rolls and Tests"),
                )
            modifier += number
        elif name in ("favor", "disfavor"):
            if not 0 <= number <= MAX_FAVOR:
                raise RuleError(
                    f"{part!r}: {name} must be between 0 and {MAX_FAVOR}",
                    _rule("Favor and Disfavor"),
                )
            if name == "favor":
                favor = number
            else:
                disfavor = number
        else:
            if not TD_MIN <= number <= QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: the test difficulty must be between {TD_MIN} and "
                    f"{QUICK_ROLL_MAX_NUMBER}",
                    _rule("Test Difficulty"),
                )
            td = number
    if not has_dice:
        raise RuleError(
            f"{text.strip()!r} has no 3d6: a test always rolls 3d6; write e.g. "
            f"{QUICK_ROLL_EXAMPLES[0]!r}",
            _rule("Your Fate and the Dice"),
        )
    return build_test(label="NPC", modifier=modifier, favor=favor, disfavor=disfavor, td=td,
                      readings=readings)
