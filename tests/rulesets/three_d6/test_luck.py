"""A 3d6 test's luck: the exact distribution of its total (rulesets/three_d6/luck.py), checked
against every face of every die (the engine's ``resolve_test`` working out each), under each
table reading that changes a total, and its mean against the engine's own seeded rolls."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from rulesets import three_d6
from rulesets.three_d6.luck import total_chances
from rulesets.three_d6.readings import ThreeD6Readings

APART = ThreeD6Readings(favor_disfavor="counted_apart")
FORBIDDEN = ThreeD6Readings(disfavor_critical="forbidden")

POOLS = {
    "3d6 + 2": three_d6.build_test(modifier=2, td=12),
    "3d6 - 4, a contest's": three_d6.build_test(modifier=-4),
    "1 favor": three_d6.build_test(modifier=1, favor=1),
    "2 favor, 1 disfavor": three_d6.build_test(favor=2, disfavor=1),
    "2 disfavor: 1d6": three_d6.build_test(modifier=3, disfavor=2),
    "counted apart, 2 favor and 1 disfavor": three_d6.build_test(favor=2, disfavor=1,
                                                                  readings=APART),
    "counted apart, 1 disfavor": three_d6.build_test(modifier=1, disfavor=1, readings=APART),
    "no critical with disfavor, 2 favor and 1 disfavor": three_d6.build_test(
        favor=2, disfavor=1, readings=FORBIDDEN),
}


def _enumerated(pool: three_d6.TestPool) -> dict[int, Fraction]:
    """Total -> chance, over every face of every die rolled."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=pool.dice):
        total = three_d6.resolve_test(pool, faces).total
        counts[total] = counts.get(total, 0) + 1
    return {total: Fraction(count, 6**pool.dice) for total, count in counts.items()}


@pytest.mark.parametrize("pool", POOLS.values(), ids=POOLS.keys())
def test_the_distribution_is_every_face_of_every_die(pool: three_d6.TestPool) -> None:
    low, chances = total_chances(pool)

    assert {low + i: p for i, p in enumerate(chances) if p} == _enumerated(pool)
    assert sum(chances) == 1


def test_the_readings_change_the_totals_they_say_they_change() -> None:
    # Counted apart, 1 favor and 1 disfavor roll 4d6 and drop the highest: lower totals.
    netted = total_chances(three_d6.build_test(favor=1, disfavor=1))
    apart = total_chances(three_d6.build_test(favor=1, disfavor=1, readings=APART))
    # No critical with disfavor: 2 favor and 1 disfavor never double.
    forbidden = total_chances(three_d6.build_test(favor=2, disfavor=1, readings=FORBIDDEN))

    assert netted != apart
    assert forbidden[0] + len(forbidden[1]) - 1 == 24  # 4d6 at most, never doubled


def test_a_test_of_no_dice_totals_zero_for_certain() -> None:
    assert total_chances(three_d6.build_test(disfavor=3)) == (0, (Fraction(1),))


@pytest.mark.parametrize(
    "pool",
    [three_d6.build_test(modifier=2), three_d6.build_test(favor=2, disfavor=1, readings=APART)],
    ids=["3d6 + 2", "counted apart"],
)
def test_its_mean_is_what_the_engines_own_rolls_average(pool: three_d6.TestPool) -> None:
    low, chances = total_chances(pool)
    mean = sum(((low + i) * p for i, p in enumerate(chances)), Fraction(0))
    variance = sum(((low + i - mean) ** 2 * p for i, p in enumerate(chances)), Fraction(0))
    rng = random.Random(35)
    rolls = 4000

    average = sum(three_d6.roll(pool, rng).total for _ in range(rolls)) / rolls

    assert abs(average - float(mean)) < 4 * math.sqrt(float(variance) / rolls)
