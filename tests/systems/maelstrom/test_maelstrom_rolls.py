"""Rolling a Maelstrom sheet: the pool its rules build, its dice and what they mean, the pools
they refuse (Maelstrom rules.md, Dice Pool, Difficulty, Threshold, Using Specialties,
Talents/Skills/Knowledges, Wound Penalties, Rolling Willpower, Soaking Damage). What any
system's roll does (who may roll, stored before shown, the answer with and without HTMX, bad
input, the append-only log) is in tests/rolls/test_roll_create.py.
"""

from __future__ import annotations

import re

import pytest

from characters.models import Character
from rolls.models import Roll
from tests.factories import CharacterFactory
from tests.helpers import action_url, roll_url, text_of
from tests.systems.maelstrom.sheets import current_willpower, set_tracks

pytestmark = pytest.mark.django_db

MOTORCYCLE_POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
                   "threshold": "0"}


@pytest.fixture
def rider(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """The seed's motorcycle rider: Precision 3, Driving 2 (5 dice)."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rider",
                            attributes={"Precision": 3}, abilities={"Driving": 2})


@pytest.fixture
def sniper(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """The seed's sniper: Precision 3, Firearms 1, three Firearms specialties."""
    return CharacterFactory(
        campaign=campaign, owner=bob, name="Sniper",
        attributes={"Precision": 3}, abilities={"Firearms": 1},
        specialties=[("Firearms", "Pistols", False), ("Firearms", "Sniper Rifles", False),
                     ("Firearms", "Extreme Range", True)],
    )


# --- The dialog ---------------------------------------------------------------------------


def test_the_owner_sees_the_roll_dialog_with_the_characters_traits_and_specialties(
    client_for, bob, sniper
):
    response = client_for(bob).get(roll_url(sniper))

    content = response.content.decode()
    assert response.status_code == 200
    assert "Roll for Sniper" in text_of(response)
    assert 'value="Precision"' in content
    assert 'value="Firearms: Extreme Range"' in content


# --- The seed's examples ------------------------------------------------------------------


def test_the_seeds_motorcycle_roll_of_1_3_4_6_7_at_difficulty_6_is_one_success(
    client_for, bob, scripted_dice, rider
):
    scripted_dice([1, 3, 4, 6, 7])

    response = client_for(bob, htmx=True).post(roll_url(rider), MOTORCYCLE_POOL)

    assert "1 success" in text_of(response)
    dice = re.findall(r'class="die[^"]*" role="img" aria-label="([^"]+)"',
                      response.content.decode())
    assert dice == ["1 botch", "3", "4", "6 success", "7 success"]
    roll = Roll.objects.get()
    assert roll.result["dice"] == [1, 3, 4, 6, 7]
    assert (roll.outcome, roll.net, roll.result["resolution"]["botches"], roll.summary) == (
        "success", 1, 1, "1 success")
    assert roll.description == "Precision + Driving: 5 dice, difficulty 6, threshold 0"
    assert (roll.kind, roll.campaign, roll.character, roll.rolled_by.username) == (
        "action", rider.campaign, rider, "bob")
    page = client_for(bob).get(roll.get_absolute_url())
    assert 'aria-label="6 success"' in page.content.decode()
    assert "1 success" in text_of(page)


def test_after_two_lethal_levels_the_next_roll_has_one_die_fewer_and_notes_the_penalty(
    client_for, bob, scripted_dice, rider
):
    client = client_for(bob, htmx=True)
    client.post(action_url(rider, "damage"), {"kind": "lethal", "levels": "2"})
    scripted_dice([1, 3, 4, 6])

    response = client.post(roll_url(rider), MOTORCYCLE_POOL)

    roll = Roll.objects.get()
    assert roll.result["dice"] == [1, 3, 4, 6]
    assert (roll.pool["dice"], roll.pool["wound_penalty"]) == (4, 1)
    assert "Wound penalty -1 (Scratched)" in text_of(response)
    assert roll.description == "Precision + Driving: 4 dice, difficulty 6, threshold 0"


def test_the_seeds_sniper_shot_with_extreme_range_explodes_twice_for_two_successes(
    client_for, bob, scripted_dice, sniper
):
    scripted_dice([1, 4, 7, 10, 1, 10, 4, 8])

    response = client_for(bob, htmx=True).post(roll_url(sniper), {
        "trait": ["Precision", "Firearms"], "specialty": ["Firearms: Extreme Range"],
        "kind": "action", "difficulty": "8", "threshold": "0",
        "required_specialties": "Extreme Range",
    })

    assert "2 successes" in text_of(response)
    roll = Roll.objects.get()
    assert roll.result["dice"] == [1, 4, 7, 10]
    assert roll.result["bonus_dice"] == [1, 10, 4, 8]
    assert (roll.outcome, roll.net, roll.result["resolution"]["botches"]) == ("success", 2, 1)
    assert (roll.pool["threshold"], roll.pool["exploding"]) == (0, True)
    assert roll.pool["specialties"] == ["Extreme Range"]


def test_a_required_advanced_specialty_not_used_adds_one_to_the_threshold(
    client_for, bob, scripted_dice, sniper
):
    scripted_dice([1, 4, 8, 9])

    response = client_for(bob, htmx=True).post(roll_url(sniper), {
        "trait": ["Precision", "Firearms"], "specialty": ["Firearms: Sniper Rifles"],
        "kind": "action", "difficulty": "8", "threshold": "0",
        "required_specialties": "Extreme Range",
    })

    roll = Roll.objects.get()
    assert roll.pool["threshold"] == 1
    assert (roll.outcome, roll.net) == ("failure", 0)
    assert "Required specialty Extreme Range not used: threshold +1" in text_of(response)


# --- Pools the rules refuse ---------------------------------------------------------------


def test_two_specialties_with_one_dot_of_firearms_are_refused_and_nothing_is_stored(
    client_for, bob, seeded_rng, sniper
):
    response = client_for(bob, htmx=True).post(roll_url(sniper), {
        "trait": ["Precision", "Firearms"],
        "specialty": ["Firearms: Extreme Range", "Firearms: Sniper Rifles"],
        "kind": "action", "difficulty": "8", "threshold": "0",
    })

    assert "Firearms has 1 dot, so at most 1 specialty can be used in this roll" in text_of(
        response
    )
    assert 'role="alert"' in response.content.decode()
    assert not Roll.objects.exists()


def test_three_traits_are_refused(client_for, bob, seeded_rng, rider):
    response = client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "trait": ["Precision", "Reflexes", "Driving"]}
    )

    assert "a dice pool uses one or two traits, never 3" in text_of(response)
    assert not Roll.objects.exists()


