"""Rolling a Shahquest pool from the sheet, then picking the effort and effect dice (Shahquest
wiki, Dice Pools; Plot Points: Push die, Extra Feature, Use a Quirk "In the negative", Using
Your Own Stress, Add to Effort total, Extra Effect die).

Feature indices of Demetri's sheet (DEMO_DATA): 0 Solo d4, 1 Partner d6, 2 Gang d8,
3 Coordination d10, 4 Wits d8, 5 Brawn d6, 6 Physical d8 (Athletics spreads), 7 Combat d6,
8 I've got your back (quirk d8), 9 Grappling hook d6, 10 Shadow step d6.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.urls import reverse

import systems
from characters.models import Character
from characters.services import xp_award
from rolls.models import Roll
from tests import shahquest_cast as cast
from tests.helpers import roll_url
from tests.shahquest_cast import action_url, fresh, text_of
from transfer import export as transfer_export

pytestmark = pytest.mark.django_db


# The shared cast's fixtures (tests/shahquest_cast.py).
sq_campaign, demetri = cast.sq_campaign, cast.demetri

SEED_POOL = {"feature": ["3", "8"], "specialization": ["6:0"], "setting_die": "6"}
"""The seed's example: Coordination d10, I've got your back d8, Physical d8 spread by
Athletics (2d8), and the GM's d6 setting die for the chandelier: d10 3d8 d6."""


def choose_url(roll: Roll) -> str:
    return reverse("rolls:roll-act", args=[roll.code, "choose"])


def last_roll(character: Character) -> Roll:
    return Roll.objects.filter(character=character, parent__isnull=True).first()  # type: ignore[return-value]


def test_the_seeds_example_effort_11_effect_d8(demetri, bob, client_for, scripted_dice):
    """7 (d10), 2, 1, 3 (d8s), 4 (d6): the 1 is set aside, 7 + 4 = 11, the d8 showing 2 is
    the effect die."""
    scripted_dice([7, 2, 1, 3, 4])

    response = client_for(bob, htmx=True).post(roll_url(demetri), SEED_POOL)

    roll = last_roll(demetri)
    assert [d["size"] for d in roll.result["dice"]] == [10, 8, 8, 8, 6]
    assert (roll.result["effort"], roll.result["effect_die"]) == (11, 8)
    assert roll.result["effect_dice"] == [1]
    assert roll.result["opportunity_dice"] == [8]
    text = text_of(response)
    assert "Effort 11, effect d8, 1 opportunity" in text
    assert "Opportunity for the GM: d8" in text
    assert "Pick your dice" in text
    assert 'role="group" aria-label="Dice"' in response.content.decode()


def test_without_htmx_the_roll_lands_on_its_page(demetri, bob, client_for, scripted_dice):
    scripted_dice([7, 2, 1, 3, 4])

    response = client_for(bob).post(roll_url(demetri), SEED_POOL)

    roll = last_roll(demetri)
    assert response.status_code == 302 and response["Location"] == roll.get_absolute_url()
    assert "Effort 11, effect d8" in text_of(client_for(bob).get(roll.get_absolute_url()))


def test_the_gm_rolls_for_the_character_too(demetri, alice, client_for, scripted_dice):
    scripted_dice([7, 2, 1, 3, 4])

    client_for(alice, htmx=True).post(roll_url(demetri), SEED_POOL)

    assert last_roll(demetri).rolled_by == alice


def test_strangers_cannot_roll_and_anonymous_users_log_in(demetri, carol, client_for, client):
    assert client_for(carol).post(roll_url(demetri), SEED_POOL).status_code == 404
    assert client.post(roll_url(demetri), SEED_POOL).status_code == 302
    assert not Roll.objects.exists()


def test_a_second_feature_of_a_type_costs_a_plot_point(demetri, bob, client_for,
                                                        scripted_dice):
    scripted_dice([5, 5])

    client_for(bob, htmx=True).post(roll_url(demetri), {"feature": ["3", "4"]})

    assert fresh(demetri).sheet["plot_points"] == 0
    assert "extra attribute feature Wits: 1 plot point" in last_roll(demetri).result["pool"][
        "notes"]


def test_a_pool_costing_more_plot_points_than_there_are_is_refused(demetri, bob, client_for):
    response = client_for(bob, htmx=True).post(
        roll_url(demetri), {"feature": ["3", "4", "5"], "push_die": "on"})

    assert "this pool costs 3 plot points but you have 1" in text_of(response)
    assert not Roll.objects.exists()
    assert fresh(demetri).sheet["plot_points"] == 1


