"""A Maelstrom roll's luck: the exact distribution of its net successes
(rulesets/maelstrom/luck.py), checked three ways:

1. icepool, an independent exact-probability library, with the engine's own ``resolve``
   counting each outcome: exactly for pools without exploding tens, within the chance of a
   chain of tens deeper than icepool follows for pools with them;
2. its mean against the engine's own ``roll``, a few thousand seeded rolls, within four
   standard errors;
3. the experience die's added successes against every face it can show.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import icepool
import pytest

from rulesets import maelstrom as m
from rulesets.maelstrom.luck import (
    TAIL,
    experience_die_distribution,
    net_distribution,
    pool_distribution,
)
from rulesets.maelstrom.readings import MaelstromReadings

ONE = 1
SUCCESS = 100  # a die's value is successes * 100 + 1s, so sums keep both counts
CAP = 30  # successes counted; more never happen on these pools but once in 10**9
DEPTH = 12  # chains of tens followed this deep; deeper ones are below 1e-8 on these pools


def _icepool_chain(difficulty: int, depth: int) -> icepool.Die:
    """Successes of a bonus die and the chain its 10s start, cut at ``depth``."""
    if depth == 0:
        return icepool.Die([0])
    inner = _icepool_chain(difficulty, depth - 1)
    two = (inner + inner).map(lambda s: min(s, CAP))
    return icepool.d10.map(lambda f: 1 + two if f == 10 else int(f >= difficulty))


def _reference(pool: m.ActionPool) -> dict[int, Fraction]:
    """Net successes -> chance: each regular die's (successes, 1s) from icepool, the dice
    added up one by one, each sum counted by the engine's ``resolve``."""
    chain = _icepool_chain(pool.difficulty, DEPTH) if pool.exploding else None

    def regular(face: int) -> object:
        if face == 1:
            return ONE
        if face == 10 and chain is not None:
            return SUCCESS * (1 + (chain + chain).map(lambda s: min(s, CAP)))
        return SUCCESS * int(face >= pool.difficulty)

    die = icepool.d10.map(regular)
    faces = {int(value): Fraction(die.probability(value)) for value in die.outcomes()}
    sums = {0: Fraction(1)}
    for _ in range(pool.dice):  # icepool's own sum of big-denominator dice takes seconds
        following: dict[int, Fraction] = {}
        for total, p in sums.items():
            for value, q in faces.items():
                following[total + value] = following.get(total + value, Fraction(0)) + p * q
        sums = following
    counted: dict[int, Fraction] = {}
    for value, p in sums.items():
        successes, ones = divmod(value, SUCCESS)
        net = m.resolve(dice=[1] * ones, bonus_dice=[10] * successes,
                        difficulty=pool.difficulty, threshold=pool.threshold,
                        automatic_successes=pool.automatic_successes, botches=pool.botches,
                        automatic_at=pool.automatic_at).net
        counted[net] = counted.get(net, Fraction(0)) + p
    return counted


def _as_dict(low: int, chances: tuple[Fraction, ...]) -> dict[int, Fraction]:
    return {low + i: p for i, p in enumerate(chances) if p}


def _action(dice: int, *, difficulty: int = 6, threshold: int = 0, specialty: bool = False,
            readings: MaelstromReadings | None = None) -> m.ActionPool:
    """Precision + Driving, ``dice`` dots between them (Driving at least 1), the Cars
    specialty if asked."""
    precision = min(dice - 1, 5)
    return m.build_action_pool(
        traits=[m.TraitRef("Precision", "attribute", precision),
                m.TraitRef("Driving", "ability", dice - precision)],
        specialties=[m.SpecialtyRef("Cars", "Driving", False)] if specialty else [],
        difficulty=difficulty, threshold=threshold, readings=readings or MaelstromReadings())


def _willpower(current: int, *, strong_bond: str, threshold: int = 0) -> m.ActionPool:
    return m.build_willpower_pool(current=current, difficulty=8, threshold=threshold,
                                  automatic_successes=1,
                                  readings=MaelstromReadings(strong_bond=strong_bond))


PLAIN_POOLS = {
    "5 dice at 6": _action(5),
    "4 dice at 6, threshold 1": _action(4, threshold=1),
    "3 dice at 8": _action(3, difficulty=8),
    "6 dice at 3, threshold 2": _action(6, difficulty=3, threshold=2),
    "soak of 2": m.build_soak_pool(damage_kind="bashing", strength=2),
    "Strong Bond before the threshold": _willpower(3, strong_bond="before_threshold",
                                                   threshold=1),
    "Strong Bond after the threshold": _willpower(3, strong_bond="after_threshold",
                                                  threshold=1),
    "Strong Bond kept": _willpower(3, strong_bond="kept", threshold=1),
    "a specialty that does not botch, tens not exploding": m.ActionPool(
        kind="action", dice=4, difficulty=6, threshold=1, exploding=False, wound_penalty=0,
        traits=("NPC",), specialties=(), experience_die_allowed=False, botches=False),
}

