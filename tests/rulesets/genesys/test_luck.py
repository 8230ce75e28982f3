"""A Genesys roll's luck (rulesets/genesys/luck.py): the exact distribution of net successes
for the pool as rolled, checked against icepool over the RULES.md face table restated here,
and its mean against the engine's own dice."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import icepool
import pytest

from rulesets import genesys as g
from rulesets.genesys import GenesysReadings
from rulesets.luck import RollLuck

# RULES.md section 4's faces, restated: S success, F failure, T triumph (also a success),
# X despair (also a failure); advantage and threat do not count here and are left out.
FACES = {
    "boost": ["", "", "S", "S", "", ""],
    "setback": ["", "", "F", "F", "", ""],
    "ability": ["", "S", "S", "SS", "", "", "S", ""],
    "difficulty": ["", "F", "FF", "", "", "", "", "F"],
    "proficiency": ["", "S", "S", "SS", "SS", "", "S", "S", "S", "", "", "T"],
    "challenge": ["", "F", "F", "FF", "FF", "", "", "F", "F", "", "", "X"],
}


def reference(pool: g.DicePool) -> dict[int, Fraction]:
    """Net successes of ``pool`` by icepool: each die a die of its faces' net count."""
    total = icepool.Die([0])
    for die, count in pool.counts().items():
        net = icepool.Die([f.count("S") + f.count("T") - f.count("F") - f.count("X")
                           for f in FACES[die]])
        for _ in range(count):
            total = total + net
    return {value: Fraction(quantity, total.denominator()) for value, quantity in total.items()}


def as_dict(luck: RollLuck) -> dict[int, Fraction]:
    """The chances by value, zeros left out."""
    return {luck.low + i: p for i, p in enumerate(luck.chances) if p}


@pytest.mark.parametrize("notation", ["2A 1D", "1A", "2A 1P 2D", "3A 2P 3D 2C 2B 2S",
                                      "1P 1C", "4D 1C", "2B 2S"])
def test_the_distribution_agrees_with_icepool(notation: str) -> None:
    pool = g.parse_pool(notation)

    luck = g.pool_luck(pool, 0)

    assert as_dict(luck) == reference(pool)
    assert sum(luck.chances) == 1
    assert luck.measure == "net successes"


def test_a_check_with_upgrades_downgrades_and_removals_is_measured_as_built() -> None:
    pool = g.build_pool(characteristic="Agility", characteristic_rating=3, skill="Ranged",
                        skill_ranks=1, difficulty="Hard", destiny_dark=True, boost=1,
                        setback=2, downgrade_proficiency=1, removals={"setback": 1})

    assert pool.counts() == {"ability": 3, "proficiency": 0, "difficulty": 2, "challenge": 1,
                             "boost": 1, "setback": 1}
    assert as_dict(g.pool_luck(pool, 0)) == reference(pool)


def test_two_ability_against_one_difficulty_succeeds_295_times_in_512() -> None:
    # RULES.md, Worked numbers: P(success) of 2 ability vs 1 difficulty is 295/512.
    luck = g.pool_luck(g.parse_pool("2A 1D"), 0)

    assert sum(p for i, p in enumerate(luck.chances) if luck.low + i >= 1) == Fraction(295, 512)


def test_boost_and_setback_cancelled_by_the_table_are_not_counted() -> None:
    apart = g.build_pool(characteristic="Brawn", characteristic_rating=2, boost=2, setback=1)
    cancel = g.build_pool(characteristic="Brawn", characteristic_rating=2, boost=2, setback=1,
                          readings=GenesysReadings(boost_setback="cancel"))

    assert as_dict(g.pool_luck(cancel, 0)) == reference(g.parse_pool("2A 2D 1B"))
    assert as_dict(g.pool_luck(apart, 0)) == reference(g.parse_pool("2A 2D 2B 1S"))


def test_an_impossible_tasks_point_upgrades_a_die_unless_the_table_reads_it_attempt_only() -> None:
    def impossible(reading: str) -> g.DicePool:
        return g.build_pool(characteristic="Cunning", characteristic_rating=3,
                            difficulty="Impossible", destiny_light=True,
                            readings=GenesysReadings(impossible_destiny=reading))

    assert as_dict(g.pool_luck(impossible("upgrades"), 0)) == reference(
        g.parse_pool("2A 1P 5D"))
    assert as_dict(g.pool_luck(impossible("attempt_only"), 0)) == reference(
        g.parse_pool("3A 5D"))


def test_a_pool_with_every_die_cancelled_gives_none_for_sure() -> None:
    pool = g.quick_roll("1B vs 1S", GenesysReadings(boost_setback="cancel"))

    luck = g.pool_luck(pool, 0)

    assert (luck.low, luck.chances, luck.expected) == (0, (Fraction(1),), 0)


def test_a_stored_roll_gives_the_net_successes_its_faces_show() -> None:
    pool = g.parse_pool("2A 1P 2D 1C")
    rolled = g.roll(pool, random.Random(3))

    luck = g.result_luck(rolled.as_dict())

    assert luck.actual == rolled.tally.net_successes
    assert as_dict(luck) == reference(pool)


@pytest.mark.parametrize("notation", ["2A 1P 2D 1C 1B 1S", "3A 4D 2S"])
def test_the_mean_agrees_with_the_engines_own_rolls(notation: str) -> None:
    pool = g.parse_pool(notation)
    luck = g.pool_luck(pool, 0)
    variance = sum((luck.low + i - luck.expected) ** 2 * p for i, p in enumerate(luck.chances))
    rng = random.Random(20261207)
    n = 4_000

    mean = sum(g.roll(pool, rng).tally.net_successes for _ in range(n)) / n

    # Four standard errors of the mean: a fixed seed, so this never flips by chance.
    assert abs(mean - float(luck.expected)) <= 4 * math.sqrt(float(variance) / n)
