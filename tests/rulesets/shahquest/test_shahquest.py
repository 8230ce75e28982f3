"""Tests of the Shahquest rules engine against the seed (Shahquest wiki) and RULES.md section 2.

Plain pytest, no database. Every worked example of the seed is its own test; the odds are
checked against brute-force enumeration, icepool and a simulation of the module's own roll.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from fractions import Fraction
from itertools import combinations, product

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE, parse_dice
from rulesets.shahquest import (
    DicePool,
    Feature,
    RollResult,
    RuleError,
    Selection,
    StressLine,
    StressTrack,
    TensionPool,
)
from tests.rulesets.helpers import ScriptedRng

# The example of Dice Pool: Coordination d10, Partner d6, I've got your back d8, Physical
# Skill d8 spread by Athletics, and the GM's d6 setting die for the chandelier.
COORDINATION = Feature(type="attribute", name="Coordination", die=10)
PARTNER = Feature(type="affiliation", name="Partner", die=6)
GOT_YOUR_BACK = sq.quirk("I've got your back")
PHYSICAL_ATHLETICS_SPREAD = Feature(
    type="skill",
    name="Physical",
    die=8,
    specialization="Athletics",
    specialization_use="spread",
)
CHANDELIER_ROLL = ("d10 3d8 d6", (7, 2, 1, 3, 4))  # RULES.md: d10, 3d8, d6 rolling 7, 2, 1, 3, 4


def chandelier_roll() -> RollResult:
    notation, faces = CHANDELIER_ROLL
    return sq.roll(sq.pool_from_dice(notation), ScriptedRng(*faces))


def physical(stress: int | None = None, trauma: int | None = None, **flags: bool) -> StressTrack:
    return StressTrack(physical=StressLine(stress=stress, trauma=trauma, **flags))


# --- Dice, Step Up, Step Down, and Spreads ----------------------------------------------------


def test_three_six_sided_dice_are_written_3d6() -> None:
    assert sq.pool_from_dice("3d6").sizes == (6, 6, 6)
    assert sq.pool_from_dice((6, 6, 6)).notation() == "3d6"


def test_a_skill_specialization_spreads_a_d8_into_2d8_or_steps_it_up_to_a_d10() -> None:
    assert PHYSICAL_ATHLETICS_SPREAD.dice() == (8, 8)
    stepped = Feature(
        type="skill",
        name="Physical",
        die=8,
        specialization="Athletics",
        specialization_use="step_up",
    )
    assert stepped.dice() == (10,)


def test_steps_are_performed_before_spreads() -> None:
    # A Giant's 2d6 Solo stepped up once becomes 2d8, not d8 + d6.
    giant_solo = Feature(type="affiliation", name="Solo", die=6, count=2, step_ups=1)
    assert giant_solo.dice() == (8, 8)
    # A d6 skill stepped up by an opportunity and spread by its specialization: 2d8.
    skill = Feature(
        type="skill",
        name="Combat",
        die=6,
        specialization="Swords",
        specialization_use="spread",
        step_ups=1,
    )
    assert skill.dice() == (8, 8)


def test_one_step_lies_between_d6_and_d8_and_two_between_d4_and_d8() -> None:
    assert Feature(type="asset", name="Rope", die=6, step_ups=1).dice() == (8,)
    assert Feature(type="asset", name="Rope", die=4, step_ups=2).dice() == (8,)


# --- Dice Pools: the chandelier example --------------------------------------------------------


def test_demetris_chandelier_pool_gathers_one_die_per_feature_and_the_setting_die() -> None:
    pool = sq.build_pool(
        [COORDINATION, PARTNER, GOT_YOUR_BACK, PHYSICAL_ATHLETICS_SPREAD], setting_die=6
    )
    # The seed counts "one d10, three d8s, and one d6"; its features give a second d6
    # (Partner d6 and the d6 setting die), so the built pool has 2d6.
    assert pool.notation() == "d10 3d8 2d6"
    assert pool.plot_points_spent == 0
    assert pool.plot_points_earned == 0
    assert [die.source for die in pool.dice] == [
        "attribute",
        "affiliation",
        "quirk",
        "skill",
        "skill",
        "setting",
    ]
    assert pool.describe().startswith("d10 3d8 2d6 (Coordination d10, Partner d6,")


def test_the_chandelier_roll_gives_effort_7_plus_4_equals_11_and_a_d8_effect() -> None:
    result = chandelier_roll()
    assert result.effort == 11
    assert result.effect_die == 8
    assert result.selection == Selection(effort=(0, 4), effect=(1,))  # the d8 showing 2
    assert result.opportunities == (2,)
    assert result.opportunity_dice == (8,)
    assert result.plot_points_after_roll == 0
    assert result.summary() == "Effort 11, effect d8, 1 opportunity"


def test_a_plot_point_adds_the_3_on_a_d8_for_an_effort_total_of_14() -> None:
    result = sq.choose_dice(chandelier_roll(), effort=(0, 4, 3), effect=(1,), plot_points=1)
    assert result.effort == 14
    assert result.effect_die == 8
    assert result.plot_points_after_roll == 1


def test_a_plot_point_keeps_two_of_the_d8s_as_effect_dice() -> None:
    result = sq.choose_dice(chandelier_roll(), effort=(0, 4), effect=(1, 3), plot_points=1)
    assert result.effect_die == 8
    assert result.extra_effect_dice == (8,)
    assert result.plot_points_after_roll == 1
    assert result.summary() == "Effort 11, effect d8 + d8, 1 opportunity"


def test_the_player_may_choose_other_dice_after_the_roll() -> None:
    result = sq.choose_dice(chandelier_roll(), effort=(1, 3), effect=(0,))
    assert result.effort == 5
    assert result.effect_die == 10
    assert result.plot_points_after_roll == 0


def test_the_gm_may_add_the_opportunity_d8_to_the_tension_pool() -> None:
    opportunity = chandelier_roll().opportunity_dice[0]
    assert TensionPool.start().activate_opportunity(add=opportunity).dice == (8, 6, 6, 6)


def test_the_effect_die_is_a_d4_when_no_die_is_left_for_it() -> None:
    result = sq.roll(sq.pool_from_dice("d10 d8 d6"), ScriptedRng(5, 1, 3))
    assert (result.effort, result.effect_die, result.selection.effect) == (8, 4, ())


def test_a_pool_of_all_ones_has_no_effort_and_a_d4_effect() -> None:
    result = sq.roll(sq.pool_from_dice("d10 d8"), ScriptedRng(1, 1))
    assert (result.effort, result.effect_die) == (0, 4)
    assert result.summary() == "Effort 0, effect d4, 2 opportunities"


def test_a_single_die_that_is_not_a_one_is_the_whole_effort_total() -> None:
    result = sq.roll(sq.pool_from_dice("d12 d6"), ScriptedRng(9, 1))
    assert (result.effort, result.effect_die) == (9, 4)


def test_equal_faces_send_the_smaller_die_to_effort_and_keep_the_larger_for_effect() -> None:
    result = sq.roll(sq.pool_from_dice("d12 d8 d6"), ScriptedRng(5, 5, 5))
    assert result.effort == 10
    assert result.effect_die == 12


def test_a_roll_survives_a_trip_through_json() -> None:
    result = sq.choose_dice(chandelier_roll(), effort=(0, 4, 3), effect=(1,))
    data = json.loads(json.dumps(result.as_dict()))
    assert data["system"] == "shahquest"
    assert data["effort"] == 14 and data["effect_die"] == 8
    assert [d["face"] for d in data["dice"]] == [7, 2, 1, 3, 4]
    data["effort"] = 99  # the outcome is recomputed from the dice, never read back
    assert RollResult.from_dict(data) == result


def test_a_pool_survives_a_trip_through_json() -> None:
    pool = sq.build_pool(
        [
            COORDINATION,
            sq.quirk("Greedy", negative=True),
            Feature(type="stress", name="physical", die=8, own=True),
        ],
        push_die=True,
    )
    assert DicePool.from_dict(json.loads(json.dumps(pool.as_dict()))) == pool


# --- Plot Points -------------------------------------------------------------------------------


def test_a_push_die_adds_a_d6_for_a_plot_point() -> None:
    pool = sq.build_pool([COORDINATION], push_die=True)
    assert pool.sizes == (10, 6)
    assert pool.plot_points_spent == 1


def test_a_stepped_up_push_die_from_a_gm_opportunity_is_a_d8_already_paid_for() -> None:
    pool = sq.build_pool([COORDINATION], stepped_up_push_die=True)
    assert pool.sizes == (10, 8)
    assert pool.plot_points_spent == 0


def test_adding_the_combat_skill_beside_the_physical_skill_costs_a_plot_point() -> None:
    combat = Feature(type="skill", name="Combat", die=10)
    pool = sq.build_pool([COORDINATION, PHYSICAL_ATHLETICS_SPREAD, combat], plot_points=1)
    assert pool.notation() == "2d10 2d8"
    assert pool.plot_points_spent == 1
    assert pool.notes == ("extra skill feature Combat: 1 plot point",)


def test_a_negative_quirk_rolls_a_d4_and_earns_a_plot_point() -> None:
    pool = sq.build_pool([COORDINATION, sq.quirk("I've got your back", negative=True)])
    assert pool.sizes == (10, 4)
    assert pool.plot_points_earned == 1
    assert pool.plot_points_spent == 0
    assert "1 plot point earned" in pool.describe()


def test_using_your_own_stress_costs_a_plot_point_and_steps_it_up_afterwards() -> None:
    own = Feature(type="stress", name="physical", die=8, own=True)
    pool = sq.build_pool([COORDINATION, own])
    assert pool.sizes == (10, 8)
    assert pool.plot_points_spent == 1
    assert pool.stress_step_up == ("physical",)
    assert pool.describe() == (
        "d10 d8 (Coordination d10, physical stress d8); 1 plot point spent, "
        "own physical stress steps up afterwards"
    )
    result = sq.roll(pool, ScriptedRng(6, 5))
    assert result.as_dict()["stress_step_up"] == ["physical"]
    assert sq.step_up_stress(physical(stress=8), result.stress_step_up[0]) == physical(stress=10)


def test_stepping_up_your_own_d12_stress_stresses_you_out() -> None:
    track = sq.step_up_stress(physical(stress=12), "physical")
    assert track.describe() == "Stressed out: physical trauma d4"


def test_tension_dice_moved_into_an_npc_pool_cost_no_plot_points() -> None:
    pool = sq.build_pool([Feature(type="attribute", name="Brawn", die=8)], tension_dice=(8,))
    assert pool.sizes == (8, 8)
    assert pool.plot_points_spent == 0


# --- Affiliations ------------------------------------------------------------------------------


def test_mike_has_solo_d8_partner_d6_and_gang_d4() -> None:
    sq.validate_affiliations(8, 6, 4)


def test_giants_spread_their_solo_die_and_shaluum_roll_3d12_solo() -> None:
    for size in (4, 6, 8):
        others = [s for s in (4, 6, 8) if s != size]
        sq.validate_affiliations(size, others[0], others[1], solo_count=2)
    sq.validate_affiliations(12, 6, 4, solo_count=3)
    assert Feature(type="affiliation", name="Solo", die=12, count=3).dice() == (12, 12, 12)


# --- Stress and Trauma ------------------------------------------------------------------------


def test_a_d12_hit_on_d8_physical_stress_gives_d12_physical_stress() -> None:
    assert sq.take_stress(physical(stress=8), "physical", 12) == physical(stress=12)


@pytest.mark.parametrize("effect", [4, 6, 8, 10])
def test_a_d10_or_smaller_hit_on_d8_physical_stress_gives_d10_physical_stress(effect: int) -> None:
    assert sq.take_stress(physical(stress=8), "physical", effect) == physical(stress=10)


def test_a_first_stress_effect_becomes_the_stress_die() -> None:
    track = sq.take_stress(StressTrack(), "mental", 6)
    assert track.describe() == "Mental stress d6"


def test_changing_a_d4_physical_stress_effect_to_mental_spares_the_d8_physical_stress() -> None:
    track = StressTrack(physical=StressLine(stress=8))
    assert sq.take_stress(track, "physical", 4).physical.stress == 10
    changed = sq.take_stress(track, "mental", 4)
    assert changed.describe() == "Physical stress d8; mental stress d4"


def test_stress_stepping_up_from_d12_stresses_out_with_a_d4_trauma() -> None:
    track = sq.take_stress(physical(stress=12), "physical", 6)
    assert track.physical == StressLine(stress=12, stressed_out=True, trauma=4)
    assert track.stressed_out and not track.taken_out
    assert track.describe() == "Stressed out: physical trauma d4"


def test_further_stress_of_that_type_steps_the_trauma_up_the_same_way() -> None:
    track = physical(stress=12, trauma=4, stressed_out=True)
    assert sq.take_stress(track, "physical", 4).describe() == "Stressed out: physical trauma d6"
    assert sq.take_stress(track, "physical", 10).physical.trauma == 10


def test_trauma_stepping_up_from_d12_kills_mindwipes_or_leaves_comatose() -> None:
    track = physical(stress=12, trauma=12, stressed_out=True)
    out = sq.take_stress(track, "physical", 4)
    assert out.taken_out
    assert out.describe() == "Taken out (killed): physical trauma past d12"


def test_rebecca_helping_with_a_d6_effect_steps_d10_stress_down_to_d8() -> None:
    assert sq.recover_stress(physical(stress=10), "physical", 6) == physical(stress=8)


@pytest.mark.parametrize("effect", [10, 12])
def test_a_d10_or_better_recovery_effect_steps_d10_stress_down_to_d6(effect: int) -> None:
    assert sq.recover_stress(physical(stress=10), "physical", effect) == physical(stress=6)


def test_recovery_returns_a_stressed_out_character_to_action_at_high_stress() -> None:
    track = sq.recover_stress(physical(stress=12, trauma=4, stressed_out=True), "physical", 6)
    assert track.physical == StressLine(stress=10, trauma=4)
    assert track.describe() == "Physical stress d10, physical trauma d4"


def test_stress_stepped_down_below_d4_is_removed() -> None:
    assert sq.recover_stress(physical(stress=4), "physical", 4) == StressTrack()
    assert StressTrack().describe() == "No stress"


def test_a_trauma_recovery_effect_equal_to_the_trauma_die_steps_it_down_once() -> None:
    assert sq.recover_trauma(physical(trauma=8), "physical", 8) == physical(trauma=6)
    assert sq.recover_trauma(physical(trauma=8), "physical", 6) == physical(trauma=6)


def test_a_trauma_recovery_effect_greater_than_the_trauma_die_steps_it_down_twice() -> None:
    assert sq.recover_trauma(physical(trauma=8), "physical", 10) == physical(trauma=4)


@pytest.mark.parametrize(
    ("die", "time"),
    [(4, "1 day"), (6, "3 days"), (8, "1 week"), (10, "1 month"), (12, "6 months")],
)
def test_each_trauma_recovery_attempt_takes_the_downtime_of_the_chart(die: int, time: str) -> None:
    assert sq.trauma_recovery_time(die) == time


@pytest.mark.parametrize(
    ("die", "attempted", "ready"),
    [(4, date(2026, 5, 1), date(2026, 5, 2)), (6, date(2026, 5, 1), date(2026, 5, 4)),
     (8, date(2026, 5, 1), date(2026, 5, 8)), (10, date(2026, 1, 31), date(2026, 2, 28)),
     (12, date(2026, 8, 31), date(2027, 2, 28))],
)
def test_the_next_trauma_recovery_waits_the_charts_time_in_days_and_calendar_months(
        die: int, attempted: date, ready: date) -> None:
    assert sq.next_trauma_recovery(die, attempted) == ready
    with pytest.raises(sq.RuleError, match="at least a day of downtime"):
        sq.check_trauma_recovery("physical", ready, ready - timedelta(days=1))
    sq.check_trauma_recovery("physical", ready, ready)


def test_a_downtime_plot_point_steps_down_two_stress_dice() -> None:
    track = StressTrack(physical=StressLine(stress=8), mental=StressLine(stress=4))
    after = sq.downtime_recovery(track, stress=("physical", "mental"))
    assert after == StressTrack(physical=StressLine(stress=6))


def test_a_downtime_plot_point_steps_down_one_stress_die_by_two_steps() -> None:
    assert sq.downtime_recovery(physical(stress=10), stress=("physical",)) == physical(stress=6)


def test_a_downtime_plot_point_steps_down_a_trauma_die() -> None:
    assert sq.downtime_recovery(physical(trauma=6), trauma="physical") == physical(trauma=4)


def test_a_stress_track_survives_a_trip_through_json() -> None:
    track = StressTrack(
        physical=StressLine(stress=12, stressed_out=True, trauma=6), emotional=StressLine(4)
    )
    assert StressTrack.from_dict(json.loads(json.dumps(track.as_dict()))) == track
    assert track.describe() == "Stressed out: physical trauma d6; emotional stress d4"


# --- Tension Pool ------------------------------------------------------------------------------


def test_the_tension_pool_usually_starts_at_3d6() -> None:
    assert TensionPool.start().dice == (6, 6, 6)
    assert TensionPool.start("d8 3d6").describe() == "Tension pool: d8 3d6"


def test_each_activated_opportunity_adds_a_d6_or_steps_up_a_tension_die() -> None:
    tension = TensionPool.start()
    assert tension.activate_opportunity().dice == (6, 6, 6, 6)
    assert tension.activate_opportunity(step_up=6).dice == (8, 6, 6)


def test_the_gm_removes_a_d8_from_the_tension_pool_to_add_a_d8_to_effort() -> None:
    tension = TensionPool.start("d8 3d6")
    assert tension.take(8) == TensionPool.start()


def test_a_tension_die_taken_for_an_npc_returns_for_a_plot_point() -> None:
    tension = TensionPool.start()
    taken = tension.take(6)
    assert taken.dice == (6, 6)
    assert taken.give_back(6) == tension


def test_leaping_a_pit_the_gm_rolls_the_tension_pool_and_a_d10_setting_die() -> None:
    rng = ScriptedRng(4, 1, 6, 9)  # 3d6 then the d10 setting die
    result = sq.roll_general_danger(TensionPool.start(), rng, setting_die=10)
    assert result.pool.sizes == (6, 6, 6, 10)
    assert (result.effort, result.effect_die) == (15, 6)
    assert result.opportunity_dice == (6,)
    assert rng.exhausted


def test_complication_dice_join_a_general_danger_roll() -> None:
    rng = ScriptedRng(2, 2, 2, 3, 8)
    result = sq.roll_general_danger(TensionPool.start(), rng, setting_die=4, complications=(8,))
    assert result.pool.sizes == (6, 6, 6, 4, 8)
    assert (result.effort, result.effect_die) == (11, 6)


def test_a_tension_pool_survives_a_trip_through_json() -> None:
    tension = TensionPool.start("d10 2d6")
    assert TensionPool.from_dict(json.loads(json.dumps(tension.as_dict()))) == tension


# --- Exact odds --------------------------------------------------------------------------------


def brute_force(sizes: tuple[int, ...]) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """Every face combination through the roll's own preselection (best_selection)."""
    effort: Counter[int] = Counter()
    ones: Counter[int] = Counter()
    total = math.prod(sizes)
    for faces in product(*(range(1, s + 1) for s in sizes)):
        selection = sq.best_selection(sizes, faces)
        effort[sum(faces[i] for i in selection.effort)] += 1
        ones[faces.count(1)] += 1
    return (
        {k: Fraction(v, total) for k, v in effort.items()},
        {k: Fraction(v, total) for k, v in ones.items()},
    )


