"""The GM's Shattered World panel on the dashboard: the die steps table (the seed's lost
"Buy-in AD FRD" table, campaign data the GM edits) and the custom buy-ins of the catalogue;
and the demo campaign (Shattered World Core Engine, Action Dice and Field Role Dice;
Achievements and Buy-Ins)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from rolls.models import Roll
from systems.shattered_world import demo
from systems.shattered_world.catalogue import catalogue, die_steps
from systems.shattered_world.system import SYSTEM
from tests import shattered_world_cast as sheet_tests
from tests.factories import UserFactory
from tests.helpers import campaign_action_url, fresh, text_of

pytestmark = pytest.mark.django_db
kaelin = sheet_tests.kaelin  # the fixture, shared
sw_campaign = sheet_tests.sw_campaign  # the fixture, shared

STEPS = "d4 d8 0 start\nd6 d10 5\nd8 d12 15 knighted"
FIREBALL = {"name": "Fireball", "cost": "3/E", "effect": "A ball of fire",
            "field_role": "Mage", "subrole": "", "ability": "MA", "hit_points": "0",
            "min_achievements": "0", "requires": ""}


def test_a_factory_campaign_falls_back_to_the_default_die_steps(sw_campaign):
    assert sw_campaign.system_data == {}
    assert [(s.action_die, s.field_role_die, s.cost) for s in die_steps(sw_campaign)][:3] == [
        (4, 8, 0), (6, 10, 10), (8, 12, 20)]


def test_the_panel_shows_the_die_steps_and_the_universal_catalogue(client_for, alice,
                                                                   sw_campaign):
    # Configuration: on the settings page, not in the play-first dashboard.
    assert 'id="system-panel"' not in client_for(alice).get(
        sw_campaign.get_absolute_url()).content.decode()
    response = client_for(alice).get(reverse("campaigns:campaign-settings", args=[sw_campaign.pk]))

    text = text_of(response)
    assert 'id="system-panel"' in response.content.decode()
    assert "d6 d10 10 XP" in text
    assert "Exceptional Ability, Each 5/x2 Universal" in text
    assert "Increase UAM 1/e" in text


def test_the_player_does_not_see_the_panel(client_for, bob, sw_campaign):
    assert 'id="system-panel"' not in client_for(bob).get(
        sw_campaign.get_absolute_url()).content.decode()


def test_the_gm_edits_the_die_steps_in_place(client_for, alice, sw_campaign):
    response = client_for(alice, htmx=True).post(campaign_action_url(sw_campaign, "die_steps"),
                                                 {"steps": STEPS})

    assert response.content.decode().lstrip().startswith('<section id="system-panel"')
    assert "Die steps saved: 3 rows." in text_of(response)
    assert fresh(sw_campaign).system_data["die_steps"][2] == {
        "action_die": 8, "field_role_die": 12, "cost": 15, "notes": "knighted"}


def test_a_plain_post_redirects_to_the_dashboard(client_for, alice, sw_campaign):
    response = client_for(alice).post(campaign_action_url(sw_campaign, "die_steps"),
                                      {"steps": STEPS})

    assert response.status_code == 302
    assert response["Location"] == sw_campaign.get_absolute_url()


def test_new_die_steps_change_the_next_price(client_for, alice, kaelin):
    client_for(alice).post(campaign_action_url(kaelin.campaign, "die_steps"), {"steps": STEPS})

    kaelin = Character.objects.get(pk=kaelin.pk)
    assert SYSTEM.quote(kaelin, "buy_in:Action Die").cost == 5


def test_die_steps_that_shrink_are_refused_naming_the_row(client_for, alice, sw_campaign):
    response = client_for(alice, htmx=True).post(campaign_action_url(sw_campaign, "die_steps"),
                                                 {"steps": "d4 d8 0\nd6 d6 10"})

    assert "row 2: the field role die cannot shrink (d8 then d6)" in text_of(response)
    assert fresh(sw_campaign).system_data == {}


def test_a_table_shorter_than_a_bought_step_is_refused(client_for, alice, kaelin):
    kaelin.sheet["action_die_level"] = 2
    kaelin.save()

    response = client_for(alice, htmx=True).post(campaign_action_url(kaelin.campaign, "die_steps"),
                                                 {"steps": "d4 d8 0\nd6 d10 10"})

    assert "Kaelin has bought 2 action die steps; keep at least 3 rows." in text_of(response)


def test_the_gm_adds_a_custom_buy_in_with_its_notation(client_for, alice, sw_campaign):
    response = client_for(alice, htmx=True).post(campaign_action_url(sw_campaign, "buy_in_add"),
                                                 FIREBALL)

    assert "Fireball (3/e) added to the catalogue." in text_of(response)
    fireball = catalogue(fresh(sw_campaign))[-1]
    assert (fireball.name, fireball.cost, fireball.field_role) == ("Fireball", "3/e", "Mage")


def test_bad_cost_notation_is_refused(client_for, alice, sw_campaign):
    response = client_for(alice, htmx=True).post(campaign_action_url(sw_campaign, "buy_in_add"),
                                                 {**FIREBALL, "cost": "5/y"})

    assert "'5/y' is not buy-in cost notation" in text_of(response)
    assert fresh(sw_campaign).system_data == {}


def test_a_name_already_in_the_catalogue_is_refused(client_for, alice, sw_campaign):
    response = client_for(alice, htmx=True).post(campaign_action_url(sw_campaign, "buy_in_add"),
                                                 {**FIREBALL, "name": "Increase UAM"})

    assert "Increase UAM is already in the catalogue." in text_of(response)


def test_the_gm_removes_a_custom_buy_in(client_for, alice, sw_campaign):
    client = client_for(alice, htmx=True)
    client.post(campaign_action_url(sw_campaign, "buy_in_add"), FIREBALL)

    response = client.post(campaign_action_url(sw_campaign, "buy_in_remove"), {"name": "Fireball"})

    assert "Fireball removed from the catalogue." in text_of(response)
    assert fresh(sw_campaign).system_data["custom_buy_ins"] == []


@pytest.mark.parametrize("who", ["bob", "carol", "anonymous"])
def test_only_the_gm_changes_the_campaign(client, client_for, bob, carol, sw_campaign, who):
    visitor = {"bob": lambda: client_for(bob), "carol": lambda: client_for(carol),
               "anonymous": lambda: client}[who]()

    response = visitor.post(campaign_action_url(sw_campaign, "die_steps"), {"steps": STEPS})

    assert response.status_code == (302 if who == "anonymous" else 404)
    assert fresh(sw_campaign).system_data == {}


def test_the_demo_builds_a_valid_character_with_achievements_a_buy_in_and_rolls(alice):
    player = UserFactory(username="demo-player")
    campaign = Campaign.objects.create(name=demo.CAMPAIGN_NAME,
                                       ruleset="shattered_world", created_by=alice)

    demo.build(campaign=campaign, gm=alice, players=[player], rng=random.Random(3))

    character = Character.objects.get(campaign=campaign)
    assert character.sheet["achievements"]["total"] == 3
    assert character.sheet["buy_ins"] == {"Increase UAM": 1}
    assert character.xp_available == 2
    assert Roll.objects.filter(character=character).count() == 2
    assert SYSTEM.sheet_context(character, is_gm=False)["action_die"] == 4
