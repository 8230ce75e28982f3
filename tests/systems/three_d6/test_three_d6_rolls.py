"""Rolling 3d6 tests and contests from the sheet (3d6 Rolls and Tests: Rolls and Tests, Test
Difficulty, Contesting, Tie Breakers, Favor and Disfavor, Critical Successes and Failures).

Every roll is made by the server, stored before it is shown, and drawn die by die; a contest is
stored once with both sides.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services import character_create_from_data
from rolls.models import Roll
from rulesets import three_d6
from systems.three_d6.system import SYSTEM
from tests import three_d6_cast as cast
from tests.factories import CampaignFactory
from tests.helpers import odds_url, roll_url
from tests.three_d6_cast import SPREAD, text_of

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/three_d6_cast.py): Mara has Power +3, Agility +1, Might 0;
# level 1.
table, mara = cast.table, cast.mara

TEST = {"mode": "test", "target": "t0", "td": "12", "situational": "0", "favor": "0",
        "disfavor": "0"}


def die_labels(response) -> list[str]:  # type: ignore[no-untyped-def]
    """Every die drawn, as a screen reader hears it."""
    return re.findall(r'<svg class="die die-d6[^"]*" role="img" aria-label="([^"]+)"',
                      response.content.decode())


@pytest.fixture
def tobin(table, alice) -> Character:  # type: ignore[no-untyped-def]
    """Another PC of the campaign (the GM's own): Power +3 too, Agility +1; level 1."""
    return character_create_from_data(campaign=table, owner=alice,
                                      data={"name": "Tobin", **SPREAD})


# --- Tests against a TD -----------------------------------------------------------------------


def test_a_power_test_adds_the_modifier_to_3d6_and_shows_every_die(
    client_for, bob, mara, scripted_dice
):
    scripted_dice([4, 2, 3])

    response = client_for(bob, htmx=True).post(roll_url(mara), TEST)

    roll = Roll.objects.get()
    assert roll.kind == "test" and roll.outcome == "success"
    assert roll.result["dice"] == [4, 2, 3] and roll.result["total"] == 12
    assert die_labels(response) == ["4", "2", "3"]
    text = text_of(response)
    assert "Dice 9 +3 = 12 against TD 12." in text
    assert "Success: 12 vs TD 12" in text
    assert roll.description == "Power test: 3d6 + 3 vs TD 12"


def test_one_short_of_the_td_fails(client_for, bob, mara, scripted_dice):
    scripted_dice([4, 2, 2])

    client_for(bob, htmx=True).post(roll_url(mara), TEST)

    assert Roll.objects.get().summary == "Failure: 11 vs TD 12"


def test_a_situational_modifier_adds_to_the_sheets(client_for, bob, mara, scripted_dice):
    scripted_dice([1, 2, 3])

    client_for(bob, htmx=True).post(roll_url(mara), {**TEST, "situational": "-2"})

    assert Roll.objects.get().result["total"] == 6 + 3 - 2


def test_favor_rolls_an_extra_die_and_three_sixes_are_a_critical_success_doubled(
    client_for, bob, mara, scripted_dice
):
    scripted_dice([6, 6, 1, 6])

    response = client_for(bob, htmx=True).post(roll_url(mara), {**TEST, "favor": "1"})

    roll = Roll.objects.get()
    assert roll.result["value"] == 38 and roll.result["total"] == 41
    assert die_labels(response) == ["6, counts for a critical success"] * 2 + ["1"] + [
        "6, counts for a critical success"]
    assert "Dice 19, doubled to 38 (three or more 6s: critical success) +3 = 41" in text_of(
        response)


def test_disfavor_removes_a_die_and_two_ones_are_a_critical_failure_worth_zero(
    client_for, bob, mara, scripted_dice
):
    """The seed: "If you had a point of disfavor on a test and you rolled a 2, you would have
    rolled a critical failure." """
    scripted_dice([1, 1])

    response = client_for(bob, htmx=True).post(roll_url(mara), {**TEST, "disfavor": "1"})

    roll = Roll.objects.get()
    assert roll.result["total"] == 0 and roll.result["critical_failure"] is True
    assert roll.outcome == "failure"
    assert die_labels(response) == ["1, critical failure"] * 2
    assert "critical failure, the roll is 0 and modifiers are ignored" in text_of(response)


def test_three_disfavor_leave_no_dice_and_the_test_fails_automatically(
    client_for, bob, mara, scripted_dice
):
    scripted_dice([])

    response = client_for(bob, htmx=True).post(roll_url(mara), {**TEST, "disfavor": "3"})

    assert Roll.objects.get().summary == "Failure: no dice to roll"
    assert "No dice: too much disfavor." in text_of(response)


def test_a_test_without_a_td_is_refused_and_nothing_is_stored(client_for, bob, mara):
    response = client_for(bob, htmx=True).post(roll_url(mara), {**TEST, "td": ""})

    assert "A test needs a test difficulty (TD) of 1 or more" in text_of(response)
    assert not Roll.objects.exists()


def test_too_much_favor_is_refused(client_for, bob, mara):
    response = client_for(bob, htmx=True).post(roll_url(mara), {**TEST, "favor": "21"})

    assert "Enter a whole number from 0 to 20." in text_of(response)
    assert not Roll.objects.exists()


def test_a_plain_post_stores_the_roll_and_redirects_to_its_page(
    client_for, bob, mara, scripted_dice
):
    scripted_dice([5, 5, 5])
    client = client_for(bob)

    response = client.post(roll_url(mara), TEST)

    roll = Roll.objects.get()
    assert response.status_code == 302 and response.url == roll.get_absolute_url()
    page = client.get(response.url)
    assert die_labels(page) == ["5", "5", "5"]
    assert "Success: 18 vs TD 12" in text_of(page)


def test_a_plain_post_that_breaks_a_rule_shows_the_dialog_again(client_for, bob, mara):
    response = client_for(bob).post(roll_url(mara), {**TEST, "td": "0"})

    assert response.status_code == 400
    assert "Enter a whole number from 1 to 99." in text_of(response)
    assert 'id="roll-form"' in response.content.decode()


def test_the_roll_dialog_has_its_own_page_without_javascript(client_for, bob, mara):
    response = client_for(bob).get(roll_url(mara))

    assert response.status_code == 200
    assert "Roll for Mara" in text_of(response)
    assert "Power (+3)" in text_of(response)


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_outsiders_cannot_roll(client, client_for, carol, mara, who):
    poster = client if who == "anonymous" else client_for(carol)

    response = poster.post(roll_url(mara), TEST)

    assert response.status_code == (302 if who == "anonymous" else 404)
    assert not Roll.objects.exists()


def test_the_gm_may_roll_for_a_players_character(client_for, alice, mara, scripted_dice):
    scripted_dice([3, 3, 3])

    response = client_for(alice, htmx=True).post(roll_url(mara), TEST)

    assert response.status_code == 200
    assert Roll.objects.get().rolled_by == alice


# --- Contests ---------------------------------------------------------------------------------

CONTEST = {"mode": "contest", "target": "t0", "td": "", "situational": "0", "favor": "0",
           "disfavor": "0", "opponent": "npc", "npc_name": "Dock guard", "npc_modifier": "3",
           "npc_rating": "2", "opponent_favor": "0", "opponent_disfavor": "0",
           "defender": "neither", "opponent_target": ""}


def test_a_contest_against_an_npc_is_stored_once_with_both_sides(
    client_for, bob, mara, scripted_dice
):
    scripted_dice([6, 5, 4, 1, 2, 3])

    response = client_for(bob, htmx=True).post(roll_url(mara), CONTEST)

    roll = Roll.objects.get()
    assert roll.kind == "contest" and roll.outcome == "success"
    assert roll.result["first"]["name"] == "Mara" and roll.result["second"]["name"] == "Dock guard"
    assert roll.result["first"]["result"]["total"] == 18
    assert roll.result["second"]["result"]["total"] == 9
    assert roll.summary == "Mara wins 18 to 9"
    assert die_labels(response) == ["6", "5", "4", "1", "2", "3"]
    assert roll.net == 9


def test_a_pc_wins_a_tie_against_an_npc_even_when_the_npc_defends(
    client_for, bob, mara, scripted_dice
):
    scripted_dice([3, 3, 3, 3, 3, 3])  # 9 + 3 against 9 + 3

    client_for(bob, htmx=True).post(roll_url(mara), {**CONTEST, "defender": "opponent"})

    assert Roll.objects.get().summary == "Mara wins 12 to 12 (tie: the PC wins against an NPC)"


def test_between_two_pcs_the_defender_wins_a_tie(
    client_for, bob, mara, tobin, scripted_dice
):
    scripted_dice([3, 3, 3, 3, 3, 3])

    client_for(bob, htmx=True).post(roll_url(mara), {
        **CONTEST, "opponent": str(tobin.pk), "opponent_target": "t0", "defender": "opponent"})

    roll = Roll.objects.get()
    assert roll.summary == "Tobin wins 12 to 12 (tie: the defender wins)"
    assert roll.outcome == "failure"
    assert roll.result["second"]["is_pc"] is True


def test_between_two_pcs_neither_defending_the_better_modifier_wins_a_tie(
    client_for, bob, mara, tobin, scripted_dice
):
    scripted_dice([3, 3, 3, 4, 4, 3])  # Mara's Power 9 + 3, Tobin's Agility 11 + 1

    client_for(bob, htmx=True).post(roll_url(mara), {
        **CONTEST, "opponent": str(tobin.pk), "opponent_target": "t1"})

    assert Roll.objects.get().summary == "Mara wins 12 to 12 (tie: the better modifier wins)"


def test_equal_modifiers_go_to_the_higher_level_taken_from_the_sheets(
    client_for, alice, bob, mara, tobin, scripted_dice
):
    client_for(alice).post(reverse("characters:character-action", args=[tobin.pk, "level"]),
                           {"level": "3", "health_max": "10"})
    scripted_dice([3, 3, 3, 3, 3, 3])

    client_for(bob, htmx=True).post(roll_url(mara), {
        **CONTEST, "opponent": str(tobin.pk), "opponent_target": "t0", "defender": "both"})

    assert Roll.objects.get().summary == (
        "Tobin wins 12 to 12 (tie: the higher level or rating wins)")


def test_a_full_tie_is_settled_by_a_random_draw_that_is_stored(
    client_for, bob, mara, tobin, scripted_dice
):
    scripted_dice([3, 3, 3, 3, 3, 3, 2])

    response = client_for(bob, htmx=True).post(roll_url(mara), {
        **CONTEST, "opponent": str(tobin.pk), "opponent_target": "t0"})

    roll = Roll.objects.get()
    assert roll.summary == "Tobin wins 12 to 12 (tie: chosen at random)"
    assert roll.result["random_die"] == 2
    assert "The tie went to chance: a d2 showed 2." in text_of(response)


def test_a_contest_needs_an_opponent_and_a_character_opponent_needs_a_trait(
    client_for, bob, mara, tobin
):
    client = client_for(bob, htmx=True)

    no_one = client.post(roll_url(mara), {**CONTEST, "opponent": ""})
    no_trait = client.post(roll_url(mara), {**CONTEST, "opponent": str(tobin.pk)})

    assert "Choose who you contest" in text_of(no_one)
    assert "Choose the trait or subtrait your opponent tests." in text_of(no_trait)
    assert not Roll.objects.exists()


def test_a_character_of_another_campaign_cannot_be_an_opponent(client_for, bob, mara, carol):
    elsewhere = CampaignFactory(ruleset="three_d6", created_by=carol)
    stranger = character_create_from_data(campaign=elsewhere, owner=carol,
                                          data={"name": "Spy", **SPREAD})

    response = client_for(bob, htmx=True).post(roll_url(mara), {
        **CONTEST, "opponent": str(stranger.pk), "opponent_target": "t0"})

    assert "Select a valid choice" in text_of(response)
    assert not Roll.objects.exists()


def test_the_roll_log_draws_both_sides_of_a_contest(client_for, bob, mara, scripted_dice):
    scripted_dice([6, 5, 4, 1, 2, 3])
    client = client_for(bob)
    client.post(roll_url(mara), CONTEST)

    response = client.get(reverse("rolls:roll-list", args=[mara.campaign_id]))

    assert die_labels(response) == ["6", "5", "4", "1", "2", "3"]
    assert "Mara wins 18 to 9" in text_of(response)


# --- Odds -------------------------------------------------------------------------------------


def test_the_odds_of_a_test_are_exact(client_for, bob, mara):
    response = client_for(bob, htmx=True).get(odds_url(mara), {**TEST, "favor": "1"})

    expected = three_d6.odds(12, 3, 1, 0)
    text = text_of(response)
    assert "Power test: 4d6 + 3 vs TD 12 (1 favor)" in text
    assert f"Success {float(expected.success) * 100:.1f} %" in text
    assert "Critical success 1.6 %" in text  # 21/1296, RULES.md's worked number


def test_the_odds_of_a_contest_count_ties_for_the_pc(client_for, bob, mara):
    response = client_for(bob, htmx=True).get(odds_url(mara), CONTEST)

    text = text_of(response)
    assert "A tie goes to Mara: a PC wins against an NPC." in text
    equal = three_d6.contest_odds(
        three_d6.build_test(modifier=3), three_d6.build_test(modifier=3),
        three_d6.TieFacts(is_pc=True), three_d6.TieFacts(is_pc=False))
    assert equal.win == Fraction(1, 2) + equal.tie / 2
    assert f"Win {float(equal.win) * 100:.1f} %" in text


def test_the_odds_name_a_broken_rule(client_for, bob, mara):
    response = client_for(bob, htmx=True).get(odds_url(mara), {**TEST, "td": ""})

    assert "A test needs a test difficulty (TD)" in text_of(response)


def test_the_odds_without_htmx_show_the_dialog_page(client_for, bob, mara):
    response = client_for(bob).get(odds_url(mara), TEST)

    assert response.status_code == 200
    assert "Roll for Mara" in text_of(response) and "Success" in text_of(response)


def test_a_stranger_gets_no_odds(client_for, carol, mara):
    assert client_for(carol).get(odds_url(mara), TEST).status_code == 404


# --- The GM's NPC quick roll ------------------------------------------------------------------


def test_the_gms_npc_quick_roll_is_drawn_with_its_dice(client_for, alice, table, scripted_dice):
    scripted_dice([2, 5, 6])

    response = client_for(alice, htmx=True).post(
        reverse("rolls:npc-roll-create", args=[table.pk]), {"text": "3d6+2 td 12"})

    assert die_labels(response) == ["2", "5", "6"]
    assert "Success: 15 vs TD 12" in text_of(response)


# --- The GM asks for a roll -------------------------------------------------------------------


def test_the_gm_asks_for_a_test_and_the_player_answers_it_from_the_sheet(
    client_for, alice, bob, mara, scripted_dice
):
    asked = client_for(alice, htmx=True).post(
        reverse("rolls:requested-roll-create", args=[mara.campaign_id]),
        {"character": str(mara.pk), "target": "t1", "td": "11", "favor": "1", "disfavor": "0",
         "note": "Jump the gap"})
    assert "Asked Mara for Agility test vs TD 11, 1 favor." in text_of(asked)

    sheet_page = client_for(bob).get(mara.get_absolute_url())
    assert "Agility test vs TD 11, 1 favor · Jump the gap" in text_of(sheet_page)
    request = mara.requested_rolls.get()
    scripted_dice([2, 3, 4, 5])

    client_for(bob, htmx=True).post(roll_url(mara), {**dict(request.prefill()),
                                                     "answers": str(request.pk)})

    roll = Roll.objects.get()
    assert roll.description == "Agility test: 4d6 + 1 vs TD 11 (1 favor)"
    assert roll.summary == "Success: 15 vs TD 11"
    request.refresh_from_db()
    assert request.answer == roll


def test_a_request_with_a_bad_td_asks_no_one(client_for, alice, mara):
    response = client_for(alice, htmx=True).post(
        reverse("rolls:requested-roll-create", args=[mara.campaign_id]),
        {"character": "all", "target": "t1", "td": "0"})

    assert "Enter a whole number from 1 to 99." in text_of(response)
    assert not mara.requested_rolls.exists()


@pytest.mark.parametrize(("favor", "disfavor", "critical"), [
    (0, 0, Fraction(1, 216)), (1, 0, Fraction(21, 1296)), (0, 1, Fraction(0)),
])
def test_the_dialogs_odds_give_the_worked_critical_success_numbers(
    mara, favor, disfavor, critical
):
    """RULES.md, worked numbers: P(critical success) 1/216 on 3d6, 21/1296 with one favor,
    0 with one disfavor."""
    odds = SYSTEM.odds(mara, {"mode": "test", "target": "t0", "td": 12, "situational": 0,
                              "favor": favor, "disfavor": disfavor})

    rows = {label: probability for label, probability, _, _ in odds["odds_rows"]}
    assert rows["Critical success"] == float(critical)
