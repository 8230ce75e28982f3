"""A 3d6 character's sheet: creation with the budgets checked, the sheet, health and level in
place, the GM's party card, and who may see what (docs/systems/three_d6.md).

The seed (3d6 Rolls and Tests) has no character creation, health or level: those are the
sheet's decisions, tested here as the doc states them.
"""

from __future__ import annotations

import random

import pytest

from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.models import Character, XpEntry
from characters.services import character_create_from_data
from systems.three_d6 import demo, sheet
from tests import three_d6_cast as cast
from tests.factories import UserFactory
from tests.helpers import action_url, create_url, sheet_of
from tests.three_d6_cast import SPREAD, text_of

pytestmark = pytest.mark.django_db

# The shared cast's campaign (tests/three_d6_cast.py); Mara here has a surname and a concept.
table = cast.table

VALID = {"name": "Mara Quill", "concept": "Ferry pilot", **SPREAD}


@pytest.fixture
def mara(table, bob) -> Character:  # type: ignore[no-untyped-def]
    return character_create_from_data(campaign=table, owner=bob, data=VALID)


# --- Creation ---------------------------------------------------------------------------------


def test_the_creation_page_names_the_campaigns_traits_and_the_budgets(client_for, bob, table):
    response = client_for(bob).get(create_url(table))

    text = text_of(response)
    assert response.status_code == 200
    for name in sheet.DEFAULT_TRAITS + sheet.DEFAULT_SUBTRAITS:
        assert name in text
    assert "Spend exactly 6 points on the six traits (0 to +3 each)" in text
    assert "exactly 6 points on the twelve subtraits (0 to +2 each)" in text


def test_a_valid_spread_makes_the_character_with_level_1_10_health_and_the_starting_xp(
    client_for, bob, table
):
    response = client_for(bob).post(create_url(table), VALID)

    character = Character.objects.get(name="Mara Quill")
    assert response.status_code == 302 and response.url == character.get_absolute_url()
    assert character.sheet["modifiers"]["t0"] == 3
    assert character.sheet["modifiers"]["s2"] == 2
    assert character.sheet["level"] == 1
    assert character.sheet["health"] == {"current": 10, "max": 10}
    assert character.xp_available == table.starting_xp
    assert character.xp_entries.get().kind == XpEntry.Kind.STARTING


def test_overspent_traits_are_refused_naming_the_budget_and_the_input_is_kept(
    client_for, bob, table
):
    response = client_for(bob).post(create_url(table), {**VALID, "t4": "1"})

    text = text_of(response)
    assert response.status_code == 400
    assert "The trait modifiers add up to 7; spend exactly 6 points on traits (1 too many)" in text
    assert 'value="Mara Quill"' in response.content.decode()
    assert not Character.objects.exists()


def test_unspent_subtrait_points_are_refused(client_for, bob, table):
    response = client_for(bob).post(create_url(table), {**VALID, "s2": "0"})

    assert "spend exactly 6 points on subtraits (2 left to spend)" in text_of(response)
    assert not Character.objects.exists()


def test_a_modifier_above_the_creation_maximum_is_refused(client_for, bob, table):
    response = client_for(bob).post(
        create_url(table), {**VALID, "t0": "4", "t1": "0", "t2": "1", "t3": "1"})

    assert response.status_code == 400
    assert "Enter a whole number from 0 to 3." in text_of(response)
    assert not Character.objects.exists()


# A browser sends an <input type=number> holding "abc" as "": both must say what to type.
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(("slot", "typed", "reason"), [
    ("t0", "", "Enter a whole number from 0 to 3."),
    ("t0", "abc", "Enter a whole number from 0 to 3."),
    ("s0", "", "Enter a whole number from 0 to 2."),
    ("s0", "abc", "Enter a whole number from 0 to 2."),
])
def test_a_blank_or_mistyped_modifier_says_which_numbers_are_allowed(
        client_for, bob, table, slot, typed, reason, htmx):
    response = client_for(bob, htmx=htmx).post(create_url(table), {**VALID, slot: typed})

    text = text_of(response)
    assert reason in text
    assert "This field is required." not in text
    assert 'value="Mara Quill"' in response.content.decode()
    assert not Character.objects.exists()


