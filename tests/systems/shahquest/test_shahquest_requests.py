"""The GM asks Shahquest players for a roll from the dashboard: an attribute and a skill by
name, a specialization, an affiliation and the setting die (Shahquest wiki, Dice Pools;
Feature Types). Each sheet shows the roll prefilled as one "Roll it" button; rolling it
answers the request. A character lacking a feature refuses the whole request, named.

Feature indices of Demetri's sheet (DEMO_DATA): 0 Solo d4, 1 Partner d6, 2 Gang d8,
3 Coordination d10, 4 Wits d8, 5 Brawn d6, 6 Physical d8 (Athletics spreads), 7 Combat d6,
8 I've got your back (quirk d8), 9 Grappling hook d6, 10 Shadow step d6.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services import character_create_from_data
from rolls.models import RequestedRoll, Roll
from rulesets.errors import RuleError
from systems.shahquest import sheet
from systems.shahquest.demo import DEMO_DATA
from tests import shahquest_cast as cast
from tests.helpers import roll_url
from tests.shahquest_cast import action_url, text_of

pytestmark = pytest.mark.django_db

SWING = {"character": "all", "attribute": "coordination", "skill": "physical",
         "specialization": "athletics", "setting_die": "6", "note": "Swing on the chandelier"}
"""The seed's chandelier, asked of everyone: names in any case, found on each sheet."""


# The shared cast's fixtures (tests/shahquest_cast.py).
sq_campaign, demetri = cast.sq_campaign, cast.demetri


@pytest.fixture
def dana(sq_campaign):  # type: ignore[no-untyped-def]
    """A second player of the campaign."""
    user = get_user_model().objects.create_user("dana", password="pw")
    Membership.objects.create(campaign=sq_campaign, user=user, role=Membership.Role.PLAYER)
    return user


def character(campaign: Campaign, owner: Any, **changes: str) -> Character:
    return character_create_from_data(campaign=campaign, owner=owner,
                                      data={**DEMO_DATA, **changes})


@pytest.fixture
def ilsa(sq_campaign, dana) -> Character:  # type: ignore[no-untyped-def]
    """Dana's Ilsa: Demetri's features under another name (the same indices)."""
    return character(sq_campaign, dana, name="Ilsa")


def request_url(campaign: Campaign) -> str:
    return reverse("rolls:requested-roll-create", args=[campaign.pk])


def answer(asked: RequestedRoll) -> dict[str, Any]:
    """The "Roll it" button's POST: the hidden inputs of the prefilled request."""
    data: dict[str, list[str]] = {"answers": [str(asked.pk)]}
    for name, value in asked.prefill():
        data.setdefault(name, []).append(value)
    return data


# --- asking ---------------------------------------------------------------------------------


def test_the_gm_asks_everyone_and_each_sheet_shows_one_roll_it_button(
        client_for, alice, bob, dana, demetri, ilsa):
    response = client_for(alice, htmx=True).post(request_url(demetri.campaign), SWING)

    assert "Asked Demetri, Ilsa for Coordination + Physical (Athletics), setting die d6." in \
        text_of(response)
    for who, owner in ((demetri, bob), (ilsa, dana)):
        asked = who.requested_rolls.get()
        assert asked.data == {"feature": [3, 6], "specialization": ["6:0"], "setting_die": 6,
                              "features_seen": sheet.features_key(who)}
        page = client_for(owner).get(who.get_absolute_url())
        content = page.content.decode()
        assert content.count(">Roll it</button>") == 1
        assert f'name="answers" value="{asked.pk}"' in content
        for name, value in (("feature", "3"), ("feature", "6"), ("specialization", "6:0"),
                            ("setting_die", "6")):
            assert f'<input type="hidden" name="{name}" value="{value}">' in content
        assert "The GM asks for a roll Coordination + Physical (Athletics), setting die d6 · " \
               "Swing on the chandelier" in text_of(page)


