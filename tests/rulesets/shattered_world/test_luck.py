"""A Shattered World roll's luck (rulesets/shattered_world/luck.py): the exact distribution of
the degree of success of one die against its target number, checked against a face-by-face
enumeration of the seed's rule restated here (each table reading that changes a total
included), and its mean against the engine's own dice."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from rulesets import shattered_world as sw
from rulesets.luck import RollLuck
from rulesets.shattered_world import ShatteredWorldReadings

# Final factors worked out by hand for each multiplier string below, under each reading of
# how they combine (docs/systems/shattered_world.md, Table readings): on the ladder "/2 x3"
# is ÷2 (-1) then ×3 (+2): ×2; as written it is ½ + 2 = ×5/2.
FACTORS = {
    ("", "any_order"): Fraction(1), ("x2", "any_order"): Fraction(2),
    ("x2 x2", "any_order"): Fraction(3), ("/2", "any_order"): Fraction(1, 2),
    ("/2 x3", "any_order"): Fraction(2), ("/2 x3", "as_written"): Fraction(5, 2),
    ("", "as_written"): Fraction(1),
}


def reference(die: int, target: int, modifier: int, mult: str, order: str = "any_order",
              zero: str = "every_total") -> dict[int, Fraction]:
    """Degree by face, counted: a 1 fails; a total at or over the target succeeds by
    total - target (at least 1); the highest face rescues a miss as degree 1."""
    found: dict[int, Fraction] = {}
    factor = FACTORS[(mult, order)]
    for face in range(1, die + 1):
        total = math.floor((face + modifier) * factor + Fraction(1, 2))
        if total == 0 and (zero == "every_total" or factor < 1):
            total = 1
        if face == 1:
            degree = 0
        elif total >= target:
            degree = max(1, total - target)
        else:
            degree = 1 if face == die else 0
        found[degree] = found.get(degree, Fraction(0)) + Fraction(1, die)
    return found


def as_dict(luck: RollLuck) -> dict[int, Fraction]:
    """The chances by value, zeros left out."""
    return {luck.low + i: p for i, p in enumerate(luck.chances) if p}


@pytest.mark.parametrize(("die", "target", "modifier", "mult"), [
    (4, 3, 0, ""), (8, 5, 0, ""), (10, 12, 3, "x2"), (20, 15, -2, "x2 x2"), (6, 2, 1, "/2"),
    (12, 30, 0, ""), (20, 9, 1, "/2 x3")])
def test_the_distribution_agrees_with_an_enumeration_of_the_faces(
        die: int, target: int, modifier: int, mult: str) -> None:
    pool = sw.ActionPool(die=die, die_kind="action die", target=target,
                         modifiers=(modifier,), multipliers=mult)

    luck = sw.pool_luck(pool, 0)

    assert as_dict(luck) == reference(die, target, modifier, mult)
    assert sum(luck.chances) == 1
    assert (luck.measure, luck.low) == ("degrees of success", 0)


def test_multipliers_read_in_the_order_written_change_the_distribution() -> None:
    readings = ShatteredWorldReadings(multiplier_order="as_written")
    pool = sw.build_pool(target=9, action_die=20, modifiers=(1,), multipliers="/2 x3",
                         readings=readings)

    luck = sw.pool_luck(pool, 0)

    assert as_dict(luck) == reference(20, 9, 1, "/2 x3", order="as_written")
    assert as_dict(luck) != reference(20, 9, 1, "/2 x3")


def test_a_total_of_zero_that_stays_zero_changes_the_distribution() -> None:
    # d4 -3 vs 1: a 3 totals 0, which becomes 1 (a success) unless only divisions do so.
    readings = ShatteredWorldReadings(zero_becomes_one="divisions_only")
    pool = sw.build_pool(target=1, action_die=4, modifiers=(-3,), readings=readings)

    luck = sw.pool_luck(pool, 0)

    assert as_dict(luck) == reference(4, 1, -3, "", zero="divisions_only")
    assert as_dict(luck) != reference(4, 1, -3, "")


def test_a_target_beyond_every_total_leaves_only_the_standard_success() -> None:
    luck = sw.pool_luck(sw.build_pool(target=40, action_die=8), 0)

    assert luck.chances == (Fraction(7, 8), Fraction(1, 8))


def test_a_stored_roll_gives_the_degree_its_face_shows() -> None:
    pool = sw.build_pool(target=6, action_die=4, field_role_action=True, modifiers=(2,))
    for seed in range(6):
        rolled = sw.roll(pool, random.Random(seed))

        luck = sw.result_luck(rolled.as_dict())

        assert luck.actual == rolled.degree
        assert as_dict(luck) == reference(8, 6, 2, "")


@pytest.mark.parametrize(("die", "target", "modifier", "mult"),
                         [(10, 7, 2, ""), (20, 12, 1, "x2")])
def test_the_mean_agrees_with_the_engines_own_rolls(
        die: int, target: int, modifier: int, mult: str) -> None:
    pool = sw.build_pool(target=target, action_die=die, modifiers=(modifier,),
                         multipliers=mult)
    luck = sw.pool_luck(pool, 0)
    variance = sum((i - luck.expected) ** 2 * p for i, p in enumerate(luck.chances))
    rng = random.Random(20261207)
    n = 4_000

    mean = sum(sw.roll(pool, rng).degree for _ in range(n)) / n

    # Four standard errors of the mean: a fixed seed, so this never flips by chance.
    assert abs(mean - float(luck.expected)) <= 4 * math.sqrt(float(variance) / n)
