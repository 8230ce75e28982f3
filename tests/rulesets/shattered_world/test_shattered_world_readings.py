"""Shattered World's table readings (rulesets/shattered_world/readings.py): under the defaults
the seed's worked examples hold (test_shattered_world.py: ×2 and ×2 make ×3, ×3 and ÷2 make 2,
a result of 0 becomes 1, hit points from another field role without the ×2), and under each
alternative a worked case differs as the reading says; the odds under each alternative agree
with icepool and with the engine's own dice over 200,000 rolls."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import icepool
import pytest

from rulesets import shattered_world as sw
from rulesets.errors import RuleError

AS_WRITTEN = sw.ShatteredWorldReadings(multiplier_order="as_written")
DIVISIONS_ONLY = sw.ShatteredWorldReadings(zero_becomes_one="divisions_only")
NO_HIT_POINTS = sw.ShatteredWorldReadings(field_role_hit_points="not_allowed")


def _stored(pool: sw.ActionPool, face: int) -> sw.RollResult:
    """The roll of ``pool`` showing ``face``, stored and read back."""
    return sw.RollResult.from_dict({"pool": pool.as_dict(), "dice": [face]})


# --- a worked case each -----------------------------------------------------------------------


def test_in_the_order_written_a_multiplier_adds_to_a_halved_factor() -> None:
    # The seed's examples read alike either way; a divisor first is where they part.
    for text, factor in (("x2 x2", 3), ("x3 /2", 2), ("/2 /2", Fraction(1, 3))):
        assert sw.final_factor(text, "as_written") == sw.final_factor(text) == factor
    assert sw.final_factor("/2 x3") == 2
    assert sw.final_factor("/2 x3", "as_written") == Fraction(5, 2)
    assert sw.final_factor("/2 x3 /2", "as_written") == Fraction(3, 2)
    # A d6 showing 4 against 10: 4 × 2 misses, 4 × 5/2 hits.
    seed = sw.build_pool(target=10, action_die=6, multipliers="/2 x3")
    written = sw.quick_roll("d6 /2 x3 vs 10", AS_WRITTEN)
    assert "/2 x3 in the order written: final factor ×5/2 (table reading)" in written.notes
    assert (_stored(seed, 4).outcome, _stored(seed, 4).total) == ("failure", 8)
    stored = _stored(written, 4)
    assert (stored.outcome, stored.total, stored.degree) == ("success", 10, 1)
    assert written.as_dict()["multiplier_order"] == "as_written"
    # Where the order cannot change the factor, nothing is said.
    assert sw.build_pool(target=5, multipliers="x3 /2", readings=AS_WRITTEN).notes == ()


def test_for_divisions_only_a_total_of_zero_without_a_divisor_stays_zero() -> None:
    assert sw.total(3, -3) == 1
    assert sw.total(3, -3, zero_becomes_one="divisions_only") == 0
    assert sw.total(1, 0, "/3", zero_becomes_one="divisions_only") == 1
    # A d4 showing 2 with -2 against target number 1: a success of degree 1, or a failure.
    seed = sw.build_pool(target=1, modifiers=(-2,))
    divided = sw.build_pool(target=1, modifiers=(-2,), readings=DIVISIONS_ONLY)
    assert "A total of 0 stays 0: only a divided total becomes 1 (table reading)" \
        in divided.notes
    assert (_stored(seed, 2).outcome, _stored(seed, 2).degree) == ("success", 1)
    assert (_stored(divided, 2).outcome, _stored(divided, 2).total) == ("failure", 0)
    assert divided.as_dict()["zero_becomes_one"] == "divisions_only"


def test_hit_points_from_another_field_role_are_refused_when_the_table_excludes_them() -> None:
    first = "first additional field role"
    assert sw.buy_in_cost("2/e", 2, source=first, hit_points=True) == 4
    with pytest.raises(RuleError, match='table reading "Hit points from another field role"'):
        sw.buy_in_cost("2/e", 2, source=first, hit_points=True, readings=NO_HIT_POINTS)
    # Anything else from that field role, and hit points from your own, are priced as ever.
    assert sw.buy_in_cost("2/e", 2, source=first, readings=NO_HIT_POINTS) == 8
    assert sw.buy_in_cost("2/e", 2, source="adjacent subrole", hit_points=True,
                          readings=NO_HIT_POINTS) == 8


def test_a_pool_stores_a_reading_only_away_from_the_seeds() -> None:
    seed = sw.build_pool(target=5, multipliers="/2 x3").as_dict()
    assert "multiplier_order" not in seed and "zero_becomes_one" not in seed
    with pytest.raises(RuleError, match="unknown table reading"):
        sw.ActionPool.from_dict({**seed, "multiplier_order": "backwards"})


# --- odds under every alternative -------------------------------------------------------------

# The factors as the readings' sentences work them out by hand, so the reference shares no
# arithmetic with the engine.
AS_WRITTEN_FACTORS = {"/2 x3": Fraction(5, 2), "/3 x2": Fraction(4, 3), "": Fraction(1),
                      "/2 x2": Fraction(3, 2)}


def _reference(die: int, target: int, modifier: int, mult: str, zero: str) -> icepool.Die[int]:
    """The roll as an icepool die of degrees (0 = failure) under the readings."""
    factor = AS_WRITTEN_FACTORS[mult]

    def degree(face: int) -> int:
        exact = (face + modifier) * factor
        result = math.floor(exact + Fraction(1, 2))
        if result == 0 and (zero == "every_total" or factor < 1):
            result = 1
        if face == 1:
            return 0
        if result >= target:
            return max(1, result - target)
        return 1 if face == die else 0

    return icepool.d(die).map(degree)


@pytest.mark.parametrize(
    ("die", "target", "modifier", "mult", "zero"),
    [
        (6, 10, 0, "/2 x3", "every_total"),
        (12, 3, -1, "/3 x2", "every_total"),
        (8, 1, -3, "", "divisions_only"),
        (4, 1, -2, "/2 x2", "divisions_only"),
    ],
)
def test_the_odds_under_each_reading_agree_with_icepool(
    die: int, target: int, modifier: int, mult: str, zero: str
) -> None:
    reference = _reference(die, target, modifier, mult, zero)
    ours = sw.odds(die, target, modifier, mult, multiplier_order="as_written",
                   zero_becomes_one=zero)
    assert ours.success == 1 - reference.probability(0)
    assert ours.degree == {d: reference.probability(d) for d in reference.outcomes() if d > 0}


def test_the_engines_own_rolls_agree_with_the_readings_odds_over_200000_rolls() -> None:
    # 100,000 rolls each of a d12 in the order written and of a d8 where a 0 stays 0.
    written = sw.build_pool(target=9, action_die=12, multipliers="/2 x3", readings=AS_WRITTEN)
    divided = sw.build_pool(target=1, action_die=8, modifiers=(-4,), readings=DIVISIONS_ONLY)
    rng = random.Random(20261207)
    rolls = 100_000
    for pool in (written, divided):
        seen: Counter[int] = Counter(sw.roll(pool, rng).degree for _ in range(rolls))
        odds = sw.pool_odds(pool)
        for degree, p in ((0, odds.failure), *odds.degrees):
            error = math.sqrt(float(p) * (1 - float(p)) / rolls)
            assert abs(seen[degree] / rolls - float(p)) <= 4 * error, (pool.die, degree)


def test_the_odds_query_takes_the_readings_as_keys() -> None:
    query = {"die": 6, "target": 10, "multipliers": "/2 x3"}
    written = sw.odds_query({**query, "multiplier_order": "as_written"})
    assert written == sw.odds(6, 10, 0, "/2 x3", multiplier_order="as_written").as_dict()
    assert written != sw.odds_query(query)
    divided = sw.odds_query({"die": 4, "target": 1, "modifier": -2,
                             "zero_becomes_one": "divisions_only"})
    assert divided["success"] == 0.5 != sw.odds_query({"die": 4, "target": 1,
                                                       "modifier": -2})["success"]
    with pytest.raises(RuleError, match="'backwards' is not one of"):
        sw.odds_query({**query, "multiplier_order": "backwards"})