def test_the_creation_form_uses_names_the_gm_chose(client_for, bob, table):
    table.system_data = {**sheet.default_names(), "traits": ["Brawn", "Grace", "Wits",
                                                            "Lore", "Charm", "Grit"]}
    table.save()

    text = text_of(client_for(bob).get(create_url(table)))

    assert "Brawn (trait)" in text and "Grit (trait)" in text


def test_a_stranger_cannot_open_the_creation_page(client_for, carol, table):
    assert client_for(carol).get(create_url(table)).status_code == 404


# --- The sheet --------------------------------------------------------------------------------


def test_the_sheet_lists_each_trait_with_its_subtraits_and_modifiers(client_for, bob, mara):
    response = client_for(bob).get(mara.get_absolute_url())

    text = text_of(response)
    assert response.status_code == 200
    assert "Power +3 Might 0 Endurance +1" in text
    assert "Agility +1 Dexterity +2 Speed 0" in text
    assert "Health 10/10 · Level 1" in text
    assert f"XP: {mara.xp_available} available" in text


def test_the_sheet_shows_names_the_gm_changed_without_touching_the_sheet(
    client_for, bob, mara, table
):
    table.system_data = {**sheet.default_names(),
                         "traits": ["Brawn", "Grace", "Wits", "Lore", "Charm", "Grit"]}
    table.save()

    assert "Brawn +3" in text_of(client_for(bob).get(mara.get_absolute_url()))


def test_the_gm_sees_the_level_form_and_the_player_does_not(client_for, alice, bob, mara):
    assert "Level and maximum health (GM)" in text_of(client_for(alice).get(
        mara.get_absolute_url()))
    assert "Level and maximum health (GM)" not in text_of(client_for(bob).get(
        mara.get_absolute_url()))


def test_the_sheet_takes_a_fixed_number_of_queries(
    client_for, bob, mara, django_assert_num_queries
):
    client = client_for(bob)
    client.get(mara.get_absolute_url())  # warm the session

    # session, user, character (with campaign, owner and role), opponents, requests, rolls,
    # the Equipment card's items, the running encounter (encounters), the last session
    # (history.between: none, so no activity read)
    with django_assert_num_queries(9):
        client.get(mara.get_absolute_url())


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_outsiders_cannot_see_the_sheet(client, client_for, carol, mara, who):
    response = (client.get(mara.get_absolute_url()) if who == "anonymous"
                else client_for(carol).get(mara.get_absolute_url()))

    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response.url
    else:
        assert response.status_code == 404


def test_another_player_reads_maras_sheet_only_while_the_gm_allows_it(client_for, table,
                                                                      mara):
    dave = Membership.objects.create(campaign=table, user=UserFactory(username="dave"),
                                     role=Membership.Role.PLAYER).user
    page = client_for(dave).get(mara.get_absolute_url())
    assert page.status_code == 200
    assert action_url(mara, "health") not in page.content.decode()  # read-only

    type(table).objects.filter(pk=table.pk).update(party_sheets=False)
    assert client_for(dave).get(mara.get_absolute_url()).status_code == 404


# --- Health and level in place ----------------------------------------------------------------


def test_damage_in_place_answers_htmx_with_the_tracks_partial(client_for, bob, mara):
    response = client_for(bob, htmx=True).post(action_url(mara, "health"),
                                               {"change": "damage", "amount": "3"})

    text = text_of(response)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="sheet-tracks">')
    assert "Health 7/10" in text
    assert "Mara Quill took 3 damage: 7/10 health." in text
    assert "trackChanged" in response.headers["HX-Trigger"]
    assert sheet_of(mara)["health"] == {"current": 7, "max": 10}


def test_a_plain_post_heals_and_redirects_to_the_sheet_with_a_message(client_for, bob, mara):
    client = client_for(bob)
    client.post(action_url(mara, "health"), {"change": "damage", "amount": "5"})

    response = client.post(action_url(mara, "health"), {"change": "heal", "amount": "9"})

    assert response.status_code == 302 and response.url == mara.get_absolute_url()
    assert sheet_of(mara)["health"]["current"] == 10  # never above the maximum
    assert "Mara Quill healed 5: 10/10 health." in text_of(client.get(response.url))