@pytest.mark.parametrize("notation", ["d4", "d12", "d10 2d8 d6", "d4 d6 d8 d10", "3d6", "d12 d4"])
def test_the_odds_agree_with_every_face_combination_of_the_roll(notation: str) -> None:
    odds = sq.odds(notation)
    effort, ones = brute_force(parse_dice(notation))
    assert dict(odds.effort) == effort
    assert dict(odds.opportunities) == ones


def test_the_odds_of_a_d10_2d8_d6_are_the_command_line_shape() -> None:
    data = sq.odds_query({"pool": "d10 2d8 d6"})
    assert list(data) == ["effort", "opportunities"]
    effort = data["effort"]
    opportunities = data["opportunities"]
    assert isinstance(effort, dict) and isinstance(opportunities, dict)
    assert list(effort) == [str(k) for k in sorted(int(k) for k in effort)]
    assert "1" not in effort  # an effort of 1 is impossible: a 1 is set aside
    assert effort["0"] == pytest.approx(1 / 3840, abs=1e-15)  # every die shows 1
    assert effort["18"] == pytest.approx(Fraction(9, 384), abs=1e-15)  # the d10 shows 10 and a d8 8
    assert opportunities["4"] == pytest.approx(1 / 3840, abs=1e-15)
    assert json.loads(json.dumps(data)) == data