def test_two_abilities_are_refused(client_for, bob, seeded_rng, rider):
    response = client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "trait": ["Driving", "Firearms"]}
    )

    assert "not two abilities (Driving and Firearms)" in text_of(response)
    assert not Roll.objects.exists()


def test_a_knowledge_at_zero_dots_cannot_be_rolled(client_for, bob, seeded_rng, rider):
    response = client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "trait": ["Intelligence", "Science"]}
    )

    assert "Science is a knowledge with 0 dots: you cannot roll a knowledge at 0 dots" in \
        text_of(response)
    assert not Roll.objects.exists()


def test_a_skill_at_zero_dots_adds_one_to_the_difficulty(client_for, bob, scripted_dice, rider):
    scripted_dice([7, 6, 2])

    response = client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "trait": ["Precision", "Artistry"]}
    )

    roll = Roll.objects.get()
    assert (roll.pool["dice"], roll.pool["difficulty"]) == (3, 7)
    assert (roll.outcome, roll.net) == ("success", 1)
    assert "Artistry at 0 dots (skill): difficulty +1" in text_of(response)


def test_a_talent_at_zero_dots_rolls_the_attribute_alone_without_penalty(
    client_for, bob, scripted_dice, rider
):
    scripted_dice([6, 6, 2])

    client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "trait": ["Precision", "Performance"]}
    )

    roll = Roll.objects.get()
    assert (roll.pool["dice"], roll.pool["difficulty"], roll.net) == (3, 6, 2)


def test_an_incapacitated_character_cannot_act(client_for, bob, seeded_rng, rider):
    set_tracks(rider, health_bashing=8)

    response = client_for(bob, htmx=True).post(roll_url(rider), MOTORCYCLE_POOL)

    assert "an incapacitated character cannot act" in text_of(response)
    assert not Roll.objects.exists()


def test_a_character_at_zero_willpower_is_incapacitated_and_cannot_act(
    client_for, bob, seeded_rng, rider
):
    # Maelstrom rules.md, Zero Willpower: "Characters in this state may not make any actions
    # and are considered incapacitated."
    set_tracks(rider, willpower_current=0)

    response = client_for(bob, htmx=True).post(roll_url(rider), MOTORCYCLE_POOL)

    assert not Roll.objects.exists()
    assert 'role="alert"' in response.content.decode()
    assert "incapacitated" in text_of(response)