def test_damage_stops_at_zero_and_more_damage_is_refused_writing_nothing(
    client_for, bob, mara
):
    client = client_for(bob, htmx=True)
    client.post(action_url(mara, "health"), {"change": "damage", "amount": "50"})
    assert sheet_of(mara)["health"]["current"] == 0

    response = client.post(action_url(mara, "health"), {"change": "damage", "amount": "1"})

    assert "Mara Quill is already at 0 health." in text_of(response)
    assert "HX-Trigger" not in response.headers
    assert sheet_of(mara)["health"]["current"] == 0


def test_healing_at_full_health_is_refused(client_for, bob, mara):
    response = client_for(bob, htmx=True).post(action_url(mara, "health"),
                                               {"change": "heal", "amount": "1"})

    assert "already at full health (10)" in text_of(response)


def test_a_bad_amount_is_refused_with_the_forms_message(client_for, bob, mara):
    response = client_for(bob, htmx=True).post(action_url(mara, "health"),
                                               {"change": "damage", "amount": "0"})

    assert "Enter a whole number from 1 to 99." in text_of(response)
    assert sheet_of(mara)["health"]["current"] == 10


def test_the_gm_sets_level_and_maximum_health_and_keeps_the_gm_form(client_for, alice, mara):
    response = client_for(alice, htmx=True).post(action_url(mara, "level"),
                                                 {"level": "4", "health_max": "8"})

    text = text_of(response)
    assert "Health 8/8 · Level 4" in text
    assert "Level and maximum health (GM)" in text
    assert sheet_of(mara)["level"] == 4


def test_a_player_cannot_set_the_level(client_for, bob, mara):
    response = client_for(bob).post(action_url(mara, "level"), {"level": "9", "health_max": "8"})

    assert response.status_code == 404
    assert sheet_of(mara)["level"] == 1


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_outsiders_cannot_change_health(client, client_for, carol, mara, who):
    poster = client if who == "anonymous" else client_for(carol)

    response = poster.post(action_url(mara, "health"), {"change": "damage", "amount": "1"})

    assert response.status_code == (302 if who == "anonymous" else 404)
    assert sheet_of(mara)["health"]["current"] == 10


# --- The GM's party card ----------------------------------------------------------------------


def test_the_gms_dashboard_shows_the_card_with_health_level_and_traits(client_for, alice, mara):
    text = text_of(client_for(alice).get(mara.campaign.get_absolute_url()))

    assert "Mara Quill · bob" in text
    assert "Health 10/10 · Level 1" in text
    assert "Power +3" in text


def test_the_gm_damages_from_the_card_and_gets_the_card_back(client_for, alice, mara):
    response = client_for(alice, htmx=True).post(
        action_url(mara, "health"), {"change": "damage", "amount": "1", "from": "dashboard"})

    content = response.content.decode()
    assert f'id="card-{mara.pk}"' in content
    assert "Health 9/10" in text_of(response)
    assert sheet_of(mara)["health"]["current"] == 9


def test_a_plain_post_from_the_card_returns_to_the_dashboard(client_for, alice, mara):
    response = client_for(alice).post(
        action_url(mara, "health"), {"change": "damage", "amount": "1", "from": "dashboard"})

    assert response.status_code == 302 and response.url == mara.campaign.get_absolute_url()


def test_the_player_sees_no_party_cards(client_for, bob, mara):
    assert f'id="card-{mara.pk}"' not in client_for(bob).get(
        mara.campaign.get_absolute_url()).content.decode()


# --- The demo ---------------------------------------------------------------------------------


def test_the_demo_builds_a_valid_character_with_rolls_a_wound_and_xp(alice, bob):
    assert demo.CAMPAIGN_NAME == "The Crossing (3d6 demo)"
    campaign = campaign_create(name=demo.CAMPAIGN_NAME, ruleset="three_d6",
                               starting_xp=0, gm=alice)
    Membership.objects.create(campaign=campaign, user=bob)

    demo.build(campaign=campaign, gm=alice, players=[bob], rng=random.Random(7))

    character = Character.objects.get(campaign=campaign)
    modifiers = character.sheet["modifiers"]
    assert sum(modifiers[s] for s in sheet.TRAIT_SLOTS) == sheet.TRAIT_BUDGET
    assert sum(modifiers[s] for s in sheet.SUBTRAIT_SLOTS) == sheet.SUBTRAIT_BUDGET
    assert character.sheet["health"]["current"] == 7
    assert sorted(character.rolls.values_list("kind", flat=True)) == ["contest", "test"]
    assert campaign.system_data == sheet.default_names()
    assert character.xp_available == 10