def test_the_odds_query_names_the_bad_die() -> None:
    with pytest.raises(RuleError, match="d7"):
        sq.odds_query({"pool": "d10 d7"})
    with pytest.raises(RuleError, match="'pool' is required"):
        sq.odds_query({})


def test_effort_at_least_adds_up_the_tail() -> None:
    odds = sq.odds("2d6")
    assert odds.effort_at_least(0) == 1
    assert odds.effort_at_least(12) == Fraction(1, 36)
    assert odds.effort_at_least(13) == 0


ICEPOOL_POOLS = [(6,), (8, 4), (10, 8, 8, 6), (12, 6, 4), (4, 4, 4, 4), (12, 10, 8)]


def _icepool_die(size: int) -> icepool.Die[int]:
    return icepool.d(size).map(lambda face: 0 if face == 1 else face)


@pytest.mark.parametrize("sizes", ICEPOOL_POOLS)
def test_the_odds_agree_with_icepool(sizes: tuple[int, ...]) -> None:
    odds = sq.odds(sizes)
    if len(sizes) == 1:
        reference_effort = _icepool_die(sizes[0])
    else:
        reference_effort = icepool.Pool([_icepool_die(s) for s in sizes]).highest(2).sum()
    reference_ones = icepool.map(
        lambda *faces: sum(1 for face in faces if face == 1), *(icepool.d(s) for s in sizes)
    )
    for reference, ours in ((reference_effort, odds.effort), (reference_ones, odds.opportunities)):
        outcomes = {k: reference.probability(k) for k in reference.outcomes()}
        expected = {k: p for k, p in outcomes.items() if p}
        assert set(expected) == {k for k, _ in ours}
        for k, p in ours:
            assert abs(float(p) - float(expected[k])) < 1e-9


