"""Rolling from a Shattered World sheet: the action die or the field role die against a target
number, with modifiers and multipliers; automatic and standard success and the degree; stored
before shown (Shattered World Core Engine, The Core Mechanic; Standard Success)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import character_create_from_data
from rolls.models import RequestedRoll, Roll
from systems.shattered_world.system import SYSTEM
from tests import shattered_world_cast as sheet_tests
from tests.helpers import odds_url, roll_url, text_of
from tests.shattered_world_cast import KAELIN

pytestmark = pytest.mark.django_db
kaelin = sheet_tests.kaelin  # the fixture, shared
sw_campaign = sheet_tests.sw_campaign  # the fixture, shared


def roll(client, character, **fields):  # type: ignore[no-untyped-def]
    data = {"die": "ad", "target": "5", "modifiers": "", "multipliers": "", "action": "",
            **fields}
    return client.post(roll_url(character), data)


def test_an_htmx_roll_is_stored_then_shown_with_its_die_and_degree(
    client_for, bob, kaelin, scripted_dice
):
    scripted_dice([3])

    response = roll(client_for(bob, htmx=True), kaelin, target="4", modifiers="+2",
                    action="Climb the cliff")

    stored = Roll.objects.get()
    assert stored.result["dice"] == [3] and stored.result["total"] == 5
    assert stored.outcome == "success" and stored.net == 1
    assert "rollMade" in response["HX-Trigger"]
    text = text_of(response)
    assert "Action die d4 showed 3, modifiers +2: total 5 against target number 4." in text
    assert "Success, degree 1" in text
    assert 'class="die die-d4' in response.content.decode()


def test_a_plain_roll_redirects_to_the_rolls_page(client_for, bob, kaelin, scripted_dice):
    scripted_dice([2])

    response = roll(client_for(bob), kaelin, target="9")

    stored = Roll.objects.get()
    assert response.status_code == 302
    assert response["Location"] == stored.get_absolute_url()
    assert "Failure" in text_of(client_for(bob).get(stored.get_absolute_url()))


def test_the_field_role_die_is_a_d8_at_the_start(client_for, bob, kaelin, scripted_dice):
    scripted_dice([7])

    roll(client_for(bob, htmx=True), kaelin, die="frd", target="6")

    assert Roll.objects.get().result["pool"]["die"] == 8


def test_a_human_rolls_the_field_role_die_even_when_the_action_die_is_asked(
    client_for, bob, sw_campaign, scripted_dice
):
    human = character_create_from_data(campaign=sw_campaign, owner=bob,
                                       data={**KAELIN, "name": "Ada", "human": "on"})
    scripted_dice([5])

    roll(client_for(bob, htmx=True), human, die="ad")

    pool = Roll.objects.get().result["pool"]
    assert (pool["die"], pool["die_kind"]) == (8, "field role die")
    assert "human: always the field role die" in pool["notes"]


def test_the_highest_face_is_an_automatic_standard_success(
    client_for, bob, kaelin, scripted_dice
):
    scripted_dice([4])

    response = roll(client_for(bob, htmx=True), kaelin, target="12")

    assert "Automatic standard success (the highest face), degree 1" in text_of(response)
    assert Roll.objects.get().outcome == "success"


def test_a_one_fails_regardless_of_modifiers(client_for, bob, kaelin, scripted_dice):
    scripted_dice([1])

    response = roll(client_for(bob, htmx=True), kaelin, target="2", modifiers="+10")

    assert "Automatic failure: a 1 fails regardless of modifiers" in text_of(response)
    assert Roll.objects.get().outcome == "failure"


def test_two_x2_multipliers_make_x3_as_the_seed_says(client_for, bob, kaelin, scripted_dice):
    scripted_dice([3])

    roll(client_for(bob, htmx=True), kaelin, target="9", multipliers="x2 x2")

    stored = Roll.objects.get()
    assert stored.result["total"] == 9
    assert stored.result["degree"] == 1  # a bare match counts 1


def test_x3_and_a_divisor_of_2_make_x2_as_the_seed_says(client_for, bob, kaelin, scripted_dice):
    scripted_dice([3])

    roll(client_for(bob, htmx=True), kaelin, target="4", multipliers="x3 /2")

    assert Roll.objects.get().result["total"] == 6


def test_the_uam_is_added_when_ticked(client_for, bob, kaelin, scripted_dice):
    kaelin.sheet["buy_ins"] = {"Increase UAM": 2}
    kaelin.save()
    scripted_dice([2, 2])
    client = client_for(bob, htmx=True)

    roll(client, kaelin, target="4", use_uam="on")
    roll(client, kaelin, target="4")

    with_uam, without = Roll.objects.order_by("pk")
    assert with_uam.result["total"] == 4 and "UAM +2 included" in with_uam.result["pool"]["notes"]
    assert without.result["total"] == 2


def test_bad_multiplier_notation_is_refused_and_nothing_is_stored(client_for, bob, kaelin):
    response = roll(client_for(bob, htmx=True), kaelin, multipliers="x1")

    assert "changes nothing: a factor must be 2 or more" in text_of(response)
    assert not Roll.objects.exists()


def test_a_bad_modifier_is_refused(client_for, bob, kaelin):
    response = roll(client_for(bob), kaelin, modifiers="plenty")

    assert response.status_code == 400
    assert "'plenty' is not a modifier such as +2 or -1." in text_of(response)
    assert not Roll.objects.exists()


def test_the_gm_rolls_for_the_players_character(client_for, alice, kaelin, scripted_dice):
    scripted_dice([2])

    roll(client_for(alice, htmx=True), kaelin)

    assert Roll.objects.get().rolled_by == alice


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_nobody_else_rolls(client, client_for, carol, kaelin, who):
    response = roll(client if who == "anonymous" else client_for(carol), kaelin)

    assert response.status_code == (302 if who == "anonymous" else 404)
    assert not Roll.objects.exists()


def test_the_dialog_opens_on_its_own_page_without_javascript(client_for, bob, kaelin):
    response = client_for(bob).get(roll_url(kaelin))

    assert response.status_code == 200
    assert 'id="roll-form"' in response.content.decode()


# --- Odds -------------------------------------------------------------------------------------


def test_the_odds_of_a_d4_against_2_are_three_in_four_with_the_degrees(client_for, bob, kaelin):
    response = client_for(bob, htmx=True).get(odds_url(kaelin), {"die": "ad", "target": "2"})

    text = text_of(response)
    assert "Success 75.0 %" in text  # a 1 fails; 2 and 3 are degree 1 (a bare match is 1)
    assert "Chance of each degree: 1: 50.0 % · 2: 25.0 %." in text


def test_the_odds_count_the_standard_success(client_for, bob, kaelin):
    response = client_for(bob, htmx=True).get(odds_url(kaelin), {"die": "ad", "target": "9"})

    assert ("Success 25.0 %, all of it standard success (the die's highest face): no total "
            "reaches the target number.") in text_of(response)


def test_the_default_odds_add_up_with_the_standard_success_inside_the_success(
    client_for, bob, kaelin
):
    """The dialog's defaults (action die d4, target number 5): the bars are success and
    failure, adding up to 100 %; the standard success is shown as part of the success, not as
    a third bar ("Success 25 % / Standard 25 % / Failure 75 %" read as 125 %)."""
    response = client_for(bob, htmx=True).get(odds_url(kaelin), {"die": "ad", "target": "5"})

    bars = re.findall(r"<dt>(\w+)</dt>\s*<dd>.*?([\d.]+) %</dd>", response.content.decode(),
                      re.S)
    assert bars == [("Success", "25.0"), ("Failure", "75.0")]
    assert sum(float(percent) for _, percent in bars) == 100
    assert "Success 25.0 %, all of it standard success" in text_of(response)


def test_the_odds_without_htmx_show_the_dialog_page(client_for, bob, kaelin):
    response = client_for(bob).get(odds_url(kaelin), {"die": "frd", "target": "5"})

    assert response.status_code == 200
    assert "Success 50.0 %" in text_of(response)


def test_the_sheet_opens_with_the_odds_of_the_default_dialog(client_for, bob, kaelin):
    assert "Success 25.0 %" in text_of(client_for(bob).get(kaelin.get_absolute_url()))


# --- The roll log and the NPC quick roll ------------------------------------------------------


def test_the_roll_log_draws_the_die(client_for, alice, kaelin, scripted_dice):
    scripted_dice([3])
    roll(client_for(alice, htmx=True), kaelin, target="2")

    response = client_for(alice).get(reverse("rolls:roll-list", args=[kaelin.campaign_id]))

    assert "3 on a d4" in response.content.decode()


def test_the_gms_npc_quick_roll_is_drawn_the_same_way(client_for, alice, kaelin, scripted_dice):
    scripted_dice([8])

    response = client_for(alice, htmx=True).post(
        reverse("rolls:npc-roll-create", args=[kaelin.campaign_id]), {"text": "d8+1 vs 6"})

    assert "Success, degree 3" in text_of(response)
    assert Roll.objects.get().kind == "npc"


# --- The GM asks for a roll -------------------------------------------------------------------


def ask_url(character: Character) -> str:
    return reverse("rolls:requested-roll-create", args=[character.campaign_id])


ASK = {"character": "all", "die": "usual", "target": "6", "modifier": "", "use_uam": "yes",
       "note": "Hold the gate"}


@pytest.fixture
def ada(sw_campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's second character, Ada, a human (every roll on the field role die)."""
    return character_create_from_data(campaign=sw_campaign, owner=bob,
                                      data={**KAELIN, "name": "Ada", "human": "on"})


