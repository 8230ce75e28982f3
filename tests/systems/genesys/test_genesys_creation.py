"""Creating a Genesys character on one page: an Average Human with eight career skills, a free
rank in four of them and in two other skills (Genesys Core Rulebook, Step 2 and Step 3); a
broken rule re-renders the form with the player's input and the rule named, and writes
nothing."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from characters.models import Character, XpEntry
from systems.genesys import demo
from systems.genesys.system import SYSTEM
from tests.helpers import create_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import (
    CAREER,
    FREE_RANKS,
    VALID,
    sheet_of,
    text_of,
)

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/systems/genesys/test_genesys_cast.py).
gx_campaign = cast.gx_campaign


def post_data(**changes: object) -> dict[str, object]:
    return {**VALID, **changes}


def test_an_anonymous_visitor_is_sent_to_log_in(client, gx_campaign) -> None:
    response = client.get(create_url(gx_campaign))

    assert response.status_code == 302
    assert "/login/" in response.url


def test_a_stranger_gets_404_and_creates_nothing(client_for, carol, gx_campaign) -> None:
    assert client_for(carol).get(create_url(gx_campaign)).status_code == 404
    assert client_for(carol).post(create_url(gx_campaign), post_data()).status_code == 404
    assert not Character.objects.exists()


def test_the_page_lists_every_skill_of_the_campaign_with_its_two_boxes(
    client_for, bob, gx_campaign
) -> None:
    response = client_for(bob).get(create_url(gx_campaign))

    text = text_of(response)
    assert response.status_code == 200
    assert "Average Human" in text
    assert "You start with 110 XP" in text
    assert "Athletics (Brawn)" in text and "Knowledge (Intellect)" in text
    assert response.content.decode().count('name="career_skills"') == 28
    assert response.content.decode().count('name="free_ranks"') == 28


def test_a_player_builds_kestrel_and_lands_on_her_sheet(client_for, bob, gx_campaign) -> None:
    response = client_for(bob).post(create_url(gx_campaign), post_data())

    character = Character.objects.get()
    assert response.status_code == 302
    assert response.url == character.get_absolute_url()
    assert character.owner == bob
    assert (character.name, character.concept) == ("Kestrel", "A smuggler who owes everyone")
    sheet = sheet_of(character)
    assert sheet["career"] == "Scoundrel"
    assert sorted(sheet["career_skills"]) == sorted(CAREER)
    assert sheet["skills"] == dict.fromkeys(FREE_RANKS, 1)
    assert sheet["creation"] is True
    entry = XpEntry.objects.get()
    assert (entry.kind, entry.available_delta) == (XpEntry.Kind.STARTING, 110)


def test_the_new_character_is_not_called_ready_while_its_xp_waits(client_for, bob,
                                                                  gx_campaign) -> None:
    """Issue 17, item 4: creation goes on on the XP page (Step 4), and the message says so
    instead of "ready to play"."""
    response = client_for(bob).post(create_url(gx_campaign), post_data(), follow=True)
    text = text_of(response)
    assert "Kestrel is ready to play." not in text
    assert "Kestrel is made. Next, invest the starting XP on the XP page, then finish " \
           "creation there." in text


def test_the_gm_may_build_a_character_too(client_for, alice, gx_campaign) -> None:
    response = client_for(alice).post(create_url(gx_campaign), post_data(name="Vex"))

    assert response.status_code == 302
    assert Character.objects.get().owner == alice


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"career_skills": CAREER[:7]},
         "choose exactly 8 career skills (you chose 7) (Genesys Core Rulebook, Step 3: "
         "Choose a Career)"),
        ({"free_ranks": ["Cool", "Ranged", "Stealth", "Athletics", "Charm"]},
         "choose exactly 4 career skills for a free rank (you chose 3)"),
        ({"free_ranks": ["Cool", "Ranged", "Stealth", "Skulduggery", "Athletics"]},
         "choose exactly 2 different non-career skills for the Average Human's free ranks "
         "(you chose 1) (Genesys Core Rulebook, Step 2: Select a Character Archetype, "
         "Average Human)"),
        ({"career_skills": [*CAREER[:7], "Sorcery"]},
         "Select a valid choice. Sorcery is not one of the available choices."),
    ],
    ids=["seven career skills", "three free career ranks", "one free other rank",
         "a skill off the list"],
)
def test_a_broken_rule_keeps_the_input_names_the_rule_and_writes_nothing(
    changes, message, client_for, bob, gx_campaign
) -> None:
    response = client_for(bob).post(create_url(gx_campaign), post_data(**changes))

    content = response.content.decode()
    assert response.status_code == 400
    assert message in text_of(response)
    assert 'value="Kestrel"' in content
    assert content.count("checked") == len(changes.get("career_skills", CAREER)) + len(
        changes.get("free_ranks", FREE_RANKS)) - (1 if "Sorcery" in str(changes) else 0)
    assert not Character.objects.exists()
    assert not XpEntry.objects.exists()


def test_a_name_is_required(client_for, bob, gx_campaign) -> None:
    response = client_for(bob).post(create_url(gx_campaign), post_data(name=""))

    assert response.status_code == 400
    assert "This field is required." in text_of(response)
    assert not Character.objects.exists()


def test_a_shorter_skill_list_asks_for_all_of_its_skills_as_career_skills(
    client_for, bob, gx_campaign
) -> None:
    skills = [{"name": n, "characteristic": c} for n, c in
              [("Athletics", "Brawn"), ("Cool", "Presence"), ("Melee", "Brawn"),
               ("Stealth", "Agility"), ("Charm", "Presence")]]
    Campaign.objects.filter(pk=gx_campaign.pk).update(system_data={"skills": skills})

    response = client_for(bob).post(create_url(gx_campaign), post_data(
        career_skills=["Athletics", "Cool", "Melee", "Stealth", "Charm"],
        free_ranks=["Athletics", "Cool", "Melee", "Stealth"]))

    assert response.status_code == 302
    assert sheet_of(Character.objects.get())["skills"] == dict.fromkeys(
        ["Athletics", "Cool", "Melee", "Stealth"], 1)


def test_the_demo_builds_a_valid_finished_character_with_rolls(gx_campaign, alice, bob) -> None:
    import random

    Campaign.objects.filter(pk=gx_campaign.pk).update(starting_xp=0)  # as load_demo makes it
    gx_campaign.refresh_from_db()
    demo.build(campaign=gx_campaign, gm=alice, players=[bob], rng=random.Random(7))

    character = Character.objects.get()
    sheet = sheet_of(character)
    assert sheet["creation"] is False
    assert sheet["characteristics"]["Agility"] == 3
    assert sheet["characteristics"]["Cunning"] == 3
    assert sheet["skills"]["Ranged"] == 2
    assert sheet["wounds"]["current"] == 4 and sheet["strain"]["current"] == 2
    assert character.xp_available == 100 - 30 - 30 - 10
    assert character.rolls.count() == 2
    assert SYSTEM.creation_form(gx_campaign, {
        **VALID, "career_skills": sheet["career_skills"]}).is_valid()
