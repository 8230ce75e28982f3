"""Tests of the 3d6 tests engine against the seed (3d6 Rolls and Tests) and RULES.md section 5.

Plain pytest, no database. Every worked example of the seed is a test; the odds are checked
exactly against RULES.md "Worked numbers", against icepool and a brute-force enumeration as
independent references, and against 200,000 rolls of the module's own roll function.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from itertools import product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import three_d6 as t
from rulesets.three_d6 import ContestSide, RuleError
from tests.rulesets.helpers import ScriptedRng


def rolled(
    *dice: int, modifier: int = 0, favor: int = 0, disfavor: int = 0, td: int | None = None
) -> t.TestResult:
    """A test resolved from the given faces (as if typed in from physical dice)."""
    pool = t.build_test(modifier=modifier, favor=favor, disfavor=disfavor, td=td)
    return t.resolve_test(pool, dice)


def side(
    result: t.TestResult, *, pc: bool, defender: bool = False, level: int = 0, name: str = ""
) -> ContestSide:
    return ContestSide(result=result, is_pc=pc, is_defender=defender, level=level, name=name)


# --- Your Fate and the Dice / 3d6 / Rolls and Tests -------------------------------------------


def test_a_test_is_rolled_with_three_six_sided_dice() -> None:
    rng = ScriptedRng(4, 2, 6)
    result = t.roll_test(t.build_test(td=10), rng)
    assert rng.calls == [(1, 6)] * 3
    assert result.dice == (4, 2, 6)
    assert t.build_test().dice == 3


def test_a_power_test_rolls_3d6_and_adds_the_modifier() -> None:
    pool = t.build_test(label="Power", modifier=2, td=12)
    result = t.roll_test(pool, ScriptedRng(3, 4, 5))
    assert (result.dice_sum, result.value, result.total) == (12, 12, 14)
    assert result.outcome == "success"
    assert pool.describe() == "Power test: 3d6 + 2 vs TD 12"
    assert result.summary() == "Success: 14 vs TD 12"


def test_the_minimum_roll_on_3d6_is_3_and_the_maximum_is_18() -> None:
    sums = {sum(faces) for faces in product(range(1, 7), repeat=3)}
    assert (min(sums), max(sums)) == (3, 18)
    assert rolled(1, 1, 1).dice_sum == 3
    assert rolled(6, 6, 6).dice_sum == 18


def test_a_10_is_much_more_likely_than_a_17_on_3d6() -> None:
    totals = t.total_distribution()
    assert totals[10] == Fraction(27, 216)
    assert totals[17] == Fraction(3, 216)


# --- Test Difficulty --------------------------------------------------------------------------


def test_dodging_debris_with_an_agility_test_against_td_10_succeeds_on_10_or_higher() -> None:
    pool = t.build_test(label="Agility", td=10)
    assert t.resolve_test(pool, (3, 3, 4)).outcome == "success"
    assert t.resolve_test(pool, (5, 5, 6)).outcome == "success"
    assert t.resolve_test(pool, (2, 3, 4)).outcome == "failure"
    assert t.resolve_test(pool, (2, 3, 4)).summary() == "Failure: 9 vs TD 10"


def test_a_test_difficulty_below_1_is_rejected() -> None:
    with pytest.raises(RuleError, match="test difficulty 0 must be 1 or more") as error:
        t.build_test(td=0)
    assert error.value.rule == "3d6 Rolls and Tests, Test Difficulty"


# --- Favor and Disfavor -----------------------------------------------------------------------


def test_each_point_of_favor_rolls_an_additional_d6_and_all_dice_are_summed() -> None:
    pool = t.build_test(favor=2, modifier=1, td=20)
    assert pool.dice == 5
    result = t.roll_test(pool, ScriptedRng(2, 3, 4, 5, 5))
    assert (result.value, result.total, result.outcome) == (19, 20, "success")
    assert pool.describe() == "Test: 5d6 + 1 vs TD 20 (2 favor)"


def test_each_point_of_disfavor_removes_a_d6() -> None:
    pool = t.build_test(disfavor=1, modifier=-1, td=8)
    assert pool.dice == 2
    result = t.roll_test(pool, ScriptedRng(4, 5))
    assert (result.total, result.outcome) == (8, "success")


def test_favor_and_disfavor_are_netted_before_counting_dice() -> None:
    assert t.build_test(favor=1, disfavor=1).dice == 3
    assert t.build_test(favor=1, disfavor=3).dice == 1
    assert t.dice_count(favor=2, disfavor=7) == 0


def test_enough_disfavor_to_roll_zero_dice_fails_the_test_automatically() -> None:
    pool = t.build_test(label="Stealth", disfavor=3, modifier=10, td=1)
    rng = ScriptedRng()
    result = t.roll_test(pool, rng)
    assert rng.calls == []
    assert result.dice == ()
    assert result.automatic_failure and result.outcome == "failure"
    assert not result.critical_failure  # decision: no die rolled, so no die shows a 1
    assert result.total == 0
    assert result.summary() == "Failure: no dice to roll"
    assert (
        pool.describe()
        == "Stealth test: no dice + 10 vs TD 1 (3 disfavor, no dice: fails automatically)"
    )
    assert t.odds(td=1, modifier=10, disfavor=4).success == 0


def test_favor_or_disfavor_outside_the_engine_limits_is_rejected() -> None:
    cases = [
        ({"favor": -1}, "favor -1 must be 0 or more"),
        ({"disfavor": -2}, "disfavor -2 must be 0 or more"),
        ({"favor": 21}, "favor 21 is more than 20, the most points this engine handles"),
        ({"disfavor": 21}, "disfavor 21 is more than 20, the most points this engine handles"),
    ]
    for kwargs, message in cases:
        with pytest.raises(RuleError) as error:
            t.build_test(**kwargs)
        assert error.value.message == message
        assert error.value.rule == "3d6 Rolls and Tests, Favor and Disfavor"


# --- Critical Successes and Failures ----------------------------------------------------------


def test_a_roll_of_18_on_3d6_is_a_critical_success_treated_as_36() -> None:
    result = rolled(6, 6, 6, td=30)
    assert result.critical_success
    assert (result.dice_sum, result.value, result.total) == (18, 36, 36)
    assert result.summary() == "Success: 36 vs TD 30, critical success"


def test_a_critical_success_doubles_the_roll_before_modifiers() -> None:
    result = rolled(6, 2, 6, 6, modifier=3, favor=1, td=40)
    assert result.critical_success
    assert (result.value, result.total, result.outcome) == (40, 43, "success")


def test_two_sixes_are_not_a_critical_success() -> None:
    result = rolled(6, 6, 5)
    assert not result.critical_success
    assert result.value == 17


def test_a_critical_success_is_not_automatically_a_success() -> None:
    # Decision: the seed doubles the roll and keeps the modifiers; nothing more.
    result = rolled(6, 6, 6, modifier=-30, td=10)
    assert result.critical_success
    assert (result.total, result.outcome) == (6, "failure")


def test_rolling_2_on_2d6_with_one_point_of_disfavor_is_a_critical_failure() -> None:
    result = rolled(1, 1, modifier=5, disfavor=1, td=3)
    assert result.critical_failure
    assert (result.value, result.total, result.outcome) == (0, 0, "failure")
    assert result.summary() == "Failure: 0 vs TD 3, critical failure"


def test_a_critical_failure_needs_every_die_to_show_1() -> None:
    assert rolled(1, 1, 1, 1, favor=1).critical_failure
    assert not rolled(1, 1, 2).critical_failure
    assert rolled(1, disfavor=2).critical_failure


def test_a_critical_failure_ignores_modifiers_and_always_fails() -> None:
    pool = t.build_test(modifier=20, td=1)
    result = t.resolve_test(pool, (1, 1, 1))
    assert (result.total, result.outcome) == (0, "failure")
    assert t.odds(td=1, modifier=20).success == 1 - Fraction(1, 216)


def test_critical_success_is_1_in_216_on_3d6() -> None:
    assert t.odds(td=10).critical_success == Fraction(1, 216)


def test_critical_success_is_21_in_1296_with_one_favor() -> None:
    assert t.odds(td=10, favor=1).critical_success == Fraction(21, 1296)


def test_critical_success_is_impossible_with_one_disfavor() -> None:
    assert t.odds(td=10, disfavor=1).critical_success == 0


def test_critical_failure_is_1_in_36_on_2d6_and_1_in_216_on_3d6() -> None:
    assert t.odds(td=10, disfavor=1).critical_failure == Fraction(1, 36)
    assert t.odds(td=10).critical_failure == Fraction(1, 216)


# --- Rolls: dice given by hand, storage ------------------------------------------------------


def test_resolving_the_wrong_number_of_dice_is_rejected() -> None:
    with pytest.raises(RuleError) as error:
        rolled(3, 4, favor=1)
    assert error.value.message == "this test rolls 4d6, but 2 dice were given"
    assert error.value.rule == "3d6 Rolls and Tests, Favor and Disfavor"


def test_resolving_a_face_outside_1_to_6_is_rejected() -> None:
    with pytest.raises(RuleError) as error:
        rolled(3, 7, 2)
    assert error.value.message == "a d6 cannot show 7"
    assert error.value.rule == "3d6 Rolls and Tests, Your Fate and the Dice"


def test_a_roll_survives_json_storage_and_is_recomputed_from_its_dice() -> None:
    pool = t.build_test(label=" Agility ", modifier=-1, favor=2, disfavor=1, td=11)
    assert pool.label == "Agility"
    result = t.roll_test(pool, random.Random(5))
    data = json.loads(json.dumps(result.as_dict()))
    assert data["system"] == "three_d6"
    assert data["pool"]["dice"] == 4
    assert t.TestResult.from_dict(data) == result
    data["dice"] = [6, 6, 6, 1]
    data["outcome"] = "failure"  # a stored outcome is never trusted
    rebuilt = t.TestResult.from_dict(data)
    assert rebuilt.critical_success and rebuilt.outcome == "success"
    contest_roll = t.roll_test(t.build_test(label="Power"), random.Random(1))
    assert contest_roll.outcome == "rolled"
    assert t.TestResult.from_dict(json.loads(json.dumps(contest_roll.as_dict()))) == contest_roll


def test_a_damaged_stored_roll_is_rejected_with_the_field_named() -> None:
    good = rolled(2, 3, 4, td=5).as_dict()
    pool = dict(good["pool"])  # type: ignore[call-overload]
    cases = [
        ({k: v for k, v in good.items() if k != "dice"}, "stored data is missing 'dice'"),
        ({**good, "pool": "3d6"}, "stored 'pool' is not a mapping"),
        ({**good, "dice": [2, "3", 4]}, "stored 'dice' is not a list of integers"),
        ({**good, "pool": {**pool, "modifier": "1"}}, "stored 'modifier' is not an integer"),
        ({**good, "pool": {**pool, "label": 7}}, "stored 'label' is not text"),
        ({**good, "pool": {**pool, "td": "5"}}, "stored 'td' is not an integer"),
    ]
    for data, message in cases:
        with pytest.raises(RuleError) as error:
            t.TestResult.from_dict(data)
        assert error.value.message == message


# --- Contesting and Tie Breakers --------------------------------------------------------------


def test_in_a_grapple_the_higher_total_wins_the_contest() -> None:
    grappler = side(rolled(5, 5, 4, modifier=1), pc=True, name="Aria")
    target = side(rolled(6, 5, 5), pc=False, defender=True, name="Ogre")
    result = t.resolve_contest(grappler, target, ScriptedRng())
    assert (result.winner, result.decided_by) == (2, "total")
    assert result.summary() == "Ogre wins 16 to 15"
    assert result.winning_side is target and result.losing_side is grappler


def test_a_contest_is_decided_by_totals_after_critical_success_doubling() -> None:
    attacker = side(rolled(6, 6, 6), pc=False, name="Wolf")
    defender = side(rolled(5, 5, 5, modifier=10), pc=True, defender=True, name="Aria")
    result = t.resolve_contest(attacker, defender, ScriptedRng())
    assert (result.winner, result.decided_by) == (1, "total")
    assert result.summary() == "Wolf wins 36 to 25"


def test_a_pc_wins_a_tie_against_an_npc() -> None:
    npc = side(rolled(4, 4, 4, modifier=3), pc=False, defender=True, level=9, name="Guard")
    pc = side(rolled(5, 5, 5), pc=True, level=1, name="Aria")
    result = t.resolve_contest(npc, pc, ScriptedRng())
    assert (result.winner, result.decided_by) == (2, "pc_beats_npc")
    assert result.summary() == "Aria wins 15 to 15 (tie: the PC wins against an NPC)"


def test_between_two_npcs_the_defending_creature_wins_a_tie() -> None:
    attacker = side(rolled(4, 4, 4, modifier=5), pc=False, level=5)
    defender = side(rolled(5, 6, 6), pc=False, defender=True, level=1)
    result = t.resolve_contest(attacker, defender, ScriptedRng())
    assert (result.winner, result.decided_by) == (2, "defender")


def test_between_two_pcs_the_defending_creature_wins_a_tie() -> None:
    defender = side(rolled(3, 3, 3, modifier=1), pc=True, defender=True)
    attacker = side(rolled(2, 3, 5), pc=True)
    result = t.resolve_contest(defender, attacker, ScriptedRng())
    assert (result.winner, result.decided_by) == (1, "defender")
    assert result.summary() == "First side wins 10 to 10 (tie: the defender wins)"


def test_when_both_or_neither_defend_the_better_modifier_wins_a_tie() -> None:
    strong = side(rolled(3, 3, 3, modifier=3), pc=False, defender=True)
    weak = side(rolled(4, 4, 4), pc=False, defender=True, level=5)
    assert t.resolve_contest(strong, weak, ScriptedRng()).decided_by == "modifier"
    assert t.resolve_contest(weak, strong, ScriptedRng()).winner == 2
    neither = t.resolve_contest(
        side(rolled(4, 4, 4), pc=True), side(rolled(3, 3, 3, modifier=3), pc=True), ScriptedRng()
    )
    assert (neither.winner, neither.decided_by) == (2, "modifier")


def test_the_tie_breaking_modifier_can_be_given_as_a_side_fact() -> None:
    first = ContestSide(result=rolled(4, 4, 4), is_pc=True, modifier=2)
    second = ContestSide(result=rolled(3, 3, 3, modifier=3), is_pc=True)
    assert (first.tie_modifier, second.tie_modifier) == (2, 3)
    assert t.resolve_contest(first, second, ScriptedRng()).winner == 2


def test_with_the_same_modifier_the_higher_level_or_dr_wins_a_tie() -> None:
    low = side(rolled(2, 4, 6, modifier=1), pc=False, level=2)
    high = side(rolled(4, 4, 4, modifier=1), pc=False, level=4)
    result = t.resolve_contest(low, high, ScriptedRng())
    assert (result.winner, result.decided_by) == (2, "level")


def test_with_the_same_level_the_winner_of_a_tie_is_chosen_at_random() -> None:
    first = side(rolled(4, 4, 4), pc=True, level=3, name="Aria")
    second = side(rolled(2, 5, 5), pc=True, level=3, name="Bram")
    rng = ScriptedRng(2)
    result = t.resolve_contest(first, second, rng)
    assert rng.calls == [(1, 2)]
    assert (result.winner, result.decided_by, result.random_die) == (2, "random", 2)
    assert result.summary() == "Bram wins 12 to 12 (tie: chosen at random)"
    assert t.resolve_contest(first, second, ScriptedRng(1)).winner == 1


def test_a_side_with_zero_dice_loses_a_contest_to_any_roll() -> None:
    failed = side(rolled(disfavor=3), pc=True, defender=True)
    unlucky = side(rolled(1, 1, 2, modifier=-9), pc=False)
    assert unlucky.result.total == -5
    result = t.resolve_contest(failed, unlucky, ScriptedRng())
    assert (result.winner, result.decided_by) == (2, "total")


def test_a_contest_survives_json_storage_and_is_decided_again() -> None:
    first = side(rolled(4, 4, 4), pc=True, level=3, name="Aria")
    second = side(rolled(2, 5, 5), pc=True, level=3, name="Bram")
    result = t.resolve_contest(first, second, ScriptedRng(1))
    data = json.loads(json.dumps(result.as_dict()))
    assert (data["system"], data["kind"], data["winner"]) == ("three_d6", "contest", 1)
    assert t.ContestResult.from_dict(data) == result
    data["winner"] = 2  # a stored winner is never trusted
    assert t.ContestResult.from_dict(data).winner == 1
    plain = t.resolve_contest(first, side(rolled(1, 2, 2), pc=False), ScriptedRng())
    assert t.ContestResult.from_dict(json.loads(json.dumps(plain.as_dict()))) == plain


def test_a_damaged_stored_contest_is_rejected_with_the_reason() -> None:
    first = side(rolled(4, 4, 4), pc=True)
    second = side(rolled(2, 5, 5), pc=True)
    good = t.resolve_contest(first, second, ScriptedRng(1)).as_dict()
    side_data = dict(good["first"])  # type: ignore[call-overload]
    cases = [
        ({**good, "random_die": None}, "the stored contest is a full tie but has no random draw"),
        ({**good, "random_die": 3}, "stored random draw 3 is not 1 or 2"),
        ({**good, "second": []}, "stored 'second' is not a mapping"),
        ({**good, "first": {**side_data, "result": 4}}, "stored 'result' is not a mapping"),
        ({**good, "first": {**side_data, "is_pc": 1}}, "stored 'is_pc' is not true or false"),
    ]
    for data, message in cases:
        with pytest.raises(RuleError) as error:
            t.ContestResult.from_dict(data)
        assert error.value.message == message


# --- Dice Nomenclature ------------------------------------------------------------------------


def test_the_seed_names_seven_dice_types() -> None:
    assert list(t.DICE_VOCABULARY) == ["d4", "d6", "d8", "d10", "d%", "d12", "d20"]
    assert t.die_faces("d20") == tuple(range(1, 21))


def test_percentile_dice_read_00_to_90_in_tens() -> None:
    assert t.die_faces("d%") == (0, 10, 20, 30, 40, 50, 60, 70, 80, 90)
    rng = ScriptedRng(1, 10)
    assert t.roll_dice("2d%", rng) == (0, 90)
    assert rng.calls == [(1, 10), (1, 10)]


def test_four_eight_sided_dice_are_written_4d8() -> None:
    assert t.describe_dice(4, "d8") == "4d8"
    assert t.describe_dice(1, "d20") == "d20"
    rng = ScriptedRng(3, 8, 1, 5)
    assert t.roll_dice("4d8", rng) == (3, 8, 1, 5)
    assert rng.calls == [(1, 8)] * 4


def test_bad_dice_notation_is_rejected_with_the_text_quoted() -> None:
    cases = [
        (
            lambda: t.die_faces("d7"),
            "'d7' is not one of the dice types d4, d6, d8, d10, d%, d12, d20",
        ),
        (lambda: t.describe_dice(0, "d6"), "a roll needs at least 1 die, not 0"),
        (
            lambda: t.roll_dice("four d8", ScriptedRng()),
            "'four d8' is not dice notation such as '4d8' or 'd%'",
        ),
        (lambda: t.roll_dice("0d6", ScriptedRng()), "a roll needs at least 1 die, not 0"),
    ]
    for call, message in cases:
        with pytest.raises(RuleError) as error:
            call()
        assert error.value.message == message
        assert error.value.rule == "3d6 Rolls and Tests, Dice Nomenclature"


# --- Exact odds and the command-line face ----------------------------------------------------


def test_odds_for_3d6_are_one_half_against_td_11_and_five_eighths_against_td_10() -> None:
    result = t.odds(td=11)
    assert (result.dice, result.success) == (3, Fraction(1, 2))
    assert t.odds(td=10).success == Fraction(135, 216)


def test_the_odds_query_answers_in_the_command_line_shape() -> None:
    answer = t.odds_query(
        {"system": "three_d6", "td": 12, "modifier": 1, "favor": 1, "disfavor": 0}
    )
    assert list(answer) == ["success", "critical_success", "critical_failure"]
    assert all(type(value) is float for value in answer.values())
    exact = t.odds(td=12, modifier=1, favor=1)
    assert answer["success"] == float(exact.success)
    assert answer["critical_success"] == 21 / 1296
    assert answer["critical_failure"] == 1 / 1296
    assert t.odds_query({"td": 12}) == t.odds(td=12).as_dict()
    assert json.loads(json.dumps(answer)) == answer


def test_the_odds_query_rejects_bad_values_naming_them() -> None:
    cases = [
        ({"td": 0}, "test difficulty 0 must be 1 or more"),
        ({"td": 10, "favor": -1}, "favor -1 must be 0 or more"),
        (
            {"td": 10, "disfavor": 99},
            "disfavor 99 is more than 20, the most points this engine handles",
        ),
        (
            {"modifier": 1},
            "'td' is required (test difficulty, the total needed to succeed (1 or more))",
        ),
        ({"td": "12"}, "td must be a whole number, not '12'"),
    ]
    for query, message in cases:
        with pytest.raises(RuleError) as error:
            t.odds_query(query)
        assert error.value.message == message
    assert [parameter.name for parameter in t.ODDS_PARAMETERS] == [
        "td",
        "modifier",
        "favor",
        "disfavor",
        "favor_disfavor",
        "disfavor_critical",
    ]


def _brute_force(td: int, modifier: int, dice: int) -> tuple[Fraction, Fraction, Fraction]:
    """Every face combination, scored straight from the seed's sentences."""
    success = critical_success = critical_failure = 0
    for faces in product(range(1, 7), repeat=dice):
        if dice and all(face == 1 for face in faces):
            critical_failure += 1
            continue  # value 0, modifiers ignored: 0 < td
        value = sum(faces) * (2 if faces.count(6) >= 3 else 1)
        critical_success += faces.count(6) >= 3
        success += dice > 0 and value + modifier >= td
    whole = 6**dice
    return (
        Fraction(success, whole),
        Fraction(critical_success, whole),
        Fraction(critical_failure, whole),
    )


