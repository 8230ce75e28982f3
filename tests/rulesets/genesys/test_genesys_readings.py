"""Genesys's table readings (rulesets/genesys/readings.py): under the defaults the seed's
worked cases hold (the rest of this folder: test_genesys.py's boost and setback that do not
cancel and 8/27 for 2 boost vs 2 setback, test_genesys_destiny.py's Impossible task with its
light point flipped), and under each alternative a worked case differs as the reading says;
the odds under each alternative agree with icepool on small pools and with the engine's own
dice over 200,000 rolls."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rulesets import genesys as g
from rulesets.errors import RuleError
from rulesets.genesys.readings import SEED_READINGS, GenesysReadings
from tests.rulesets.genesys.test_genesys import assert_rolls_agree_with_the_odds, icepool_odds

ATTEMPT_ONLY = GenesysReadings.from_values({"impossible_destiny": "attempt_only"})
CANCEL = GenesysReadings.from_values({"boost_setback": "cancel"})
FIGURES = ("success", "advantage", "threat", "triumph", "despair")


def _impossible(readings: GenesysReadings = SEED_READINGS, **situation: bool
                ) -> g.DicePool:
    """Agility 2, no skill, an Impossible task attempted with the player's light flip."""
    return g.build_pool(characteristic="Agility", characteristic_rating=2,
                        difficulty="Impossible", destiny_light=True, readings=readings,
                        **situation)


# --- a worked case each -----------------------------------------------------------------------


def test_the_light_point_of_an_impossible_task_only_buys_the_attempt_under_the_core_rules() -> None:
    seed, attempt = _impossible(), _impossible(ATTEMPT_ONLY)

    assert (seed.notation(), attempt.notation()) == ("1A 1P 5D", "2A 5D")
    # The point is still spent, flipped and recorded, and the pool says why nothing upgraded.
    assert (attempt.destiny_points, attempt.destiny_flips) == (1, ("light",))
    assert g.IMPOSSIBLE_FLIP_NOTE in attempt.notes and g.LIGHT_FLIP_NOTE not in attempt.notes
    # A light flip on an ordinary task, and the GM's dark flip, still upgrade a die.
    hard = g.build_pool(characteristic="Agility", characteristic_rating=2, difficulty="Hard",
                        destiny_light=True, readings=ATTEMPT_ONLY)
    assert hard.notation() == "1A 1P 3D"
    assert _impossible(ATTEMPT_ONLY, destiny_dark=True).notation() == "2A 4D 1C"


def test_boost_and_setback_dice_cancel_under_the_house_rule_after_every_other_change() -> None:
    pool = g.build_pool(characteristic="Agility", characteristic_rating=3, skill="Ranged",
                        skill_ranks=2, boost=2, setback=3, readings=CANCEL)

    assert (pool.boost, pool.setback) == (0, 1)
    assert "2 boost and 2 setback cancelled each other (table reading)" in pool.notes
    # A talent's removal comes first (Removing Dice), then what is left cancels.
    removed = g.build_pool(characteristic="Agility", characteristic_rating=3, boost=1,
                           setback=3, removals={"setback": 1}, readings=CANCEL)
    assert (removed.boost, removed.setback) == (0, 1)
    # The seed's 2 boost vs 2 setback (8/27) rolls no dice: cancelled out, a failure.
    empty = g.modify_pool(g.parse_pool("2B 2S"), readings=CANCEL)
    assert empty.total == 0 and g.odds(empty).success == 0
    assert g.roll(empty, random.Random(1)).summary() == "Failure (cancelled out)"
    # The pool stores the dice it rolls and no other key: a stored roll reads as it was made.
    rolled = g.roll(pool, random.Random(7))
    assert set(pool.as_dict()) == set(g.parse_pool("1S").as_dict())
    assert g.RollResult.from_dict(rolled.as_dict()) == rolled


def test_the_npc_quick_roll_cancels_boost_and_setback_under_the_house_rule() -> None:
    assert g.quick_roll("2A 1B vs 2D 2S").notation() == "2A 2D 1B 2S"
    assert g.quick_roll("2A 1B vs 2D 2S", CANCEL).notation() == "2A 2D 1S"


# --- odds under every alternative -------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "written_out"),
    [
        (g.modify_pool(g.parse_pool("2A 1D 2B 1S"), readings=CANCEL),
         {"ability": 2, "difficulty": 1, "boost": 1}),
        (g.modify_pool(g.parse_pool("1A 1P 1C 1B 2S"), readings=CANCEL),
         {"ability": 1, "proficiency": 1, "challenge": 1, "setback": 1}),
        (_impossible(ATTEMPT_ONLY), {"ability": 2, "difficulty": 5}),
    ],
    ids=["cancel", "cancel-setback-left", "attempt-only"],
)
def test_the_odds_under_each_reading_agree_with_icepool(
    pool: g.DicePool, written_out: dict[str, int]
) -> None:
    expected = icepool_odds(written_out)
    found = g.odds(pool)
    for name in FIGURES:
        assert getattr(found, name) == expected[name], name  # both exact


def test_the_engines_own_rolls_agree_with_the_readings_odds_over_200000_rolls() -> None:
    # 100,000 rolls each of an Easy check with boost and setback cancelled, and of an
    # Impossible task whose light point upgrades nothing (small pools: the suite stays fast).
    cancelled = g.build_pool(characteristic="Agility", characteristic_rating=2,
                             skill="Ranged", skill_ranks=1, difficulty="Easy", boost=2,
                             setback=1, readings=CANCEL)
    impossible = g.build_pool(characteristic="Agility", characteristic_rating=1,
                              difficulty="Impossible", destiny_light=True,
                              readings=ATTEMPT_ONLY)
    assert (cancelled.notation(), impossible.notation()) == ("1A 1P 1D 1B", "1A 5D")
    rng = random.Random(20261207)
    for pool in (cancelled, impossible):
        assert_rolls_agree_with_the_odds(pool, rng, 100_000)


def test_the_odds_query_takes_the_boost_and_setback_reading_as_a_key() -> None:
    assert g.odds_query({"pool": "2B 2S"})["success"] == float(Fraction(8, 27))
    assert g.odds_query({"pool": "2B 2S", "boost_setback": "cancel"})["success"] == 0
    assert (g.odds_query({"pool": "2A 1D 2B 1S", "boost_setback": "cancel"})
            == g.odds("2A 1D 1B").as_dict())
    with pytest.raises(RuleError, match="'always' is not one of apart, cancel"):
        g.odds_query({"pool": "2A", "boost_setback": "always"})