def test_a_quirk_in_the_negative_rolls_a_d4_and_earns_a_plot_point(demetri, bob, client_for,
                                                                    scripted_dice):
    scripted_dice([3])

    client_for(bob, htmx=True).post(roll_url(demetri), {"negative": ["8"]})

    assert [d["size"] for d in last_roll(demetri).result["dice"]] == [4]
    assert fresh(demetri).sheet["plot_points"] == 2


def test_a_push_die_costs_a_plot_point_when_rolled(demetri, bob, client_for, scripted_dice):
    scripted_dice([5, 4])

    client_for(bob, htmx=True).post(roll_url(demetri), {"feature": ["3"], "push_die": "on"})

    assert [d["size"] for d in last_roll(demetri).result["dice"]] == [10, 6]
    assert fresh(demetri).sheet["plot_points"] == 0


def test_a_stepped_up_push_die_bought_on_a_gms_opportunity_joins_the_next_roll_once(
        demetri, bob, client_for, scripted_dice):
    """"Spend a Plot Point to ... gain a Stepped Up Push die (d8) ... for his next action or
    reaction" (Shahquest wiki, Dice Pools; Activate Opportunity die): shown in the next
    roll's pool and odds, used up by it."""
    client = client_for(bob, htmx=True)
    client.post(action_url(demetri, "opportunity-push"), {})
    assert fresh(demetri).sheet["plot_points"] == 0
    odds = text_of(client.get(reverse("rolls:roll-odds", args=[demetri.pk]), {"feature": ["3"]}))
    assert "d10 d8" in odds and "stepped up push die (d8)" in odds
    scripted_dice([5, 4])

    client.post(roll_url(demetri), {"feature": ["3"]})

    assert [d["size"] for d in last_roll(demetri).result["dice"]] == [10, 8]
    assert "next_roll" not in fresh(demetri).sheet
    scripted_dice([5])
    client.post(roll_url(demetri), {"feature": ["3"]})
    assert [d["size"] for d in last_roll(demetri).result["dice"]] == [10]


def test_a_die_stepped_up_on_a_gms_opportunity_is_the_players_choice_in_the_next_roll(
        demetri, bob, client_for, scripted_dice):
    """"Spend a Plot Point ... to Step Up any one die in his Pool for his next action or
    reaction" (Shahquest wiki, Dice Pools; Activate Opportunity die): it waits on the sheet,
    the dialog asks which die, the pool and its odds show it, and the roll uses it up."""
    client = client_for(bob, htmx=True)
    client.post(action_url(demetri, "opportunity-step-up"), {})
    assert fresh(demetri).sheet["next_roll"] == {"step_up": True}
    assert "Step up one die" in text_of(client.get(reverse("characters:character-detail",
                                                           args=[demetri.pk])))
    pool = {"feature": ["2", "3"], "step_up": "feature:3"}
    odds = text_of(client.get(reverse("rolls:roll-odds", args=[demetri.pk]), pool))
    assert "d12 d8" in odds and "Coordination stepped up (d10 → d12)" in odds
    scripted_dice([5, 4])
    client.post(roll_url(demetri), {"feature": ["2"]})  # no die chosen: it keeps
    assert fresh(demetri).sheet["next_roll"] == {"step_up": True}
    scripted_dice([4, 11])

    client.post(roll_url(demetri), pool)

    assert [d["size"] for d in last_roll(demetri).result["dice"]] == [8, 12]
    assert "next_roll" not in fresh(demetri).sheet


def test_own_stress_costs_a_plot_point_and_steps_up_after(demetri, bob, client_for,
                                                          scripted_dice):
    client = client_for(bob, htmx=True)
    client.post(action_url(demetri, "stress-take"), {"kind": "physical", "die": "6"})
    scripted_dice([5, 4])

    client.post(roll_url(demetri), {"feature": ["3"], "own_stress": ["physical"]})

    row = fresh(demetri)
    assert row.sheet["stress"]["physical"]["stress"] == 8
    assert row.sheet["plot_points"] == 0