def test_200000_rolls_agree_with_the_odds_within_four_standard_errors() -> None:
    rng = random.Random(20240613)
    pool = sq.pool_from_dice("d10 2d8 d6")
    n = 200_000
    effort: Counter[int] = Counter()
    ones: Counter[int] = Counter()
    for _ in range(n):
        result = sq.roll(pool, rng)
        effort[result.effort] += 1
        ones[len(result.opportunities)] += 1
    odds = sq.odds("d10 2d8 d6")
    for counts, distribution in ((effort, odds.effort), (ones, odds.opportunities)):
        assert set(counts) <= {k for k, _ in distribution}
        for k, p in distribution:
            se = math.sqrt(float(p) * (1 - float(p)) / n)
            assert abs(counts[k] / n - float(p)) <= 4 * se, (k, counts[k] / n, float(p))


step_dice = st.sampled_from(STEP_DICE)
pools = st.lists(step_dice, min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(pools)
def test_every_distribution_sums_to_one(sizes: list[int]) -> None:
    odds = sq.odds(sizes)
    assert sum(p for _, p in odds.effort) == 1
    assert sum(p for _, p in odds.opportunities) == 1
    data = odds.as_dict()
    for distribution in data.values():
        assert isinstance(distribution, dict)
        assert abs(sum(distribution.values()) - 1) < 1e-9


@settings(max_examples=60, deadline=None)
@given(pools, step_dice, st.integers(min_value=0, max_value=24))
def test_adding_a_die_never_lowers_the_chance_of_an_effort_total(
    sizes: list[int], extra: int, target: int
) -> None:
    assert sq.odds([*sizes, extra]).effort_at_least(target) >= sq.odds(sizes).effort_at_least(
        target
    )


@settings(max_examples=60, deadline=None)
@given(pools, st.data(), st.integers(min_value=0, max_value=24))
def test_stepping_up_a_die_never_lowers_the_chance_of_an_effort_total(
    sizes: list[int], data: st.DataObject, target: int
) -> None:
    index = data.draw(st.integers(min_value=0, max_value=len(sizes) - 1))
    if sizes[index] == 12:
        return
    stepped = list(sizes)
    stepped[index] = STEP_DICE[STEP_DICE.index(sizes[index]) + 1]
    assert sq.odds(stepped).effort_at_least(target) >= sq.odds(sizes).effort_at_least(target)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(step_dice, st.integers(min_value=1, max_value=12)), min_size=1, max_size=7)
)
def test_the_preselection_is_the_best_effort_then_the_largest_effect_die(
    dice: list[tuple[int, int]],
) -> None:
    sizes = tuple(size for size, _ in dice)
    faces = tuple(min(face, size) for size, face in dice)
    selection = sq.best_selection(sizes, faces)
    sq.check_selection(sizes, faces, selection)
    live = [i for i, face in enumerate(faces) if face != 1]
    best_effort = max(
        (sum(faces[i] for i in pair) for pair in combinations(live, min(2, len(live)))),
        default=0,
    )
    best_effect = max(
        (
            max((sizes[i] for i in live if i not in pair), default=4)
            for pair in combinations(live, min(2, len(live)))
            if sum(faces[i] for i in pair) == best_effort
        ),
        default=4,
    )
    result = RollResult(pool=sq.pool_from_dice(sizes), faces=faces, selection=selection)
    assert (result.effort, result.effect_die) == (best_effort, best_effect)


