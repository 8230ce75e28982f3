"""3d6's table readings (rulesets/three_d6/readings.py): under the defaults the seed's worked
examples hold (test_three_d6.py: favor and disfavor netted, no critical success with one
disfavor), and under each alternative a worked case differs as the reading says; the odds
under each alternative agree with icepool on small pools, the contest odds with every
combination of dice, and both with the engine's own dice over 200,000 rolls."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import icepool
import pytest

from rulesets import three_d6 as t
from rulesets.errors import RuleError
from rulesets.three_d6 import ThreeD6Readings
from tests.rulesets.three_d6.test_three_d6_sheet_contest_odds import brute_force_win

SEED = ThreeD6Readings()
APART = ThreeD6Readings(favor_disfavor="counted_apart")
FORBIDDEN = ThreeD6Readings(disfavor_critical="forbidden")
BOTH = ThreeD6Readings(favor_disfavor="counted_apart", disfavor_critical="forbidden")


def rolled(*dice: int, readings: ThreeD6Readings = SEED, modifier: int = 0, favor: int = 0,
           disfavor: int = 0, td: int | None = None) -> t.TestResult:
    pool = t.build_test(modifier=modifier, favor=favor, disfavor=disfavor, td=td,
                        readings=readings)
    return t.resolve_test(pool, dice)


# --- a worked case each -----------------------------------------------------------------------


def test_counted_apart_one_favor_and_one_disfavor_roll_4d6_and_lose_the_highest() -> None:
    netted = t.build_test(favor=1, disfavor=1, modifier=1, td=12)
    apart = t.build_test(favor=1, disfavor=1, modifier=1, td=12, readings=APART)
    assert (netted.dice, apart.dice, apart.kept) == (3, 4, 3)
    assert apart.describe() == ("Test: 4d6 + 1 vs TD 12 (1 favor, 1 disfavor, table reading: "
                                "the highest die rolled is removed)")
    result = t.resolve_test(apart, (6, 2, 5, 3))
    assert (result.kept, result.dropped, result.total, result.outcome) == (
        (2, 5, 3), (0,), 11, "failure")
    # The same faces on 3d6 netted would have been a success: 6 + 2 + 5 + 1 = 14.
    assert t.resolve_test(netted, (6, 2, 5)).outcome == "success"


def test_counted_apart_criticals_are_judged_on_the_dice_kept() -> None:
    # "If you had a point of disfavor on a test and you rolled a 2, you would have rolled a
    # critical failure": counted apart, 3d6 lose the highest and the two 1s left are the 2.
    assert rolled(1, 4, 1, disfavor=1, readings=APART).critical_failure
    # Four 6s on 2 favor and 1 disfavor: one 6 goes (the last rolled), three are kept.
    high = rolled(6, 6, 6, 6, 2, favor=2, disfavor=1, readings=APART)
    assert high.dropped == (3,) and high.critical_success and high.value == 40
    # Three 6s among four dice: the highest removed is a 6, so no critical success.
    assert not rolled(6, 6, 3, 6, favor=1, disfavor=1, readings=APART).critical_success
    # Too much disfavor rolls nothing, as netted.
    assert t.build_test(favor=1, disfavor=4, readings=APART).dice == 0


def test_any_disfavor_forbids_a_critical_success_when_the_table_reads_it_so() -> None:
    seed = rolled(6, 6, 6, 2, favor=2, disfavor=1, td=30)
    forbidden = rolled(6, 6, 6, 2, favor=2, disfavor=1, td=30, readings=FORBIDDEN)
    assert (seed.critical_success, seed.value, seed.outcome) == (True, 40, "success")
    assert (forbidden.critical_success, forbidden.value, forbidden.outcome) == (
        False, 20, "failure")
    assert forbidden.pool.describe().endswith(
        "(2 favor, 1 disfavor, table reading: no critical success with disfavor)")
    # Without disfavor the reading changes nothing.
    assert rolled(6, 6, 6, readings=FORBIDDEN).critical_success
    assert t.odds(td=10, favor=1, disfavor=1, readings=FORBIDDEN).critical_success == 0
    assert t.odds(td=10, favor=1, disfavor=1).critical_success == Fraction(1, 216)


def test_a_stored_test_resolves_again_under_the_readings_it_was_made_under() -> None:
    made = rolled(6, 6, 6, 6, 2, favor=2, disfavor=1, td=30, readings=BOTH)
    stored = made.as_dict()
    assert stored["pool"]["favor_disfavor"] == "counted_apart"  # type: ignore[index]
    assert stored["pool"]["disfavor_critical"] == "forbidden"  # type: ignore[index]
    assert stored["dropped"] == [3]
    again = t.TestResult.from_dict(stored)
    assert again == made and (again.value, again.outcome) == (20, "failure")
    # A test stored under the seed's readings holds neither key, as before readings existed.
    seed = rolled(6, 6, 6, 2, favor=2, disfavor=1, td=30).as_dict()
    assert "favor_disfavor" not in seed["pool"] and "dropped" not in seed  # type: ignore[operator]
    with pytest.raises(RuleError, match="'sometimes' is not one of"):
        t.TestPool.from_dict({**stored["pool"], "favor_disfavor": "sometimes"})  # type: ignore[dict-item]


def test_the_npc_quick_roll_follows_the_readings() -> None:
    assert t.quick_roll("3d6+2 favor 1 disfavor 1").dice == 3
    assert t.quick_roll("3d6+2 favor 1 disfavor 1", APART).dice == 4


# --- odds under every alternative -------------------------------------------------------------


def _icepool_test(rolled_dice: int, kept: int, modifier: int, critical_allowed: bool
                  ) -> tuple[icepool.Die, icepool.Die, icepool.Die]:
    """(total, critical success, critical failure) as icepool dice, the lowest ``kept`` of
    ``rolled_dice`` d6s counted, scored from the seed's sentences (not the engine's code)."""

    def lowest(faces: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(faces))[:kept]

    def total(faces: tuple[int, ...]) -> int:
        dice = lowest(faces)
        if all(face == 1 for face in dice):
            return 0
        return sum(dice) * (2 if critical_allowed and dice.count(6) >= 3 else 1) + modifier

    expanded = icepool.d6.pool(rolled_dice).expand()
    return (expanded.map(total),
            expanded.map(lambda faces: critical_allowed and lowest(faces).count(6) >= 3),
            expanded.map(lambda faces: all(face == 1 for face in lowest(faces))))


@pytest.mark.parametrize(
    ("td", "modifier", "favor", "disfavor", "readings"),
    [
        (10, 0, 1, 1, APART),
        (8, 1, 0, 1, APART),
        (12, 0, 2, 2, APART),
        (20, 0, 2, 1, BOTH),
        (25, 0, 2, 1, FORBIDDEN),
    ],
)
def test_the_odds_under_each_reading_agree_with_icepool(
    td: int, modifier: int, favor: int, disfavor: int, readings: ThreeD6Readings
) -> None:
    pool = t.build_test(modifier=modifier, favor=favor, disfavor=disfavor, readings=readings)
    # Rolled and kept written out again here: counted apart rolls 3 + favor, netted the rest.
    rolled_dice = 3 + favor - (0 if readings.favor_disfavor == "counted_apart" else disfavor)
    kept = 3 + favor - disfavor
    allowed = not (readings.disfavor_critical == "forbidden" and disfavor)
    totals, critical_success, critical_failure = _icepool_test(rolled_dice, kept, modifier,
                                                               allowed)
    ours = t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor, readings=readings)
    assert pool.dice == ours.dice == rolled_dice
    assert abs(float(ours.success) - totals.probability(">=", td)) < 1e-9
    assert abs(float(ours.critical_success) - critical_success.probability(True)) < 1e-9
    assert abs(float(ours.critical_failure) - critical_failure.probability(True)) < 1e-9
    distribution = t.total_distribution(modifier=modifier, favor=favor, disfavor=disfavor,
                                        readings=readings)
    assert list(distribution) == sorted(totals.outcomes())
    for total, probability in distribution.items():
        assert abs(float(probability) - totals.probability(total)) < 1e-9


def test_the_contest_odds_counted_apart_match_every_combination_of_dice() -> None:
    first = t.build_test(modifier=2, disfavor=1, readings=APART)
    second = t.build_test(modifier=6, disfavor=2, readings=APART)
    facts = (t.TieFacts(is_pc=True, modifier=2), t.TieFacts(is_pc=False, modifier=6))

    odds = t.contest_odds(first, second, *facts)

    assert odds.win == brute_force_win(first, second, *facts)
    netted = t.contest_odds(t.build_test(modifier=2, disfavor=1),
                            t.build_test(modifier=6, disfavor=2), *facts)
    assert odds.win != netted.win


def test_the_engines_own_rolls_agree_with_the_readings_odds_over_200000_rolls() -> None:
    # 100,000 tests each: 2 favor and 1 disfavor counted apart, and netted with no critical
    # success under disfavor.
    rng = random.Random(20261208)
    rolls = 100_000
    for readings, td in ((APART, 12), (FORBIDDEN, 25)):
        pool = t.build_test(favor=2, disfavor=1, td=td, readings=readings)
        seen = {"success": 0, "critical_success": 0, "critical_failure": 0}
        for _ in range(rolls):
            result = t.roll_test(pool, rng)
            seen["success"] += result.success
            seen["critical_success"] += result.critical_success
            seen["critical_failure"] += result.critical_failure
        exact = t.odds(td=td, favor=2, disfavor=1, readings=readings)
        for name, count in seen.items():
            p = float(getattr(exact, name))
            error = math.sqrt(p * (1 - p) / rolls)
            assert abs(count / rolls - p) <= 4 * error + 1e-12, (readings, name)


def test_the_odds_query_takes_the_readings_as_keys() -> None:
    query = {"td": 12, "favor": 1, "disfavor": 1}
    apart = t.odds_query({**query, "favor_disfavor": "counted_apart"})
    assert apart == t.odds(td=12, favor=1, disfavor=1, readings=APART).as_dict()
    assert apart != t.odds_query(query)
    forbidden = t.odds_query({**query, "disfavor_critical": "forbidden"})
    assert forbidden["critical_success"] == 0
    with pytest.raises(RuleError, match="'sometimes' is not one of"):
        t.odds_query({**query, "favor_disfavor": "sometimes"})
