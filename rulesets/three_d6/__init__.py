"""Rules engine for the 3d6 tests of an unnamed system ("Rolls And Tests").

The seed text (seed 002, ``002_6302363384505e15.txt``, cited below as "3d6 Rolls and Tests,
<section>") is the authority; docs/systems/three_d6.md summarises it. Where the seed is
silent, the decision taken is written in the docstring of the function concerned and
collected here:

- Favor and disfavor are netted: a test rolls ``3 + favor - disfavor`` d6s, never fewer than
  0 (only the net matters, so one favor and one disfavor roll 3d6). A campaign may count them
  apart (3 + favor d6s, disfavor removing the highest) or let any disfavor rule out a
  critical success: the table readings of :mod:`~rulesets.three_d6.readings`.
- Zero dice: nothing is rolled and the test fails automatically. It is *not* a critical
  failure (no die shows a 1); its total is 0. In a contest a side that rolled no dice loses
  to any side that rolled, whatever the totals.
- A critical success doubles the roll before modifiers; it is *not* automatically a success:
  the doubled roll plus the modifier is still compared with the test difficulty.
- A critical failure is always a failure: its total is 0 and a test difficulty is at least 1.
- Favor and disfavor are capped at :data:`MAX_FAVOR` points each: an engine limit, not a rule.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: dice are d6s unless named (``"d8"``, ``"d%"``); a roll's
value, total, modifier and test difficulty (TD) are points on the same scale as the dice sum.
Every rule violation raises :class:`RuleError`, whose message a player can read and whose
``rule`` names the seed section.

The package splits the engine by concern; every public name is re-exported here, so
``from rulesets import three_d6; three_d6.build_test(...)`` is the way callers use it:
:mod:`~rulesets.three_d6.catalogue` (the constants of a test, the dice vocabulary),
:mod:`~rulesets.three_d6.pools` (building a test), :mod:`~rulesets.three_d6.rolling`
(rolling and working out a test), :mod:`~rulesets.three_d6.contests` (contests and
tie-breakers), :mod:`~rulesets.three_d6.odds` (exact odds and the odds query),
:mod:`~rulesets.three_d6.quick` (the NPC quick roll) and :mod:`~rulesets.three_d6.readings`
(the rules a campaign may read another way).
"""

from __future__ import annotations

from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.three_d6.catalogue import (
    BASE_DICE,
    CRITICAL_SIXES,
    DICE_VOCABULARY,
    DIE_SIDES,
    MAX_FAVOR,
    PERCENTILE,
    SOURCE,
    SUBTRAIT_COUNT,
    SYSTEM,
    TD_MIN,
    TRAIT_COUNT,
    describe_dice,
    die_faces,
)
from rulesets.three_d6.contests import (
    CONTEST_DECIDERS,
    ContestResult,
    ContestSide,
    TieFacts,
    resolve_contest,
    tie_break,
)

# The function odds() shadows the submodule rulesets.three_d6.odds as a package attribute: the
# submodule is loaded (and the attribute set to it) by this very import, before the name is
# rebound, so ``three_d6.odds`` stays the function callers use.
from rulesets.three_d6.odds import (
    ODDS_PARAMETERS,
    ContestOdds,
    TestOdds,
    contest_odds,
    odds,
    odds_query,
    total_distribution,
)
from rulesets.three_d6.pools import TestPool, build_test, dice_count
from rulesets.three_d6.quick import (
    QUICK_ROLL_EXAMPLES,
    QUICK_ROLL_MAX_LENGTH,
    QUICK_ROLL_MAX_NUMBER,
    quick_roll,
)
from rulesets.three_d6.readings import ThreeD6Readings
from rulesets.three_d6.rolling import (
    OUTCOMES,
    TestResult,
    resolve_test,
    roll,
    roll_dice,
    roll_test,
)

READINGS = ThreeD6Readings
"""The system's table readings (:class:`~rulesets.three_d6.readings.ThreeD6Readings`)."""

__all__ = [
    "READINGS",
    "ThreeD6Readings",
    # catalogue
    "BASE_DICE",
    "CRITICAL_SIXES",
    "DICE_VOCABULARY",
    "DIE_SIDES",
    "MAX_FAVOR",
    "PERCENTILE",
    "SOURCE",
    "SUBTRAIT_COUNT",
    "SYSTEM",
    "TD_MIN",
    "TRAIT_COUNT",
    "describe_dice",
    "die_faces",
    # pools
    "TestPool",
    "build_test",
    "dice_count",
    # rolling
    "OUTCOMES",
    "TestResult",
    "resolve_test",
    "roll",
    "roll_dice",
    "roll_test",
    # contests
    "CONTEST_DECIDERS",
    "ContestResult",
    "ContestSide",
    "TieFacts",
    "resolve_contest",
    "tie_break",
    # odds
    "ODDS_PARAMETERS",
    "ContestOdds",
    "TestOdds",
    "contest_odds",
    "odds",
    "odds_query",
    "total_distribution",
    # quick
    "QUICK_ROLL_EXAMPLES",
    "QUICK_ROLL_MAX_LENGTH",
    "QUICK_ROLL_MAX_NUMBER",
    "quick_roll",
    # errors
    "RuleError",
]
