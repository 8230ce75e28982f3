"""The Genesys Destiny pool in the engine (rulesets.genesys.destiny, and the flips a pool
records: rulesets.genesys.build_pool): a Destiny point invested in a check flips to its other
side and upgrades one die, the player's light point an ability die, the GM's dark point a
difficulty die (Genesys dice pool, Upgrading and Downgrading Dice; Difficulty); an Impossible
task cannot be attempted without one (Impossible Tasks); the pool is set by hand or rolled on
Force dice (docs/systems/genesys.md, "The Destiny pool").

Plain pytest, no database.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from rulesets import genesys as g
from rulesets.genesys import DestinyPool, DicePool, RuleError
from tests.rulesets.helpers import ScriptedRng


def figures(odds: g.Odds) -> tuple[object, ...]:
    """Every figure of the odds, without the pool they were computed for."""
    return (odds.success, odds.advantage, odds.threat, odds.triumph, odds.despair,
            odds.net_successes, odds.net_advantage)


# --- A flip upgrades a die, and the odds are the upgraded pool's ---------------------------


def test_a_light_flip_upgrades_an_ability_die_to_the_seeds_worked_pool() -> None:
    # Agility 3 alone against an Average task: 3 ability vs 2 difficulty; the light point
    # upgrades one (Upgrading Dice) into the seed's worked pool, 2 ability + 1 proficiency vs
    # 2 difficulty, whose P(success) is the worked number 7997/12288 (docs/rules.md).
    before = g.build_pool(characteristic="Agility", characteristic_rating=3)
    pool = g.build_pool(characteristic="Agility", characteristic_rating=3, destiny_light=True)

    assert before.notation() == "3A 2D"
    assert pool.notation() == "2A 1P 2D"
    assert pool.destiny_flips == ("light",)
    assert "Destiny: light point flipped to upgrade an ability die" in pool.notes
    assert g.odds(pool).success == Fraction(7997, 12288)
    assert figures(g.odds(pool)) == figures(g.odds(g.parse_pool("2A 1P 2D")))


def test_a_dark_flip_upgrades_a_difficulty_die_into_a_challenge_die() -> None:
    # The seed's other worked pool, 2 ability vs 1 difficulty (295/512), made harder by the
    # GM's dark point: the difficulty die becomes a challenge die (Difficulty).
    plain = g.build_pool(characteristic="Agility", characteristic_rating=2, difficulty="Easy")
    pool = g.build_pool(characteristic="Agility", characteristic_rating=2, difficulty="Easy",
                        destiny_dark=True)

    assert g.odds(plain).success == Fraction(295, 512)
    assert pool.notation() == "2A 1C"
    assert pool.destiny_flips == ("dark",)
    assert "Destiny: dark point flipped to upgrade a difficulty die" in pool.notes
    assert figures(g.odds(pool)) == figures(g.odds(g.parse_pool("2A 1C")))
    assert g.odds(pool).success < g.odds(plain).success


def test_both_sides_may_invest_in_one_check_and_the_flips_come_with_the_other_upgrades() -> None:
    pool = g.build_pool(characteristic="Agility", characteristic_rating=3, difficulty="Hard",
                        destiny_light=True, destiny_dark=True, upgrade_ability=1)

    # Two ability upgrades (the dialog's and the light point's), one difficulty upgrade.
    assert pool.notation() == "1A 2P 2D 1C"
    assert pool.destiny_flips == ("light", "dark")


def test_a_flip_with_no_ability_die_left_adds_one_as_any_upgrade_does() -> None:
    # Agility 2, Ranged 2: two proficiency dice, no ability die to upgrade (Upgrading More
    # Dice Than Available To Upgrade): the light point's upgrade adds an ability die.
    pool = g.build_pool(characteristic="Agility", characteristic_rating=2, skill="Ranged",
                        skill_ranks=2, destiny_light=True)

    assert pool.notation() == "1A 2P 2D"
    assert "1 upgrade with no ability die left added an ability die" in pool.notes


def test_a_negative_upgrade_cannot_cancel_a_flip() -> None:
    with pytest.raises(RuleError, match="ability upgrades cannot be negative"):
        g.build_pool(characteristic="Agility", characteristic_rating=3, destiny_light=True,
                     upgrade_ability=-1)


# --- Impossible tasks -----------------------------------------------------------------------


def test_an_impossible_task_is_attempted_with_the_light_point_flipped() -> None:
    with pytest.raises(RuleError) as error:
        g.build_pool(characteristic="Agility", characteristic_rating=2,
                     difficulty="Impossible")
    assert error.value.rule == "Genesys dice pool, Impossible Tasks"

    pool = g.build_pool(characteristic="Agility", characteristic_rating=2,
                        difficulty="Impossible", destiny_light=True)

    assert pool.destiny_points == 1
    assert pool.destiny_flips == ("light",)
    assert pool.notation() == "1A 1P 5D"


def test_a_light_flip_on_an_ordinary_task_is_no_impossible_tasks_point() -> None:
    pool = g.build_pool(characteristic="Agility", characteristic_rating=2, difficulty="Hard",
                        destiny_light=True)

    assert pool.destiny_points == 0
    assert pool.destiny_flips == ("light",)


# --- The record of the flips ----------------------------------------------------------------


def test_the_flips_survive_json_storage_and_an_older_pool_made_none() -> None:
    pool = g.build_pool(characteristic="Agility", characteristic_rating=3, destiny_light=True,
                        destiny_dark=True)
    data = json.loads(json.dumps(pool.as_dict()))
    assert data["destiny_flips"] == ["light", "dark"]
    assert DicePool.from_dict(data) == pool

    del data["destiny_flips"]  # a roll stored before flips were recorded
    assert DicePool.from_dict(data).destiny_flips == ()


@pytest.mark.parametrize("flips", [("light", "light"), ("dark", "light"), ("grey",)])
def test_a_pool_refuses_flips_no_check_could_make(flips: tuple[str, ...]) -> None:
    with pytest.raises(RuleError) as error:
        DicePool(ability=2, destiny_flips=flips)
    assert error.value.rule == "Genesys dice pool, Upgrading and Downgrading Dice"


# --- The pool --------------------------------------------------------------------------------


def test_a_flip_moves_one_point_to_the_other_side_and_the_pool_keeps_its_size() -> None:
    pool = g.set_destiny(2, 3)

    assert pool.flip("light") == DestinyPool(light=1, dark=4)
    assert pool.flip("dark") == DestinyPool(light=3, dark=2)
    assert pool.flip("light").total == pool.total == 5


def test_a_side_with_no_point_left_cannot_flip() -> None:
    with pytest.raises(RuleError) as error:
        g.set_destiny(0, 3).flip("light")

    assert error.value.message == ("No light side Destiny point is left to flip (the pool is "
                                   "0 light, 3 dark).")
    assert error.value.rule == "Genesys dice pool, Upgrading and Downgrading Dice"
    with pytest.raises(RuleError, match="No dark side Destiny point"):
        g.set_destiny(0, 0).flip("dark")


@pytest.mark.parametrize(("light", "dark", "words"), [
    (-1, 2, "light side Destiny points cannot be negative (-1)"),
    (20, 5, "a Destiny pool of 25 points is more than the 24 Sheetkeeper keeps"),
])
def test_the_gm_cannot_set_a_pool_out_of_range(light: int, dark: int, words: str) -> None:
    with pytest.raises(RuleError) as error:
        g.set_destiny(light, dark)
    assert error.value.message == words
    assert error.value.citation == "Sheetkeeper's ruling for Genesys, Destiny pool"


def test_the_force_die_has_eight_light_pips_and_eight_dark_pips() -> None:
    faces = [g.force_pips(face) for face in range(1, 13)]

    assert sum(light for light, _ in faces) == sum(dark for _, dark in faces) == 8
    assert faces.count((0, 1)) == 6 and faces.count((0, 2)) == 1
    assert faces.count((1, 0)) == 2 and faces.count((2, 0)) == 3
    with pytest.raises(RuleError):
        g.force_pips(13)


def test_rolling_the_pool_adds_each_force_dies_pips() -> None:
    rng = ScriptedRng(10, 1, 7)  # two light, one dark, two dark

    pool = g.roll_destiny(3, rng)

    assert pool == DestinyPool(light=2, dark=3, rolled=(10, 1, 7))
    assert rng.calls == [(1, 12)] * 3
    # Flipping keeps the dice: the pool still holds the pips they showed.
    assert pool.flip("light").rolled == (10, 1, 7)


@pytest.mark.parametrize("dice", [0, 13])
def test_the_pool_is_rolled_on_one_to_twelve_force_dice(dice: int) -> None:
    with pytest.raises(RuleError, match="roll 1 to 12 Force dice, one per player"):
        g.roll_destiny(dice, ScriptedRng())


def test_a_stored_pool_reads_back_and_refuses_what_no_move_could_leave() -> None:
    pool = g.roll_destiny(2, ScriptedRng(12, 8))  # 2 light + 1 light
    assert DestinyPool.from_dict(json.loads(json.dumps(pool.as_dict()))) == pool
    assert DestinyPool.from_dict(None) == DestinyPool.from_dict({}) == DestinyPool()
    assert DestinyPool.from_dict({"light": 1, "dark": 0}) == DestinyPool(light=1)

    with pytest.raises(RuleError, match="showing 3 pips holds 3 points, not 4"):
        DestinyPool.from_dict({"light": 3, "dark": 1, "rolled": [12, 8]})
    with pytest.raises(RuleError, match="not a list of Force die faces"):
        DestinyPool.from_dict({"light": 1, "dark": 0, "rolled": [True]})
    with pytest.raises(RuleError, match="stored 'dark' is not an integer"):
        DestinyPool.from_dict({"light": 1, "dark": "2"})
