"""Shahquest's table reading (rulesets/shahquest/readings.py): the effect die when no die is
left after the effort total. Under the default the seed's worked examples hold (the
chandelier, test_shahquest.py, and the d4 when none is left: test_the_effect_die_is_a_d4_when_
no_die_is_left_for_it); under "no_effect" a worked case differs, a stored roll reads as it was
made, and the chance of no effect die agrees with icepool and with 200,000 of the engine's own
rolls."""

from __future__ import annotations

import json
import math
import random

import icepool
import pytest

from rulesets import shahquest as sq
from rulesets.errors import RuleError
from rulesets.shahquest import RollResult, ShahquestReadings, TensionPool
from tests.rulesets.helpers import ScriptedRng

NO_EFFECT = ShahquestReadings.from_values({"effect_die_default": "no_effect"})


def test_the_default_is_a_d4_and_stores_nothing() -> None:
    assert ShahquestReadings().values() == {"effect_die_default": "d4"}
    assert ShahquestReadings().changed() == {} and ShahquestReadings().no_effect_die == 4
    assert NO_EFFECT.changed() == {"effect_die_default": "no_effect"}
    assert NO_EFFECT.no_effect_die is None


def test_with_no_die_left_the_roll_has_no_effect_die_under_the_reading() -> None:
    # d10 d8 d6 showing 5, 1, 3: the 1 is set aside, 5 + 3 = 8 and no die is left.
    seed = sq.roll(sq.pool_from_dice("d10 d8 d6"), ScriptedRng(5, 1, 3))
    read = sq.roll(sq.pool_from_dice("d10 d8 d6").under(NO_EFFECT), ScriptedRng(5, 1, 3))
    assert (seed.effort, seed.effect_die, seed.summary()) == (8, 4, "Effort 8, effect d4, "
                                                               "1 opportunity")
    assert (read.effort, read.effect_die, read.summary()) == (8, None, "Effort 8, no effect "
                                                               "die, 1 opportunity")
    # A stored roll resolves again, and reads, as it was made; the default pool stores nothing.
    data = json.loads(json.dumps(read.as_dict()))
    assert data["effect_die"] is None and data["pool"]["no_effect_die"] is None
    assert RollResult.from_dict(data) == read
    assert "no_effect_die" not in seed.as_dict()["pool"]  # type: ignore[operator]


def test_the_reading_changes_nothing_while_a_die_is_left_as_in_the_seeds_example() -> None:
    # The chandelier (Shahquest wiki, Dice Pools): 7, 2, 1, 3, 4 -> effort 11, effect d8.
    pool = sq.build_pool([sq.Feature(type="attribute", name="Coordination", die=10)],
                         setting_die=6, readings=NO_EFFECT)
    assert "No effect die when no die is left after the effort total (table reading)" \
        in pool.notes
    result = sq.roll(sq.pool_from_dice("d10 3d8 d6").under(NO_EFFECT),
                     ScriptedRng(7, 2, 1, 3, 4))
    assert (result.effort, result.effect_die) == (11, 8)


def test_the_npc_quick_roll_and_general_danger_follow_the_reading() -> None:
    quick = sq.quick_roll("d8 d6", NO_EFFECT)
    assert sq.roll(quick, ScriptedRng(5, 4)).effect_die is None
    danger = sq.roll_general_danger(TensionPool(dice=(6, 6)), ScriptedRng(3, 2),
                                    readings=NO_EFFECT)
    assert (danger.effort, danger.effect_die) == (5, None)
    assert sq.roll_general_danger(TensionPool(dice=(6, 6)), ScriptedRng(3, 2)).effect_die == 4


@pytest.mark.parametrize("sizes", [(6,), (8, 4), (12, 6, 4), (4, 4, 4, 4), (10, 8, 8, 6)])
def test_the_chance_of_no_effect_die_agrees_with_icepool(sizes: tuple[int, ...]) -> None:
    # No effect die: fewer than three dice left once the 1s are set aside.
    left = icepool.map(lambda *faces: sum(1 for face in faces if face != 1),
                       *(icepool.d(s) for s in sizes))
    reference = sum(left.probability(n) for n in left.outcomes() if n < 3)
    assert sq.odds(sizes, readings=NO_EFFECT).no_effect == reference
    assert sq.odds(sizes).no_effect is None  # a d4 at worst: every roll has an effect die


def test_200000_of_the_engines_rolls_agree_with_the_chance_of_no_effect_die() -> None:
    pool = sq.pool_from_dice("d8 d6 d4").under(NO_EFFECT)
    rng = random.Random(20261207)
    rolls = 200_000
    seen = sum(1 for _ in range(rolls) if sq.roll(pool, rng).effect_die is None)
    p = sq.odds(pool.sizes, readings=NO_EFFECT).no_effect
    assert p is not None
    error = math.sqrt(float(p) * (1 - float(p)) / rolls)
    assert abs(seen / rolls - float(p)) <= 4 * error


def test_the_odds_query_takes_the_reading_as_a_key() -> None:
    seed = sq.odds_query({"pool": "d8 d6 d4"})
    read = sq.odds_query({"pool": "d8 d6 d4", "effect_die_default": "no_effect"})
    assert "no_effect" not in seed and sq.odds_query({"pool": "d8 d6 d4",
                                                      "effect_die_default": "d4"}) == seed
    assert read == {**seed, "no_effect": pytest.approx(1 - 7 / 8 * 5 / 6 * 3 / 4)}
    with pytest.raises(RuleError, match="'none' is not one of d4, no_effect"):
        sq.odds_query({"pool": "d8", "effect_die_default": "none"})
