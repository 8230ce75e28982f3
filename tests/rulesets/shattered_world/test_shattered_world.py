"""Tests of the Shattered World rules engine against the seed ("Core Engine") and RULES.md §3.

Plain pytest, no database. Every worked example of the seed is its own test; the odds are
checked against a hand count, against icepool and against the module's own roll function.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import shattered_world as sw
from rulesets.shattered_world import RuleError
from tests.rulesets.helpers import ScriptedRng

CORE = "Shattered World Core Engine, The Core Mechanic"
DICE = "Shattered World Core Engine, Action Dice and Field Role Dice"
BUY_INS = "Shattered World Core Engine, Achievements and Buy-Ins"
UNIVERSAL_BUY_INS = "Shattered World Core Engine, Universal Buy-Ins"


# --- The die chart ------------------------------------------------------------------------------


def test_the_default_die_chart_runs_d4_d6_d8_d10_d12_d20() -> None:
    assert sw.DIE_CHART == (4, 6, 8, 10, 12, 20)


def test_the_action_die_starts_at_a_d4() -> None:
    # Seed, The Core Mechanic: "roll your Action Die (... starts at a d4)".
    assert sw.ACTION_DIE_START == 4
    assert sw.action_die() == 4


def test_the_field_role_die_starts_at_a_d8() -> None:
    # Seed, Foundational Rules: "a bump to a higher die (d8 at the start)"; RULES.md Decision.
    assert sw.FIELD_ROLE_DIE_START == 8
    assert sw.field_role_die(sw.action_die()) == 8


def test_the_field_role_die_follows_the_action_die_and_stops_at_the_largest_die() -> None:
    assert [sw.field_role_die(sw.action_die(level)) for level in range(6)] == [
        8,
        10,
        12,
        20,
        20,
        20,
    ]


def test_action_die_levels_walk_the_chart() -> None:
    assert [sw.action_die(level) for level in range(6)] == [4, 6, 8, 10, 12, 20]


def test_step_up_and_step_down_move_along_the_chart() -> None:
    assert sw.step_up(4) == 6
    assert sw.step_up(12) == 20
    assert sw.step_up(4, 3) == 10
    assert sw.step_up(8, 0) == 8
    assert sw.step_down(20) == 12
    assert sw.step_down(10, 3) == 4


def test_a_campaign_may_pass_its_own_chart() -> None:
    chart = (4, 8, 12, 20, 100)
    assert sw.step_up(12, chart=chart) == 20
    assert sw.step_down(100, 2, chart=chart) == 12
    assert sw.action_die(4, chart=chart) == 100
    assert sw.field_role_die(4, chart=chart, offset=1) == 8
    pool = sw.build_pool(target=30, action_die=20, field_role_action=True, chart=chart)
    assert pool.die == 100


# --- Multipliers, rounding and totals ------------------------------------------------------------


def test_a_critical_hit_x2_and_a_rune_x2_make_a_final_multiplier_of_x3() -> None:
    # Seed, The Core Mechanic: "a ×2 multiplier from a critical hit and a ×2 multiplier from
    # [for example] a rune, your final multiplier is ×3".
    assert sw.final_factor("x2 x2") == 3


def test_a_critical_hit_x3_and_a_divisor_of_2_make_a_final_factor_of_2() -> None:
    # Seed, The Core Mechanic: "a ×3 multiplier from a critical hit and a ÷2 from something
    # else, your final factor is 2".
    assert sw.final_factor("×3 ÷2") == 2
    assert sw.final_factor("x3 /2") == 2


def test_a_single_factor_is_applied_as_it_is() -> None:
    assert sw.final_factor("") == 1
    assert sw.final_factor("x4") == 4
    assert sw.final_factor("/2") == Fraction(1, 2)


def test_further_factors_add_on_one_ladder_in_any_order_and_below_x1() -> None:
    assert sw.final_factor("x2 x2 x2") == 4
    assert sw.final_factor("/2 x3") == sw.final_factor("x3 /2") == 2
    assert sw.final_factor("x2 /2") == 1
    assert sw.final_factor("x2 /3") == Fraction(1, 2)
    assert sw.final_factor("/2 /2") == Fraction(1, 3)
    assert sw.final_factor((3, -2)) == 2


def test_multiplier_notation_reads_x_times_star_slash_and_division_signs() -> None:
    assert sw.parse_multipliers("x2, ×3 *4 /2 ÷5") == (2, 3, 4, -2, -5)
    assert sw.parse_multipliers("  ") == ()
    assert sw.format_multipliers((3, -2)) == "x3 /2"


def test_divisions_round_49_down_and_5_up() -> None:
    # Seed, The Core Mechanic: ".49 or lower rounds down, .5 or higher rounds up".
    assert sw.round_half_up(Fraction(249, 100)) == 2
    assert sw.round_half_up(Fraction(5, 2)) == 3
    assert sw.total(5, 0, "/2") == 3
    assert sw.total(7, 0, "/3") == 2


def test_a_result_of_zero_becomes_one() -> None:
    # Seed, The Core Mechanic: "0 results always become 1".
    assert sw.total(1, 0, "/3") == 1
    assert sw.total(3, -3) == 1


def test_modifiers_are_added_before_the_factor() -> None:
    assert sw.total(5, 2, "x2 x2") == 21
    assert sw.total(6, -1) == 5


# --- Pool building --------------------------------------------------------------------------------


def test_an_ordinary_action_rolls_the_action_die() -> None:
    pool = sw.build_pool(target=5)
    assert (pool.die, pool.die_kind) == (4, "action die")


def test_a_field_role_action_rolls_the_field_role_die() -> None:
    pool = sw.build_pool(target=5, action_die=6, field_role_action=True)
    assert (pool.die, pool.die_kind) == (10, "field role die")
    assert pool.notes == ("field role action: the field role die",)


def test_all_rolls_for_humans_are_field_role_dice() -> None:
    # Seed: "Note that all rolls for humans are FRD—they do not use AD at all."
    pool = sw.build_pool(target=5, action_die=4, field_role_die=8, human=True)
    assert (pool.die, pool.die_kind) == (8, "field role die")
    assert pool.notes == ("human: always the field role die",)


def test_every_modifier_stacks_and_a_class_bonus_adds_to_the_base_modifier() -> None:
    # Seed, The Core Mechanic: "Every relevant +/- modifier in the game stacks, always" and a
    # class modifier "for example, Resist Toxins on the Endurance table" adds to the base one.
    pool = sw.build_pool(target=9, modifiers=(2, 3, -1), action="Resist Toxins")
    assert pool.modifier == 4
    assert sw.roll(pool, ScriptedRng(3)).total == 7


def test_a_pool_describes_itself_in_one_line() -> None:
    pool = sw.build_pool(
        target=9, field_role_action=True, modifiers=(3,), multipliers="x2", action="Resist Toxins"
    )
    assert pool.describe() == "Resist Toxins: field role die d8 +3 x2, target 9"
    assert sw.build_pool(target=5).describe() == "Action die d4, target 5"


def test_a_pool_survives_a_json_round_trip() -> None:
    pool = sw.build_pool(target=9, human=True, modifiers=(3, -1), multipliers="×3 ÷2")
    data = json.loads(json.dumps(pool.as_dict()))
    assert data["system"] == "shattered_world"
    assert data["multipliers"] == "x3 /2"
    assert sw.ActionPool.from_dict(data) == pool


# --- Resolving ------------------------------------------------------------------------------------


def test_meeting_the_target_number_precisely_is_degree_one() -> None:
    # Seed: "If the result meets the target number precisely, zero Damage always becomes one."
    resolution = sw.resolve(5, 8, 5)
    assert (resolution.outcome, resolution.degree) == ("success", 1)


def test_the_target_number_subtracted_from_the_result_is_the_degree_of_success() -> None:
    # Seed: "The target number subtracted from your successful roll ... degree of success";
    # "the difference indicates base damage inflicted".
    resolution = sw.resolve(7, 8, 5, modifier=2)
    assert (resolution.total, resolution.outcome, resolution.degree) == (9, "success", 4)


def test_a_result_below_the_target_number_fails() -> None:
    resolution = sw.resolve(4, 8, 5)
    assert (resolution.outcome, resolution.degree, resolution.automatic) == ("failure", 0, False)


def test_the_maximum_roll_is_an_automatic_standard_success_of_degree_one() -> None:
    # Seed, The Core Mechanic step 2 and Standard Success: the highest result gives a standard
    # success, "the target number ... exceeded by 1", when it would otherwise have failed.
    resolution = sw.resolve(4, 4, 10)
    assert (resolution.outcome, resolution.degree, resolution.automatic) == (
        "standard success",
        1,
        True,
    )
    assert resolution.success


def test_the_maximum_roll_keeps_a_better_total_than_a_standard_success() -> None:
    # "... unless the standard success is less desirable result than the number produced".
    resolution = sw.resolve(4, 4, 5, modifier=6)
    assert (resolution.total, resolution.outcome, resolution.degree) == (10, "success", 5)


def test_a_1_is_a_failure_regardless_of_modifiers() -> None:
    # Seed: "If the result on the di(c)e is a 1, it is automatically a failure regardless of
    # modifiers."
    resolution = sw.resolve(1, 20, 2, modifier=30, multipliers="x3")
    assert (resolution.total, resolution.outcome, resolution.automatic) == (93, "failure", True)


def test_there_are_no_critical_failures() -> None:
    # Seed: "There are, however, no critical failures." A 1 fails like any miss, no worse.
    one = sw.resolve(1, 6, 4)
    miss = sw.resolve(2, 6, 4)
    assert (one.outcome, one.degree) == (miss.outcome, miss.degree) == ("failure", 0)
    assert not any("critical" in outcome for outcome in sw.OUTCOMES)


def test_choosing_standard_success_without_rolling_beats_the_target_by_one() -> None:
    # Seed, Standard Success: "when the player has the option to choose standard success and
    # does not wish to roll any dice"; "the target number to succeed was exceeded by 1".
    resolution = sw.standard_success(sw.build_pool(target=12))
    assert (resolution.total, resolution.outcome, resolution.degree) == (
        13,
        "standard success",
        1,
    )


# --- Rolling --------------------------------------------------------------------------------------


def test_rolling_asks_the_rng_for_one_face_of_the_pool_die() -> None:
    rng = ScriptedRng(6)
    result = sw.roll(sw.build_pool(target=9, field_role_action=True, modifiers=(4,)), rng)
    assert rng.calls == [(1, 8)]
    assert (result.face, result.total, result.outcome, result.degree) == (6, 10, "success", 1)
    assert result.success
    assert result.summary() == "Success, degree 1 (10 vs 9)"


def test_roll_summaries_read_as_a_roll_log_line() -> None:
    pool = sw.build_pool(target=9)
    assert sw.roll(pool, ScriptedRng(4)).summary() == "Standard success, degree 1 (d4 showed 4)"
    assert sw.roll(pool, ScriptedRng(1)).summary() == "Failure (a 1)"
    assert sw.roll(pool, ScriptedRng(3)).summary() == "Failure (3 vs 9)"


def test_a_roll_survives_a_json_round_trip_and_recomputes_its_outcome() -> None:
    pool = sw.build_pool(target=5, action_die=8, modifiers=(1,), multipliers="x2")
    result = sw.roll(pool, ScriptedRng(5))
    data = json.loads(json.dumps(result.as_dict()))
    assert data["system"] == "shattered_world"
    assert data["dice"] == [5]
    assert (data["total"], data["outcome"], data["degree"]) == (12, "success", 7)
    tampered = {**data, "outcome": "failure", "degree": 0}
    assert sw.RollResult.from_dict(tampered) == result


def test_a_seeded_rng_gives_repeatable_rolls() -> None:
    pool = sw.build_pool(target=6, action_die=10)
    first = [sw.roll(pool, random.Random(7)).face for _ in range(3)]
    second = [sw.roll(pool, random.Random(7)).face for _ in range(3)]
    assert first == second


# --- Exact odds -----------------------------------------------------------------------------------


def test_the_issue_example_d4_target_5_modifier_1_succeeds_only_on_a_4() -> None:
    # d4 + 1 vs 5: faces 1-3 give 2 (a 1 fails anyway), 3, 4; the 4 gives 5, a bare match.
    result = sw.odds(4, 5, 1)
    assert result.success == Fraction(1, 4)
    assert result.degree == {1: Fraction(1, 4)}
    assert sw.odds_query({"die": 4, "target": 5, "modifier": 1}) == {
        "success": 0.25,
        "degree": {"1": 0.25},
    }


def test_odds_count_the_standard_success_of_the_highest_face() -> None:
    result = sw.odds(6, 20)
    assert result.success == result.standard_success == Fraction(1, 6)
    assert result.degree == {1: Fraction(1, 6)}


def test_odds_of_a_d20_with_a_doubled_total_by_hand() -> None:
    # d20 x2 vs 30: faces 15-20 give 30..40 (degrees 1, 2, 4, 6, 8, 10); a 1 always fails.
    result = sw.odds(20, 30, multipliers="x2")
    each = Fraction(1, 20)
    assert result.success == 6 * each
    assert result.degree == {1: each, 2: each, 4: each, 6: each, 8: each, 10: each}
    assert result.failure == 14 * each


def test_the_odds_json_has_ascending_string_degrees_and_float_probabilities() -> None:
    data = sw.odds_query({"system": "shattered_world", "die": 8, "target": 3, "multipliers": ""})
    assert list(data) == ["success", "degree"]
    degrees = data["degree"]
    assert isinstance(degrees, dict)
    assert list(degrees) == ["1", "2", "3", "4", "5"]
    assert list(degrees) == sorted(degrees, key=int)
    assert all(isinstance(p, float) for p in degrees.values())
    json.dumps(data)


def test_pool_odds_agree_with_odds_of_the_same_numbers() -> None:
    pool = sw.build_pool(target=11, human=True, modifiers=(2, 1), multipliers="x2 /2")
    assert sw.pool_odds(pool) == sw.odds(8, 11, 3, "x2 /2")


CHART_DICE = st.sampled_from(sw.DIE_CHART)
MULTIPLIERS = st.sampled_from(["", "x2", "x2 x2", "x3 /2", "/2", "x2 /3", "/2 /2"])


@settings(max_examples=60, deadline=None)
@given(die=CHART_DICE, target=st.integers(1, 60), modifier=st.integers(-10, 15), mult=MULTIPLIERS)
def test_every_degree_distribution_sums_to_the_success_chance(
    die: int, target: int, modifier: int, mult: str
) -> None:
    result = sw.odds(die, target, modifier, mult)
    assert sum(result.degree.values()) == result.success
    assert result.success + result.failure == 1
    assert all(p > 0 for p in result.degree.values())


@settings(max_examples=60, deadline=None)
@given(die=CHART_DICE, target=st.integers(1, 60), modifier=st.integers(-10, 15), mult=MULTIPLIERS)
def test_a_higher_target_never_raises_the_success_chance(
    die: int, target: int, modifier: int, mult: str
) -> None:
    assert (
        sw.odds(die, target + 1, modifier, mult).success
        <= sw.odds(die, target, modifier, mult).success
    )


@settings(max_examples=60, deadline=None)
@given(die=CHART_DICE, target=st.integers(1, 60), modifier=st.integers(-10, 15), mult=MULTIPLIERS)
def test_a_higher_modifier_never_lowers_the_success_chance(
    die: int, target: int, modifier: int, mult: str
) -> None:
    assert (
        sw.odds(die, target, modifier + 1, mult).success
        >= sw.odds(die, target, modifier, mult).success
    )


# The final factor of each multiplier string used below, worked out by hand from the seed's
# rule ("x2 and x2 -> x3; x3 and /2 -> x2"), so the reference shares no arithmetic with the
# engine.
FACTORS = {"": Fraction(1), "x2": Fraction(2), "x2 x2": Fraction(3), "x3 /2": Fraction(2),
           "/2": Fraction(1, 2)}


def _reference_total(face: int, modifier: int, mult: str) -> int:
    exact = (face + modifier) * FACTORS[mult]
    rounded = math.floor(exact + Fraction(1, 2))  # .5 rounds up
    return 1 if rounded == 0 else rounded  # "0 results always become 1"


def _icepool_degree(die: int, target: int, modifier: int, mult: str) -> icepool.Die[int]:
    """An independent statement of the roll as an icepool die of degrees (0 = failure)."""

    def degree(face: int) -> int:
        result = _reference_total(face, modifier, mult)
        if face == 1:
            return 0
        if result >= target:
            return max(1, result - target)
        return 1 if face == die else 0

    return icepool.d(die).map(degree)


@pytest.mark.parametrize(
    ("target", "modifier", "mult"),
    [(5, 1, ""), (7, 0, ""), (12, 3, "x2"), (15, -2, "x2 x2"), (4, 0, "x3 /2"), (3, 1, "/2")],
)
@pytest.mark.parametrize("die", sw.DIE_CHART)
def test_odds_agree_with_icepool(die: int, target: int, modifier: int, mult: str) -> None:
    reference = _icepool_degree(die, target, modifier, mult)
    result = sw.odds(die, target, modifier, mult)
    assert result.success == 1 - reference.probability(0)
    expected = {d: reference.probability(d) for d in reference.outcomes() if d > 0}
    assert result.degree == expected


def test_the_engines_own_rolls_agree_with_the_odds_within_four_standard_errors() -> None:
    pool = sw.build_pool(target=14, action_die=10, field_role_action=True, modifiers=(3,))
    expected = sw.pool_odds(pool)
    rng = random.Random(20240603)
    n = 200_000
    successes = 0
    degrees: Counter[int] = Counter()
    for _ in range(n):
        result = sw.roll(pool, rng)
        if result.success:
            successes += 1
            degrees[result.degree] += 1

    def within(p: Fraction, count: int) -> bool:
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        return abs(count / n - float(p)) <= 4 * se

    assert within(expected.success, successes)
    for degree, p in expected.degrees:
        assert within(p, degrees[degree]), degree
    assert set(degrees) == set(expected.degree)


# --- Buy-in costs ---------------------------------------------------------------------------------


def test_a_1_e_buy_in_costs_1_xp_then_2() -> None:
    # Seed: "A 1/e buy-in starts at a cost of 1xp for the first purchase, 2 for the second".
    assert [sw.next_cost("1/e", k) for k in (1, 2, 3)] == [1, 2, 3]


def test_a_3_e_buy_in_costs_6_xp_on_the_second_purchase_and_9_on_the_third() -> None:
    # Seed: "a 3/e buy-in costs 6xp on the second purchase, 9 on the third".
    assert [sw.next_cost("3/e", k) for k in (1, 2, 3)] == [3, 6, 9]


def test_a_1_x_buy_in_costs_1_2_4_8_16_32() -> None:
    # Seed: "A 1/x buy-in starts at a cost of 1xp ... so 2 for the second, then 4, 8, 16, 32".
    assert [sw.next_cost("1/x", k) for k in range(1, 7)] == [1, 2, 4, 8, 16, 32]


def test_a_2_x_buy_in_costs_2_4_8() -> None:
    # Seed: "2/x Indicates 2, 4, 8, etc."
    assert [sw.next_cost("2/x", k) for k in (1, 2, 3)] == [2, 4, 8]


def test_a_3_x_buy_in_costs_3_9_27() -> None:
    # Seed: "3/x indicates 3, 9, 27, etc."
    assert [sw.next_cost("3/x", k) for k in (1, 2, 3)] == [3, 9, 27]


def test_a_5_x2_buy_in_costs_5_10_20() -> None:
    # RULES.md §3 Decision: N/xM is N * M^(k-1), "5/x2" reads 5, 10, 20 (Exceptional Ability).
    assert [sw.next_cost("5/x2", k) for k in (1, 2, 3)] == [5, 10, 20]
    assert [sw.next_cost("16/x2", k) for k in (1, 2)] == [16, 32]


def test_a_flat_buy_in_costs_its_number_once() -> None:
    # Godly Ability: 32 XP, not purchased in levels.
    assert sw.next_cost("32", 1) == 32
    assert sw.cumulative_cost("32", 0, 1) == 32
    assert not sw.parse_cost("32").levelled


def test_cumulative_cost_adds_the_purchases_between_two_levels() -> None:
    assert sw.cumulative_cost("3/e", 0, 3) == 18
    assert sw.cumulative_cost("1/x", 2, 4) == 4 + 8
    assert sw.cumulative_cost("5/x2", 1, 3) == 10 + 20
    assert sw.cumulative_cost("2/x", 2, 2) == 0


def test_cost_notation_parses_and_prints_canonically() -> None:
    assert sw.parse_cost(" 5 / X2 ") == sw.BuyInCost(base=5, kind="exponential", ratio=2)
    assert sw.parse_cost("1/x") == sw.BuyInCost(base=1, kind="exponential", ratio=2)
    assert sw.parse_cost("3/x") == sw.BuyInCost(base=3, kind="exponential", ratio=3)
    assert [sw.parse_cost(n).notation() for n in ("5", "3/e", "1/x", "3/x", "5/x2", "3/x2")] == [
        "5",
        "3/e",
        "1/x",
        "3/x",
        "5/x2",
        "3/x2",
    ]


def test_buying_from_an_adjacent_subrole_costs_double() -> None:
    # Seed, Universal Buy-Ins: "Buy Into Adjacent Field Subrole ×2 Normal".
    assert sw.buy_in_cost("3/e", 2, source="adjacent subrole") == 12
    assert sw.buy_in_cost("3/e", 2, source="adjacent subrole", hit_points=True) == 12


def test_buying_from_a_first_additional_field_role_costs_double_except_hit_points() -> None:
    # Seed: "Costs double to purchase Buy-Ins from first Field Role outside your own;
    # excludes hit points".
    assert sw.buy_in_cost("2/x", 3, source="first additional field role") == 16
    assert sw.buy_in_cost("2/x", 3, source="first additional field role", hit_points=True) == 8


def test_buying_from_a_second_additional_field_role_costs_triple_except_hit_points() -> None:
    # Seed: "Costs triple to purchase Buy-Ins from second Field Role outside your own".
    assert sw.buy_in_cost("5", source="second additional field role") == 15
    assert sw.buy_in_cost("5", source="second additional field role", hit_points=True) == 5
    assert sw.buy_in_cost("5") == 5


def test_the_universal_buy_ins_table_is_in_the_catalogue_in_the_seeds_order() -> None:
    table = [(b.name, b.cost or f"x{b.multiplier}") for b in sw.UNIVERSAL_BUY_INS.values()]
    assert table == [
        ("Exceptional Ability, Each", "5/x2"),
        ("Uncanny Ability, Each", "8/x2"),
        ("Super Ability, Each", "16/x2"),
        ("Godly Ability", "32"),
        ("Buy Into Adjacent Field Subrole", "x2"),
        ("Buy Into Additional Field Role", "x2"),
        ("Buy Into Second Additional Field Role", "x3"),
        ("Increase UAM", "1/e"),
    ]
    uam = sw.UNIVERSAL_BUY_INS["Increase UAM"]
    assert uam.parsed_cost == sw.BuyInCost(base=1, kind="escalating")
    assert sw.UNIVERSAL_BUY_INS["Godly Ability"].effect.startswith("No maximum")
    assert sw.UNIVERSAL_BUY_INS["Buy Into Adjacent Field Subrole"].parsed_cost is None


def test_an_additional_field_role_needs_min_25_achievements_and_proficiency() -> None:
    # Seed: "Min. 25 Achievements, Proficiency in appropriate ability".
    buy_in = sw.UNIVERSAL_BUY_INS["Buy Into Additional Field Role"]
    assert sw.unmet_prerequisites(buy_in, total_achievements=12) == (
        "needs min. 25 achievements (has 12)",
        "needs proficiency in the appropriate ability",
    )
    sw.check_prerequisites(buy_in, total_achievements=25, proficient=True)


def test_a_second_additional_field_role_needs_min_50_achievements() -> None:
    buy_in = sw.UNIVERSAL_BUY_INS["Buy Into Second Additional Field Role"]
    with pytest.raises(RuleError) as caught:
        sw.check_prerequisites(buy_in, total_achievements=49, proficient=True)
    assert caught.value.message == (
        "Buy Into Second Additional Field Role needs min. 50 achievements (has 49)"
    )
    assert caught.value.rule == UNIVERSAL_BUY_INS


def test_an_adjacent_subrole_needs_the_player_to_accept_a_foible() -> None:
    buy_in = sw.UNIVERSAL_BUY_INS["Buy Into Adjacent Field Subrole"]
    assert sw.unmet_prerequisites(buy_in, total_achievements=30, proficient=True) == (
        "must accept a foible",
    )
    assert not sw.unmet_prerequisites(
        buy_in, total_achievements=30, proficient=True, accepts_foible=True
    )


def test_uncanny_ability_is_for_exceptional_abilities_only() -> None:
    buy_in = sw.UNIVERSAL_BUY_INS["Uncanny Ability, Each"]
    assert sw.unmet_prerequisites(buy_in, total_achievements=0) == (
        "needs Exceptional Ability, Each first",
    )
    assert not sw.unmet_prerequisites(
        buy_in, total_achievements=0, owned={"Exceptional Ability, Each"}
    )


# --- Achievements and XP --------------------------------------------------------------------------


def test_one_achievement_equals_one_experience_point() -> None:
    # Seed: "One Achievement equals one Experience Point"; recorded as Current XP and Total.
    feat = sw.UNIVERSAL_FEATS[0]
    experience = sw.Experience().earn(feat)
    assert (experience.current_xp, experience.total_achievements) == (1, 1)


def test_spending_xp_lowers_current_xp_but_not_total_achievements() -> None:
    experience = sw.Experience(current_xp=10, total_achievements=30).spend(
        sw.buy_in_cost("5/x2", 2)
    )
    assert (experience.current_xp, experience.total_achievements) == (0, 30)


def test_a_milestone_is_collected_once_in_a_lifetime() -> None:
    # Seed: "Each individual Achievement categorized as a Milestone can be collected once only".
    inn = next(a for a in sw.UNIVERSAL_MILESTONES if a.name == "Talk to strangers at the inn")
    experience = sw.Experience().earn(inn)
    with pytest.raises(RuleError) as caught:
        experience.earn(inn)
    assert caught.value.message == (
        "the milestone 'Talk to strangers at the inn' was already earned: milestones are "
        "collected once per lifetime"
    )
    assert caught.value.rule == BUY_INS


def test_a_feat_can_be_collected_again_and_again() -> None:
    # Seed: "Experience from Feats can be collected repeatedly".
    craft = sw.UNIVERSAL_FEATS[0]
    experience = sw.Experience()
    for _ in range(3):
        experience = experience.earn(craft)
    assert (experience.current_xp, experience.total_achievements) == (3, 3)
    assert craft.repeatable


def test_the_universal_milestones_and_feats_are_in_the_catalogue() -> None:
    assert len(sw.UNIVERSAL_MILESTONES) == len(sw.UNIVERSAL_FEATS) == 18
    assert sw.UNIVERSAL_MILESTONES[0].name == "Defeat first legendary enemy"
    assert sw.UNIVERSAL_MILESTONES[-1].name == "Encounter Bloodstone"
    assert sw.UNIVERSAL_FEATS[0].name == "Craft anything"
    assert sw.UNIVERSAL_FEATS[-1].name == "GM Fiat"
    assert {a.kind for a in sw.UNIVERSAL_MILESTONES} == {"milestone"}
    assert {a.category for a in sw.UNIVERSAL_FEATS} == {"universal"}


# --- Statistics -----------------------------------------------------------------------------------


def test_a_statistic_is_written_current_over_max() -> None:
    # Seed: "notated as xx / xx, meaning, say 15/20 Physical Fitness".
    assert str(sw.Statistic("PF", 15, 20)) == "15/20 Physical Fitness"


def test_a_full_rest_restores_every_statistic_but_hit_points() -> None:
    # Seed: "When your character takes a full 8 hour rest, all Statistics excluding Hit Points
    # are normally restored to their normal maximums."
    stats = sw.new_statistics(
        {"PF": 20, "MA": 12, "EN": 14, "PR": 10, "SP": 8, "EM": 9}, hit_points=30
    )
    tired = stats.with_pool(stats["PF"].lose(5)).with_pool(stats["HP"].lose(12))
    tired = tired.with_pool(tired["SP"].lose(20))
    assert (str(tired["PF"]), tired["SP"].current, tired["HP"].current) == (
        "15/20 Physical Fitness",
        0,
        18,
    )
    rested = tired.full_rest()
    assert [pool.current for pool in rested.pools] == [20, 12, 14, 10, 8, 9, 18]


def test_a_statistic_regains_points_up_to_its_maximum() -> None:
    assert sw.Statistic("EN", 3, 14).regain(20) == sw.Statistic("EN", 14, 14)


# --- Initiative -----------------------------------------------------------------------------------


def test_initiative_priority_is_pcs_fast_npcs_fast_rollers_pcs_slow_npcs_slow() -> None:
    # Seed, Initiative Order: priorities 1-5.
    combatants = [
        ("npc slow", False, "slow", None),
        ("pc slow", True, "slow", None),
        ("roller 7", False, "roll", 7),
        ("npc fast", False, "fast", None),
        ("roller 15", True, "roll", 15),
        ("pc fast", True, "fast", None),
    ]
    order = sorted(combatants, key=lambda c: sw.initiative_key(pc=c[1], choice=c[2], roll=c[3]))
    assert [c[0] for c in order] == [
        "pc fast",
        "npc fast",
        "roller 15",
        "roller 7",
        "pc slow",
        "npc slow",
    ]


# --- Every RuleError ------------------------------------------------------------------------------

STORED_ROLL = sw.roll(sw.build_pool(target=5), ScriptedRng(3)).as_dict()
STORED_POOL = sw.build_pool(target=5).as_dict()


def _with(data: dict[str, object], **changes: object) -> dict[str, object]:
    return {**data, **changes}


RULE_ERRORS: list[tuple[str, Callable[[], object], str, str]] = [
    ("empty chart", lambda: sw.check_chart(()), "the die chart is empty", DICE),
    ("tiny die", lambda: sw.check_chart((1, 4)), "die size 1 on the chart must be 2", DICE),
    ("shrinking chart", lambda: sw.check_chart((4, 8, 6)), "d6 cannot follow d8", DICE),
    ("off chart", lambda: sw.step_up(7), "d7 is not on the die chart (d4, d6, d8", DICE),
    ("negative up", lambda: sw.step_up(4, -1), "cannot step up by -1 slots", DICE),
    ("past top", lambda: sw.step_up(12, 2), "d20 is the largest die on the chart", DICE),
    ("negative down", lambda: sw.step_down(4, -1), "cannot step down by -1 slots", DICE),
    ("below bottom", lambda: sw.step_down(6, 2), "d4 is the smallest die on the chart", DICE),
    (
        "level",
        lambda: sw.action_die(6),
        "action die level 6 is off the chart (levels 0 to 5)",
        DICE,
    ),
    ("offset", lambda: sw.field_role_die(4, offset=-1), "offset -1 cannot be negative", DICE),
    ("bad term", lambda: sw.parse_multipliers("x2 +3"), "'+3' is not a multiplier", CORE),
    ("x1", lambda: sw.parse_multipliers("x1"), "'x1' changes nothing", CORE),
    ("factor 1", lambda: sw.final_factor((1,)), "factor 1 changes nothing", CORE),
    ("target 0", lambda: sw.build_pool(target=0), "target number 0 must be 1 or more", CORE),
    ("target", lambda: sw.build_pool(target=True), "must be a whole number, not True", CORE),
    (
        "modifier",
        lambda: sw.build_pool(target=5, modifiers=(1.5,)),  # type: ignore[arg-type]
        "a modifier must be a whole number, not 1.5",
        CORE,
    ),
    ("pool die", lambda: sw.build_pool(target=5, action_die=7), "d7 is not on the die", DICE),
    (
        "pool frd",
        lambda: sw.build_pool(target=5, field_role_die=5),
        "d5 is not on the die chart",
        DICE,
    ),
    ("resolve die", lambda: sw.resolve(1, 1, 5), "a d1 needs at least 2 sides", DICE),
    ("resolve face", lambda: sw.resolve(7, 6, 5), "a d6 shows 1 to 6, not 7", CORE),
    ("odds die", lambda: sw.odds(7, 5), "d7 is not on the die chart", DICE),
    ("odds target", lambda: sw.odds(4, 0), "target number 0 must be 1 or more", CORE),
    ("odds modifier", lambda: sw.odds(4, 5, True), "the modifier must be a whole number", CORE),
    (
        "odds die type",
        lambda: sw.odds("4", 5),  # type: ignore[arg-type]
        "the die must be a whole number, not '4'",
        DICE,
    ),
    (
        "query die",
        lambda: sw.odds_query({"die": 5, "target": 3}),
        "d5 is not on the die chart",
        DICE,
    ),
    (
        "query target",
        lambda: sw.odds_query({"die": 4, "target": 0}),
        "target number 0 must be 1 or more",
        CORE,
    ),
    (
        "query multipliers",
        lambda: sw.odds_query({"die": 4, "target": 3, "multipliers": "x0"}),
        "'x0' changes nothing",
        CORE,
    ),
    ("query missing", lambda: sw.odds_query({"target": 3}), "'die' is required", "odds query"),
    (
        "query unknown",
        lambda: sw.odds_query({"die": 4, "target": 3, "dice": 2}),
        "unknown parameter 'dice'",
        "odds query",
    ),
    ("cost text", lambda: sw.parse_cost("5/y"), "'5/y' is not buy-in cost notation", BUY_INS),
    ("cost zero", lambda: sw.parse_cost("0/e"), "'0/e': a buy-in costs at least 1 XP", BUY_INS),
    ("cost e2", lambda: sw.parse_cost("3/e2"), "'/e' takes no number", BUY_INS),
    ("cost x1", lambda: sw.parse_cost("2/x1"), "must grow by 2 or more", BUY_INS),
    ("purchase 0", lambda: sw.next_cost("1/e", 0), "purchase 0 does not exist", BUY_INS),
    ("flat twice", lambda: sw.next_cost("32", 2), "bought once, not 2 times", BUY_INS),
    ("start", lambda: sw.cumulative_cost("1/e", -1, 2), "level -1 cannot be negative", BUY_INS),
    ("down", lambda: sw.cumulative_cost("1/e", 3, 2), "from level 3 to level 2", BUY_INS),
    (
        "source",
        lambda: sw.buy_in_cost("1/e", source="guild"),
        "unknown buy-in source 'guild'",
        UNIVERSAL_BUY_INS,
    ),
    (
        "prerequisite",
        lambda: sw.check_prerequisites(
            sw.UNIVERSAL_BUY_INS["Buy Into Adjacent Field Subrole"], total_achievements=30
        ),
        "needs proficiency in the appropriate ability; must accept a foible",
        UNIVERSAL_BUY_INS,
    ),
    ("xp negative", lambda: sw.Experience(current_xp=-1), "cannot be negative", BUY_INS),
    ("spend negative", lambda: sw.Experience().spend(-2), "cannot spend -2 XP", BUY_INS),
    (
        "spend too much",
        lambda: sw.Experience(current_xp=4).spend(5),
        "costs 5 XP but only 4 XP is available",
        BUY_INS,
    ),
    ("stat code", lambda: sw.Statistic("XX", 1, 2), "unknown statistic 'XX'", "Mechanical"),
    ("stat max", lambda: sw.Statistic("PF", 0, -1), "maximum -1 cannot be negative", "Mechanical"),
    (
        "stat current",
        lambda: sw.Statistic("PF", 21, 20),
        "Physical Fitness 21 must be between 0 and its maximum 20",
        "Mechanical",
    ),
    ("lose", lambda: sw.Statistic("PF", 1, 2).lose(-1), "cannot lose -1 points", "Mechanical"),
    ("regain", lambda: sw.Statistic("PF", 1, 2).regain(-1), "cannot regain -1", "Mechanical"),
    (
        "duplicate",
        lambda: sw.Statistics((sw.Statistic("PF", 1, 2), sw.Statistic("PF", 1, 2))),
        "statistic PF is listed twice",
        "Mechanical",
    ),
    (
        "missing pool",
        lambda: sw.Statistics(())["EM"],
        "the character has no statistic 'EM'",
        "Mechanical",
    ),
    ("new unknown", lambda: sw.new_statistics({"LU": 3}), "unknown statistic 'LU'", "Mechanical"),
    ("new missing", lambda: sw.new_statistics({"PF": 3}), "missing statistics: MA, EN", "Mech"),
    (
        "initiative choice",
        lambda: sw.initiative_key(pc=True, choice="quick"),
        "initiative choice 'quick' is not one of fast, roll, slow",
        "Initiative Order",
    ),
    (
        "initiative roll",
        lambda: sw.initiative_key(pc=False, choice="roll"),
        "an initiative roller needs the number rolled",
        "Initiative Order",
    ),
    (
        "stored kind",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, die_kind="spell die")),
        "unknown die kind 'spell die'",
        DICE,
    ),
    (
        "stored die",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, die=1)),
        "stored die d1 needs at least 2 sides",
        DICE,
    ),
    (
        "stored missing",
        lambda: sw.ActionPool.from_dict({"die_kind": "action die"}),
        "stored data is missing 'die'",
        CORE,
    ),
    (
        "stored int",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, target="5")),
        "stored 'target' is not an integer",
        CORE,
    ),
    (
        "stored text",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, action=3)),
        "stored 'action' is not text",
        CORE,
    ),
    (
        "stored list",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, notes="x")),
        "stored 'notes' is not a list",
        CORE,
    ),
    (
        "stored strs",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, notes=[1])),
        "stored 'notes' is not a list of text",
        CORE,
    ),
    (
        "stored ints",
        lambda: sw.ActionPool.from_dict(_with(STORED_POOL, modifiers=["1"])),
        "stored 'modifiers' is not a list of integers",
        CORE,
    ),
    (
        "stored pool",
        lambda: sw.RollResult.from_dict(_with(STORED_ROLL, pool=[])),
        "stored 'pool' is not a mapping",
        CORE,
    ),
    (
        "stored dice",
        lambda: sw.RollResult.from_dict(_with(STORED_ROLL, dice=[2, 3])),
        "a Shattered World roll has one die, not 2",
        CORE,
    ),
    (
        "stored face",
        lambda: sw.RollResult.from_dict(_with(STORED_ROLL, dice=[9])),
        "a d4 shows 1 to 4, not 9",
        CORE,
    ),
]


@pytest.mark.parametrize(
    ("call", "message", "rule"),
    [pytest.param(call, message, rule, id=name) for name, call, message, rule in RULE_ERRORS],
)
def test_every_rule_error_names_the_bad_value_and_the_seed_section(
    call: Callable[[], object], message: str, rule: str
) -> None:
    with pytest.raises(RuleError) as caught:
        call()
    assert message in caught.value.message
    assert rule in caught.value.rule
    assert caught.value.rule.startswith(("Shattered World Core Engine, ", "odds query"))