def test_a_stressed_out_character_cannot_act(demetri, bob, client_for):
    client = client_for(bob, htmx=True)
    client.post(action_url(demetri, "stress-take"), {"kind": "physical", "die": "6"})
    client.post(action_url(demetri, "stress-take"), {"kind": "mental", "die": "12"})
    client.post(action_url(demetri, "stress-take"), {"kind": "mental", "die": "4"})

    response = client.post(roll_url(demetri), {"feature": ["3"]})

    assert "Demetri is stressed out and can't take any actions until recovered" in text_of(
        response)
    assert not Roll.objects.exists()


def test_an_empty_pool_is_refused(demetri, bob, client_for):
    response = client_for(bob, htmx=True).post(roll_url(demetri), {})

    assert "a dice pool needs at least one die" in text_of(response)


def test_two_specializations_of_one_skill_are_refused(demetri, alice, bob, client_for):
    xp_award(character=demetri, amount=5, reason="Heist", by=alice)
    client_for(bob).post(action_url(demetri, "specialization-learn"),
                         {"skill": "Physical", "name": "Climbing", "use": "step_up",
                          "expected_cost": "5"})

    response = client_for(bob, htmx=True).post(roll_url(demetri),
                                               {"specialization": ["6:0", "6:1"]})

    assert "Use one specialization of Physical per roll" in text_of(response)


def test_the_gms_setting_die_joins_the_pool_for_free(demetri, bob, client_for, scripted_dice):
    scripted_dice([5, 9])

    client_for(bob, htmx=True).post(roll_url(demetri), {"feature": ["3"], "setting_die": "10"})

    roll = last_roll(demetri)
    assert roll.result["pool"]["dice"][-1] == {"size": 10, "source": "setting",
                                               "name": "Setting die"}
    assert fresh(demetri).sheet["plot_points"] == 1


def test_the_roll_dialog_works_without_javascript(demetri, bob, client_for):
    response = client_for(bob).get(roll_url(demetri))

    assert response.status_code == 200
    assert "GM's setting die" in text_of(response)


# --- Odds -----------------------------------------------------------------------------------


def test_the_odds_of_the_seeds_pool(demetri, bob, client_for):
    response = client_for(bob, htmx=True).get(
        reverse("rolls:roll-odds", args=[demetri.pk]), SEED_POOL)

    text = text_of(response)
    assert "d10 3d8 d6" in text
    assert "Effort 11+" in text and "Opportunity" in text
    assert "Best effort total" in text


def test_the_odds_name_an_illegal_pool(demetri, bob, client_for):
    response = client_for(bob, htmx=True).get(
        reverse("rolls:roll-odds", args=[demetri.pk]), {"feature": ["3", "4", "5"]})

    assert "this pool costs 2 plot points but you have 1" in text_of(response)


def test_without_htmx_the_odds_show_on_the_roll_page(demetri, bob, client_for):
    response = client_for(bob).get(reverse("rolls:roll-odds", args=[demetri.pk]), SEED_POOL)

    assert response.status_code == 200
    assert "Effort 11+" in text_of(response)


# --- Picking the dice after the roll --------------------------------------------------------


@pytest.fixture
def seed_roll(demetri, bob, client_for, scripted_dice) -> Roll:  # type: ignore[no-untyped-def]
    scripted_dice([7, 2, 1, 3, 4])
    client_for(bob, htmx=True).post(roll_url(demetri), SEED_POOL)
    return last_roll(demetri)


def choose(client: Any, roll: Roll, effort: list[int], effect: list[int]) -> Any:
    return client.post(choose_url(roll), {"effort": [str(i) for i in effort],
                                          "effect": [str(i) for i in effect]})


def test_adding_the_3_to_effort_costs_a_plot_point(seed_roll, demetri, bob, client_for):
    """"Shawn could have added the 3 he rolled on his d8 for a 14 Effort total."""
    response = choose(client_for(bob, htmx=True), seed_roll, [0, 3, 4], [1])

    followup = seed_roll.followups.get()
    assert (followup.kind, followup.result["effort"], followup.net) == ("choice", 14, 14)
    assert "Effort 14, effect d8" in text_of(response)
    assert fresh(demetri).sheet["plot_points"] == 0