def test_the_gm_may_ask_one_character_for_an_affiliation_and_an_attribute(
        client_for, alice, demetri, ilsa):
    client_for(alice, htmx=True).post(request_url(demetri.campaign), {
        "character": str(ilsa.pk), "attribute": "Wits", "affiliation": "Gang"})

    asked = ilsa.requested_rolls.get()
    assert asked.describe() == "Wits + Gang d8"
    assert asked.data == {"feature": [4, 2], "specialization": [], "setting_die": None,
                          "features_seen": sheet.features_key(demetri)}
    assert not demetri.requested_rolls.exists()


def test_without_htmx_the_request_redirects_to_the_dashboard_with_a_message(
        client_for, alice, demetri):
    response = client_for(alice).post(request_url(demetri.campaign), SWING, follow=True)

    assert response.redirect_chain[-1][0] == demetri.campaign.get_absolute_url()
    assert "Asked Demetri for Coordination + Physical (Athletics), setting die d6." in \
        text_of(response)
    assert demetri.requested_rolls.count() == 1


# --- answering ------------------------------------------------------------------------------


def test_rolling_it_answers_the_request_and_leaves_the_others_open(
        client_for, alice, bob, demetri, ilsa, scripted_dice):
    client_for(alice, htmx=True).post(request_url(demetri.campaign), SWING)
    asked = demetri.requested_rolls.get()
    scripted_dice([7, 2, 1, 4])

    response = client_for(bob, htmx=True).post(roll_url(demetri), answer(asked))

    asked.refresh_from_db()
    roll = Roll.objects.get(character=demetri)
    assert asked.answer == roll
    assert [d["size"] for d in roll.result["dice"]] == [10, 8, 8, 6]
    assert roll.result["effort"] == 11
    assert "Effort 11" in text_of(response)
    assert ilsa.requested_rolls.get().answer is None
    sheet_page = client_for(bob).get(demetri.get_absolute_url()).content.decode()
    assert ">Roll it</button>" not in sheet_page
    log = client_for(alice).get(reverse("rolls:roll-list", args=[demetri.campaign_id]))
    assert "Demetri · Action answers the GM's request" in text_of(log)


def test_a_plain_post_answer_lands_on_the_rolls_page(client_for, alice, bob, demetri,
                                                     scripted_dice):
    client_for(alice).post(request_url(demetri.campaign), SWING)
    asked = demetri.requested_rolls.get()
    scripted_dice([7, 2, 1, 4])

    response = client_for(bob).post(roll_url(demetri), answer(asked))

    roll = Roll.objects.get(character=demetri)
    assert response.status_code == 302 and response["Location"] == roll.get_absolute_url()
    asked.refresh_from_db()
    assert asked.answer == roll
    page = client_for(bob).get(roll.get_absolute_url())
    assert "answers the GM's request" in text_of(page)


def test_a_request_is_answered_once(client_for, alice, bob, demetri, scripted_dice):
    client_for(alice, htmx=True).post(request_url(demetri.campaign), SWING)
    asked = demetri.requested_rolls.get()
    scripted_dice([7, 2, 1, 4, 5, 5, 5, 5])
    client = client_for(bob, htmx=True)
    client.post(roll_url(demetri), answer(asked))

    response = client.post(roll_url(demetri), answer(asked))

    assert 'role="alert"' in response.content.decode()
    assert Roll.objects.filter(character=demetri).count() == 1


# --- refusals -------------------------------------------------------------------------------


def test_a_character_without_the_skill_refuses_the_whole_request_by_name(
        client_for, alice, sq_campaign, dana, demetri):
    character(sq_campaign, dana, name="Ilsa", skill_1_name="Stealth",
              skill_1_spec_1_name="")

    response = client_for(alice, htmx=True).post(request_url(sq_campaign), SWING)

    assert "Ilsa: no skill named 'physical'; their skills are Stealth, Combat. " \
           "(Shahquest wiki, Feature Types)" in text_of(response)
    assert 'role="alert"' in response.content.decode()
    assert not RequestedRoll.objects.exists()