@pytest.mark.parametrize(
    ("td", "modifier", "favor", "disfavor"),
    [
        (10, 0, 0, 0),
        (12, 1, 1, 0),
        (5, -3, 0, 1),
        (1, -10, 0, 2),
        (30, 2, 2, 0),
        (40, 0, 2, 1),
        (4, 0, 0, 3),
    ],
)
def test_odds_agree_with_every_face_combination(
    td: int, modifier: int, favor: int, disfavor: int
) -> None:
    result = t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor)
    expected = _brute_force(td, modifier, t.dice_count(favor, disfavor))
    assert (result.success, result.critical_success, result.critical_failure) == expected


def _icepool_test(dice: int, modifier: int) -> tuple[icepool.Die, icepool.Die, icepool.Die]:
    """(total, critical success, critical failure) as icepool dice, built independently."""

    def total(faces: tuple[int, ...]) -> int:
        if all(face == 1 for face in faces):
            return 0
        return sum(faces) * (2 if faces.count(6) >= 3 else 1) + modifier

    expanded = icepool.d6.pool(dice).expand()
    sixes = dice @ icepool.d6.map(lambda face: int(face == 6))
    ones = dice @ icepool.d6.map(lambda face: int(face == 1))
    return expanded.map(total), sixes.map(lambda n: n >= 3), ones.map(lambda n: n == dice)