def test_out_of_combat_for_a_turn_the_incapacitation_is_resolved_without_a_dot(
    client_for, alice, bob, seeded_rng, rider
):
    # Maelstrom rules.md, Zero Willpower: "they can recover by themselves and act normally
    # ... this only resolves the incapacitation and does not recover a dot of Willpower".
    set_tracks(rider, willpower_current=0)
    player = client_for(bob, htmx=True)
    assert 'id="willpower-resolve"' in player.get(rider.get_absolute_url()).content.decode()

    resolved = client_for(alice, htmx=True).post(action_url(rider, "willpower"),
                                                  {"action": "resolve"})

    assert "Rider is out of danger and acts again, still at zero willpower" in text_of(resolved)
    assert "incapacitation resolved: acts normally" in text_of(resolved)
    assert 'id="willpower-resolve"' not in resolved.content.decode()
    assert current_willpower(rider) == 0
    player.post(roll_url(rider), MOTORCYCLE_POOL)
    assert Roll.objects.count() == 1
    # A dot recovered ends it; back at zero, the character is incapacitated again.
    player.post(action_url(rider, "willpower"), {"action": "recover"})
    player.post(action_url(rider, "willpower"), {"action": "spend"})
    refused = player.post(roll_url(rider), MOTORCYCLE_POOL)
    assert "no willpower left: incapacitated" in text_of(refused)
    assert Roll.objects.count() == 1


def test_resolving_the_incapacitation_is_refused_with_willpower_left(client_for, bob, rider):
    response = client_for(bob, htmx=True).post(action_url(rider, "willpower"),
                                               {"action": "resolve"})

    assert ("Rider has willpower left: zero willpower has not incapacitated them. "
            "(Maelstrom rules, Zero Willpower)") in text_of(response)
    assert "incapacitation_resolved" not in Character.objects.get(pk=rider.pk).sheet["willpower"]


def test_spending_the_last_willpower_dot_to_ignore_wounds_still_allows_that_action(
    client_for, bob, scripted_dice, rider
):
    # Maelstrom rules.md, Spending Willpower: the effects of zero Willpower come "after they
    # complete the action".
    set_tracks(rider, willpower_current=1, health_lethal=2)
    scripted_dice([1, 3, 4, 6, 7])

    client_for(bob, htmx=True).post(roll_url(rider),
                                    {**MOTORCYCLE_POOL, "ignore_wound_penalty": "on"})

    assert Roll.objects.get().pool["dice"] == 5
    assert current_willpower(rider) == 0


# --- Willpower rolls ----------------------------------------------------------------------


def test_a_willpower_roll_uses_current_willpower_and_no_wound_penalty(
    client_for, bob, scripted_dice, rider
):
    set_tracks(rider, willpower_permanent=5, willpower_current=2, health_lethal=4)
    scripted_dice([6, 7])

    client_for(bob, htmx=True).post(roll_url(rider), {"kind": "willpower", "difficulty": "6",
                                                      "threshold": "0"})

    roll = Roll.objects.get()
    assert roll.kind == "willpower"
    assert roll.result["dice"] == [6, 7]
    assert (roll.pool["dice"], roll.pool["wound_penalty"], roll.net) == (2, 0, 2)
    assert roll.pool["traits"] == ["Willpower"]


def test_a_botched_willpower_roll_lowers_current_willpower_by_each_uncancelled_botch(
    client_for, bob, scripted_dice, rider
):
    scripted_dice([1, 1, 6])

    response = client_for(bob, htmx=True).post(roll_url(rider), {"kind": "willpower",
                                                                 "difficulty": "6",
                                                                 "threshold": "0"})

    assert Roll.objects.get().outcome == "botch"
    assert current_willpower(rider) == 2
    assert "Botched Willpower roll: lost 1 current willpower" in text_of(response)


def test_a_willpower_roll_with_no_current_willpower_is_refused(
    client_for, bob, seeded_rng, rider
):
    set_tracks(rider, willpower_current=0)

    response = client_for(bob, htmx=True).post(roll_url(rider), {"kind": "willpower",
                                                                 "difficulty": "6",
                                                                 "threshold": "0"})

    assert "the character has zero Willpower and is incapacitated" in text_of(response)
    assert not Roll.objects.exists()