def test_the_gm_asks_everyone_for_their_usual_die_and_each_sheet_shows_one_roll_it_button(
    client_for, alice, bob, kaelin, ada
):
    asked = client_for(alice, htmx=True).post(ask_url(kaelin), {**ASK, "modifier": "2"})

    assert "Asked Ada, Kaelin for" in text_of(asked)
    for character, words in ((kaelin, "Action die vs target number 6, +2"),
                             (ada, "Field role die vs target number 6, +2")):
        page = client_for(bob).get(character.get_absolute_url())
        assert f"{words} · Hold the gate" in text_of(page)
        assert page.content.decode().count(">Roll it</button>") == 1
    assert dict(kaelin.requested_rolls.get().prefill()) == {
        "die": "ad", "target": "6", "modifiers": "+2", "multipliers": "", "use_uam": "on",
        "action": ""}


def test_answering_stores_the_roll_marked_as_the_answer(client_for, alice, bob, kaelin,
                                                        scripted_dice):
    client_for(alice, htmx=True).post(ask_url(kaelin), {**ASK, "character": str(kaelin.pk),
                                                        "die": "frd", "modifier": "-1"})
    request = kaelin.requested_rolls.get()
    scripted_dice([7])

    response = client_for(bob, htmx=True).post(roll_url(kaelin), {
        **dict(request.prefill()), "answers": str(request.pk)})

    roll = Roll.objects.get()
    assert response.status_code == 200
    assert roll.result["pool"]["die"] == 8 and roll.result["total"] == 6
    assert roll.outcome == "success"
    request.refresh_from_db()
    assert request.answer == roll
    assert "The GM asks for a roll" not in text_of(client_for(bob).get(kaelin.get_absolute_url()))


