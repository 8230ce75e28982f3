"""Tests of the Genesys narrative dice engine against the seed (Genesys dice pool) and RULES.md.

Plain pytest, no database. Each worked example of the seed is a test; the odds are checked
exactly against RULES.md "Worked numbers", against icepool as an independent reference, and
against a simulation of the module's own roll function.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import genesys as g
from rulesets.genesys import DicePool, RolledDie, RuleError
from tests.rulesets.helpers import ScriptedRng

# The face table of RULES.md section 4, restated here independently of the module:
# S success, A advantage, F failure, H threat, T triumph, X despair.
RULES_MD_FACES: dict[str, list[str]] = {
    "boost": ["", "", "S", "SA", "AA", "A"],
    "setback": ["", "", "F", "F", "H", "H"],
    "ability": ["", "S", "S", "SS", "A", "A", "SA", "AA"],
    "difficulty": ["", "F", "FF", "H", "H", "H", "HH", "FH"],
    "proficiency": ["", "S", "S", "SS", "SS", "A", "SA", "SA", "SA", "AA", "AA", "T"],
    "challenge": ["", "F", "F", "FF", "FF", "H", "H", "FH", "FH", "HH", "HH", "X"],
}
LETTER_SYMBOL = {
    "S": "success",
    "A": "advantage",
    "F": "failure",
    "H": "threat",
    "T": "triumph",
    "X": "despair",
}


def agility_ranged(rating: int = 3, ranks: int = 2, **situation: object) -> DicePool:
    return g.build_pool(
        characteristic="Agility",
        characteristic_rating=rating,
        skill="Ranged",
        skill_ranks=ranks,
        **situation,  # type: ignore[arg-type]
    )


def counts(pool: DicePool) -> str:
    return pool.notation()


def scripted_roll(notation: str, *faces: int) -> g.RollResult:
    rng = ScriptedRng(*faces)
    result = g.roll(g.parse_pool(notation), rng)
    assert rng.exhausted
    return result


# --- Faces: RULES.md section 4 ----------------------------------------------------------------


def test_every_die_has_the_faces_of_the_rules_md_table() -> None:
    expected = {
        die: tuple(tuple(LETTER_SYMBOL[c] for c in face) for face in faces)
        for die, faces in RULES_MD_FACES.items()
    }
    assert expected == g.FACES
    assert g.DIE_SIDES == {
        "ability": 8,
        "proficiency": 12,
        "difficulty": 8,
        "challenge": 12,
        "boost": 6,
        "setback": 6,
    }


# --- Skill and Characteristic -----------------------------------------------------------------


def test_the_higher_value_gives_ability_dice_and_the_lower_upgrades_them_to_proficiency() -> None:
    # Agility 3 and Ranged 2: three Ability dice, two of them upgraded.
    pool = agility_ranged(3, 2)
    assert (pool.ability, pool.proficiency) == (1, 2)
    assert pool.traits == ("Agility", "Ranged")
    # The same when the skill is the higher of the two.
    other = agility_ranged(2, 3)
    assert (other.ability, other.proficiency) == (1, 2)


def test_an_unskilled_character_relies_solely_on_the_characteristic() -> None:
    pool = g.build_pool(characteristic="Presence", characteristic_rating=3, skill="Charm")
    assert (pool.ability, pool.proficiency) == (3, 0)
    assert "Unskilled in Charm: Presence alone" in pool.notes


def test_an_unknown_characteristic_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        g.build_pool(characteristic="Strength", characteristic_rating=3)
    assert error.value.message == (
        "'Strength' is not a characteristic "
        "(Brawn, Agility, Intellect, Cunning, Willpower, Presence)"
    )
    assert error.value.rule == "Genesys dice pool, Skill and Characteristic"


def test_a_characteristic_rating_outside_one_to_five_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(6, 2)
    assert error.value.message == ("Agility 6 is out of range: a characteristic is rated 1 to 5")
    with pytest.raises(RuleError):
        agility_ranged(0, 2)


def test_skill_ranks_outside_zero_to_five_are_refused() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(3, 6)
    assert error.value.message == "Ranged at 6 ranks is out of range: a skill has 0 to 5 ranks"
    assert error.value.rule == "Genesys dice pool, Skill and Characteristic"


# --- Difficulty ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "dice"),
    [("Simple", 0), ("Easy", 1), ("Average", 2), ("Hard", 3), ("Daunting", 4), ("Formidable", 5)],
)
def test_the_difficulty_level_sets_the_number_of_difficulty_dice(level: str, dice: int) -> None:
    pool = agility_ranged(difficulty=level.lower())
    assert (pool.difficulty, pool.challenge) == (dice, 0)
    assert pool.difficulty_level == level
    assert g.difficulty_dice(level) == dice


def test_an_unknown_difficulty_level_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(difficulty="Tricky")
    assert error.value.message == (
        "'Tricky' is not a difficulty level "
        "(Simple, Easy, Average, Hard, Daunting, Formidable, Impossible)"
    )
    assert error.value.rule == "Genesys dice pool, Difficulty"


def test_attempting_an_impossible_task_requires_one_destiny_point() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(difficulty="Impossible")
    assert error.value.message == (
        "attempting an Impossible task requires the player to spend one Destiny point"
    )
    assert error.value.rule == "Genesys dice pool, Impossible Tasks"
    pool = agility_ranged(difficulty="Impossible", destiny_point_spent=True)
    assert pool.destiny_points == 1
    assert pool.difficulty == 5
    # The point is the price of the attempt; it upgrades nothing by itself.
    assert (pool.ability, pool.proficiency) == (1, 2)


def test_a_destiny_point_for_a_task_that_is_not_impossible_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(difficulty="Hard", destiny_point_spent=True)
    assert error.value.message == (
        "only an Impossible task requires a Destiny point, and this one is Hard; a Destiny "
        "point spent to upgrade an ability die counts as an ability upgrade"
    )


def test_the_gm_upgrades_difficulty_dice_into_an_equal_number_of_challenge_dice() -> None:
    pool = agility_ranged(difficulty="Hard", upgrade_difficulty=2)
    assert (pool.difficulty, pool.challenge) == (1, 2)


# --- Adding Dice ------------------------------------------------------------------------------


def test_one_boost_die_per_bonus_and_one_setback_die_per_obstacle_and_they_do_not_cancel() -> None:
    pool = agility_ranged(boost=2, setback=2)
    assert (pool.boost, pool.setback) == (2, 2)
    # Rolled: each boost shows a success, each setback a failure; nothing cancels the dice.
    result = scripted_roll("1B 1S", 3, 3)
    assert [rolled.symbols for rolled in result.dice] == [("success",), ("failure",)]


# --- Upgrading and Downgrading Dice -------------------------------------------------------------


def test_upgrading_an_ability_die_converts_it_into_a_proficiency_die() -> None:
    pool = agility_ranged(3, 1, upgrade_ability=1)
    assert (pool.ability, pool.proficiency) == (1, 2)


def test_an_upgrade_with_no_ability_die_left_adds_one_and_the_next_upgrade_upgrades_it() -> None:
    # Brawn 2 and Athletics 2: two Proficiency dice and no Ability die.
    def pool(upgrades: int) -> DicePool:
        return g.build_pool(
            characteristic="Brawn",
            characteristic_rating=2,
            skill="Athletics",
            skill_ranks=2,
            upgrade_ability=upgrades,
        )

    assert counts(pool(0)) == "2P 2D"
    assert counts(pool(1)) == "1A 2P 2D"
    assert counts(pool(2)) == "3P 2D"
    assert counts(pool(3)) == "1A 3P 2D"
    assert "1 upgrade with no ability die left added an ability die" in pool(1).notes


def test_a_difficulty_upgrade_with_no_difficulty_die_left_adds_one_then_upgrades_it() -> None:
    assert counts(agility_ranged(difficulty="Simple", upgrade_difficulty=1)) == "1A 2P 1D"
    assert counts(agility_ranged(difficulty="Simple", upgrade_difficulty=2)) == "1A 2P 1C"
    assert counts(agility_ranged(difficulty="Simple", upgrade_difficulty=3)) == "1A 2P 1D 1C"


def test_downgrading_turns_proficiency_into_ability_and_challenge_into_difficulty() -> None:
    pool = g.modify_pool(g.parse_pool("2P 2C"), downgrade_proficiency=1, downgrade_challenge=2)
    assert counts(pool) == "1A 1P 2D"


def test_downgrades_with_no_die_left_to_downgrade_are_ignored() -> None:
    pool = g.modify_pool(g.parse_pool("1A 1P 2D"), downgrade_proficiency=3, downgrade_challenge=1)
    assert counts(pool) == "2A 2D"
    assert "2 proficiency downgrades ignored: no proficiency die left" in pool.notes


def test_all_upgrades_are_applied_before_any_downgrade() -> None:
    # 2 Proficiency, one upgrade and one downgrade. Upgrading first adds an Ability die
    # (1A 2P), then the downgrade gives 2A 1P; downgrading first would end at 2P.
    pool = g.build_pool(
        characteristic="Intellect",
        characteristic_rating=2,
        skill="Mechanics",
        skill_ranks=2,
        upgrade_ability=1,
        downgrade_proficiency=1,
    )
    assert (pool.ability, pool.proficiency) == (2, 1)


def test_a_negative_upgrade_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(upgrade_ability=-1)
    assert error.value.message == "ability upgrades cannot be negative (-1)"
    assert error.value.rule == "Genesys dice pool, Upgrading Dice"


# --- Removing Dice ------------------------------------------------------------------------------


def test_dice_are_removed_after_all_are_added_and_extra_removals_are_ignored() -> None:
    pool = agility_ranged(setback=2, boost=1, removals={"setback": 3, "boost": 1})
    assert (pool.setback, pool.boost) == (0, 0)
    assert "2 setback removed (1 ignored)" in pool.notes


def test_removals_come_after_upgrades() -> None:
    # One upgrade adds a difficulty die to a Simple pool; removing it afterwards leaves none.
    pool = agility_ranged(difficulty="Simple", upgrade_difficulty=1, removals={"difficulty": 1})
    assert (pool.difficulty, pool.challenge) == (0, 0)


def test_removing_an_unknown_die_type_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        agility_ranged(removals={"force": 1})
    assert error.value.message == (
        "'force' is not a die type to remove "
        "(ability, proficiency, difficulty, challenge, boost, setback)"
    )
    assert error.value.rule == "Genesys dice pool, Removing Dice"


# --- The pool: notation, description, storage -------------------------------------------------


def test_notation_reads_every_letter_with_and_without_counts_in_any_case() -> None:
    pool = g.parse_pool("2A 1P 2D 1C 1B 1S")
    assert pool.counts() == {
        "ability": 2,
        "proficiency": 1,
        "difficulty": 2,
        "challenge": 1,
        "boost": 1,
        "setback": 1,
    }
    assert g.parse_pool("2a p, 2d+c b s") == pool
    assert g.parse_pool("2A1P2D1C1B1S") == pool
    assert g.parse_pool("1A 1A 1P 2D 1C 1B 1S") == pool  # a repeated letter is summed
    assert g.format_pool(pool) == "2A 1P 2D 1C 1B 1S"
    assert g.parse_pool(pool.notation()) == pool


def test_a_bad_notation_token_is_named() -> None:
    with pytest.raises(RuleError) as error:
        g.parse_pool("2A 3X")
    assert error.value.message == (
        "'3X' is not a pool term: use a count and a letter, such as '2A' "
        "(A ability, P proficiency, D difficulty, C challenge, B boost, S setback)"
    )
    assert error.value.rule == "Genesys dice pool, Basic Dice Pool"


def test_a_pool_with_no_dice_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        g.parse_pool("0A")
    assert error.value.message == "the pool '0A' has no dice: give dice such as '2A 1P 2D'"


def test_a_pool_of_more_than_sixty_dice_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        g.parse_pool("40A 21D")
    assert error.value.message == "a pool of 61 dice is more than the 60 Sheetkeeper rolls at once"


def test_a_negative_die_count_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        DicePool(ability=-1)
    assert error.value.message == "the number of ability dice cannot be negative (-1)"


def test_describe_puts_the_players_dice_against_the_gms() -> None:
    assert (
        g.parse_pool("2A 1P 2D 1B").describe()
        == "2 ability, 1 proficiency vs 2 difficulty, 1 boost"
    )
    assert g.parse_pool("3A").describe() == "3 ability"
    assert g.parse_pool("2D 1S").describe() == "no dice vs 2 difficulty, 1 setback"


def test_a_pool_survives_json_storage() -> None:
    pool = agility_ranged(difficulty="Impossible", destiny_point_spent=True, setback=1)
    data = json.loads(json.dumps(pool.as_dict()))
    assert DicePool.from_dict(data) == pool


def test_a_stored_pool_with_a_mistyped_count_is_refused() -> None:
    data = g.parse_pool("2A").as_dict()
    data["ability"] = "2"
    with pytest.raises(RuleError) as error:
        DicePool.from_dict(data)
    assert error.value.message == "stored 'ability' is not an integer"


# --- Interpreting the Pool ----------------------------------------------------------------------


def test_a_roll_reports_every_die_with_its_face_and_symbols() -> None:
    # Faces: ability 7 (SA), proficiency 12 (triumph), difficulty 8 (FH), challenge 10 (HH),
    # boost 5 (AA), setback 3 (F).
    rng = ScriptedRng(7, 12, 8, 10, 5, 3)
    result = g.roll(g.parse_pool("A P D C B S"), rng)
    assert rng.calls == [(1, 8), (1, 12), (1, 8), (1, 12), (1, 6), (1, 6)]
    assert [(d.die, d.face, d.symbols) for d in result.dice] == [
        ("ability", 7, ("success", "advantage")),
        ("proficiency", 12, ("triumph",)),
        ("difficulty", 8, ("failure", "threat")),
        ("challenge", 10, ("threat", "threat")),
        ("boost", 5, ("advantage", "advantage")),
        ("setback", 3, ("failure",)),
    ]
    t = result.tally
    assert (t.successes, t.failures, t.advantages, t.threats) == (2, 2, 3, 3)
    assert (t.triumphs, t.despairs, t.net_successes, t.net_advantage) == (1, 0, 0, 0)
    assert not result.succeeded
    assert result.summary() == "Failure (cancelled out), 1 triumph"


def test_each_failure_cancels_one_success_and_one_net_success_succeeds() -> None:
    result = scripted_roll("1A 1D", 4, 2)  # SS against F
    assert result.tally.net_successes == 1
    assert result.succeeded
    assert result.summary() == "Success (1 net)"


def test_if_all_successes_are_cancelled_the_check_fails() -> None:
    result = scripted_roll("1A 1D", 2, 2)  # S against F
    assert result.tally.net_successes == 0
    assert not result.succeeded


def test_net_failures_fail_the_check() -> None:
    result = scripted_roll("1A 1D", 1, 3)  # blank against FF
    assert result.summary() == "Failure (2 net failures)"


def test_threat_cancels_advantage_and_the_side_effect_holds_whether_the_check_succeeds() -> None:
    failed = scripted_roll("1A 1D", 8, 4)  # AA against H: fails with 1 advantage
    assert (failed.succeeded, failed.tally.net_advantage) == (False, 1)
    assert failed.summary() == "Failure (cancelled out), 1 advantage"
    succeeded = scripted_roll("1A 1D", 2, 7)  # S against HH: succeeds with 2 threat
    assert (succeeded.succeeded, succeeded.tally.net_threat) == (True, 2)
    assert succeeded.summary() == "Success (1 net), 2 threat"


def test_a_triumph_counts_one_success_as_well_as_its_boon() -> None:
    result = scripted_roll("1P", 12)
    assert (result.tally.successes, result.tally.triumphs) == (1, 1)
    assert result.succeeded
    assert result.summary() == "Success (1 net), 1 triumph"


def test_a_triumph_does_not_automatically_mean_a_successful_check() -> None:
    result = scripted_roll("1P 1D", 12, 3)  # triumph against FF
    assert not result.succeeded
    assert result.summary() == "Failure (1 net failure), 1 triumph"


def test_a_despair_counts_one_failure_but_does_not_automatically_mean_failure() -> None:
    result = scripted_roll("1A 1P 1C", 4, 4, 12)  # SS, SS against despair
    assert (result.tally.failures, result.tally.despairs) == (1, 1)
    assert result.succeeded
    assert result.summary() == "Success (3 net), 1 despair"


def test_triumph_and_despair_do_not_cancel_each_other() -> None:
    result = scripted_roll("2P 1C", 12, 12, 12)
    t = result.tally
    assert (t.triumphs, t.despairs, t.net_successes) == (2, 1, 1)
    assert result.summary() == "Success (1 net), 2 triumphs, 1 despair"


def test_a_roll_survives_json_storage_and_its_outcome_is_recomputed() -> None:
    result = g.roll(g.parse_pool("2A 1P 2D 1C 1B 1S"), random.Random(7))
    data = json.loads(json.dumps(result.as_dict()))
    assert data["system"] == "genesys"
    assert data["summary"] == result.summary()
    data["outcome"] = {"success": not result.succeeded}  # tampered: ignored when rebuilding
    assert g.RollResult.from_dict(data) == result


def test_a_stored_die_outside_its_faces_is_refused() -> None:
    data = scripted_roll("1A", 1).as_dict()
    data["dice"] = [{"die": "ability", "face": 9}]
    with pytest.raises(RuleError) as error:
        g.RollResult.from_dict(data)
    assert error.value.message == "a ability die has faces 1 to 8, not 9"


def test_a_rolled_die_of_an_unknown_type_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        RolledDie("force", 1)
    assert error.value.message == (
        "'force' is not a die type (ability, proficiency, difficulty, challenge, boost, setback)"
    )


def test_stored_dice_that_do_not_match_the_pool_are_refused() -> None:
    data = scripted_roll("1A", 1).as_dict()
    data["dice"] = [{"die": "boost", "face": 1}]
    with pytest.raises(RuleError) as error:
        g.RollResult.from_dict(data)
    assert error.value.message == "the stored dice do not match the pool '1A'"


def test_a_stored_roll_missing_its_dice_is_refused() -> None:
    data = scripted_roll("1A", 1).as_dict()
    del data["dice"]
    with pytest.raises(RuleError) as error:
        g.RollResult.from_dict(data)
    assert error.value.message == "stored data is missing 'dice'"


def test_a_stored_roll_whose_pool_is_not_a_mapping_is_refused() -> None:
    data = scripted_roll("1A", 1).as_dict()
    data["pool"] = "1A"
    with pytest.raises(RuleError) as error:
        g.RollResult.from_dict(data)
    assert error.value.message == "stored 'pool' is not a mapping"


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("dice", "1A", "stored 'dice' is not a list"),
        ("dice", ["ability"], "stored 'dice' is not a list of mappings"),
        ("dice", [{"die": 1, "face": 1}], "stored 'die' is not text"),
    ],
)
def test_a_mistyped_stored_roll_is_refused(key: str, value: object, message: str) -> None:
    data = scripted_roll("1A", 1).as_dict()
    data[key] = value
    with pytest.raises(RuleError) as error:
        g.RollResult.from_dict(data)
    assert error.value.message == message


def test_stored_pool_traits_that_are_not_text_are_refused() -> None:
    data = g.parse_pool("1A").as_dict()
    data["traits"] = [3]
    with pytest.raises(RuleError) as error:
        DicePool.from_dict(data)
    assert error.value.message == "stored 'traits' is not a list of text"


# --- Exact odds: RULES.md "Worked numbers" ----------------------------------------------------


def test_two_ability_against_one_difficulty_succeed_295_times_in_512() -> None:
    assert g.odds("2A 1D").success == Fraction(295, 512)


def test_two_ability_and_a_proficiency_against_two_difficulty_succeed_7997_in_12288() -> None:
    assert g.odds("2A 1P 2D").success == Fraction(7997, 12288)


def test_two_boost_against_two_setback_succeed_8_times_in_27() -> None:
    assert g.odds("2B 2S").success == Fraction(8, 27)


def test_triumph_and_despair_odds_are_one_minus_eleven_twelfths_per_die() -> None:
    result = g.odds("2P 3C")
    assert result.triumph == 1 - Fraction(11, 12) ** 2
    assert result.despair == 1 - Fraction(11, 12) ** 3
    assert g.odds("4A 4D 3B 3S").triumph == 0


def test_the_odds_answer_in_the_command_line_shape() -> None:
    answer = g.odds_query({"system": "genesys", "pool": "2A 1P 2D 1C 1B 1S"})
    assert list(answer) == ["success", "advantage", "threat", "triumph", "despair"]
    assert all(type(value) is float for value in answer.values())
    assert answer == g.odds("2A 1P 2D 1C 1B 1S").as_dict()
    assert json.loads(json.dumps(answer)) == answer
    assert [p.name for p in g.ODDS_PARAMETERS] == ["pool", "boost_setback"]


def test_an_odds_query_without_a_pool_is_refused() -> None:
    with pytest.raises(RuleError) as error:
        g.odds_query({})
    assert error.value.message.startswith("'pool' is required")


def test_an_odds_query_with_a_bad_pool_names_the_token() -> None:
    with pytest.raises(RuleError) as error:
        g.odds_query({"pool": "2A 2Q"})
    assert error.value.message.startswith("'2Q' is not a pool term")


# --- Properties -----------------------------------------------------------------------------------

pool_counts = st.fixed_dictionaries({die: st.integers(0, 3) for die in g.DIE_TYPES})


@given(pool_counts)
@settings(max_examples=60, deadline=None)
def test_every_distribution_sums_to_one_and_every_probability_lies_in_zero_to_one(
    dice: dict[str, int],
) -> None:
    result = g.odds(DicePool(**dice))
    for distribution in (result.net_successes, result.net_advantage):
        assert sum(p for _, p in distribution) == 1
        assert all(p > 0 for _, p in distribution)
        assert [v for v, _ in distribution] == sorted(v for v, _ in distribution)
    assert result.success == sum(p for v, p in result.net_successes if v >= 1)
    for p in result.as_dict().values():
        assert isinstance(p, float)
        assert 0 <= p <= 1


@given(pool_counts, st.integers(1, 4), st.integers(1, 4))
@settings(max_examples=60, deadline=None)
def test_upgrades_never_lower_the_success_chance_and_difficulty_upgrades_never_raise_it(
    dice: dict[str, int], ability_upgrades: int, difficulty_upgrades: int
) -> None:
    pool = DicePool(**dice)
    before = g.odds(pool).success
    assert g.odds(g.modify_pool(pool, upgrade_ability=ability_upgrades)).success >= before
    assert g.odds(g.modify_pool(pool, upgrade_difficulty=difficulty_upgrades)).success <= before
    assert g.odds(g.modify_pool(pool, downgrade_proficiency=1)).success <= before


# --- Independent references ---------------------------------------------------------------------


def icepool_die(die: str) -> icepool.Die:
    """A die of 6-vectors (success, advantage, triumph, failure, threat, despair) from the
    test's own restatement of the RULES.md face table."""
    order = "SATFHX"
    return icepool.Die(
        [icepool.Vector(tuple(face.count(c) for c in order)) for face in RULES_MD_FACES[die]]
    )


