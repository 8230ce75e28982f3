"""The GM's NPC quick roll notation for Maelstrom, e.g. "5 dice diff 7 threshold 1"
(Maelstrom rules.md, Dice Pool / Difficulty / Threshold / Using Specialties)."""

from __future__ import annotations

import re

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import (
    DEFAULT_DIFFICULTY,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    _rule,
)
from rulesets.maelstrom.odds import ODDS_MAX_DICE
from rulesets.maelstrom.pools import ActionPool
from rulesets.maelstrom.readings import SEED_READINGS, MaelstromReadings
from rulesets.notation import split_clauses

# ---------------------------------------------------------------------------------------------
# NPC quick roll: Maelstrom rules.md, Dice Pool / Difficulty / Threshold / Using Specialties
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "5 dice diff 7 threshold 1",
    "5d10 diff 7",
    "5 dice",
    "6 dice diff 8 specialty",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

QUICK_ROLL_MAX_DICE = ODDS_MAX_DICE
"""Most dice in a quick roll, the same guard as the odds (a typing mistake, not a rule)."""

_QUICK_CLAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dice", re.compile(r"d10(?![a-z0-9])")),  # one die: no number needed
    ("dice", re.compile(r"(?P<n>[-+]?\d+)?\s*(?:dice|die|d10)(?![a-z0-9])")),
    ("other die", re.compile(r"\d*\s*d\d+(?![a-z0-9])")),
    ("difficulty", re.compile(r"(?:difficulty|diff)(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    ("threshold", re.compile(r"threshold(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    ("specialty", re.compile(r"specialty(?![a-z0-9])")),
)


def _quick_refuse_other_die(name: str, part: str) -> None:
    """Refuse any die but a d10 as soon as it is read (Maelstrom rolls d10s only)."""
    if name == "other die":
        raise RuleError(
            f"{part!r}: Maelstrom rolls d10s only; write e.g. '5d10' or '5 dice'",
            _rule("Resolving the Result"),
        )


def quick_roll(text: str, readings: MaelstromReadings = SEED_READINGS) -> ActionPool:
    """Parse the GM's NPC quick roll, e.g. "5 dice diff 7 threshold 1", into a dice pool.

    Grammar (any case; spaces and commas between clauses are free; each clause at most once,
    in any order):

    - the dice, required: ``<n> dice`` (also ``<n> die``), ``<n>d10`` or ``d10`` for one
      die; 1 to :data:`QUICK_ROLL_MAX_DICE` (Maelstrom rules.md, Dice Pool);
    - ``diff <n>`` (also ``difficulty <n>``): 2 to 10, default 6 (Maelstrom rules.md,
      Difficulty);
    - ``threshold <n>``: 0 to :data:`QUICK_ROLL_MAX_DICE`, default 0 (Maelstrom rules.md,
      Threshold);
    - ``specialty``: the NPC uses a specialty, so tens explode (Maelstrom rules.md, Using
      Specialties).

    The campaign's table readings apply as to a player's action (:func:`build_action_pool`):
    tens explode without ``specialty`` under ``tens_explode="always"``, and a roll with
    ``specialty`` does not botch under ``specialty_botch="no_botch"``.

    An NPC rolls a number of dice the storyteller sets, so no traits, wound penalty or
    experience die are involved: the pool is of kind "action", its only trait is "NPC", and
    ``experience_die_allowed`` is False (the experience die banks a player's XP; Maelstrom
    rules.md, Adding Experience Dice). **Decision:** the dice and threshold caps are typing
    guards, not rules; "dif", a bare number ("5 diff 7") or any die but a d10 is refused
    rather than guessed.

    Args:
        text: the notation, e.g. ``"5 dice diff 7 threshold 1"``, ``"5d10 diff 7"`` or
            ``"6 dice diff 8 specialty"``; at most :data:`QUICK_ROLL_MAX_LENGTH` characters.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        An :class:`ActionPool` that :func:`roll` accepts.

    Raises:
        RuleError: empty or over-long text, a part that is not understood, a clause without
            its number or given twice, a die other than a d10, or dice, difficulty or
            threshold out of range; the message quotes the part, e.g. "'dif 7' is not
            understood: write e.g. '5 dice diff 7 threshold 1'".
    """
    clauses = {
        name: (part, match)
        for name, part, match in split_clauses(
            text,
            _QUICK_CLAUSES,
            example=QUICK_ROLL_EXAMPLES[0],
            rule=_rule("Dice Pool"),
            max_length=QUICK_ROLL_MAX_LENGTH,
            minus_signs=False,
            check=_quick_refuse_other_die,
        )
    }
    if "dice" not in clauses:
        raise RuleError(
            f"{text.strip()!r} does not say how many dice: write e.g. {QUICK_ROLL_EXAMPLES[0]!r}",
            _rule("Dice Pool"),
        )
    dice_part, dice_match = clauses["dice"]
    dice = int(dice_match.groupdict().get("n") or "1")
    if not 1 <= dice <= QUICK_ROLL_MAX_DICE:
        raise RuleError(
            f"{dice_part!r}: an NPC quick roll takes 1 to {QUICK_ROLL_MAX_DICE} dice",
            _rule("Dice Pool"),
        )
    difficulty = DEFAULT_DIFFICULTY
    if "difficulty" in clauses:
        part, match = clauses["difficulty"]
        difficulty = int(match.group("n"))
        if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
            raise RuleError(
                f"{part!r}: the difficulty must be between {DIFFICULTY_MIN} and {DIFFICULTY_MAX}",
                _rule("Difficulty"),
            )
    threshold = 0
    if "threshold" in clauses:
        part, match = clauses["threshold"]
        threshold = int(match.group("n"))
        if not 0 <= threshold <= QUICK_ROLL_MAX_DICE:
            raise RuleError(
                f"{part!r}: the threshold must be between 0 and {QUICK_ROLL_MAX_DICE}",
                _rule("Threshold"),
            )
    specialty = "specialty" in clauses
    exploding = specialty or readings.tens_explode == "always"
    botches = not (specialty and readings.specialty_botch == "no_botch")
    notes = ["NPC quick roll: the storyteller sets the dice"]
    if specialty:
        notes.append("specialty: tens explode")
    elif exploding:
        notes.append("Exploding tens without a specialty (table reading)")
    if not botches:
        notes.append("A specialty is used: 1s do not botch (table reading)")
    return ActionPool(
        kind="action",
        dice=dice,
        difficulty=difficulty,
        threshold=threshold,
        exploding=exploding,
        wound_penalty=0,
        traits=("NPC",),
        specialties=(),
        experience_die_allowed=False,
        notes=tuple(notes),
        botches=botches,
    )