EXPLODING_POOLS = {
    "a specialty, 4 dice at 6": _action(4, specialty=True),
    "a specialty, 3 dice at 7, threshold 1": _action(3, difficulty=7, threshold=1,
                                                     specialty=True),
    "tens always explode": _action(3, readings=MaelstromReadings(tens_explode="always")),
    "a specialty's dice do not botch": _action(
        4, specialty=True, readings=MaelstromReadings(specialty_botch="no_botch")),
}


@pytest.mark.parametrize("pool", PLAIN_POOLS.values(), ids=PLAIN_POOLS.keys())
def test_without_exploding_tens_the_distribution_is_icepools_exactly(pool: m.ActionPool
                                                                      ) -> None:
    low, chances = pool_distribution(pool)

    assert _as_dict(low, chances) == _reference(pool)
    assert sum(chances) == 1


@pytest.mark.parametrize("pool", EXPLODING_POOLS.values(), ids=EXPLODING_POOLS.keys())
def test_with_exploding_tens_it_is_icepools_within_the_deepest_chains(pool: m.ActionPool
                                                                       ) -> None:
    assert pool.exploding
    low, chances = pool_distribution(pool)
    exact, reference = _as_dict(low, chances), _reference(pool)

    assert sum(chances) == 1
    for value in set(exact) | set(reference):
        assert abs(exact.get(value, Fraction(0)) - reference.get(value, Fraction(0))) < 1e-8



def test_the_exploding_tail_is_cut_below_two_to_the_minus_sixty() -> None:
    low, chances = net_distribution(dice=3, difficulty=2, exploding=True)
    longer_low, longer = net_distribution(dice=3, difficulty=2, exploding=True, reach=300)

    # The longer series moves less than 2**-60 off the highest value of the shorter one.
    assert low == longer_low == 0
    assert len(longer) > len(chances)
    top = len(chances) - 1
    assert chances[:top] == longer[:top]
    assert 0 <= chances[top] - longer[top] < TAIL


def test_a_pool_of_no_dice_makes_nothing_for_certain() -> None:
    assert net_distribution(dice=0, difficulty=6) == (0, (Fraction(1),))


SIMULATED = {
    "5 dice at 6": _action(5),
    "a specialty, 5 dice at 7": _action(5, difficulty=7, specialty=True),
    "a specialty's dice do not botch, threshold 1": _action(
        5, threshold=1, specialty=True, readings=MaelstromReadings(specialty_botch="no_botch")),
    "Strong Bond kept": _willpower(4, strong_bond="kept", threshold=2),
}


@pytest.mark.parametrize("pool", SIMULATED.values(), ids=SIMULATED.keys())
def test_its_mean_is_what_the_engines_own_rolls_average(pool: m.ActionPool) -> None:
    low, chances = pool_distribution(pool)
    mean = sum(((low + i) * p for i, p in enumerate(chances)), Fraction(0))
    variance = sum(((low + i - mean) ** 2 * p for i, p in enumerate(chances)), Fraction(0))
    rng = random.Random(35)
    rolls = 4000

    average = sum(m.roll(pool, rng).net for _ in range(rolls)) / rolls

    assert abs(average - float(mean)) < 4 * math.sqrt(float(variance) / rolls)


@pytest.mark.parametrize(
    ("pool", "dice", "bonus"),
    [
        (_action(4, threshold=2), (6, 3, 2, 2), ()),  # 1 success, which the threshold took
        (_action(4), (1, 6, 7, 3), ()),  # a 1 cancels one of two
        (_action(3, specialty=True), (10, 4, 2), (6, 1)),  # exploding: the die chains
        (_willpower(3, strong_bond="kept", threshold=1), (8, 2, 2), ()),
    ],
    ids=["under the threshold", "after a 1", "exploding", "Strong Bond kept"],
)
def test_the_experience_die_adds_what_each_of_its_faces_would(
    pool: m.ActionPool, dice: tuple[int, ...], bonus: tuple[int, ...]
) -> None:
    def net(extra: tuple[int, ...]) -> int:
        return m.resolve(dice=dice, bonus_dice=(*bonus, *extra), difficulty=pool.difficulty,
                         threshold=pool.threshold, automatic_successes=pool.automatic_successes,
                         botches=pool.botches, automatic_at=pool.automatic_at).net

    # Every face; a 10 on an exploding pool followed by every pair of bonus faces, and a
    # pair of 10s by the chain's exact successes (icepool's, cut deep).
    expected: dict[int, Fraction] = {}
    chain = _icepool_chain(pool.difficulty, DEPTH)
    for face in range(1, 11):
        if face == 10 and pool.exploding:
            pairs = chain + chain
            for more in pairs.outcomes():
                gained = net((10, *([10] * more))) - net(())
                chance = Fraction(1, 10) * Fraction(pairs.probability(more))
                expected[gained] = expected.get(gained, Fraction(0)) + chance
            continue
        gained = net((face,)) - net(())
        expected[gained] = expected.get(gained, Fraction(0)) + Fraction(1, 10)
    low, chances = experience_die_distribution(pool, dice, bonus)
    exact = _as_dict(low, chances)

    assert sum(chances) == 1
    for value in set(exact) | set(expected):
        assert abs(exact.get(value, Fraction(0)) - expected.get(value, Fraction(0))) < 1e-8