def test_a_plain_post_answer_lands_on_the_rolls_page(client_for, alice, bob, kaelin,
                                                     scripted_dice):
    asked = client_for(alice).post(ask_url(kaelin), {**ASK, "character": str(kaelin.pk)})
    assert asked.status_code == 302 and asked["Location"] == kaelin.campaign.get_absolute_url()
    request = kaelin.requested_rolls.get()
    scripted_dice([3])

    response = client_for(bob).post(roll_url(kaelin), {**dict(request.prefill()),
                                                       "answers": str(request.pk)})

    roll = Roll.objects.get()
    assert response.status_code == 302 and response["Location"] == roll.get_absolute_url()
    request.refresh_from_db()
    assert request.answer == roll


def test_the_action_die_asked_of_a_human_refuses_the_whole_request_naming_them(
    client_for, alice, kaelin, ada
):
    response = client_for(alice, htmx=True).post(ask_url(kaelin), {**ASK, "die": "ad"})

    assert "Ada: Ada is human: every roll of theirs is on the field role die." in text_of(
        response)
    assert not RequestedRoll.objects.exists()


def test_a_bad_target_number_asks_no_one_and_keeps_the_input(client_for, alice, kaelin):
    response = client_for(alice, htmx=True).post(ask_url(kaelin), {**ASK, "target": "0",
                                                                   "modifier": "3"})

    assert "Ensure this value is greater than or equal to 1." in text_of(response)
    assert 'name="modifier" value="3"' in response.content.decode()
    assert not RequestedRoll.objects.exists()


def test_the_request_names_the_characters_uam(kaelin):
    kaelin.sheet = {**kaelin.sheet, "buy_ins": {"Increase UAM": 2}}
    data, words = SYSTEM.request_data(kaelin, {"die": "usual", "target": 4, "modifier": None,
                                               "use_uam": True})

    form = SYSTEM.roll_form(kaelin, data)
    assert form.is_valid(), form.errors
    assert words == "Action die vs target number 4, UAM +2"
    assert SYSTEM.pool(kaelin, form.cleaned_data).modifiers == (2,)


def test_the_gm_may_leave_the_uam_out(client_for, alice, kaelin):
    kaelin.sheet = {**kaelin.sheet, "buy_ins": {"Increase UAM": 2}}
    kaelin.save()

    client_for(alice, htmx=True).post(ask_url(kaelin), {**ASK, "use_uam": "no"})

    request = kaelin.requested_rolls.get()
    assert request.describe() == "Action die vs target number 6"
    assert "use_uam" not in dict(request.prefill())


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_players_and_strangers_get_404_and_nothing_is_asked(client_for, bob, carol, kaelin,
                                                            who):
    user = {"bob": bob, "carol": carol}[who]

    for htmx in (False, True):
        assert client_for(user, htmx=htmx).post(ask_url(kaelin), ASK).status_code == 404
    assert not RequestedRoll.objects.exists()


def test_anonymous_users_are_sent_to_log_in(client, kaelin):
    response = client.post(ask_url(kaelin), ASK)

    assert response.status_code == 302 and "/login" in response["Location"]


def test_the_dashboard_offers_the_gm_the_request_form_and_players_none(
    client_for, alice, bob, kaelin
):
    gm = client_for(alice).get(kaelin.campaign.get_absolute_url()).content.decode()
    player = client_for(bob).get(kaelin.campaign.get_absolute_url()).content.decode()

    assert 'id="request-form"' in gm and "Each character&#x27;s usual die" in gm
    assert 'id="request-form"' not in player