@pytest.mark.parametrize(
    ("td", "modifier", "favor", "disfavor"),
    [(10, 0, 0, 0), (12, 1, 1, 0), (7, -2, 0, 1), (3, 5, 0, 2), (25, 0, 2, 0), (36, 1, 3, 0)],
)
def test_odds_agree_with_icepool_on_small_pools(
    td: int, modifier: int, favor: int, disfavor: int
) -> None:
    dice = t.dice_count(favor, disfavor)
    totals, critical_success, critical_failure = _icepool_test(dice, modifier)
    result = t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor)
    assert abs(float(result.success) - totals.probability(">=", td)) < 1e-9
    assert abs(float(result.critical_success) - critical_success.probability(True)) < 1e-9
    assert abs(float(result.critical_failure) - critical_failure.probability(True)) < 1e-9
    distribution = t.total_distribution(modifier=modifier, favor=favor, disfavor=disfavor)
    assert list(distribution) == sorted(totals.outcomes())
    for total, probability in distribution.items():
        assert abs(float(probability) - totals.probability(total)) < 1e-9


def test_200000_rolls_agree_with_the_odds_within_4_standard_errors() -> None:
    pool = t.build_test(modifier=1, favor=1, td=16)
    rng = random.Random(20240603)
    n = 200_000
    successes = critical_successes = critical_failures = 0
    for _ in range(n):
        result = t.roll_test(pool, rng)
        successes += result.success
        critical_successes += result.critical_success
        critical_failures += result.critical_failure
    exact = t.odds(td=16, modifier=1, favor=1)
    for count, p in (
        (successes, exact.success),
        (critical_successes, exact.critical_success),
        (critical_failures, exact.critical_failure),
    ):
        standard_error = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(count / n - float(p)) <= 4 * standard_error


