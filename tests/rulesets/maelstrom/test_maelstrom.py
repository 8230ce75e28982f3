"""Tests of the Maelstrom rules engine against the seed (Maelstrom rules.md) and RULES.md.

Plain pytest, no database. Every worked example of the seed is a test; the resolution rule is
checked exactly against RULES.md "Worked numbers" by enumerating every outcome.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rulesets import maelstrom as m
from rulesets.dice import DIE_SIZES, roll_die
from rulesets.maelstrom import (
    HealthChart,
    RuleError,
    SpecialtyRef,
    TraitRef,
)
from tests.rulesets.helpers import ScriptedRng


def attribute(name: str, dots: int) -> TraitRef:
    return TraitRef(name=name, kind="attribute", dots=dots)


def ability(name: str, dots: int) -> TraitRef:
    return TraitRef(name=name, kind="ability", dots=dots, group=m.ABILITIES[name].group)


def specialty(name: str, ability_name: str, advanced: bool = False) -> SpecialtyRef:
    return SpecialtyRef(name=name, ability=ability_name, advanced=advanced)


def plain_pool(dice: int, difficulty: int = 6, threshold: int = 0) -> m.ActionPool:
    return m.build_action_pool(
        traits=[attribute("Strength", min(dice, 5)), attribute("Wits", max(dice - 5, 0))]
        if dice > 5
        else [attribute("Strength", dice)],
        difficulty=difficulty,
        threshold=threshold,
    )


SNIPER_SPECIALTIES = {
    "Pistols": specialty("Pistols", "Firearms"),
    "Sniper Rifles": specialty("Sniper Rifles", "Firearms"),
    "Extreme Range": specialty("Extreme Range", "Firearms", advanced=True),
}


def sniper_pool(*used: str) -> m.ActionPool:
    return m.build_action_pool(
        traits=[attribute("Precision", 3), ability("Firearms", 1)],
        specialties=[SNIPER_SPECIALTIES[name] for name in used],
        difficulty=8,
        required_specialties=["Extreme Range"],
    )


# --- RuleError --------------------------------------------------------------------------------


def test_a_rule_error_reads_as_the_message_followed_by_the_seed_section() -> None:
    error = RuleError("Firearms has 1 dot", "Maelstrom rules.md, Using Specialties")
    assert error.message == "Firearms has 1 dot"
    assert error.rule == "Maelstrom rules.md, Using Specialties"
    assert str(error) == "Firearms has 1 dot (Maelstrom rules, Using Specialties)"
    assert isinstance(error, ValueError)


# --- Dice -------------------------------------------------------------------------------------


def test_roll_die_asks_the_rng_for_one_face_between_one_and_the_sides() -> None:
    rng = ScriptedRng(7)
    assert roll_die(rng, 10) == 7
    assert rng.calls == [(1, 10)]
    assert DIE_SIZES == (4, 6, 8, 10, 12, 20)


def test_roll_die_refuses_a_die_with_fewer_than_two_sides_or_a_face_out_of_range() -> None:
    with pytest.raises(ValueError):
        roll_die(ScriptedRng(), 1)
    with pytest.raises(ValueError):
        roll_die(_OutOfRange(), 10)


class _OutOfRange:
    def randint(self, a: int, b: int) -> int:
        return b + 1


# --- Catalogue --------------------------------------------------------------------------------


def test_the_six_attributes_come_in_a_physical_and_a_mental_group() -> None:
    assert m.ATTRIBUTE_GROUPS == {
        "Physical": ("Strength", "Precision", "Reflexes"),
        "Mental": ("Perception", "Intelligence", "Wits"),
    }
    assert m.ATTRIBUTES == (
        "Strength",
        "Precision",
        "Reflexes",
        "Perception",
        "Intelligence",
        "Wits",
    )


def test_there_are_eight_talents_eight_skills_and_eight_knowledges_in_the_seed_order() -> None:
    assert list(m.ABILITY_GROUPS) == ["Talents", "Skills", "Knowledges"]
    assert m.ABILITY_GROUPS["Talents"] == (
        "Alertness",
        "Athletics",
        "Investigation",
        "Melee",
        "Performance",
        "Stealth",
        "Streetwise",
        "Technology",
    )
    assert m.ABILITY_GROUPS["Skills"] == (
        "Artistry",
        "Driving",
        "Firearms",
        "Heavy Weapons",
        "Piloting",
        "Remote Weapons",
        "Survival",
        "Tradecraft",
    )
    assert m.ABILITY_GROUPS["Knowledges"] == (
        "Computer Science",
        "Engineering",
        "Humanities",
        "Manufacturing",
        "Medicine",
        "Science",
        "Statecraft",
        "Navigation",
    )
    assert len(m.ABILITIES) == 24
    for group, names in m.ABILITY_GROUPS.items():
        for name in names:
            assert m.ABILITIES[name].group == group
            assert m.ABILITIES[name].name == name


def test_every_common_attribute_is_an_attribute_and_every_ability_suggests_specialties() -> None:
    for info in m.ABILITIES.values():
        assert set(info.common_attributes) <= set(m.ATTRIBUTES)
        assert info.general_specialties
        assert info.advanced_specialties


def test_the_catalogue_copies_the_seed_specialties() -> None:
    driving = m.ABILITIES["Driving"]
    assert driving.common_attributes == ("Precision", "Reflexes")
    assert driving.advanced_specialties == ("Motorcycles", "Transport Trucks")
    assert driving.general_specialties == ("Gravitic Vehicles", "Cars", "Trucks", "Buses")
    assert "Extreme Range" in m.ABILITIES["Firearms"].advanced_specialties
    assert "Sniper Rifles" in m.ABILITIES["Firearms"].general_specialties
    assert m.ABILITIES["Alertness"].general_specialties == (
        "Terrain (Urban, Forest, Plains, etc)",
        "Followers",
        "Ambushes",
    )
    assert m.ABILITIES["Performance"].advanced_specialties == (
        "Specific Musical Instrument (Piano, Guitar, Drums, etc)",
    )
    assert m.ABILITIES["Artistry"].common_attributes == ()  # the seed says "Varies"
    assert m.ABILITIES["Investigation"].common_attributes == (
        "Intelligence",
        "Wits",
        "Perception",
    )


def test_merits_and_flaws_carry_the_seed_prices() -> None:
    assert m.MERITS["Acute Sense"].points == (2, 5)
    assert m.MERITS["Huge Size"].points == (4,)
    assert m.MERITS["Strong Bond"].points == (4,)
    assert m.MERITS["Eidetic Memory"].points == (2,)
    assert m.FLAWS["Addict"].points == (1, 3)
    assert m.FLAWS["Paraplegic"].points == (8, 10)
    assert m.FLAWS["Mute"].points == (6,)
    assert m.FLAWS["Blind"].points == (8,)
    assert len(m.MERITS) == 11
    assert len(m.FLAWS) == 17
    assert all(entry.kind == "merit" for entry in m.MERITS.values())
    assert all(entry.kind == "flaw" for entry in m.FLAWS.values())
    for entry in [*m.MERITS.values(), *m.FLAWS.values()]:
        assert entry.description.endswith(".")
        assert all(points > 0 for points in entry.points)
    assert "2 points" in m.MERITS["Acute Sense"].description
    assert "5 points" in m.MERITS["Acute Sense"].description


def test_the_constants_match_the_seed() -> None:
    assert (m.DIFFICULTY_MIN, m.DIFFICULTY_MAX, m.DEFAULT_DIFFICULTY) == (2, 10, 6)
    assert m.WILLPOWER_MAX == 10
    assert m.DOTS_MAX == 5
    assert m.DEFAULT_STARTING_XP == 30
    assert m.STARTING_WILLPOWER == 3


# --- XP costs ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "new_rank", "cost"),
    [
        ("general_specialty", 1, 2),
        ("advanced_specialty", 1, 3),
        ("willpower", 4, 4),
        ("willpower", 10, 10),
        ("ability", 1, 2),
        ("ability", 3, 6),
        ("ability", 5, 10),
        ("attribute", 2, 15),
        ("attribute", 5, 15),
    ],
)
def test_each_row_of_the_xp_table_costs_what_the_seed_says(
    kind: str, new_rank: int, cost: int
) -> None:
    assert m.xp_cost(kind, new_rank) == cost


def test_raising_an_ability_from_zero_to_three_costs_twelve_xp() -> None:
    assert m.xp_cost_between("ability", 0, 3) == 2 + 4 + 6 == 12


def test_costs_between_ranks_sum_each_new_rank() -> None:
    assert m.xp_cost_between("willpower", 3, 5) == 4 + 5
    assert m.xp_cost_between("attribute", 2, 4) == 30
    assert m.xp_cost_between("advanced_specialty", 0, 1) == 3
    assert m.xp_cost_between("ability", 2, 2) == 0


@pytest.mark.parametrize(
    ("kind", "new_rank"),
    [
        ("attribute", 6),
        ("ability", 6),
        ("willpower", 11),
        ("general_specialty", 2),
        ("advanced_specialty", 2),
        ("ability", 0),
        ("merit", 1),
    ],
)
def test_xp_cost_refuses_ranks_beyond_the_maximum_and_unknown_kinds(
    kind: str, new_rank: int
) -> None:
    with pytest.raises(RuleError) as caught:
        m.xp_cost(kind, new_rank)
    assert caught.value.rule == "Maelstrom rules.md, Spending Experience"


def test_xp_is_never_refunded_by_lowering_a_trait() -> None:
    with pytest.raises(RuleError):
        m.xp_cost_between("ability", 3, 2)
    with pytest.raises(RuleError):
        m.xp_cost_between("ability", -1, 2)


# --- Character creation -----------------------------------------------------------------------

VALID_ATTRIBUTES = {
    "Strength": 3,
    "Precision": 4,
    "Reflexes": 2,  # Physical: 2 + 3 + 1 = 6 extra
    "Perception": 3,
    "Intelligence": 2,
    "Wits": 2,  # Mental: 2 + 1 + 1 = 4 extra
}

VALID_ABILITIES = {
    "Firearms": 3,
    "Driving": 3,
    "Alertness": 2,
    "Athletics": 2,
    "Melee": 2,
    "Medicine": 2,
    "Stealth": 1,
    "Streetwise": 1,
    "Technology": 1,
    "Survival": 1,
    "Piloting": 1,
    "Engineering": 1,
    "Science": 0,
}


def test_a_physical_character_with_six_and_four_extra_dots_is_valid() -> None:
    m.validate_attributes("Physical", VALID_ATTRIBUTES)


def test_the_primary_group_must_receive_exactly_six_extra_dots() -> None:
    dots = {**VALID_ATTRIBUTES, "Reflexes": 1, "Wits": 3}
    with pytest.raises(RuleError) as caught:
        m.validate_attributes("Physical", dots)
    assert caught.value.message == (
        "Physical is the primary group: allocate 6 dots on top of the 1 in each; you allocated 5"
    )
    assert caught.value.rule == "Maelstrom rules.md, Starting Attributes"


def test_the_secondary_group_must_receive_exactly_four_extra_dots() -> None:
    with pytest.raises(RuleError, match="Physical is the secondary group"):
        m.validate_attributes("Mental", VALID_ATTRIBUTES)


@pytest.mark.parametrize(
    ("dots", "fragment"),
    [
        ({k: v for k, v in VALID_ATTRIBUTES.items() if k != "Wits"}, "missing attribute: Wits"),
        ({**VALID_ATTRIBUTES, "Charisma": 2}, "unknown attribute: Charisma"),
        ({**VALID_ATTRIBUTES, "Strength": 6, "Precision": 1}, "Strength has 6 dots"),
        ({**VALID_ATTRIBUTES, "Reflexes": 0, "Strength": 4}, "Reflexes has 0 dots"),
    ],
)
def test_attributes_must_all_be_present_and_between_one_and_five(
    dots: dict[str, int], fragment: str
) -> None:
    with pytest.raises(RuleError, match=fragment):
        m.validate_attributes("Physical", dots)


def test_the_primary_group_must_be_physical_or_mental() -> None:
    with pytest.raises(RuleError, match="Physical or Mental"):
        m.validate_attributes("Social", VALID_ATTRIBUTES)


def test_two_threes_four_twos_and_six_ones_is_a_valid_ability_allotment() -> None:
    m.validate_abilities(VALID_ABILITIES)


def test_an_allotment_with_a_single_three_is_refused_with_a_count() -> None:
    dots = {**VALID_ABILITIES, "Driving": 2, "Melee": 1, "Science": 1}
    with pytest.raises(RuleError) as caught:
        m.validate_abilities(dots)
    assert caught.value.message == "2 abilities at 3 dots are required; you have 1"


@pytest.mark.parametrize(
    ("dots", "fragment"),
    [
        ({**VALID_ABILITIES, "Medicine": 1}, "4 abilities at 2 dots are required; you have 3"),
        ({**VALID_ABILITIES, "Science": 1}, "6 abilities at 1 dot are required; you have 7"),
        ({**VALID_ABILITIES, "Firearms": 4}, "Firearms has 4 dots"),
        ({**VALID_ABILITIES, "Brawling": 1}, "unknown ability: Brawling"),
        ({**VALID_ABILITIES, "Science": -1}, "Science has -1 dots"),
    ],
)
def test_every_kind_of_wrong_ability_allotment_is_refused(
    dots: dict[str, int], fragment: str
) -> None:
    with pytest.raises(RuleError, match=fragment) as caught:
        m.validate_abilities(dots)
    assert caught.value.rule == "Maelstrom rules.md, Starting Abilities"


def test_combining_dots_into_fewer_than_twelve_abilities_is_refused() -> None:
    # The 3 dots of two ones and a one merged: eleven abilities.
    dots = {**VALID_ABILITIES, "Engineering": 0}
    with pytest.raises(RuleError, match="6 abilities at 1 dot"):
        m.validate_abilities(dots)


# --- Health -----------------------------------------------------------------------------------


def test_an_undamaged_chart_has_eight_empty_boxes_and_no_penalty() -> None:
    chart = HealthChart()
    assert chart.boxes == 8
    assert chart.marks() == [" "] * 8
    assert chart.wound_penalty == 0
    assert chart.level_name == "Healthy"
    assert not chart.incapacitated
    assert chart.levels() == list(m.HEALTH_LEVELS)


def test_the_seed_marking_example_a_new_lethal_pushes_the_bashing_down() -> None:
    chart = HealthChart(lethal=1, bashing=2)
    assert chart.marks() == ["X", "/", "/", " ", " ", " ", " ", " "]
    after = m.take_damage(chart, "lethal")
    assert after.marks() == ["X", "X", "/", "/", " ", " ", " ", " "]
    assert after == HealthChart(lethal=2, bashing=2)


def test_aggravated_damage_is_marked_on_top_of_lethal_and_bashing() -> None:
    chart = m.take_damage(m.take_damage(HealthChart(bashing=1), "lethal"), "aggravated")
    assert chart.marks()[:3] == ["*", "X", "/"]


def test_three_levels_are_hurt_at_minus_one_and_a_fourth_is_injured_at_minus_two() -> None:
    chart = m.take_damage(HealthChart(), "bashing", 3)
    assert chart.level_name == "Hurt"
    assert chart.wound_penalty == 1
    chart = m.take_damage(chart, "lethal")
    assert chart.level_name == "Injured"
    assert chart.wound_penalty == 2


@pytest.mark.parametrize(
    ("damage", "name", "penalty"),
    [
        (1, "Bruised", 0),
        (2, "Scratched", 1),
        (5, "Wounded", 2),
        (6, "Mauled", 3),
        (7, "Crippled", 5),
        (8, "Incapacitated", 0),
    ],
)
def test_the_penalty_is_that_of_the_bottom_most_damaged_box(
    damage: int, name: str, penalty: int
) -> None:
    chart = HealthChart(lethal=damage)
    assert chart.level_name == name
    assert chart.wound_penalty == penalty
    assert chart.incapacitated == (damage == 8)


def test_huge_size_adds_a_ninth_box_at_the_top_with_no_penalty() -> None:
    chart = HealthChart(huge_size=True)
    assert chart.boxes == 9
    assert chart.levels()[0] == m.HUGE_SIZE_LEVEL == ("Huge Size", 0)
    chart = m.take_damage(chart, "lethal")
    assert chart.level_name == "Huge Size"
    assert chart.wound_penalty == 0
    chart = m.take_damage(chart, "lethal", 2)
    assert chart.level_name == "Scratched"
    assert chart.wound_penalty == 1
    chart = m.take_damage(chart, "lethal", 5)
    assert not chart.incapacitated
    assert chart.level_name == "Crippled"
    chart = m.take_damage(chart, "lethal")
    assert chart.incapacitated
    assert len(chart.marks()) == 9


def test_more_bashing_on_a_full_bashing_chart_converts_the_top_most_bashing_to_lethal() -> None:
    chart = HealthChart(lethal=1, bashing=7)
    assert chart.incapacitated
    chart = m.take_damage(chart, "bashing")
    assert chart == HealthChart(lethal=2, bashing=6)
    assert chart.marks() == ["X", "X", "/", "/", "/", "/", "/", "/"]
    assert not chart.dead


def test_lethal_or_aggravated_on_a_full_bashing_chart_takes_the_place_of_one_bashing() -> None:
    chart = HealthChart(bashing=8)
    assert m.take_damage(chart, "lethal") == HealthChart(lethal=1, bashing=7)
    assert m.take_damage(chart, "aggravated") == HealthChart(aggravated=1, bashing=7)


def test_beating_someone_to_death_converts_all_bashing_then_kills() -> None:
    chart = m.take_damage(HealthChart(), "bashing", 8)
    chart = m.take_damage(chart, "bashing", 8)
    assert chart == HealthChart(lethal=8)
    assert not chart.dead
    chart = m.take_damage(chart, "bashing")
    assert chart.dead
    assert chart.level_name == "Dead"


def test_any_damage_on_an_incapacitated_lethal_chart_is_fatal() -> None:
    for kind in m.DAMAGE_KINDS:
        chart = m.take_damage(HealthChart(aggravated=1, lethal=7), kind)
        assert chart.dead
        assert chart.incapacitated


def test_overflowing_damage_in_one_call_stops_at_death() -> None:
    chart = m.take_damage(HealthChart(), "lethal", 20)
    assert chart.dead
    assert chart.lethal == 8


def test_a_dead_character_cannot_take_damage_or_heal() -> None:
    dead = HealthChart(lethal=8, dead=True)
    with pytest.raises(RuleError, match="dead") as caught:
        m.take_damage(dead, "bashing")
    assert caught.value.rule == "Maelstrom rules.md, Incapacitation and Death"
    with pytest.raises(RuleError, match="dead"):
        m.heal(dead)


def test_damage_needs_a_known_type_and_at_least_one_level() -> None:
    with pytest.raises(RuleError, match="unknown damage type"):
        m.take_damage(HealthChart(), "fire")
    with pytest.raises(RuleError, match="at least 1"):
        m.take_damage(HealthChart(), "lethal", 0)


def test_a_chart_cannot_hold_more_damage_than_boxes_or_negative_damage() -> None:
    with pytest.raises(RuleError):
        HealthChart(lethal=9)
    with pytest.raises(RuleError):
        HealthChart(bashing=-1)
    assert HealthChart(lethal=9, huge_size=True).incapacitated


def test_less_serious_damage_types_are_healed_first() -> None:
    chart = HealthChart(aggravated=1, lethal=1, bashing=2)
    assert m.heal(chart) == HealthChart(aggravated=1, lethal=1, bashing=1)
    assert m.heal(chart, levels=3) == HealthChart(aggravated=1)
    assert m.heal(chart, "lethal") == HealthChart(aggravated=1, bashing=2)
    assert m.heal(chart, "aggravated") == HealthChart(lethal=1, bashing=2)


def test_healing_damage_that_is_not_there_is_refused() -> None:
    with pytest.raises(RuleError, match="only 0 levels of lethal damage"):
        m.heal(HealthChart(bashing=2), "lethal")
    with pytest.raises(RuleError, match="only 2 levels of damage"):
        m.heal(HealthChart(bashing=2), levels=3)
    with pytest.raises(RuleError):
        m.heal(HealthChart(bashing=2), "poison")


# --- Dice pools -------------------------------------------------------------------------------


def test_the_motorcycle_pool_precision_three_plus_driving_two_is_five_dice() -> None:
    pool = m.build_action_pool(traits=[attribute("Precision", 3), ability("Driving", 2)])
    assert pool.dice == 5
    assert pool.difficulty == 6
    assert pool.threshold == 0
    assert not pool.exploding
    assert pool.kind == "action"
    assert pool.traits == ("Precision", "Driving")
    assert pool.experience_die_allowed
    assert pool.describe() == "Precision + Driving: 5 dice, difficulty 6, threshold 0"


def test_a_pool_may_use_two_attributes_or_one_trait_alone() -> None:
    two_attributes = [attribute("Reflexes", 2), attribute("Strength", 3)]
    assert m.build_action_pool(traits=two_attributes).dice == 5
    assert m.build_action_pool(traits=[attribute("Wits", 2)]).dice == 2


def test_a_pool_never_uses_more_than_two_traits_or_two_abilities() -> None:
    with pytest.raises(RuleError, match="one or two traits, never 3"):
        m.build_action_pool(
            traits=[attribute("Precision", 3), attribute("Wits", 2), ability("Driving", 2)]
        )
    with pytest.raises(RuleError, match="one or two traits, never 0"):
        m.build_action_pool(traits=[])
    with pytest.raises(RuleError, match="not two abilities"):
        m.build_action_pool(traits=[ability("Driving", 2), ability("Firearms", 1)])
    with pytest.raises(RuleError, match="Willpower is always rolled alone"):
        m.build_action_pool(traits=[TraitRef(name="Willpower", kind="willpower", dots=3)])
    with pytest.raises(RuleError, match="twice"):
        m.build_action_pool(traits=[attribute("Wits", 2), attribute("Wits", 2)])


@pytest.mark.parametrize("difficulty", [1, 11])
def test_difficulty_must_be_between_two_and_ten(difficulty: int) -> None:
    with pytest.raises(RuleError) as caught:
        m.build_action_pool(traits=[attribute("Wits", 2)], difficulty=difficulty)
    assert caught.value.rule == "Maelstrom rules.md, Difficulty"


def test_a_negative_threshold_is_refused() -> None:
    with pytest.raises(RuleError, match="threshold"):
        m.build_action_pool(traits=[attribute("Wits", 2)], threshold=-1)


def test_a_talent_at_zero_dots_rolls_the_attribute_alone_without_penalty() -> None:
    pool = m.build_action_pool(traits=[attribute("Perception", 3), ability("Alertness", 0)])
    assert pool.dice == 3
    assert pool.difficulty == 6
    assert "Alertness at 0 dots (talent): attribute alone, no penalty" in pool.notes


def test_a_skill_at_zero_dots_raises_the_difficulty_by_one() -> None:
    pool = m.build_action_pool(
        traits=[attribute("Precision", 3), ability("Driving", 0)], difficulty=7
    )
    assert pool.dice == 3
    assert pool.difficulty == 8
    assert "Driving at 0 dots (skill): difficulty +1" in pool.notes


def test_a_skill_at_zero_dots_cannot_push_the_difficulty_above_ten() -> None:
    with pytest.raises(RuleError, match="difficulty to 11") as caught:
        m.build_action_pool(
            traits=[attribute("Precision", 3), ability("Driving", 0)], difficulty=10
        )
    assert caught.value.rule == "Maelstrom rules.md, Skills"


def test_a_knowledge_at_zero_dots_cannot_be_rolled() -> None:
    with pytest.raises(RuleError, match="cannot roll a knowledge at 0 dots") as caught:
        m.build_action_pool(traits=[attribute("Intelligence", 4), ability("Medicine", 0)])
    assert caught.value.rule == "Maelstrom rules.md, Knowledges"


def test_the_ability_group_is_looked_up_in_the_catalogue_when_left_blank() -> None:
    pool = m.build_action_pool(
        traits=[attribute("Precision", 3), TraitRef(name="Driving", kind="ability", dots=0)]
    )
    assert pool.difficulty == 7
    with pytest.raises(RuleError, match="one of the Skills"):
        m.build_action_pool(
            traits=[
                attribute("Precision", 3),
                TraitRef(name="Driving", kind="ability", dots=0, group="Talents"),
            ]
        )


def test_the_wound_penalty_removes_dice_from_an_action() -> None:
    chart = HealthChart(bashing=3)
    pool = m.build_action_pool(
        traits=[attribute("Precision", 3), ability("Driving", 2)],
        wound_penalty=chart.wound_penalty,
        incapacitated=chart.incapacitated,
        wound_level=chart.level_name,
    )
    assert pool.dice == 4
    assert pool.wound_penalty == 1
    assert "Wound penalty -1 (Hurt)" in pool.notes


def test_a_wound_penalty_that_leaves_no_dice_is_refused() -> None:
    with pytest.raises(RuleError, match="no dice left after the wound penalty"):
        m.build_action_pool(
            traits=[attribute("Precision", 1), ability("Driving", 1)], wound_penalty=3
        )


def test_an_incapacitated_character_cannot_act() -> None:
    with pytest.raises(RuleError, match="cannot act"):
        m.build_action_pool(traits=[attribute("Wits", 2)], incapacitated=True)


# --- Specialties (the sniper example) ---------------------------------------------------------


def test_the_sniper_can_use_only_one_specialty_with_one_dot_of_firearms() -> None:
    with pytest.raises(RuleError) as caught:
        sniper_pool("Sniper Rifles", "Extreme Range")
    assert caught.value.message == (
        "Firearms has 1 dot, so at most 1 specialty can be used in this roll"
    )
    assert caught.value.rule == "Maelstrom rules.md, Using Specialties"


def test_using_the_required_extreme_range_leaves_no_threshold_and_explodes() -> None:
    pool = sniper_pool("Extreme Range")
    assert pool.dice == 4
    assert pool.difficulty == 8
    assert pool.threshold == 0
    assert pool.exploding
    assert pool.specialties == ("Extreme Range",)


def test_without_extreme_range_the_required_specialty_adds_a_threshold_of_one() -> None:
    pool = sniper_pool("Sniper Rifles")
    assert pool.threshold == 1
    assert pool.exploding
    assert "Required specialty Extreme Range not used: threshold +1" in pool.notes
    assert sniper_pool().threshold == 1
    assert not sniper_pool().exploding


def test_a_required_specialty_typed_in_another_case_is_still_the_one_used() -> None:
    pool = m.build_action_pool(
        traits=[attribute("Precision", 3), ability("Firearms", 1)],
        specialties=[SNIPER_SPECIALTIES["Extreme Range"]],
        difficulty=8,
        required_specialties=["extreme range"],
    )
    assert pool.threshold == 0


@pytest.mark.parametrize(
    ("ability_name", "typed", "expected"),
    [
        ("Firearms", "extreme range", ("Extreme Range", True)),
        ("Driving", "Cars", ("Cars", False)),
        ("Driving", "Hovercycles", None),
        ("Nonsense", "Cars", None),
    ],
)
def test_a_suggested_specialty_keeps_the_seeds_spelling_and_kind(
    ability_name: str, typed: str, expected: tuple[str, bool] | None
) -> None:
    assert m.suggested_specialty(ability_name, typed) == expected


def test_the_sniper_rolls_one_four_seven_ten_and_chains_to_two_successes() -> None:
    rng = ScriptedRng(1, 4, 7, 10, 1, 10, 4, 8)
    result = m.roll(sniper_pool("Extreme Range"), rng)
    assert rng.exhausted
    assert result.dice == (1, 4, 7, 10)
    assert result.bonus_dice == (1, 10, 4, 8)
    assert result.resolution == m.Resolution(
        successes=3, removed_by_threshold=0, botches=1, net=2, outcome="success"
    )
    assert result.summary() == "2 successes"


def test_the_sniper_without_specialties_would_have_botched() -> None:
    rng = ScriptedRng(1, 4, 7, 10)
    result = m.roll(sniper_pool(), rng)
    assert result.bonus_dice == ()
    assert result.outcome == "botch"


def test_a_specialty_must_belong_to_the_ability_in_the_pool() -> None:
    with pytest.raises(RuleError, match="Motorcycles is a Driving specialty"):
        m.build_action_pool(
            traits=[attribute("Precision", 3), ability("Firearms", 2)],
            specialties=[specialty("Motorcycles", "Driving", advanced=True)],
        )
    with pytest.raises(RuleError, match="the pool has no ability"):
        m.build_action_pool(
            traits=[attribute("Precision", 3)],
            specialties=[specialty("Pistols", "Firearms")],
        )


def test_no_specialty_can_be_used_with_zero_dots_in_the_ability() -> None:
    with pytest.raises(RuleError, match="Driving has 0 dots, so no specialty can be used"):
        m.build_action_pool(
            traits=[attribute("Precision", 3), ability("Driving", 0)],
            specialties=[specialty("Cars", "Driving")],
        )


def test_with_two_dots_two_required_specialties_can_both_be_used() -> None:
    pool = m.build_action_pool(
        traits=[attribute("Precision", 3), ability("Firearms", 2)],
        specialties=[
            specialty("Extreme Range", "Firearms", True),
            specialty("Power Armor", "Firearms", True),
        ],
        required_specialties=["Extreme Range", "Power Armor", "Energy Weapons"],
        threshold=1,
    )
    assert pool.threshold == 2
    assert pool.exploding


# --- Resolution -------------------------------------------------------------------------------


def test_one_three_four_six_seven_at_difficulty_six_is_one_success() -> None:
    resolution = m.resolve(dice=[1, 3, 4, 6, 7], bonus_dice=[], difficulty=6, threshold=0)
    assert resolution == m.Resolution(
        successes=2, removed_by_threshold=0, botches=1, net=1, outcome="success"
    )


def test_the_same_roll_at_a_higher_difficulty_leaves_zero_successes_or_botches() -> None:
    at_seven = m.resolve(dice=[1, 3, 4, 6, 7], bonus_dice=[], difficulty=7, threshold=0)
    assert (at_seven.net, at_seven.outcome) == (0, "failure")
    at_eight = m.resolve(dice=[1, 3, 4, 6, 7], bonus_dice=[], difficulty=8, threshold=0)
    assert (at_eight.successes, at_eight.net, at_eight.outcome) == (0, 0, "botch")


def test_a_threshold_of_two_turns_two_successes_and_a_botch_into_a_botch() -> None:
    resolution = m.resolve(dice=[6, 8, 1, 3], bonus_dice=[], difficulty=6, threshold=2)
    assert resolution.removed_by_threshold == 2
    assert resolution.outcome == "botch"
    without = m.resolve(dice=[6, 8, 1, 3], bonus_dice=[], difficulty=6, threshold=0)
    assert without.outcome == "success"


def test_ones_on_bonus_dice_are_not_botches() -> None:
    resolution = m.resolve(dice=[5], bonus_dice=[1, 1], difficulty=6, threshold=0)
    assert resolution.botches == 0
    assert resolution.outcome == "failure"


def test_equal_botches_and_successes_are_a_failure() -> None:
    resolution = m.resolve(dice=[1, 9], bonus_dice=[], difficulty=6, threshold=0)
    assert (resolution.net, resolution.outcome) == (0, "failure")


def test_automatic_successes_count_before_the_threshold_and_botches() -> None:
    resolution = m.resolve(
        dice=[1, 2], bonus_dice=[], difficulty=6, threshold=0, automatic_successes=1
    )
    assert resolution.outcome == "failure"


def test_resolve_refuses_faces_outside_the_d10() -> None:
    with pytest.raises(RuleError):
        m.resolve(dice=[0], bonus_dice=[], difficulty=6, threshold=0)
    with pytest.raises(RuleError):
        m.resolve(dice=[5], bonus_dice=[11], difficulty=6, threshold=0)


def _enumerate(dice: int, difficulty: int, threshold: int) -> dict[str, Fraction]:
    counts = Counter(
        m.resolve(dice=faces, bonus_dice=(), difficulty=difficulty, threshold=threshold).outcome
        for faces in product(range(1, 11), repeat=dice)
    )
    total = 10**dice
    return {outcome: Fraction(counts[outcome], total) * 100 for outcome in m.OUTCOMES}


@pytest.mark.parametrize(
    ("dice", "difficulty", "threshold", "success", "failure", "botch"),
    [
        (2, 6, 0, "65.0", "26.0", "9.0"),
        (5, 6, 0, "84.4", "10.424", "5.176"),
        (4, 6, 1, "55.25", "27.36", "17.39"),
        (3, 8, 0, "54.0", "32.4", "13.6"),
    ],
)
def test_resolution_reproduces_the_worked_numbers_exactly(
    dice: int, difficulty: int, threshold: int, success: str, failure: str, botch: str
) -> None:
    percentages = _enumerate(dice, difficulty, threshold)
    assert percentages == {
        "success": Fraction(success),
        "failure": Fraction(failure),
        "botch": Fraction(botch),
    }


# --- Rolling ----------------------------------------------------------------------------------


def test_a_roll_asks_for_one_d10_per_die_in_order() -> None:
    rng = ScriptedRng(1, 3, 4, 6, 7)
    result = m.roll(plain_pool(5), rng)
    assert rng.calls == [(1, 10)] * 5
    assert result.dice == (1, 3, 4, 6, 7)
    assert result.outcome == "success"
    assert result.net == 1
    assert result.summary() == "1 success"


def test_tens_do_not_explode_without_a_specialty() -> None:
    rng = ScriptedRng(10, 10)
    result = m.roll(plain_pool(2), rng)
    assert result.bonus_dice == ()
    assert result.net == 2


def test_bonus_dice_are_rolled_breadth_first_and_chain_their_tens() -> None:
    pool = sniper_pool("Extreme Range")
    # Regular: two tens -> four bonus dice; among them two tens -> four more; one ten -> two.
    rng = ScriptedRng(10, 10, 2, 3, 10, 5, 10, 9, 2, 10, 2, 4, 4, 3)
    result = m.roll(pool, rng)
    assert rng.exhausted
    assert result.dice == (10, 10, 2, 3)
    assert result.bonus_dice == (10, 5, 10, 9, 2, 10, 2, 4, 4, 3)
    assert result.resolution.successes == 2 + 4
    assert result.net == 6


def test_a_threshold_removes_successes_but_not_the_bonus_dice_of_a_ten() -> None:
    pool = sniper_pool("Sniper Rifles")  # threshold 1 from Extreme Range
    rng = ScriptedRng(10, 2, 2, 2, 9, 3)
    result = m.roll(pool, rng)
    assert result.bonus_dice == (9, 3)
    assert result.resolution.removed_by_threshold == 1
    assert result.net == 1


class _AlwaysTen:
    def randint(self, a: int, b: int) -> int:
        return b


def test_a_broken_rng_cannot_explode_forever() -> None:
    result = m.roll(sniper_pool("Extreme Range"), _AlwaysTen())
    assert len(result.bonus_dice) == m.MAX_BONUS_DICE


def test_a_seeded_rng_gives_reproducible_rolls_within_the_rules() -> None:
    pool = sniper_pool("Extreme Range")
    first = [m.roll(pool, random.Random(1234)) for _ in range(3)]
    second = [m.roll(pool, random.Random(1234)) for _ in range(3)]
    assert first == second
    rng = random.Random(99)
    for _ in range(500):
        result = m.roll(pool, rng)
        assert len(result.dice) == 4
        assert len(result.bonus_dice) == 2 * (result.dice.count(10) + result.bonus_dice.count(10))
        assert result.resolution == m.resolve(
            dice=result.dice, bonus_dice=result.bonus_dice, difficulty=8, threshold=0
        )


def test_summaries_name_the_outcome() -> None:
    assert m.roll(plain_pool(2), ScriptedRng(2, 3)).summary() == "Failure"
    assert m.roll(plain_pool(3), ScriptedRng(1, 1, 3)).summary() == "Botch (2 botches)"
    assert m.roll(plain_pool(1), ScriptedRng(1)).summary() == "Botch (1 botch)"


def test_a_roll_round_trips_through_json() -> None:
    result = m.roll(sniper_pool("Extreme Range"), ScriptedRng(1, 4, 7, 10, 1, 10, 4, 8))
    data = json.loads(json.dumps(result.as_dict()))
    assert data["summary"] == "2 successes"
    assert data["resolution"]["net"] == 2
    assert data["pool"]["specialties"] == ["Extreme Range"]
    assert m.RollResult.from_dict(data) == result


def test_a_stored_roll_with_a_missing_field_is_refused() -> None:
    data = m.roll(plain_pool(2), ScriptedRng(2, 3)).as_dict()
    del data["dice"]
    with pytest.raises(RuleError, match="missing 'dice'"):
        m.RollResult.from_dict(data)


# --- Experience die ---------------------------------------------------------------------------


def test_an_experience_die_adds_one_bonus_die_that_does_not_botch() -> None:
    result = m.roll(plain_pool(2), ScriptedRng(3, 4))
    assert result.outcome == "failure"
    boosted = m.add_experience_die(result, ScriptedRng(9))
    assert boosted.experience_die == (9,)
    assert boosted.outcome == "success"
    assert boosted.net == 1
    not_a_botch = m.add_experience_die(result, ScriptedRng(1))
    assert not_a_botch.resolution.botches == 0
    assert not_a_botch.outcome == "failure"


def test_an_experience_die_is_refused_on_a_botched_roll() -> None:
    result = m.roll(plain_pool(2), ScriptedRng(1, 3))
    assert result.outcome == "botch"
    with pytest.raises(RuleError, match="botched") as caught:
        m.add_experience_die(result, ScriptedRng(9))
    assert caught.value.rule == "Maelstrom rules.md, Adding Experience Dice"


def test_only_one_experience_die_can_be_added_per_roll() -> None:
    result = m.add_experience_die(m.roll(plain_pool(2), ScriptedRng(3, 4)), ScriptedRng(2))
    with pytest.raises(RuleError, match="only once per roll"):
        m.add_experience_die(result, ScriptedRng(9))


def test_the_experience_die_explodes_only_with_a_specialty() -> None:
    plain = m.add_experience_die(m.roll(plain_pool(2), ScriptedRng(3, 4)), ScriptedRng(10))
    assert plain.experience_die == (10,)
    assert plain.net == 1
    rolled = m.roll(sniper_pool("Extreme Range"), ScriptedRng(2, 3, 4, 5))
    rng = ScriptedRng(10, 10, 3, 2, 9)
    special = m.add_experience_die(rolled, rng)
    assert rng.exhausted
    assert special.experience_die == (10, 10, 3, 2, 9)
    assert special.bonus_dice == ()
    assert special.net == 3


def test_the_experience_die_is_refused_on_soak_rolls() -> None:
    result = m.roll(m.build_soak_pool(damage_kind="bashing", strength=2), ScriptedRng(3, 4))
    with pytest.raises(RuleError, match="soak") as caught:
        m.add_experience_die(result, ScriptedRng(9))
    assert caught.value.rule == "Maelstrom rules.md, Soaking Damage"


def test_an_experience_die_can_be_added_to_a_stored_roll() -> None:
    stored = m.roll(plain_pool(2), ScriptedRng(3, 4)).as_dict()
    boosted = m.add_experience_die(m.RollResult.from_dict(stored), ScriptedRng(8))
    assert boosted.summary() == "1 success"
    assert m.RollResult.from_dict(boosted.as_dict()).experience_die == (8,)


# --- Willpower --------------------------------------------------------------------------------


def test_a_willpower_pool_is_the_current_rank_alone_without_wound_penalty() -> None:
    pool = m.build_willpower_pool(current=4, difficulty=8)
    assert pool.kind == "willpower"
    assert pool.dice == 4
    assert pool.difficulty == 8
    assert pool.wound_penalty == 0
    assert pool.traits == ("Willpower",)
    assert not pool.exploding
    assert pool.specialties == ()


def test_zero_willpower_cannot_be_rolled() -> None:
    with pytest.raises(RuleError, match="zero Willpower") as caught:
        m.build_willpower_pool(current=0)
    assert caught.value.rule == "Maelstrom rules.md, Zero Willpower"
    with pytest.raises(RuleError):
        m.build_willpower_pool(current=11)


def test_strong_bond_gives_one_automatic_success_on_willpower_rolls() -> None:
    pool = m.build_willpower_pool(current=3, automatic_successes=1)
    assert pool.automatic_successes == 1
    result = m.roll(pool, ScriptedRng(2, 3, 4))
    assert result.outcome == "success"
    assert result.net == 1
    assert pool.describe().endswith("1 automatic success")


def test_spending_a_willpower_dot_succeeds_with_the_remaining_dots() -> None:
    assert m.willpower_spend_successes(4) == 3
    assert m.willpower_spend_successes(2) == 1


def test_the_final_willpower_dot_cannot_be_spent_to_succeed_nor_a_botch_cancelled() -> None:
    with pytest.raises(RuleError, match="final Willpower dot"):
        m.willpower_spend_successes(1)
    with pytest.raises(RuleError, match="botched"):
        m.willpower_spend_successes(5, botched=True)


def test_a_botched_willpower_roll_costs_one_dot_per_uncancelled_botch() -> None:
    pool = m.build_willpower_pool(current=4)
    result = m.roll(pool, ScriptedRng(1, 1, 1, 7))
    assert result.outcome == "botch"
    assert m.willpower_botch_loss(result) == 2
    with_threshold = m.roll(m.build_willpower_pool(current=3, threshold=1), ScriptedRng(1, 7, 2))
    assert m.willpower_botch_loss(with_threshold) == 1


def test_only_botched_willpower_rolls_cost_willpower() -> None:
    assert m.willpower_botch_loss(m.roll(m.build_willpower_pool(current=2), ScriptedRng(1, 7))) == 0
    assert m.willpower_botch_loss(m.roll(plain_pool(2), ScriptedRng(1, 1))) == 0


# --- Soak -------------------------------------------------------------------------------------


def test_bashing_is_soaked_with_strength_plus_armor_at_difficulty_six() -> None:
    pool = m.build_soak_pool(damage_kind="bashing", strength=3, armor=2)
    assert (pool.kind, pool.dice, pool.difficulty, pool.threshold) == ("soak", 5, 6, 0)
    assert not pool.exploding
    assert not pool.experience_die_allowed
    assert pool.wound_penalty == 0


def test_lethal_and_aggravated_are_soaked_with_armor_only() -> None:
    assert m.build_soak_pool(damage_kind="lethal", strength=4, armor=2).dice == 2
    assert m.build_soak_pool(damage_kind="aggravated", strength=4, armor=1).dice == 1


def test_a_soak_pool_without_dice_soaks_nothing() -> None:
    pool = m.build_soak_pool(damage_kind="lethal", strength=3)
    result = m.roll(pool, ScriptedRng())
    assert result.dice == ()
    assert result.net == 0
    assert result.outcome == "failure"


def test_soak_rolls_never_explode() -> None:
    forced = m.ActionPool(
        kind="soak",
        dice=1,
        difficulty=6,
        threshold=0,
        exploding=True,
        wound_penalty=0,
        traits=("Strength",),
        specialties=(),
        experience_die_allowed=False,
    )
    assert m.roll(forced, ScriptedRng(10)).bonus_dice == ()


def test_a_soak_pool_needs_a_known_damage_type() -> None:
    with pytest.raises(RuleError):
        m.build_soak_pool(damage_kind="psychic", strength=3)
    with pytest.raises(RuleError):
        m.build_soak_pool(damage_kind="bashing", strength=-1)
