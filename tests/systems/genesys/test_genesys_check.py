"""Rolling a Genesys check from the sheet (Genesys dice pool): the dialog builds the pool from
a characteristic and a skill, a difficulty level, upgrades and downgrades, boost and setback
dice; the pool and its exact odds show first as dice; the server rolls, stores the roll, then
shows every die with its symbols and the net result."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from rolls.models import Roll
from tests.helpers import odds_url, roll_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import (
    set_sheet,
    text_of,
)

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/systems/genesys/test_genesys_cast.py).
gx_campaign, kes = cast.gx_campaign, cast.kes

CHARS = {"Brawn": 2, "Agility": 3, "Intellect": 2, "Cunning": 2, "Willpower": 2, "Presence": 2}


@pytest.fixture
def sharp(kes) -> Character:
    """Kestrel with Agility 3 and Ranged 1: her Ranged check starts 2 ability, 1 proficiency."""
    return set_sheet(kes, characteristics=CHARS)


def meter(response, label: str) -> float:  # type: ignore[no-untyped-def]
    """The probability the odds box shows for ``label`` (its meter's value)."""
    content = response.content.decode()
    start = content.index(f"<dt>{label}</dt>")
    value = content[start:].split('value="', 1)[1].split('"', 1)[0]
    return float(value)


# --- Who may roll --------------------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in(client, kes) -> None:
    for response in (client.get(roll_url(kes)), client.post(roll_url(kes), {"skill": "Cool"}),
                     client.get(odds_url(kes), {"skill": "Cool"})):
        assert response.status_code == 302
        assert "/login/" in response.url
    assert not Roll.objects.exists()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_stranger_gets_404_and_rolls_nothing(client_for, carol, kes, htmx) -> None:
    client = client_for(carol, htmx=htmx)

    assert client.post(roll_url(kes), {"skill": "Cool"}).status_code == 404
    assert client.get(odds_url(kes), {"skill": "Cool"}).status_code == 404
    assert not Roll.objects.exists()


def test_the_roll_page_shows_the_dialog_without_javascript(client_for, bob, kes) -> None:
    response = client_for(bob).get(roll_url(kes))

    text = text_of(response)
    assert response.status_code == 200
    assert "Ranged (Agility)" in text and "Average (2 difficulty dice)" in text
    assert "Boost dice" in text and "Upgrade difficulty dice" in text


# --- The seed's worked numbers, through the sheet's own pool -------------------------------


def test_agility_2_unskilled_against_easy_is_2_ability_vs_1_difficulty_at_295_in_512(
    client_for, bob, kes
) -> None:
    response = client_for(bob, htmx=True).get(odds_url(kes), {"skill": "Medicine",
                                                             "characteristic": "Agility",
                                                             "difficulty": "Easy"})

    text = text_of(response)
    assert "Agility + Medicine, Easy: 2 ability vs 1 difficulty" in text
    assert "Unskilled in Medicine: Agility alone" in text
    assert meter(response, "Success") == pytest.approx(float(Fraction(295, 512)), abs=1e-6)
    assert "[Ability die] [Ability die] [Difficulty die]" in text


def test_agility_3_ranged_1_against_average_is_7997_in_12288(client_for, bob, sharp) -> None:
    response = client_for(bob, htmx=True).get(odds_url(sharp), {"skill": "Ranged",
                                                               "difficulty": "Average"})

    text = text_of(response)
    # Genesys dice pool, Skill and Characteristic: 3 dice, the lower value (1) upgraded.
    assert "Agility + Ranged, Average: 2 ability, 1 proficiency vs 2 difficulty" in text
    assert meter(response, "Success") == pytest.approx(float(Fraction(7997, 12288)), abs=1e-6)
    assert "Success 65.1 %" in text  # the phone's roll bar
    assert "Triumph: 8.3 % · Despair: none possible (no challenge die)." in text


def test_an_upgrade_with_no_ability_die_left_adds_one(client_for, bob, kes) -> None:
    kes = set_sheet(kes, skills={"Ranged": 2})  # Agility 2, Ranged 2: 2 proficiency, 0 ability

    response = client_for(bob, htmx=True).get(odds_url(kes), {
        "skill": "Ranged", "difficulty": "Hard", "upgrade_ability": "1",
        "downgrade_challenge": "1"})

    text = text_of(response)
    assert "1 ability, 2 proficiency vs 3 difficulty" in text
    assert "1 upgrade with no ability die left added an ability die" in text
    assert "1 challenge downgrade ignored: no challenge die left" in text


def test_the_pool_drawn_as_dice_escapes_the_gms_skill_name(client_for, bob, kes) -> None:
    # A skill name may hold & and ' (rulesets.genesys.check_skill); the pool's words come
    # back inside the drawn pool, which the odds box shows without escaping it again.
    Campaign.objects.filter(pk=kes.campaign_id).update(
        system_data={"skills": [{"name": "Lock & Key's", "characteristic": "Cunning"}]})

    response = client_for(bob, htmx=True).get(odds_url(kes), {"skill": "Lock & Key's"})

    content = response.content.decode()
    assert ('<span class="gx-pool-words">Cunning + Lock &amp; Key&#x27;s, Average: 2 ability '
            "vs 2 difficulty</span>") in content
    assert "Lock & Key" not in content


def test_the_dialog_needs_a_skill_or_a_characteristic(client_for, bob, kes) -> None:
    response = client_for(bob, htmx=True).get(odds_url(kes), {"difficulty": "Average"})

    assert "Choose a skill, or a characteristic to roll alone, to see the pool." in (
        text_of(response))


# --- Rolling -------------------------------------------------------------------------------


def test_a_triumph_counts_a_success_but_does_not_make_the_check_succeed(
    client_for, bob, sharp, scripted_dice
) -> None:
    # ability: SA, S; proficiency: Triumph; difficulty: FF, FH (Genesys dice pool, Triumph).
    scripted_dice([7, 2, 12, 3, 8])

    response = client_for(bob, htmx=True).post(roll_url(sharp), {"skill": "Ranged",
                                                                "difficulty": "Average"})

    text = text_of(response)
    assert ("[Ability die: success, advantage] success, advantage [Ability die: success] "
            "success [Proficiency die: triumph (counts as a success)] triumph "
            "[Difficulty die: failure, failure] failure, failure "
            "[Difficulty die: failure, threat] failure, threat") in text
    assert "Failure (cancelled out), 1 triumph" in text
    assert "Successes and failures cancelled out (3 successes, 3 failures)" in text
    assert "Advantage and threat cancelled out (1 advantage, 1 threat)" in text
    assert "Triumph 1 (each also counted a success)" in text
    roll = Roll.objects.get()
    assert (roll.outcome, roll.net, roll.kind) == ("failure", 0, "check")


def test_a_success_can_carry_a_despair(client_for, bob, sharp, scripted_dice) -> None:
    # ability: SS, S; proficiency: SS; difficulty: H; challenge: Despair; boost: A.
    scripted_dice([4, 2, 4, 4, 12, 6])

    response = client_for(bob, htmx=True).post(roll_url(sharp), {
        "skill": "Ranged", "difficulty": "Average", "upgrade_difficulty": "1", "boost": "1"})

    text = text_of(response)
    assert "Success (4 net), 1 despair" in text
    assert "Net successes 4 (5 successes, 1 failure)" in text
    assert "Despair 1 (each also counted a failure)" in text
    assert Roll.objects.get().outcome == "success"


def test_the_roll_is_stored_before_it_is_shown_with_a_roll_made_event(
    client_for, bob, sharp, seeded_rng
) -> None:
    response = client_for(bob, htmx=True).post(roll_url(sharp), {"skill": "Cool",
                                                                "difficulty": "Hard"})

    roll = Roll.objects.get()
    assert "rollMade" in response.headers["HX-Trigger"]
    assert f'href="{roll.get_absolute_url()}"' in response.content.decode()
    assert roll.result["system"] == "genesys"
    assert len(roll.result["dice"]) == 5  # Presence 2, Cool 1: 1P 1A; Hard: 3D
    assert roll.description == "Presence + Cool, Hard: 1 ability, 1 proficiency vs 3 difficulty"


def test_a_plain_roll_redirects_to_the_rolls_page_which_draws_every_die(
    client_for, bob, sharp, seeded_rng
) -> None:
    client = client_for(bob)

    response = client.post(roll_url(sharp), {"skill": "Ranged", "difficulty": "Average",
                                             "setback": "2"})
    page = client.get(response.url)

    roll = Roll.objects.get()
    assert response.url == roll.get_absolute_url()
    assert page.content.decode().count('class="gdie gdie-') == 7
    assert roll.summary in text_of(page)


def test_the_gm_rolls_for_a_players_character(client_for, alice, sharp, seeded_rng) -> None:
    response = client_for(alice, htmx=True).post(roll_url(sharp), {"skill": "Ranged"})

    assert response.status_code == 200
    assert Roll.objects.get().rolled_by == alice


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_an_impossible_task_without_a_destiny_point_is_refused_and_nothing_stored(
    client_for, bob, kes, seeded_rng, htmx
) -> None:
    Campaign.objects.filter(pk=kes.campaign_id).update(
        system_data={"destiny": {"light": 2, "dark": 1, "rolled": []}})

    response = client_for(bob, htmx=htmx).post(roll_url(kes), {"skill": "Cool",
                                                              "difficulty": "Impossible"})

    assert ("Attempting an Impossible task requires the player to spend one Destiny point: "
            "tick “Flip a light Destiny point” to attempt it (Genesys rules, Impossible "
            "Tasks)") in text_of(response)
    assert response.status_code == (200 if htmx else 400)
    assert not Roll.objects.exists()
    assert Campaign.objects.get(pk=kes.campaign_id).system_data["destiny"]["light"] == 2


def test_an_impossible_task_with_its_destiny_point_rolls_five_difficulty_dice(
    client_for, bob, kes, seeded_rng
) -> None:
    Campaign.objects.filter(pk=kes.campaign_id).update(
        system_data={"destiny": {"light": 2, "dark": 1, "rolled": []}})

    client_for(bob, htmx=True).post(roll_url(kes), {"skill": "Cool", "difficulty": "Impossible",
                                                   "destiny_point": "on"})

    roll = Roll.objects.get()
    assert roll.result["pool"]["difficulty"] == 5
    assert roll.result["pool"]["destiny_points"] == 1
    # The point the attempt requires is the light one flipped, which upgrades an ability die.
    assert roll.result["pool"]["destiny_flips"] == ["light"]
    assert roll.result["pool"]["proficiency"] == 2
    assert Campaign.objects.get(pk=kes.campaign_id).system_data["destiny"]["light"] == 1


def test_a_skill_off_the_campaigns_list_cannot_be_rolled(client_for, bob, kes) -> None:
    response = client_for(bob, htmx=True).post(roll_url(kes), {"skill": "Sorcery"})

    assert "Select a valid choice. Sorcery is not one of the available choices." in (
        text_of(response))
    assert not Roll.objects.exists()


# --- The logs ------------------------------------------------------------------------------


def test_the_roll_log_and_the_sheet_draw_the_dice_compactly(
    client_for, bob, sharp, seeded_rng, gx_campaign
) -> None:
    client = client_for(bob)
    client.post(roll_url(sharp), {"skill": "Ranged", "difficulty": "Average"})

    log = client.get(reverse("rolls:roll-list", args=[gx_campaign.pk]))
    sheet = client.get(sharp.get_absolute_url())

    for page in (log, sheet):
        assert page.content.decode().count('class="gdie gdie-') == 5
        assert 'class="gx-dice gx-compact"' in page.content.decode()


def test_a_gm_quick_roll_for_an_npc_draws_genesys_dice(
    client_for, alice, gx_campaign, seeded_rng
) -> None:
    response = client_for(alice, htmx=True).post(
        reverse("rolls:npc-roll-create", args=[gx_campaign.pk]), {"text": "2A 1P vs 3D 1C"})

    assert response.content.decode().count('class="gdie gdie-') == 7
    assert "Net successes" in text_of(response) or "Net failures" in text_of(response) or (
        "cancelled out" in text_of(response))


def test_the_gm_asks_for_a_check_and_the_player_answers_it_from_the_sheet(
    client_for, alice, bob, sharp, gx_campaign, seeded_rng
) -> None:
    asked = client_for(alice).post(
        reverse("rolls:requested-roll-create", args=[gx_campaign.pk]),
        {"character": "all", "note": "Shoot the lock", "skill": "Ranged", "difficulty": "Hard",
         "boost": "1"})
    assert asked.status_code == 302

    sheet = client_for(bob).get(sharp.get_absolute_url())
    assert "Ranged (Agility), Hard, 1 boost · Shoot the lock" in text_of(sheet)
    request = sharp.requested_rolls.get()

    client_for(bob, htmx=True).post(roll_url(sharp), {**dict(request.prefill()),
                                                      "answers": str(request.pk)})

    roll = Roll.objects.get()
    assert roll.description == (
        "Agility + Ranged, Hard: 2 ability, 1 proficiency vs 3 difficulty, 1 boost")
    request.refresh_from_db()
    assert request.answer == roll


def test_without_javascript_the_odds_land_on_the_roll_page_with_the_dialog_as_filled(
    client_for, bob, sharp
) -> None:
    response = client_for(bob).get(odds_url(sharp), {"skill": "Ranged", "difficulty": "Hard",
                                                     "setback": "1"})

    text = text_of(response)
    assert response.status_code == 200
    assert "Roll for Kestrel" in text
    assert "Agility + Ranged, Hard: 2 ability, 1 proficiency vs 3 difficulty, 1 setback" in text
    assert '<option value="Hard" selected>' in response.content.decode()
    assert not Roll.objects.exists()