# --- Soak ---------------------------------------------------------------------------------


def soak(damage_kind: str, armor: int) -> dict[str, str]:
    # The sheet's form always sends a difficulty; a soak ignores it.
    return {"kind": "soak", "damage_kind": damage_kind, "armor": str(armor), "difficulty": "9",
            "threshold": "0"}


def test_soaking_bashing_damage_rolls_strength_plus_armor_at_difficulty_6(
    client_for, bob, scripted_dice, rider
):
    set_tracks(rider, health_lethal=2)  # no wound penalty on soak
    scripted_dice([6, 10, 2])

    client_for(bob, htmx=True).post(roll_url(rider), soak("bashing", 1))

    roll = Roll.objects.get()
    assert roll.kind == "soak"
    assert roll.result["dice"] == [6, 10, 2]  # Strength 2 + armor 1
    assert (roll.pool["difficulty"], roll.pool["wound_penalty"], roll.net) == (6, 0, 2)
    assert roll.result["bonus_dice"] == []  # no exploding tens on a soak


@pytest.mark.parametrize("damage_kind", ["lethal", "aggravated"])
def test_soaking_lethal_or_aggravated_damage_rolls_armor_only(
    damage_kind, client_for, bob, scripted_dice, rider
):
    scripted_dice([6])

    client_for(bob, htmx=True).post(roll_url(rider), soak(damage_kind, 1))

    roll = Roll.objects.get()
    assert roll.result["dice"] == [6]
    assert roll.pool["traits"] == ["Armor"]


def test_soaking_without_armor_against_lethal_rolls_no_dice_and_takes_it_all(
    client_for, bob, seeded_rng, rider
):
    response = client_for(bob, htmx=True).post(roll_url(rider), soak("lethal", 0))

    roll = Roll.objects.get()
    assert (roll.result["dice"], roll.outcome) == ([], "failure")
    assert "No soak dice: the full damage is taken" in text_of(response)


def test_an_incapacitated_character_may_still_soak(client_for, bob, scripted_dice, rider):
    set_tracks(rider, health_bashing=8)
    scripted_dice([6, 6])

    client_for(bob, htmx=True).post(roll_url(rider), soak("bashing", 0))

    assert Roll.objects.get().net == 2


# --- Spending willpower to ignore the wound penalty ---------------------------------------


def test_spending_willpower_ignores_the_wound_penalty_and_costs_one_current_dot(
    client_for, bob, scripted_dice, rider
):
    set_tracks(rider, health_lethal=2)
    scripted_dice([1, 3, 4, 6, 7])

    response = client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "ignore_wound_penalty": "on"}
    )

    roll = Roll.objects.get()
    assert (roll.pool["dice"], roll.pool["wound_penalty"]) == (5, 0)
    assert current_willpower(rider) == 2
    assert "Willpower spent: wound penalty ignored" in text_of(response)


def test_ignoring_the_wound_penalty_with_no_willpower_left_is_refused_and_nothing_is_stored(
    client_for, bob, seeded_rng, rider
):
    set_tracks(rider, health_lethal=2, willpower_current=0)

    response = client_for(bob, htmx=True).post(
        roll_url(rider), {**MOTORCYCLE_POOL, "ignore_wound_penalty": "on"}
    )

    assert "Ignoring the wound penalty costs a willpower dot; none is left." in text_of(response)
    assert not Roll.objects.exists()
    assert current_willpower(rider) == 0


def test_a_refused_pool_does_not_cost_the_willpower_dot(client_for, bob, seeded_rng, rider):
    response = client_for(bob, htmx=True).post(roll_url(rider), {
        **MOTORCYCLE_POOL, "trait": ["Intelligence", "Science"], "ignore_wound_penalty": "on",
    })

    assert "cannot roll a knowledge at 0 dots" in text_of(response)
    assert current_willpower(rider) == 3
    assert not Roll.objects.exists()


@pytest.mark.parametrize("kind", ["action", "willpower", "soak"])
def test_a_dead_character_makes_no_rolls_at_all(kind, client_for, bob, bobs_character):
    set_tracks(bobs_character, dead=True, health_lethal=8)

    response = client_for(bob, htmx=True).post(
        roll_url(bobs_character),
        {"kind": kind, "trait": ["Precision", "Driving"], "difficulty": 6, "threshold": 0},
    )

    assert "is dead: no more rolls" in response.content.decode()
    assert not Roll.objects.exists()