def test_a_choice_of_three_effort_dice_travels_in_an_export(seed_roll, demetri, alice, bob,
                                                           client_for):
    choose(client_for(bob, htmx=True), seed_roll, [0, 3, 4], [1])
    campaign = fresh(demetri).campaign
    campaign.system_data = systems.for_campaign(campaign).default_system_data()
    campaign.save(update_fields=["system_data"])  # as a campaign made on its page has it
    document = transfer_export.export_campaign(campaign)
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "campaign.json"

    answer = client_for(alice).post(reverse("transfer:campaign-import"), {"file": upload})

    assert answer.status_code == 302, text_of(answer)


def test_keeping_two_d8_effect_dice_costs_a_plot_point(seed_roll, demetri, bob, client_for):
    choose(client_for(bob, htmx=True), seed_roll, [0, 4], [1, 3])

    followup = seed_roll.followups.get()
    assert followup.result["extra_effect_dice"] == [8]
    assert fresh(demetri).sheet["plot_points"] == 0


def test_a_reaction_won_uses_its_effect_die_for_a_plot_point(seed_roll, demetri, bob,
                                                             client_for):
    """"If you successfully resist the NPC's action, you can spend a Plot Point to use one of
    your remaining dice from your reaction Dice Pool as an Effect die" (Shahquest wiki, Use a
    Effect die from a reaction)."""
    client = client_for(bob, htmx=True)
    assert "A reaction I won against an NPC" in text_of(client.get(seed_roll.get_absolute_url()))

    response = client.post(choose_url(seed_roll), {"effort": ["0", "4"], "effect": ["1"],
                                                   "reaction": "on"})

    followup = seed_roll.followups.get()
    assert followup.result["reaction_effect"] is True
    assert followup.summary == ("Effort 11, effect d8 (a reaction's effect die), 1 opportunity; "
                                "1 plot point spent")
    assert "a reaction&#x27;s effect die" in response.content.decode()
    assert fresh(demetri).sheet["plot_points"] == 0


def test_an_opportunity_die_counts_for_neither(seed_roll, demetri, bob, client_for):
    response = choose(client_for(bob, htmx=True), seed_roll, [0, 2], [1])

    assert "rolled a 1: an opportunity die counts for neither" in text_of(response)
    assert not seed_roll.followups.exists()


def test_a_pick_costing_more_plot_points_than_there_are_is_refused(seed_roll, demetri, bob,
                                                                   client_for):
    response = choose(client_for(bob, htmx=True), seed_roll, [0, 3, 4], [1, 1])

    assert "each die can be used once" in text_of(response)
    response = choose(client_for(bob, htmx=True), seed_roll, [0, 1, 3, 4], [])
    assert "cost 2 plot points but you have 1" in text_of(response)
    assert fresh(demetri).sheet["plot_points"] == 1


def test_the_dice_are_chosen_once(seed_roll, bob, client_for):
    client = client_for(bob, htmx=True)
    choose(client, seed_roll, [0, 4], [1])

    response = choose(client, seed_roll, [0, 3], [1])

    assert "already chosen" in text_of(response)
    assert seed_roll.followups.count() == 1


def test_without_htmx_the_choice_lands_on_the_roll(seed_roll, bob, client_for):
    response = choose(client_for(bob), seed_roll, [0, 4], [1])

    assert response.status_code == 302 and response["Location"] == seed_roll.get_absolute_url()
    page = text_of(client_for(bob).get(seed_roll.get_absolute_url()))
    assert "Effort 11, effect d8" in page and "dice chosen by bob" in page


def test_the_gm_may_choose_and_a_stranger_may_not(seed_roll, alice, carol, client_for):
    assert choose(client_for(carol), seed_roll, [0, 4], [1]).status_code == 404
    choose(client_for(alice, htmx=True), seed_roll, [0, 4], [1])

    assert seed_roll.followups.get().rolled_by == alice


def test_the_roll_log_draws_every_die(seed_roll, demetri, bob, client_for):
    response = client_for(bob).get(reverse("rolls:roll-list", args=[demetri.campaign_id]))

    text = text_of(response)
    assert "7 on a d10" in text and "1 on a d8" in text and "4 on a d6" in text
    assert "Effort 11, effect d8" in text


def test_an_npc_quick_roll_is_drawn_without_a_choice(demetri, alice, client_for, seeded_rng):
    response = client_for(alice, htmx=True).post(
        reverse("rolls:npc-roll-create", args=[demetri.campaign_id]), {"text": "d10 2d8 d6"})

    text = text_of(response)
    assert "on a d10" in text and "Effort" in text
    assert "Pick your dice" not in text
