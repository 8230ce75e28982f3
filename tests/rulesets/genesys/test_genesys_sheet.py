"""The Genesys sheet's rules in the engine (rulesets/genesys/): the skill list, creation's
career skills and free ranks, XP prices and the thresholds, from the public Genesys Core
Rulebook where the seed is silent; and the seed's worked numbers through the pool a sheet
builds (Genesys dice pool, Skill and Characteristic)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulesets import genesys
from rulesets.errors import RuleError

SKILLS = [s.name for s in genesys.default_skills()]
CAREER = ["Cool", "Coordination", "Deception", "Perception", "Ranged", "Skulduggery",
          "Stealth", "Streetwise"]


def test_every_core_skill_is_tied_to_a_characteristic_and_the_default_list_is_a_subset() -> None:
    assert {s.characteristic for s in genesys.CORE_SKILLS} == set(genesys.CHARACTERISTICS)
    assert len({s.name for s in genesys.CORE_SKILLS}) == len(genesys.CORE_SKILLS) == 37
    assert set(SKILLS) <= {s.name for s in genesys.CORE_SKILLS}
    by_name = {s.name: s.characteristic for s in genesys.CORE_SKILLS}
    assert by_name["Cool"] == "Presence" and by_name["Vigilance"] == "Willpower"
    assert by_name["Ranged (Light)"] == "Agility" and by_name["Coercion"] == "Willpower"


def test_a_gm_skill_keeps_its_core_group_or_is_custom() -> None:
    assert genesys.check_skill("  arcana ", "Intellect").group == "Magic"
    assert genesys.check_skill("Hacking", "Intellect") == genesys.SkillInfo(
        "Hacking", "Intellect", "Custom")


@pytest.mark.parametrize(
    ("name", "characteristic", "message"),
    [("", "Brawn", "give the skill a name"),
     ("x" * 41, "Brawn", "at most 40 characters"),
     ("<script>", "Brawn", "use letters, digits"),
     ("Hacking", "Luck", "'Luck' is not a characteristic")],
)
def test_a_bad_skill_is_refused(name: str, characteristic: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        genesys.check_skill(name, characteristic)


# --- Creation ------------------------------------------------------------------------------


def test_eight_career_skills_four_free_and_two_free_others_pass() -> None:
    genesys.check_career(SKILLS, CAREER, CAREER[:4], ["Athletics", "Charm"])


@pytest.mark.parametrize(
    ("career", "free_career", "free_other", "message"),
    [
        (CAREER[:7], CAREER[:4], ["Athletics", "Charm"], "exactly 8 career skills"),
        (CAREER, CAREER[:5], ["Athletics", "Charm"], "exactly 4 career skills for a free rank"),
        (CAREER, CAREER[:4], ["Athletics"], "exactly 2 different non-career skills"),
        (CAREER, CAREER[:3] + ["Athletics"], ["Charm", "Cool"], "a free career rank goes"),
        (CAREER, CAREER[:4], ["Cool", "Charm"], "the Average Human's free ranks go to non-career"),
        (CAREER[:7] + ["Sorcery"], CAREER[:4], ["Athletics", "Charm"], "'Sorcery' is not on"),
    ],
)
def test_a_broken_creation_rule_is_named(career, free_career, free_other, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError, match=message):
        genesys.check_career(SKILLS, career, free_career, free_other)


def test_an_average_human_has_thresholds_of_ten_plus_brawn_and_willpower() -> None:
    assert genesys.STARTING_CHARACTERISTIC == 2
    assert genesys.wound_threshold(2) == 12 and genesys.wound_threshold(4) == 14
    assert genesys.strain_threshold(3) == 13


# --- Experience: Genesys Core Rulebook, Step 4 ---------------------------------------------


@pytest.mark.parametrize(("rating", "cost"), [(3, 30), (4, 40), (5, 50)])
def test_a_characteristic_costs_ten_times_the_new_rating(rating: int, cost: int) -> None:
    assert genesys.characteristic_cost(rating, in_creation=True) == cost


def test_a_characteristic_is_bought_only_in_creation_and_up_to_5() -> None:
    with pytest.raises(RuleError, match="only during character creation"):
        genesys.characteristic_cost(3, in_creation=False)
    with pytest.raises(RuleError, match="at most 5"):
        genesys.characteristic_cost(6, in_creation=True)


@pytest.mark.parametrize(("rank", "career", "cost"),
                         [(1, True, 5), (2, True, 10), (5, True, 25),
                          (1, False, 10), (2, False, 15), (5, False, 30)])
def test_a_skill_costs_five_times_the_new_rank_and_five_more_off_career(
    rank: int, career: bool, cost: int
) -> None:
    assert genesys.skill_cost(rank, career=career) == cost


def test_no_skill_goes_above_rank_2_in_creation_nor_above_5_at_all() -> None:
    assert genesys.skill_cost(2, career=True, in_creation=True) == 10
    with pytest.raises(RuleError, match="above rank 2 during character creation"):
        genesys.skill_cost(3, career=True, in_creation=True)
    with pytest.raises(RuleError, match="at most rank 5"):
        genesys.skill_cost(6, career=True)


# --- The seed's worked numbers through a sheet's pool ---------------------------------------


def test_agility_2_unskilled_against_easy_succeeds_295_times_in_512() -> None:
    pool = genesys.build_pool(characteristic="Agility", characteristic_rating=2,
                              skill="Medicine", skill_ranks=0, difficulty="Easy")

    assert pool.notation() == "2A 1D"
    assert genesys.odds(pool).success == Fraction(295, 512)


def test_agility_3_with_1_rank_against_average_succeeds_7997_times_in_12288() -> None:
    pool = genesys.build_pool(characteristic="Agility", characteristic_rating=3,
                              skill="Ranged", skill_ranks=1, difficulty="Average")

    assert pool.notation() == "2A 1P 2D"
    assert genesys.odds(pool).success == Fraction(7997, 12288)
