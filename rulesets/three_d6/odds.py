"""Exact odds of a 3d6 test and of a contest, and the odds query of the ``odds`` command
(3d6 Rolls and Tests, Test Difficulty; Favor and Disfavor; Critical Successes and
Failures; Contesting; Tie Breakers), under the campaign's table readings
(:mod:`rulesets.three_d6.readings`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from rulesets.query import Parameter, read_query
from rulesets.three_d6.catalogue import CRITICAL_SIXES, DIE_SIDES, MAX_FAVOR
from rulesets.three_d6.contests import TieFacts, tie_break
from rulesets.three_d6.pools import TestPool, _check_td, build_test
from rulesets.three_d6.readings import (
    DISFAVOR_CRITICAL,
    FAVOR_DISFAVOR,
    SEED_READINGS,
    ThreeD6Readings,
)
from rulesets.three_d6.rolling import _roll_value, _total

# ---------------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------------


def _outcome_counts(dice: int) -> dict[tuple[int, int], int]:
    """Ways ``dice`` d6s make each (sum, sixes capped at 3), out of ``6 ** dice``.

    A dynamic programme over the dice, one die at a time: at most 6 * dice * 4 states, where
    enumerating faces would take 6 ** dice steps.
    """
    counts: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(dice):
        following: dict[tuple[int, int], int] = {}
        for (dice_sum, sixes), ways in counts.items():
            for face in range(1, DIE_SIDES + 1):
                key = (dice_sum + face, min(CRITICAL_SIXES, sixes + (face == DIE_SIDES)))
                following[key] = following.get(key, 0) + ways
        counts = following
    return counts


def _kept_counts(rolled: int, kept: int) -> dict[tuple[int, int], int]:
    """Ways ``rolled`` d6s make each (sum, sixes capped at 3) of their ``kept`` lowest dice,
    out of ``6 ** rolled``: disfavor counted apart removes the highest.

    A dynamic programme over the faces, lowest first: how many dice show each face (with the
    ways to place them among the dice), and of those the ones still among the ``kept``
    lowest; at most 6 * rolled * (6 * kept) * 4 states.
    """
    # (dice placed so far, sum kept, sixes kept) -> ways
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for face in range(1, DIE_SIDES + 1):
        following: dict[tuple[int, int, int], int] = {}
        for (placed, dice_sum, sixes), ways in states.items():
            left = rolled - placed
            for count in range(left + 1) if face < DIE_SIDES else (left,):
                counted = min(count, max(0, kept - placed))
                key = (placed + count, dice_sum + face * counted,
                       min(CRITICAL_SIXES, sixes + counted * (face == DIE_SIDES)))
                following[key] = following.get(key, 0) + ways * comb(left, count)
        states = following
    return {(dice_sum, sixes): ways for (_, dice_sum, sixes), ways in states.items()}


def _pool_counts(pool: TestPool) -> dict[tuple[int, int], int]:
    """Ways the pool's dice make each (sum, sixes capped at 3) of the dice kept, out of
    ``6 ** pool.dice``."""
    if pool.dropped:
        return _kept_counts(pool.dice, pool.kept)
    return _outcome_counts(pool.dice)


def total_distribution(
    *, modifier: int = 0, favor: int = 0, disfavor: int = 0,
    readings: ThreeD6Readings = SEED_READINGS,
) -> dict[int, Fraction]:
    """Exact distribution of a test's total (value + modifier, 0 on a critical failure).

    The rules are those of :func:`resolve_test` (3d6 Rolls and Tests, Rolls and Tests;
    Favor and Disfavor; Critical Successes and Failures), under the table ``readings``. A
    zero-dice test gives ``{0: 1}``.

    Args:
        modifier: added to the roll (whole number).
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        total -> probability (Fraction), keys ascending, zero-probability totals left out;
        the probabilities sum to exactly 1.

    Raises:
        RuleError: favor or disfavor below 0 or above :data:`MAX_FAVOR`.
    """
    pool = build_test(modifier=modifier, favor=favor, disfavor=disfavor, readings=readings)
    whole = DIE_SIDES**pool.dice
    ways: dict[int, int] = {}
    for (dice_sum, sixes), count in _pool_counts(pool).items():
        value, _, critical_failure = _roll_value(dice_sum, sixes, pool.kept,
                                                 pool.critical_allowed)
        total = _total(value, modifier, critical_failure, pool.kept)
        ways[total] = ways.get(total, 0) + count
    return {total: Fraction(ways[total], whole) for total in sorted(ways)}


@dataclass(frozen=True)
class TestOdds:
    """Exact odds of one test.

    Attributes:
        td: the test difficulty.
        modifier: added to the roll.
        favor: points of favor.
        disfavor: points of disfavor.
        dice: d6s rolled (3 + favor - disfavor, at least 0; 3 + favor when disfavor is
            counted apart and leaves a die).
        success: P(total >= TD), a Fraction.
        critical_success: P(three or more 6s), a Fraction.
        critical_failure: P(every die a 1), a Fraction (0 with zero dice).
    """

    __test__ = False  # not a pytest test class despite its name

    td: int
    modifier: int
    favor: int
    disfavor: int
    dice: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction

    def as_dict(self) -> dict[str, object]:
        """The command-line JSON shape: ``{"success", "critical_success",
        "critical_failure"}``, each a float probability."""
        return {
            "success": float(self.success),
            "critical_success": float(self.critical_success),
            "critical_failure": float(self.critical_failure),
        }


def odds(td: int, modifier: int = 0, favor: int = 0, disfavor: int = 0,
         readings: ThreeD6Readings = SEED_READINGS) -> TestOdds:
    """Exact chance of success, of a critical success and of a critical failure of a test.

    Same rules as :func:`resolve_test` (3d6 Rolls and Tests, Test Difficulty; Favor and
    Disfavor; Critical Successes and Failures), computed by a dynamic programme over the dice
    with the state (sum, sixes capped at 3); "every die a 1" is the state whose sum equals the
    number of dice. With disfavor counted apart (a table reading) the programme runs over the
    faces instead, keeping the lowest dice. Exact (Fractions), no sampling; timings:
    docs/performance.md, "Exact odds".

    Args:
        td: test difficulty, >= 1.
        modifier: added to the roll (whole number).
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.
        readings: the campaign's table readings (the seed's by default).

    Returns:
        A :class:`TestOdds`.

    Raises:
        RuleError: a TD below 1, or favor or disfavor below 0 or above :data:`MAX_FAVOR`; the
            message names the value.
    """
    _check_td(td)
    pool = build_test(modifier=modifier, favor=favor, disfavor=disfavor, readings=readings)
    dice = pool.dice
    whole = DIE_SIDES**dice
    success = critical_success = critical_failure = 0
    for (dice_sum, sixes), count in _pool_counts(pool).items():
        value, is_critical_success, is_critical_failure = _roll_value(
            dice_sum, sixes, pool.kept, pool.critical_allowed)
        if _total(value, modifier, is_critical_failure, pool.kept) >= td:
            success += count
        critical_success += count * is_critical_success
        critical_failure += count * is_critical_failure
    return TestOdds(
        td=td,
        modifier=modifier,
        favor=favor,
        disfavor=disfavor,
        dice=dice,
        success=Fraction(success, whole),
        critical_success=Fraction(critical_success, whole),
        critical_failure=Fraction(critical_failure, whole),
    )


@dataclass(frozen=True)
class ContestOdds:
    """Exact odds of a contest between two tests, seen from the first side.

    Attributes:
        win: P(the first side wins), ties settled by the tie-breakers (a random draw counts
            as one half), a Fraction.
        lose: P(the second side wins) = 1 - win, a Fraction.
        tie: P(both reach the same final number), a Fraction (part of ``win`` or ``lose``).
        tie_decided_by: how a tie is settled for these two sides (see :func:`tie_break`).
        tie_winner: 1 or 2, or None when a tie goes to a random draw.
    """

    win: Fraction
    lose: Fraction
    tie: Fraction
    tie_decided_by: str
    tie_winner: int | None


def _contest_ways(pool: TestPool) -> tuple[list[tuple[tuple[bool, int], int]], int]:
    """``([((rolled at all?, total), ways), ...], whole)``: the pool's outcomes as whole
    numbers of ways out of ``whole``, keys ascending in the order :func:`resolve_contest`
    compares them."""
    if pool.automatic_failure:
        return [((False, 0), 1)], 1
    whole = DIE_SIDES**pool.dice
    distribution = total_distribution(
        modifier=pool.modifier, favor=pool.favor, disfavor=pool.disfavor, readings=pool.readings
    )
    return [((True, total), p.numerator * (whole // p.denominator))
            for total, p in distribution.items()], whole


def contest_odds(first: TestPool, second: TestPool, first_facts: TieFacts,
                 second_facts: TieFacts) -> ContestOdds:
    """Exact chance that the first side wins a contest (3d6 Rolls and Tests, Contesting;
    Tie Breakers), by the same rules as :func:`resolve_contest`: the higher total wins, a
    side with no dice loses to any side that rolled, and a tie goes to the tie-breakers (a
    random draw is worth one half). Each side's totals follow the table readings its pool was
    built under (:attr:`TestPool.readings`).

    Args:
        first: the first side's test (its TD, if any, is ignored).
        second: the second side's test.
        first_facts: the first side's tie-breaking facts (its ``modifier`` is compared).
        second_facts: the second side's.

    Returns:
        A :class:`ContestOdds`.

    Raises:
        RuleError: a pool's favor or disfavor outside 0 to :data:`MAX_FAVOR` (possible only
            for a pool not made by :func:`build_test`).
    """
    # One merge of the two outcome lists (keys ascending) in whole numbers of ways: the ways
    # the other side stays below each of my keys accumulate as it goes, so 23 dice a side
    # take one pass, not a product of the two lists in Fractions.
    mine, whole_mine = _contest_ways(first)
    theirs, whole_theirs = _contest_ways(second)
    above = tie = below = j = 0
    for key, ways in mine:
        while j < len(theirs) and theirs[j][0] < key:
            below += theirs[j][1]
            j += 1
        above += ways * below
        if j < len(theirs) and theirs[j][0] == key:
            tie += ways * theirs[j][1]
    whole = whole_mine * whole_theirs
    tie_chance = Fraction(tie, whole)
    winner, decided_by = tie_break(first_facts, second_facts)
    share = Fraction(1, 2) if winner is None else Fraction(1 if winner == 1 else 0)
    win = Fraction(above, whole) + tie_chance * share
    return ContestOdds(win=win, lose=1 - win, tie=tie_chance, tie_decided_by=decided_by,
                       tie_winner=winner)


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("td", int, None, "test difficulty, the total needed to succeed (1 or more)"),
    Parameter("modifier", int, 0, "added to the roll (may be negative)"),
    Parameter("favor", int, 0, f"points of favor, one extra d6 each (0-{MAX_FAVOR})"),
    Parameter("disfavor", int, 0, f"points of disfavor, one d6 fewer each (0-{MAX_FAVOR})"),
    FAVOR_DISFAVOR.odds_parameter,
    DISFAVOR_CRITICAL.odds_parameter,
)
"""The odds query's parameters: ``--td 12 --modifier 1 --favor 1 --disfavor 0``, and the table
readings (:mod:`rulesets.three_d6.readings`): ``--favor-disfavor counted_apart
--disfavor-critical forbidden``."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query from the command line or a batch line.

    Args:
        query: e.g. ``{"td": 12, "modifier": 1, "favor": 1, "disfavor": 0}``; a "system" key
            is ignored; modifier, favor and disfavor default to 0; the table readings
            ``favor_disfavor`` and ``disfavor_critical`` default to the seed's.

    Returns:
        ``{"success": p, "critical_success": p, "critical_failure": p}`` (floats).

    Raises:
        RuleError: a bad key or value type (see :func:`rulesets.query.read_query`), a value
            :func:`odds` rejects, or a reading that is not one of its choices.
    """
    values = read_query(query, ODDS_PARAMETERS)
    return odds(
        td=_query_int(values, "td"),
        modifier=_query_int(values, "modifier"),
        favor=_query_int(values, "favor"),
        disfavor=_query_int(values, "disfavor"),
        readings=ThreeD6Readings.from_query(values),
    ).as_dict()


def _query_int(values: Mapping[str, int | str | bool], name: str) -> int:
    value = values[name]
    assert isinstance(value, int) and not isinstance(value, bool)  # read_query checked it
    return value