# --- Every RuleError, with its message ---------------------------------------------------------

ROLL = chandelier_roll()
SIZES, FACES = ROLL.pool.sizes, ROLL.faces


def _stored_pool(**changes: object) -> dict[str, object]:
    data = sq.pool_from_dice("d8").as_dict()
    data.update(changes)
    return data


ERRORS: list[tuple[str, Callable[[], object], str]] = [
    # features
    (
        "type",
        lambda: Feature(type="talent", name="X", die=8).dice(),
        "'X' has feature type 'talent'",
    ),
    (
        "die",
        lambda: Feature(type="attribute", name="Wits", die=7).dice(),
        "the die of Wits must be one of",
    ),
    (
        "count",
        lambda: Feature(type="affiliation", name="Solo", die=8, count=0).dice(),
        "Solo must have at least one die, not 0",
    ),
    (
        "quirk die",
        lambda: Feature(type="quirk", name="Greedy", die=10).dice(),
        "the quirk Greedy adds a d8 (or a d4 in the negative), not a d10",
    ),
    (
        "negative",
        lambda: Feature(type="skill", name="Combat", die=8, negative=True).dice(),
        "only a quirk can be used in the negative, and Combat is a skill",
    ),
    (
        "affiliation name",
        lambda: Feature(type="affiliation", name="Duo", die=6).dice(),
        "'Duo' is not an affiliation",
    ),
    (
        "affiliation die",
        lambda: Feature(type="affiliation", name="Gang", die=10).dice(),
        "the Gang affiliation is a d4, d6 or d8, not a d10",
    ),
    (
        "affiliation spread",
        lambda: Feature(type="affiliation", name="Gang", die=6, count=2).dice(),
        "only a large creature's Solo affiliation is spread, not Gang (2d6)",
    ),
    (
        "feature spread",
        lambda: Feature(type="resource", name="Gold", die=6, count=2).dice(),
        "Gold adds one die, not 2",
    ),
    (
        "specialization type",
        lambda: Feature(
            type="attribute",
            name="Wits",
            die=8,
            specialization="Riddles",
            specialization_use="spread",
        ).dice(),
        "only a skill has specializations, and Wits is a attribute",
    ),
    (
        "specialization use",
        lambda: Feature(
            type="skill", name="Combat", die=8, specialization="Swords", specialization_use="double"
        ).dice(),
        "the specialization Swords must step up or spread Combat, not 'double'",
    ),
    (
        "negative step",
        lambda: Feature(type="skill", name="Combat", die=8, step_ups=-1).dice(),
        "Combat cannot be stepped up -1 times",
    ),
    (
        "step past d12",
        lambda: Feature(
            type="skill", name="Combat", die=12, specialization="Axes", specialization_use="step_up"
        ).dice(),
        "Combat (d12) cannot be stepped up 1 time: d12 is the largest die",
    ),
    (
        "own",
        lambda: Feature(type="trauma", name="physical", die=4, own=True).dice(),
        "only your own stress die can join your pool this way, not physical",
    ),
    (
        "stress name",
        lambda: Feature(type="stress", name="spiritual", die=4).dice(),
        "stress is physical, mental or emotional, not 'spiritual'",
    ),
    # pools
    ("tension die", lambda: sq.build_pool([], tension_dice=(20,)), "a tension die must be one of"),
    ("setting die", lambda: sq.build_pool([], setting_die=3), "the setting die must be one of"),
    ("empty pool", lambda: sq.build_pool([]), "a dice pool needs at least one die"),
    (
        "plot points",
        lambda: sq.build_pool([COORDINATION], push_die=True, plot_points=0),
        "this pool costs 1 plot point but you have 0",
    ),
    ("empty dice", lambda: sq.pool_from_dice(()), "a dice pool needs at least one die"),
    ("pool die", lambda: sq.pool_from_dice((20,)), "a pool die must be one of"),
    ("notation", lambda: sq.pool_from_dice("d10 d7"), "'d7': d7 is not one of"),
    # affiliations
    (
        "solo count",
        lambda: sq.validate_affiliations(8, 6, 4, solo_count=0),
        "Solo needs at least one die, not 0",
    ),
    (
        "affiliation size",
        lambda: sq.validate_affiliations(8, 6, 5),
        "the Gang affiliation must be one of",
    ),
    (
        "large creature",
        lambda: sq.validate_affiliations(12, 6, 6, solo_count=3),
        "Partner and Gang take two different dice of d4, d6 and d8 (Solo d12, Partner d6, Gang d6)",
    ),
    (
        "d4 d6 d8",
        lambda: sq.validate_affiliations(8, 8, 4),
        "the affiliations take a d4, a d6 and a d8 once each, not Solo d8, Partner d8, Gang d4",
    ),
    # stored pools and rolls
    (
        "stored dice",
        lambda: DicePool.from_dict(_stored_pool(dice=[8])),
        "stored 'dice' is not a list of mappings",
    ),
    (
        "stored source",
        lambda: DicePool.from_dict(_stored_pool(dice=[{"size": 8, "source": "luck", "name": "X"}])),
        "unknown die source 'luck'",
    ),
    (
        "stored stress type",
        lambda: DicePool.from_dict(_stored_pool(stress_step_up=["spiritual"])),
        "not 'spiritual'",
    ),
    ("stored missing", lambda: DicePool.from_dict({}), "stored data is missing 'dice'"),
    (
        "stored int",
        lambda: DicePool.from_dict(_stored_pool(plot_points_spent="1")),
        "stored 'plot_points_spent' is not an integer",
    ),
    (
        "stored str",
        lambda: DicePool.from_dict(_stored_pool(dice=[{"size": 8, "source": 3, "name": "X"}])),
        "stored 'source' is not text",
    ),
    (
        "stored list",
        lambda: DicePool.from_dict(_stored_pool(notes="none")),
        "stored 'notes' is not a list",
    ),
    (
        "stored strs",
        lambda: DicePool.from_dict(_stored_pool(notes=[1])),
        "stored 'notes' is not a list of text",
    ),
    ("stored pool", lambda: RollResult.from_dict({"pool": []}), "stored 'pool' is not a mapping"),
    (
        "stored roll dice",
        lambda: RollResult.from_dict({"pool": _stored_pool(), "dice": [3]}),
        "stored 'dice' is not a list of mappings",
    ),
    (
        "stored ints",
        lambda: TensionPool.from_dict({"tension_pool": ["d6"]}),
        "stored 'tension_pool' is not a list of integers",
    ),
    (
        "stored bool",
        lambda: StressTrack.from_dict(
            {"physical": {"stress": None, "trauma": None, "stressed_out": 0}}
        ),
        "stored 'stressed_out' is not true or false",
    ),
    (
        "stored line",
        lambda: StressTrack.from_dict({"physical": 8}),
        "stored 'physical' is not a mapping",
    ),
    # faces and selections
    (
        "face count",
        lambda: sq.best_selection((8, 6), (3,)),
        "1 faces were given for a pool of 2 dice",
    ),
    ("face", lambda: sq.best_selection((8,), (9,)), "a d8 cannot show 9"),
    (
        "index",
        lambda: sq.choose_dice(ROLL, effort=(0, 7), effect=(1,)),
        "there is no die number 8 in a pool of 5 dice",
    ),
    (
        "opportunity",
        lambda: sq.choose_dice(ROLL, effort=(0, 2), effect=(1,)),
        "the d8 (die 3) rolled a 1: an opportunity die counts for neither effort nor effect",
    ),
    (
        "twice",
        lambda: sq.choose_dice(ROLL, effort=(0, 4), effect=(4,)),
        "each die can be used once",
    ),
    (
        "two effort dice",
        lambda: sq.choose_dice(ROLL, effort=(0,), effect=(1,)),
        "the effort total takes two dice, not 1",
    ),
    (
        "effect die",
        lambda: sq.choose_dice(ROLL, effort=(0, 4), effect=()),
        "keep one of the dice left as your effect die",
    ),
    (
        "after-roll plot points",
        lambda: sq.choose_dice(ROLL, effort=(0, 4, 3), effect=(1,), plot_points=0),
        "these extra effort and effect dice cost 1 plot point but you have 0",
    ),
    # stress and trauma
    (
        "stress type",
        lambda: StressTrack().line("spiritual"),
        "stress and trauma are physical, mental or emotional, not 'spiritual'",
    ),
    (
        "stress die",
        lambda: sq.take_stress(StressTrack(), "physical", 5),
        "the stress effect die must be one of",
    ),
    (
        "taken out",
        lambda: sq.take_stress(physical(trauma=12, taken_out=True), "physical", 4),
        "the character is already taken out by physical trauma",
    ),
    (
        "step up nothing",
        lambda: sq.step_up_stress(StressTrack(), "mental"),
        "there is no mental stress die to step up",
    ),
    (
        "recover taken out",
        lambda: sq.recover_stress(physical(stress=12, taken_out=True), "physical", 6),
        "the character was taken out by physical trauma",
    ),
    (
        "recover no stress",
        lambda: sq.recover_stress(StressTrack(), "physical", 6),
        "there is no physical stress to recover",
    ),
    (
        "recover trauma taken out",
        lambda: sq.recover_trauma(physical(trauma=12, taken_out=True), "physical", 6),
        "was taken out by physical trauma and cannot recover",
    ),
    (
        "recover no trauma",
        lambda: sq.recover_trauma(StressTrack(), "physical", 6),
        "there is no physical trauma to recover",
    ),
    (
        "downtime choice",
        lambda: sq.downtime_recovery(
            physical(stress=8, trauma=4), stress=("physical",), trauma="physical"
        ),
        "choose one of these",
    ),
    (
        "downtime three",
        lambda: sq.downtime_recovery(StressTrack(), stress=("physical", "mental", "emotional")),
        "at most two stress dice, not 3",
    ),
    (
        "downtime taken out",
        lambda: sq.downtime_recovery(physical(stress=12, taken_out=True), stress=("physical",)),
        "the character was taken out by physical trauma",
    ),
    (
        "downtime no stress",
        lambda: sq.downtime_recovery(physical(stress=8), stress=("physical", "mental")),
        "there is no mental stress die to step down",
    ),
    ("recovery time", lambda: sq.trauma_recovery_time(20), "the trauma die must be one of"),
    # tension pool
    ("tension pool die", lambda: TensionPool(dice=(6, 3)), "a tension die must be one of"),
    (
        "no such tension die",
        lambda: TensionPool.start().take(8),
        "there is no d8 in the tension pool (3d6)",
    ),
    (
        "tension d12",
        lambda: TensionPool.start("d12").activate_opportunity(step_up=12),
        "a d12 tension die cannot be stepped up",
    ),
    (
        "tension add",
        lambda: TensionPool.start().activate_opportunity(add=20),
        "the tension die added must be one of",
    ),
    (
        "give back",
        lambda: TensionPool.start().give_back(6, opportunity_activated=True),
        "the d6 rolled an opportunity the player activated, so it cannot return",
    ),
    (
        "danger empty",
        lambda: sq.roll_general_danger(TensionPool(dice=()), ScriptedRng()),
        "the tension pool is empty and there is no setting die",
    ),
    (
        "danger setting",
        lambda: TensionPool.start().danger_pool(setting_die=7),
        "the setting die must be one of",
    ),
    (
        "danger complication",
        lambda: TensionPool.start().danger_pool(complications=(7,)),
        "a complication die must be one of",
    ),
    # odds
    (
        "too many dice",
        lambda: sq.odds("61d6"),
        "a pool of 61 dice is more than the 60 the odds accept",
    ),
]


@pytest.mark.parametrize(
    ("call", "message"),
    [(call, message) for _, call, message in ERRORS],
    ids=[e[0] for e in ERRORS],
)
def test_each_broken_rule_raises_a_rule_error_naming_it(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(RuleError) as caught:
        call()
    assert message in caught.value.message
    assert caught.value.rule.startswith(("Shahquest wiki, ", "odds query"))