def test_a_missing_specialization_is_named_with_the_ones_the_skill_has(
        client_for, alice, demetri):
    response = client_for(alice).post(request_url(demetri.campaign),
                                      {**SWING, "specialization": "Climbing"}, follow=True)

    assert "Demetri: no specialization named 'Climbing' in Physical (theirs: Athletics)." in \
        text_of(response)
    assert not RequestedRoll.objects.exists()


def test_a_stressed_out_character_cannot_be_asked(client_for, alice, demetri):
    client_for(alice).post(action_url(demetri, "stress-take"),
                           {"kind": "physical", "die": "12"})
    client_for(alice).post(action_url(demetri, "stress-take"),
                           {"kind": "physical", "die": "12"})

    response = client_for(alice, htmx=True).post(request_url(demetri.campaign), SWING)

    assert "Demetri: Demetri is stressed out and can't take any actions" in text_of(response)
    assert not RequestedRoll.objects.exists()


@pytest.mark.parametrize(("changes", "message"), [
    ({"attribute": "", "skill": ""}, "Ask for an attribute or a skill (or both)."),
    ({"skill": ""}, "Name the skill the specialization belongs to."),
    ({"setting_die": "7"}, "Select a valid choice."),
])
def test_an_incomplete_request_is_refused_and_keeps_the_input(client_for, alice, demetri,
                                                              changes, message):
    response = client_for(alice, htmx=True).post(request_url(demetri.campaign),
                                                 {**SWING, **changes})

    assert message in text_of(response)
    content = response.content.decode()
    assert 'value="Swing on the chandelier"' in content
    assert ('value="coordination"' in content) == ("attribute" not in changes)
    assert not RequestedRoll.objects.exists()


def test_request_data_names_what_is_asked_and_refuses_a_missing_attribute(demetri):
    data, words = sheet.request_data(demetri, {"attribute": "BRAWN", "skill": "",
                                               "affiliation": "Solo", "setting_die": 8})
    assert (data["feature"], words) == ([5, 0], "Brawn + Solo d4, setting die d8")
    with pytest.raises(RuleError, match="no attribute named 'Charm'; their attributes are "
                                        "Coordination, Wits, Brawn"):
        sheet.request_data(demetri, {"attribute": "Charm"})


# --- who may ask ----------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
def test_players_and_strangers_get_404_and_nothing_is_asked(client_for, bob, carol, demetri,
                                                            htmx):
    for who in (bob, carol):
        response = client_for(who, htmx=htmx).post(request_url(demetri.campaign), SWING)
        assert response.status_code == 404
    assert not RequestedRoll.objects.exists()


def test_anonymous_users_are_sent_to_log_in(client, demetri):
    response = client.post(request_url(demetri.campaign), SWING)

    assert response.status_code == 302 and "/login" in response["Location"]
    assert not RequestedRoll.objects.exists()


def test_the_dashboard_offers_the_gm_the_partys_names_and_players_no_form(
        client_for, alice, bob, sq_campaign, dana, demetri):
    character(sq_campaign, dana, name="Ilsa", attribute_1_name="Grace",
              skill_1_name="Stealth", skill_1_spec_1_name="Locks")

    gm_page = client_for(alice).get(sq_campaign.get_absolute_url()).content.decode()
    player_page = client_for(bob).get(sq_campaign.get_absolute_url()).content.decode()

    assert "Ask for a roll" in gm_page and "Ask for a roll" not in player_page
    assert ('<datalist id="sq-request-attribute-names"><option value="Brawn">'
            '<option value="Coordination"><option value="Grace"><option value="Wits">'
            "</datalist>") in gm_page
    assert '<option value="Stealth">' in gm_page and '<option value="Locks">' in gm_page
    assert 'list="sq-request-skill-names"' in gm_page
