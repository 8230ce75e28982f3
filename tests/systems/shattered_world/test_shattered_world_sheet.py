"""Shattered World's sheet: creation with the rules checked, statistics and hit points as
pools changed in place, the full rest, and the GM's card (Shattered World Core Engine, The
Core Mechanic; Mechanical (Non-Roleplay) Actions; RULES.md section 3)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import character_create_from_data
from tests import shattered_world_cast as cast
from tests.helpers import action_url, sheet_of, text_of
from tests.shattered_world_cast import KAELIN

pytestmark = pytest.mark.django_db

sw_campaign, kaelin = cast.sw_campaign, cast.kaelin  # the cast's fixtures

# --- Creation ---------------------------------------------------------------------------------


def test_a_player_creates_a_character_whose_pools_start_full(client_for, bob, sw_campaign):
    url = reverse("characters:character-create", args=[sw_campaign.pk])
    assert client_for(bob).get(url).status_code == 200

    response = client_for(bob).post(url, KAELIN)

    character = Character.objects.get(name="Kaelin")
    assert response.status_code == 302
    assert character.sheet["statistics"]["PF"] == {"current": 18, "max": 18}
    assert character.sheet["hit_points"] == {"current": 24, "max": 24}
    assert character.sheet["action_die_level"] == 0
    assert character.xp_available == 0


def test_a_statistic_above_30_is_refused_naming_the_rule_and_keeping_the_input(
    client_for, bob, sw_campaign
):
    url = reverse("characters:character-create", args=[sw_campaign.pk])

    response = client_for(bob).post(url, {**KAELIN, "stat_PF": "35"})

    assert response.status_code == 400
    assert "Physical Fitness 35 is outside 1 to 30" in text_of(response)
    assert 'value="Kaelin"' in response.content.decode()
    assert not Character.objects.exists()


def test_more_than_two_proficiencies_are_refused(client_for, bob, sw_campaign):
    url = reverse("characters:character-create", args=[sw_campaign.pk])

    response = client_for(bob).post(url, {**KAELIN, "proficiencies": ["PF", "EN", "SP"]})

    assert response.status_code == 400
    assert "Choose at most 2 proficient abilities." in text_of(response)
    assert not Character.objects.exists()


def test_a_human_always_rolls_the_field_role_die(bob, sw_campaign):
    human = character_create_from_data(campaign=sw_campaign, owner=bob,
                                       data={**KAELIN, "human": "on"})

    assert human.sheet["human"] is True
    assert human.sheet["species"] == "Human"


# --- The sheet --------------------------------------------------------------------------------


def test_the_sheet_shows_the_pools_as_current_over_max_and_the_starting_dice(
    client_for, bob, kaelin
):
    response = client_for(bob).get(kaelin.get_absolute_url())

    text = text_of(response)
    assert "Physical Fitness proficient 18/18" in text
    assert "Mental Acuity 12/12" in text
    assert "Hit Points 24/24" in text
    assert "Action die 4 d4 Field role die 8 d8" in text


def test_the_sheet_takes_a_fixed_number_of_queries(
    client_for, bob, kaelin, django_assert_num_queries
):
    client = client_for(bob)
    # with the Equipment card's items, the encounter, the last session (history.between)
    with django_assert_num_queries(8):
        client.get(kaelin.get_absolute_url())


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_nobody_else_sees_the_sheet(client, client_for, carol, kaelin, who):
    response = (client if who == "anonymous" else client_for(carol)).get(
        kaelin.get_absolute_url())

    assert response.status_code == (302 if who == "anonymous" else 404)


# --- Pools in place ---------------------------------------------------------------------------


def test_losing_physical_fitness_in_place_answers_with_the_tracks_partial(
    client_for, bob, kaelin
):
    response = client_for(bob, htmx=True).post(
        action_url(kaelin, "pool"), {"pool": "PF", "amount": "3", "direction": "lose"})

    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="sheet-tracks">')
    assert "Physical Fitness now 15/18." in text_of(response)
    assert sheet_of(kaelin)["statistics"]["PF"] == {"current": 15, "max": 18}


def test_a_plain_post_redirects_to_the_sheet_with_the_message(client_for, bob, kaelin):
    response = client_for(bob).post(action_url(kaelin, "pool"),
                                    {"pool": "HP", "amount": "5", "direction": "lose"},
                                    follow=True)

    assert "Hit Points now 19/24." in text_of(response)
    assert sheet_of(kaelin)["hit_points"] == {"current": 19, "max": 24}


def test_a_pool_stops_at_zero(client_for, bob, kaelin):
    client_for(bob).post(action_url(kaelin, "pool"),
                         {"pool": "SP", "amount": "50", "direction": "lose"})

    assert sheet_of(kaelin)["statistics"]["SP"] == {"current": 0, "max": 10}


def test_regaining_a_full_pool_is_refused_and_writes_nothing(client_for, bob, kaelin):
    response = client_for(bob, htmx=True).post(
        action_url(kaelin, "pool"), {"pool": "MA", "amount": "1", "direction": "regain"})

    assert "Mental Acuity is already at its maximum 12." in text_of(response)
    assert sheet_of(kaelin)["statistics"]["MA"] == {"current": 12, "max": 12}


def test_a_full_rest_restores_every_statistic_but_not_hit_points(client_for, bob, kaelin):
    client = client_for(bob, htmx=True)
    client.post(action_url(kaelin, "pool"), {"pool": "PF", "amount": "4", "direction": "lose"})
    client.post(action_url(kaelin, "pool"), {"pool": "HP", "amount": "4", "direction": "lose"})

    response = client.post(action_url(kaelin, "rest"), {})

    assert "Full rest" in text_of(response)
    sheet = sheet_of(kaelin)
    assert sheet["statistics"]["PF"] == {"current": 18, "max": 18}
    assert sheet["hit_points"] == {"current": 20, "max": 24}


def test_a_stranger_cannot_change_a_pool(client_for, carol, kaelin):
    response = client_for(carol).post(action_url(kaelin, "pool"),
                                      {"pool": "PF", "amount": "1", "direction": "lose"})

    assert response.status_code == 404
    assert sheet_of(kaelin)["statistics"]["PF"]["current"] == 18


def test_an_anonymous_visitor_is_sent_to_log_in(client, kaelin):
    response = client.post(action_url(kaelin, "rest"), {})

    assert response.status_code == 302
    assert "login" in response["Location"]


# --- The GM's card ----------------------------------------------------------------------------


def test_the_gm_dashboard_shows_the_card_and_the_system_panel_in_settings(client_for, alice,
                                                                          kaelin):
    response = client_for(alice).get(kaelin.campaign.get_absolute_url())

    content = response.content.decode()
    assert f'id="card-{kaelin.pk}"' in content
    assert "AD d4 · FRD d8" in text_of(response)
    # The die steps and the catalogue are configuration: the settings page keeps them.
    assert 'id="system-panel"' not in content
    settings = client_for(alice).get(reverse("campaigns:campaign-settings",
                                             args=[kaelin.campaign_id]))
    assert 'id="system-panel"' in settings.content.decode()


def test_the_gm_marks_hit_points_from_the_card_and_gets_the_card_back(
    client_for, alice, kaelin
):
    response = client_for(alice, htmx=True).post(
        action_url(kaelin, "pool"),
        {"pool": "HP", "amount": "6", "direction": "lose", "from": "dashboard"})

    content = response.content.decode()
    assert f'id="card-{kaelin.pk}"' in content
    assert "Hit Points now 18/24." in text_of(response)
    assert sheet_of(kaelin)["hit_points"]["current"] == 18


def test_a_full_rest_from_the_card_redirects_plain_posts_to_the_dashboard(
    client_for, alice, kaelin
):
    response = client_for(alice).post(action_url(kaelin, "rest"), {"from": "dashboard"})

    assert response.status_code == 302
    assert response["Location"] == kaelin.campaign.get_absolute_url()


# --- The foible -------------------------------------------------------------------------------


def test_the_player_records_the_foible_in_place(client_for, bob, kaelin):
    response = client_for(bob, htmx=True).post(action_url(kaelin, "foible"),
                                               {"foible": "  Reckless honour "})

    assert response.content.decode().lstrip().startswith('<div id="sheet-profile">')
    assert "Foible saved." in text_of(response)
    assert sheet_of(kaelin)["foible"] == "Reckless honour"
