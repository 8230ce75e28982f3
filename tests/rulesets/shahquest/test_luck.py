"""A Shahquest roll's luck (rulesets/shahquest/luck.py): its best effort total against the
exact distribution of that total for the dice it rolled, checked against brute-force
enumeration, icepool and a seeded simulation of the engine's own roll. Plain pytest, no
database."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import product

import icepool
import pytest

from rulesets import shahquest as sq
from rulesets.luck import RollLuck
from rulesets.shahquest import DicePool, Feature, RollResult, ShahquestReadings, TensionPool
from tests.rulesets.helpers import ScriptedRng

NO_EFFECT = ShahquestReadings(effect_die_default="no_effect")
COORDINATION = Feature(type="attribute", name="Coordination", die=10)
PARTNER = Feature(type="affiliation", name="Partner", die=6)
PHYSICAL = Feature(type="skill", name="Physical", die=8)

# Pools as the sheet builds them, every modifier a Shahquest pool knows in its dice.
MODIFIED_POOLS: dict[str, DicePool] = {
    "the seed's example (Athletics spreads Physical, a d6 setting die)": sq.build_pool(
        [COORDINATION, PARTNER, sq.quirk("I've got your back"),
         Feature(type="skill", name="Physical", die=8, specialization="Athletics",
                 specialization_use="spread")], setting_die=6),
    "a specialization stepping up, and a push die": sq.build_pool(
        [COORDINATION, Feature(type="skill", name="Physical", die=8,
                               specialization="Athletics", specialization_use="step_up")],
        push_die=True, plot_points=1),
    "a quirk in the negative, a stepped up push die and a step up": sq.build_pool(
        [Feature(type="attribute", name="Wits", die=6, step_ups=1),
         sq.quirk("Hot-headed", negative=True), PHYSICAL], stepped_up_push_die=True),
    "a large creature's 3d12 Solo": sq.build_pool(
        [Feature(type="affiliation", name="Solo", die=12, count=3)]),
    "general danger: the tension pool, a setting die and a complication": TensionPool(
        dice=(8, 6, 6)).danger_pool(setting_die=4, complications=(10,)),
}


def _result(pool: DicePool, faces: tuple[int, ...]) -> RollResult:
    return sq.roll(pool, ScriptedRng(*faces))


def _best_effort(faces: tuple[int, ...]) -> int:
    """The seed's rule, written again: set aside the 1s, add the two highest faces left."""
    return sum(sorted((face for face in faces if face != 1), reverse=True)[:2])


def _enumerated(sizes: tuple[int, ...]) -> dict[int, Fraction]:
    outcomes = list(product(*(range(1, size + 1) for size in sizes)))
    counts: dict[int, int] = {}
    for faces in outcomes:
        counts[_best_effort(faces)] = counts.get(_best_effort(faces), 0) + 1
    return {total: Fraction(count, len(outcomes)) for total, count in counts.items()}


def _chances(luck: RollLuck) -> dict[int, Fraction]:
    return {luck.low + i: p for i, p in enumerate(luck.chances) if p}


@pytest.mark.parametrize("sizes", [(4,), (6, 4), (12, 4), (8, 6, 4), (10, 8, 8, 6)])
def test_the_distribution_is_the_enumeration_of_every_face(sizes: tuple[int, ...]) -> None:
    luck = sq.effort_luck(_result(sq.pool_from_dice(sizes), tuple(1 for _ in sizes)))

    assert _chances(luck) == _enumerated(sizes)
    assert sum(luck.chances) == 1


@pytest.mark.parametrize("name", MODIFIED_POOLS)
def test_a_modified_pool_agrees_with_icepool(name: str) -> None:
    pool = MODIFIED_POOLS[name]
    luck = sq.effort_luck(_result(pool, tuple(1 for _ in pool.sizes)))

    dice = [icepool.d(size).map(lambda face: 0 if face == 1 else face) for size in pool.sizes]
    reference = icepool.Pool(dice).highest(2).sum()
    expected = {total: Fraction(reference.probability(total)) for total in reference.outcomes()}
    assert _chances(luck) == {total: p for total, p in expected.items() if p}


def test_the_seeds_example_gives_its_effort_and_the_chances_run_from_0_to_the_largest_total(
) -> None:
    """d10, 3d8, d6 showing 7, 2, 1, 3, 4: effort 7 + 4 = 11 (Shahquest wiki, Dice Pools)."""
    luck = sq.effort_luck(_result(sq.pool_from_dice("d10 3d8 d6"), (7, 2, 1, 3, 4)))

    assert (luck.measure, luck.actual, luck.low) == ("effort", 11, 0)
    assert len(luck.chances) == 10 + 8 + 1  # 0 to 18, the d10 and a d8 at their highest
    assert luck.chances[0] == Fraction(1, 10 * 8 ** 3 * 6)  # every die shows 1
    assert luck.chances[1] == 0  # no pool makes an effort of 1


def test_actual_is_the_best_effort_the_dice_offered_not_the_players_choice() -> None:
    """The luck of the dice: a player who keeps the d10's 7 as the effect die (or buys a third
    effort die) chose, the dice did not change."""
    rolled = _result(sq.pool_from_dice("d10 3d8 d6"), (7, 2, 1, 3, 4))
    chosen = sq.choose_dice(rolled, effort=[3, 4], effect=[0])

    assert chosen.effort == 7
    assert sq.effort_luck(chosen).actual == 11


def test_every_die_showing_1_is_an_effort_of_0() -> None:
    assert sq.effort_luck(_result(sq.pool_from_dice("d8 d6"), (1, 1))).actual == 0


def test_the_table_reading_of_no_effect_die_leaves_the_effort_distribution_as_it_is() -> None:
    """The one reading says what the effect die is when none is left, never the effort."""
    pool = sq.pool_from_dice("d8 d6 d4")
    faces = (5, 1, 3)

    seed = sq.effort_luck(_result(pool, faces))
    read = sq.effort_luck(_result(pool.under(NO_EFFECT), faces), readings=NO_EFFECT)

    assert read == seed


def test_a_pool_past_the_odds_querys_limit_is_still_measured() -> None:
    """A stored general danger roll may hold 40 tension dice, a setting die and complications:
    more than the 60 dice the odds query accepts."""
    pool = TensionPool(dice=(6,) * 40).danger_pool(setting_die=12, complications=(8,) * 40)
    luck = sq.effort_luck(_result(pool, tuple(2 for _ in pool.sizes)))

    assert luck.actual == 4
    assert sum(luck.chances) == 1
    assert len(luck.chances) == 12 + 8 + 1


@pytest.mark.parametrize("pool", ["d10 3d8 d6", "d4 d4", "d12 d8 d6 d6 d4"])
def test_the_mean_agrees_with_4000_rolls_of_the_engine(pool: str) -> None:
    """The engine's own roll with a fixed seed: the mean best effort lies within four
    standard errors of the exact mean (the standard error from the exact variance)."""
    rng = random.Random(35)
    dice = sq.pool_from_dice(pool)
    n = 4000
    exact = sq.effort_luck(_result(dice, tuple(1 for _ in dice.sizes)))
    mean = exact.expected
    variance = sum(((exact.low + i - mean) ** 2 * p for i, p in enumerate(exact.chances)),
                   Fraction(0))

    rolls = [sq.roll(dice, rng) for _ in range(n)]
    lucks = [sq.effort_luck(rolled) for rolled in rolls]

    assert [luck.actual for luck in lucks] == [rolled.effort for rolled in rolls]
    observed = sum(luck.actual for luck in lucks) / n
    assert abs(observed - float(mean)) < 4 * math.sqrt(float(variance) / n)