def icepool_odds(dice: dict[str, int]) -> dict[str, Fraction]:
    parts = [icepool_die(die) for die, count in dice.items() for _ in range(count)]
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    found = dict.fromkeys(["success", "advantage", "threat", "triumph", "despair"], Fraction(0))
    denominator = total.denominator()
    for outcome, quantity in total.items():
        s, a, t, f, h, x = outcome
        p = Fraction(quantity, denominator)
        found["success"] += p if s + t - f - x >= 1 else 0
        found["advantage"] += p if a - h >= 1 else 0
        found["threat"] += p if h - a >= 1 else 0
        found["triumph"] += p if t >= 1 else 0
        found["despair"] += p if x >= 1 else 0
    return found


@pytest.mark.parametrize(
    "notation", ["2A 1D", "1A 1P 2D 1C", "2P 2C 1B", "1A 1P 1D 1C 1B 1S", "3B 2S 1C", "2A 3D"]
)
def test_the_odds_agree_with_icepool_on_small_pools(notation: str) -> None:
    pool = g.parse_pool(notation)
    expected = icepool_odds({die: n for die, n in pool.counts().items() if n})
    found = g.odds(pool)
    for key, value in expected.items():
        assert getattr(found, key) == value, key  # both exact: no tolerance needed


def assert_rolls_agree_with_the_odds(pool: g.DicePool, rng: random.Random, n: int) -> None:
    """Roll ``pool`` ``n`` times with the engine's own dice and check each figure of its odds
    (success, advantage, threat, triumph, despair) within four standard errors."""
    seen = dict.fromkeys(["success", "advantage", "threat", "triumph", "despair"], 0)
    for _ in range(n):
        t = g.roll(pool, rng).tally
        seen["success"] += t.succeeded
        seen["advantage"] += t.net_advantage >= 1
        seen["threat"] += t.net_threat >= 1
        seen["triumph"] += t.triumphs >= 1
        seen["despair"] += t.despairs >= 1
    expected = g.odds(pool).as_dict()
    for key, count in seen.items():
        p = expected[key]
        assert isinstance(p, float)
        standard_error = math.sqrt(p * (1 - p) / n)
        assert abs(count / n - p) <= 4 * standard_error + 1e-12, (pool.notation(), key)


def test_two_hundred_thousand_rolls_agree_with_the_odds_within_four_standard_errors() -> None:
    assert_rolls_agree_with_the_odds(g.parse_pool("2A 1P 2D 1C 1B 1S"), random.Random(2024),
                                     200_000)