# --- Properties -------------------------------------------------------------------------------

tds = st.integers(min_value=1, max_value=60)
modifiers = st.integers(min_value=-20, max_value=20)
points = st.integers(min_value=0, max_value=8)


@settings(max_examples=60, deadline=None)
@given(modifier=modifiers, favor=points, disfavor=points)
def test_every_total_distribution_sums_to_1_and_matches_the_odds(
    modifier: int, favor: int, disfavor: int
) -> None:
    distribution = t.total_distribution(modifier=modifier, favor=favor, disfavor=disfavor)
    assert sum(distribution.values()) == 1
    assert all(p > 0 for p in distribution.values())
    assert list(distribution) == sorted(distribution)
    for td in (1, 10, 25):
        expected = sum((p for total, p in distribution.items() if total >= td), Fraction(0))
        assert t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor).success == expected


@settings(max_examples=60, deadline=None)
@given(td=tds, modifier=modifiers, favor=points, disfavor=points)
def test_favor_never_lowers_and_disfavor_never_raises_the_chance_of_success(
    td: int, modifier: int, favor: int, disfavor: int
) -> None:
    base = t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor)
    more_favor = t.odds(td=td, modifier=modifier, favor=favor + 1, disfavor=disfavor)
    more_disfavor = t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor + 1)
    assert more_favor.success >= base.success
    assert more_disfavor.success <= base.success
    assert more_favor.critical_success >= base.critical_success
    assert 0 <= base.success <= 1


@settings(max_examples=60, deadline=None)
@given(td=tds, modifier=modifiers, favor=points, disfavor=points)
def test_a_higher_modifier_never_lowers_and_a_higher_td_never_raises_the_chance(
    td: int, modifier: int, favor: int, disfavor: int
) -> None:
    base = t.odds(td=td, modifier=modifier, favor=favor, disfavor=disfavor).success
    assert t.odds(td=td, modifier=modifier + 1, favor=favor, disfavor=disfavor).success >= base
    assert t.odds(td=td + 1, modifier=modifier, favor=favor, disfavor=disfavor).success <= base
