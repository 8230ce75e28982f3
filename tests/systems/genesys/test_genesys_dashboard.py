"""The GM's Genesys dashboard: a card per character with wounds, strain and characteristics,
edited in place, and the campaign's skill list on the settings page (each skill tied to a
characteristic: Genesys dice pool, Skill and Characteristic), which the GM edits in place;
players and strangers get 404. The Destiny pool's panel: tests/systems/genesys/
test_genesys_destiny.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from systems.genesys.system import SYSTEM, skills_of
from tests.helpers import campaign_action_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import (
    set_sheet,
    text_of,
)

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/systems/genesys/test_genesys_cast.py).
gx_campaign, kes = cast.gx_campaign, cast.kes


def skill_names(campaign: Campaign) -> list[str]:
    return [s.name for s in skills_of(Campaign.objects.get(pk=campaign.pk))]


# --- The dashboard -------------------------------------------------------------------------


def test_a_factory_campaign_without_system_data_falls_back_to_the_default_list(gx_campaign) -> None:
    assert gx_campaign.system_data == {}
    assert skill_names(gx_campaign)[:3] == ["Athletics", "Computers", "Cool"]
    assert len(skill_names(gx_campaign)) == 28
    assert SYSTEM.default_system_data()["skills"][0] == {
        "name": "Athletics", "characteristic": "Brawn", "group": "General"}


def test_the_gm_sees_the_card_and_the_skill_list(client_for, alice, kes, gx_campaign) -> None:
    set_sheet(kes, wounds={"current": 13, "threshold": 12})

    response = client_for(alice).get(gx_campaign.get_absolute_url())

    content = response.content.decode()
    text = text_of(response)
    assert f'id="card-{kes.pk}"' in content
    assert "Kestrel · bob · Scoundrel in creation" in text
    assert "Br 2 · Ag 2 · Int 2 · Cun 2 · Will 2 · Pr 2" in text
    assert "Wounds 13/12 incapacitated" in text
    assert "Strain 0/12" in text
    assert "css/systems/genesys.css" in content
    # The panel is played with (the Destiny pool), but the skill list is configuration: on
    # the settings page, not in the play-first dashboard.
    assert 'id="system-panel"' in content and 'id="gx-destiny"' in content
    assert 'id="gx-skills-panel"' not in content and "Athletics · Brawn" not in text
    settings = client_for(alice).get(reverse("campaigns:campaign-settings", args=[gx_campaign.pk]))
    assert 'id="gx-skills-panel"' in settings.content.decode()
    assert "Athletics · Brawn" in text_of(settings)


def test_a_player_sees_neither_cards_nor_the_skill_list(client_for, bob, kes, gx_campaign) -> None:
    content = client_for(bob).get(gx_campaign.get_absolute_url()).content.decode()

    assert 'id="system-panel"' not in content
    assert f'id="card-{kes.pk}"' not in content


def test_the_gm_asks_for_a_roll_with_the_campaigns_skills(
    client_for, alice, kes, gx_campaign
) -> None:
    text = text_of(client_for(alice).get(gx_campaign.get_absolute_url()))

    assert "Ask for a roll" in text
    assert "Ranged (Agility)" in text


# --- Editing the skill list ----------------------------------------------------------------


def test_the_gm_adds_a_skill_in_place(client_for, alice, gx_campaign) -> None:
    response = client_for(alice, htmx=True).post(campaign_action_url(gx_campaign, "skill-set"),
                                                 {"name": " Arcana ",
                                                  "characteristic": "Intellect"})

    assert response.content.decode().lstrip().startswith(
        '<section class="card gx-panel" id="gx-skills-panel"')
    assert "Added Arcana (Intellect)." in text_of(response)
    assert "Arcana" in skill_names(gx_campaign)
    stored = Campaign.objects.get(pk=gx_campaign.pk).system_data["skills"][-1]
    assert stored == {"name": "Arcana", "characteristic": "Intellect", "group": "Magic"}


def test_the_same_name_moves_a_skill_to_another_characteristic(
    client_for, alice, gx_campaign
) -> None:
    response = client_for(alice, htmx=True).post(campaign_action_url(gx_campaign, "skill-set"),
                                                 {"name": "athletics", "characteristic": "Agility"})

    assert "Athletics now uses Agility." in text_of(response)
    skills = {s.name: s.characteristic for s in skills_of(Campaign.objects.get(pk=gx_campaign.pk))}
    assert skills["Athletics"] == "Agility"
    assert len(skills) == 28


def test_a_plain_post_redirects_to_the_dashboard_with_the_message(
    client_for, alice, gx_campaign
) -> None:
    client = client_for(alice)

    response = client.post(campaign_action_url(gx_campaign, "skill-remove"), {"name": "Riding"})
    page = client.get(response.url)

    assert response.url == gx_campaign.get_absolute_url()
    assert "Removed Riding." in text_of(page)
    assert "Riding" not in skill_names(gx_campaign)


@pytest.mark.parametrize(
    ("action", "data", "message"),
    [
        ("skill-set", {"name": "Cool", "characteristic": "Presence"},
         "Cool already uses Presence."),
        ("skill-set", {"name": "<b>Hack</b>", "characteristic": "Intellect"},
         "use letters, digits, spaces and ( ) ' & / , . - in a skill name"),
        ("skill-set", {"name": "Hacking", "characteristic": "Luck"},
         "Select a valid choice. Luck is not one of the available choices."),
        ("skill-remove", {"name": "Sorcery"}, "'Sorcery' is not on this campaign's skill list."),
    ],
    ids=["unchanged", "odd name", "unknown characteristic", "unknown skill"],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_bad_change_is_refused_with_a_message_and_writes_nothing(
    client_for, alice, gx_campaign, action, data, message, htmx
) -> None:
    client = client_for(alice, htmx=htmx)

    response = client.post(campaign_action_url(gx_campaign, action), data)
    shown = response if htmx else client.get(response.url)

    assert message in text_of(shown)
    assert Campaign.objects.get(pk=gx_campaign.pk).system_data == {}


def test_the_last_skill_cannot_be_removed(client_for, alice, gx_campaign) -> None:
    Campaign.objects.filter(pk=gx_campaign.pk).update(
        system_data={"skills": [{"name": "Cool", "characteristic": "Presence"}]})

    response = client_for(alice, htmx=True).post(campaign_action_url(gx_campaign, "skill-remove"),
                                                 {"name": "Cool"})

    assert "The list needs at least one skill." in text_of(response)
    assert skill_names(gx_campaign) == ["Cool"]


def test_the_default_list_comes_back(client_for, alice, gx_campaign) -> None:
    Campaign.objects.filter(pk=gx_campaign.pk).update(
        system_data={"skills": [{"name": "Cool", "characteristic": "Presence"}]})

    response = client_for(alice, htmx=True).post(campaign_action_url(gx_campaign, "skills-reset"))

    assert "The skill list is back to the default." in text_of(response)
    assert len(skill_names(gx_campaign)) == 28


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_players_and_strangers_get_404(client_for, request, who, gx_campaign) -> None:
    response = client_for(request.getfixturevalue(who)).post(
        campaign_action_url(gx_campaign, "skill-remove"), {"name": "Riding"})

    assert response.status_code == 404
    assert "Riding" in skill_names(gx_campaign)


def test_an_anonymous_visitor_is_sent_to_log_in(client, gx_campaign) -> None:
    response = client.post(campaign_action_url(gx_campaign, "skill-remove"), {"name": "Riding"})

    assert response.status_code == 302
    assert "/login/" in response.url


def test_a_new_skill_reaches_the_sheet_the_check_dialog_and_the_xp_page(
    client_for, alice, bob, kes, gx_campaign
) -> None:
    client_for(alice).post(campaign_action_url(gx_campaign, "skill-set"),
                           {"name": "Arcana", "characteristic": "Intellect"})

    sheet = text_of(client_for(bob).get(kes.get_absolute_url()))
    xp = text_of(client_for(bob).get(reverse("characters:character-xp", args=[kes.pk])))

    assert "Arcana (Int)" in sheet
    assert "Arcana (Intellect)" in sheet  # in the check dialog's skill list
    assert "Arcana 0 → 1: 10 XP" in xp    # not a career skill: 5 x 1 + 5
