"""A Shahquest character: created with its rules checked, its sheet shown, its plot points and
stress changed in place, and XP spent (Shahquest wiki: Affiliations, Feature Types, Plot
Points, Stress and Trauma; the advancement house rule of docs/systems/shahquest.md).

Every view answers anonymous users with the login page, strangers with 404, and both the
player and the GM, with and without HTMX.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.models import Character, XpEntry
from characters.services import character_create_from_data, xp_award
from rolls.models import Roll
from rulesets.shahquest import day_text
from systems.shahquest import demo, sheet
from systems.shahquest.demo import DEMO_DATA
from systems.shahquest.system import SYSTEM
from tests import shahquest_cast as cast
from tests.helpers import create_url, spend_url
from tests.shahquest_cast import action_url, fresh, text_of

pytestmark = pytest.mark.django_db


# The shared cast's fixtures (tests/shahquest_cast.py).
sq_campaign, demetri = cast.sq_campaign, cast.demetri


# --- Creation -----------------------------------------------------------------------------


def test_a_player_creates_demetri_and_lands_on_his_sheet(sq_campaign, bob, client_for):
    response = client_for(bob).post(create_url(sq_campaign), DEMO_DATA)

    character = Character.objects.get(campaign=sq_campaign)
    assert response.status_code == 302 and response["Location"] == character.get_absolute_url()
    features = {(f["type"], f["name"]): f for f in character.sheet["features"]}
    assert features[("attribute", "Coordination")]["die"] == 10
    assert features[("skill", "Physical")]["specializations"] == [
        {"name": "Athletics", "use": "spread"}]
    assert features[("quirk", "I've got your back")]["die"] == 8
    assert features[("sfx", "Vanish")]["power_set"] == "Thief's luck"
    assert character.sheet["plot_points"] == sheet.STARTING_PLOT_POINTS
    assert character.sheet["stress"]["physical"] == {
        "stress": None, "stressed_out": False, "trauma": None, "taken_out": False}


def test_the_creation_page_shows_every_part_of_the_sheet(sq_campaign, bob, client_for):
    text = text_of(client_for(bob).get(create_url(sq_campaign)))

    for part in ("Affiliations", "Attributes", "Skills and specializations", "Quirks",
                 "Resources", "Power sets", "Special effects and limits"):
        assert part in text


@pytest.mark.parametrize(("change", "rule"), [
    ({"gang": "6"}, "d4, a d6 and a d8 once each"),
    ({"attribute_1_name": "", "attribute_2_name": "", "attribute_3_name": ""},
     "at least one attribute"),
    ({"attribute_2_name": "coordination"}, "on the sheet twice"),
    ({"skill_2_die": "12", "skill_2_spec_1_name": "Swords", "skill_2_spec_1_use": "step_up"},
     "d12 is the largest die"),
    ({"skill_3_spec_1_name": "Lockpicks"}, "needs its skill"),
    ({"extra_1_set": "Pyromancy"}, "belongs to a power set with a power"),
    ({"power_1_set": ""}, "belongs to a power set: name it"),
    ({"attribute_1_name": "Wits: sharp"}, "cannot contain a colon"),
    ({"resource_1_die": ""}, "Give Grappling hook a die"),
])
def test_a_broken_rule_is_named_the_input_kept_and_nothing_written(
        sq_campaign, bob, client_for, change, rule):
    data = {**DEMO_DATA, **change}

    response = client_for(bob).post(create_url(sq_campaign), data)

    assert response.status_code == 400
    assert rule in text_of(response)
    assert 'value="Demetri"' in response.content.decode()
    assert not Character.objects.filter(campaign=sq_campaign).exists()


def test_a_giant_spreads_its_solo_die(sq_campaign, bob, client_for):
    data = {**DEMO_DATA, "solo": "8", "solo_count": "2", "partner": "6", "gang": "4"}

    client_for(bob).post(create_url(sq_campaign), data)

    solo = Character.objects.get(campaign=sq_campaign).sheet["features"][0]
    assert (solo["name"], solo["die"], solo["count"]) == ("Solo", 8, 2)


def test_shaluum_roll_three_d12_solo(sq_campaign, bob):
    data = {**DEMO_DATA, "solo": "12", "solo_count": "3", "partner": "6", "gang": "8"}

    character = character_create_from_data(campaign=sq_campaign, owner=bob, data=data)

    assert sheet.feature_dice(character.sheet["features"][0]) == "3d12"


def test_a_stranger_cannot_create_a_character_and_anonymous_users_log_in(
        sq_campaign, carol, client_for, client):
    assert client_for(carol).get(create_url(sq_campaign)).status_code == 404
    assert client.get(create_url(sq_campaign)).status_code == 302


# --- The sheet ------------------------------------------------------------------------------


def test_the_sheet_shows_features_tracks_and_the_roll_dialog(demetri, bob, client_for):
    text = text_of(client_for(bob).get(demetri.get_absolute_url()))

    assert "Coordination d10" in text
    assert "Athletics (spreads)" in text
    assert "Vanish: Spend a plot point" in text
    assert "Limit Bright light" in text
    assert "Plot points: 1" in text
    assert "No stress" in text
    assert "GM's setting die" in text


def test_the_gm_sees_the_sheet_and_a_stranger_gets_404(demetri, alice, carol, client_for,
                                                         client):
    assert client_for(alice).get(demetri.get_absolute_url()).status_code == 200
    assert client_for(carol).get(demetri.get_absolute_url()).status_code == 404
    assert client.get(demetri.get_absolute_url()).status_code == 302


def test_the_sheet_takes_the_same_queries_however_many_rolls(
        demetri, bob, client_for, django_assert_num_queries, scripted_dice):
    """Session and user, the character with its campaign, requested rolls, recent rolls
    (whose follow-ups are read only when one has any; these have none), the Equipment
    card's items, the running encounter and the last session (history.between): eight
    queries, whatever the number of rolls."""
    client = client_for(bob)
    roll_url = reverse("rolls:roll-create", args=[demetri.pk])
    scripted_dice([5] * 20)
    client.post(roll_url, {"feature": ["3"]})
    with django_assert_num_queries(8):
        client.get(demetri.get_absolute_url())
    for _ in range(3):
        client.post(roll_url, {"feature": ["3", "6"]})
    with django_assert_num_queries(8):
        client.get(demetri.get_absolute_url())


# --- Plot points ----------------------------------------------------------------------------


def test_plus_one_plot_point_in_place(demetri, bob, client_for):
    response = client_for(bob, htmx=True).post(action_url(demetri, "plot-points"),
                                               {"change": "1"})

    assert response.status_code == 200
    assert 'id="sheet-tracks"' in response.content.decode()
    assert "Gained a plot point: 2 now." in text_of(response)
    assert fresh(demetri).sheet["plot_points"] == 2


def test_a_plain_post_redirects_to_the_sheet(demetri, bob, client_for):
    response = client_for(bob).post(action_url(demetri, "plot-points"), {"change": "-1"})

    assert response.status_code == 302 and response["Location"] == demetri.get_absolute_url()
    assert fresh(demetri).sheet["plot_points"] == 0


def test_no_plot_point_below_zero(demetri, bob, client_for):
    client = client_for(bob, htmx=True)
    client.post(action_url(demetri, "plot-points"), {"change": "-1"})

    response = client.post(action_url(demetri, "plot-points"), {"change": "-1"})

    assert "would leave -1" in text_of(response)
    assert fresh(demetri).sheet["plot_points"] == 0


def test_the_gm_changes_plot_points_on_the_dashboard_card(demetri, alice, client_for):
    response = client_for(alice, htmx=True).post(
        action_url(demetri, "plot-points"), {"change": "1", "from": "dashboard"})

    assert f'id="card-{demetri.pk}"' in response.content.decode()
    assert "Plot points 2" in text_of(response)


def test_a_plain_post_from_the_dashboard_goes_back_to_it(demetri, alice, client_for):
    response = client_for(alice).post(action_url(demetri, "plot-points"),
                                      {"change": "1", "from": "dashboard"})

    assert response["Location"] == demetri.campaign.get_absolute_url()


def test_strangers_and_anonymous_users_change_nothing(demetri, carol, client_for, client):
    assert client_for(carol).post(action_url(demetri, "plot-points"),
                                  {"change": "1"}).status_code == 404
    assert client.post(action_url(demetri, "plot-points"), {"change": "1"}).status_code == 302
    assert fresh(demetri).sheet["plot_points"] == 1


def test_an_unknown_change_is_404(demetri, bob, client_for):
    assert client_for(bob).post(action_url(demetri, "heal"), {}).status_code == 404


# --- Stress and trauma ----------------------------------------------------------------------


def take(client: Any, character: Character, kind: str, die: int) -> Any:
    return client.post(action_url(character, "stress-take"), {"kind": kind, "die": str(die)})


def test_the_seeds_stress_examples(demetri, bob, client_for):
    """Demitri's d8 physical stress and a d10 hit make d10; then d12 replaces it (Shahquest
    wiki, Stress and Trauma)."""
    client = client_for(bob, htmx=True)
    take(client, demetri, "physical", 8)
    response = take(client, demetri, "physical", 8)
    assert "Physical stress d10" in text_of(response)

    response = take(client, demetri, "physical", 12)

    assert "Physical stress d12" in text_of(response)


def test_stepping_up_from_d12_stresses_out_with_d4_trauma(demetri, bob, client_for):
    client = client_for(bob, htmx=True)
    take(client, demetri, "mental", 12)

    response = take(client, demetri, "mental", 6)

    assert "Stressed out: mental trauma d4" in text_of(response)
    track = fresh(demetri).sheet["stress"]["mental"]
    assert track["stressed_out"] and track["trauma"] == 4


def test_the_seeds_recovery_example(demetri, bob, client_for):
    """d10 physical stress: a d6 effect steps it to d8; a d10 or better to d6."""
    client = client_for(bob, htmx=True)
    take(client, demetri, "physical", 10)
    client.post(action_url(demetri, "stress-recover"), {"kind": "physical", "die": "6"})
    assert fresh(demetri).sheet["stress"]["physical"]["stress"] == 8

    take(client, demetri, "physical", 10)
    client.post(action_url(demetri, "stress-recover"), {"kind": "physical", "die": "10"})

    assert fresh(demetri).sheet["stress"]["physical"]["stress"] == 6


def test_trauma_recovers_once_for_an_equal_effect(demetri, bob, client_for):
    client = client_for(bob, htmx=True)
    take(client, demetri, "emotional", 12)
    take(client, demetri, "emotional", 4)  # stressed out: d4 trauma
    take(client, demetri, "emotional", 6)  # trauma d6

    response = client.post(action_url(demetri, "trauma-recover"),
                           {"kind": "emotional", "die": "6"})

    assert "emotional trauma d4" in text_of(response)


def test_each_trauma_recovery_waits_for_the_downtime_of_the_last_attempt(demetri, bob,
                                                                        client_for):
    """"At least a day of Down Time is required for each attempt to recover from Trauma": d6
    3 days (Shahquest wiki, Stressing Out and Trauma); the sheet says when, and a plot point
    in downtime waits as long ("after the time listed")."""
    client = client_for(bob, htmx=True)
    for die in (12, 4, 6, 8):  # stressed out: d4 trauma, then d6, then d8
        take(client, demetri, "emotional", die)
    client.post(action_url(demetri, "trauma-recover"), {"kind": "emotional", "die": "4"})
    next_day = day_text(timezone.localdate() + timedelta(days=7))  # the attempt was at d8
    assert f"next recovery on {next_day}" in text_of(client.get(demetri.get_absolute_url()))

    again = client.post(action_url(demetri, "trauma-recover"), {"kind": "emotional", "die": "4"})
    downtime = client.post(action_url(demetri, "downtime"), {"option": "trauma:emotional"})

    for refused in (again, downtime):
        assert (f"emotional trauma may next be recovered on {next_day}: at least a day of "
                "downtime is required for each attempt") in text_of(refused)
    row = fresh(demetri)
    assert row.sheet["stress"]["emotional"]["trauma"] == 6
    assert row.sheet["plot_points"] == 1
    row.sheet["trauma_recovery"]["emotional"] = "2000-01-01"  # the week has passed
    row.save()
    client.post(action_url(demetri, "trauma-recover"), {"kind": "emotional", "die": "8"})
    assert fresh(demetri).sheet["stress"]["emotional"]["trauma"] is None
    assert fresh(demetri).sheet["trauma_recovery"] == {}


def test_a_plot_point_changes_the_type_of_the_stress_just_taken(demetri, bob, client_for):
    """The seed's example: Demitri with d8 physical stress takes a d4 physical effect; rather
    than letting it jump to d10 he changes it to mental stress (Shahquest wiki, Stress and
    Trauma; Change Stress Type). Only the stress just taken, once."""
    client = client_for(bob, htmx=True)
    take(client, demetri, "physical", 8)
    take(client, demetri, "physical", 4)
    assert "Take the d4 physical stress just taken as" in text_of(
        client.get(demetri.get_absolute_url()))

    response = client.post(action_url(demetri, "stress-change"), {"to": "mental"})

    assert "the d4 physical stress effect is mental stress instead" in text_of(response)
    row = fresh(demetri)
    assert row.sheet["stress"]["physical"]["stress"] == 8
    assert row.sheet["stress"]["mental"]["stress"] == 4
    assert row.sheet["plot_points"] == 0
    again = client.post(action_url(demetri, "stress-change"), {"to": "emotional"})
    assert "Only the stress just taken can change its type" in text_of(again)
    assert fresh(demetri).sheet["stress"] == row.sheet["stress"]


def test_recovering_stress_that_is_not_there_is_refused(demetri, bob, client_for):
    response = client_for(bob, htmx=True).post(action_url(demetri, "stress-recover"),
                                               {"kind": "physical", "die": "6"})

    assert "there is no physical stress to recover" in text_of(response)
    assert fresh(demetri).sheet["stress"]["physical"]["stress"] is None


def test_a_bad_effect_die_is_refused(demetri, bob, client_for):
    response = client_for(bob, htmx=True).post(action_url(demetri, "stress-take"),
                                               {"kind": "physical", "die": "20"})

    assert "Select a valid choice" in text_of(response)


def test_downtime_spends_a_plot_point_to_step_down_two_stress_dice(demetri, bob, client_for):
    client = client_for(bob, htmx=True)
    take(client, demetri, "physical", 8)
    take(client, demetri, "mental", 6)

    client.post(action_url(demetri, "downtime"), {"option": "stress:physical,mental"})

    row = fresh(demetri)
    assert row.sheet["stress"]["physical"]["stress"] == 6
    assert row.sheet["stress"]["mental"]["stress"] == 4
    assert row.sheet["plot_points"] == 0


def test_downtime_without_a_plot_point_is_refused(demetri, bob, client_for):
    client = client_for(bob, htmx=True)
    take(client, demetri, "physical", 8)
    client.post(action_url(demetri, "plot-points"), {"change": "-1"})

    response = client.post(action_url(demetri, "downtime"), {"option": "stress:physical"})

    assert "costs a plot point" in text_of(response)
    assert fresh(demetri).sheet["stress"]["physical"]["stress"] == 8


def test_the_gm_marks_stress_on_the_dashboard_card(demetri, alice, client_for):
    response = client_for(alice, htmx=True).post(
        action_url(demetri, "stress-take"), {"kind": "physical", "die": "8", "from": "dashboard"})

    assert f'id="card-{demetri.pk}"' in response.content.decode()
    assert "Physical stress d8" in text_of(response)


def test_the_dashboard_shows_the_card_and_the_tension_pool(demetri, alice, client_for):
    response = client_for(alice).get(demetri.campaign.get_absolute_url())

    content = response.content.decode()
    assert f'id="card-{demetri.pk}"' in content
    assert 'id="system-panel"' in content
    assert "Plot points 1" in text_of(response)


# --- XP -------------------------------------------------------------------------------------


def test_the_xp_page_lists_each_step_up_with_its_price(demetri, bob, client_for):
    text = text_of(client_for(bob).get(reverse("characters:character-xp", args=[demetri.pk])))

    assert "Coordination d10 → d12: 12 XP" in text
    assert "Physical d8 → d10: 10 XP" in text
    assert "Shadow step d6 → d8: 8 XP" in text
    assert "A new specialization costs 5 XP" in text


def test_the_price_shows_before_confirming_and_the_spend_steps_up_the_die(
        demetri, alice, bob, client_for, ledger_stays_balanced):
    xp_award(character=demetri, amount=20, reason="Heist", by=alice)
    client = client_for(bob)
    quote = client.get(spend_url(demetri), {"key": "skill:Physical"})
    assert "Physical d8 → d10 costs 10 XP" in text_of(quote)
    assert next(f for f in fresh(demetri).sheet["features"] if f["name"] == "Physical")["die"] == 8

    client.post(spend_url(demetri), {"key": "skill:Physical", "expected_cost": "10"})

    row = fresh(demetri)
    assert next(f for f in row.sheet["features"] if f["name"] == "Physical")["die"] == 10
    assert row.xp_available == 10


def test_a_spend_is_undone_with_a_reversing_entry(demetri, alice, bob, client_for,
                                                   ledger_stays_balanced):
    xp_award(character=demetri, amount=20, reason="Heist", by=alice)
    client = client_for(bob)
    client.post(spend_url(demetri), {"key": "attribute:Wits", "expected_cost": "10"})
    entry = XpEntry.objects.get(character=demetri, kind=XpEntry.Kind.SPEND)

    client.post(reverse("characters:character-xp-undo", args=[demetri.pk, entry.pk]))

    row = fresh(demetri)
    assert next(f for f in row.sheet["features"] if f["name"] == "Wits")["die"] == 8
    assert row.xp_available == 20
    assert XpEntry.objects.filter(character=demetri, kind=XpEntry.Kind.REVERSAL).count() == 1


def test_a_spend_without_the_xp_is_refused_naming_the_shortfall(demetri, bob, client_for):
    response = client_for(bob).post(spend_url(demetri),
                                    {"key": "attribute:Coordination", "expected_cost": "12"})

    assert response.status_code == 400
    assert "costs 12 XP; you have 0 XP available (12 short)" in text_of(response)


@pytest.mark.parametrize(("key", "message"), [
    ("affiliation:Solo", "XP steps up attributes, skills and powers"),
    ("attribute:Charm", "has no attribute called 'Charm'"),
])
def test_what_xp_cannot_buy_is_named(demetri, bob, client_for, key, message):
    response = client_for(bob).get(spend_url(demetri), {"key": key})

    assert message in text_of(response)


def test_a_d12_cannot_step_up(demetri, alice, bob, client_for):
    xp_award(character=demetri, amount=20, reason="Heist", by=alice)
    client = client_for(bob)
    client.post(spend_url(demetri), {"key": "attribute:Coordination", "expected_cost": "12"})

    response = client.get(spend_url(demetri), {"key": "attribute:Coordination"})

    assert "d12 is the largest die" in text_of(response)


def test_a_new_specialization_costs_five_xp_and_can_be_undone(
        demetri, alice, bob, client_for, ledger_stays_balanced):
    xp_award(character=demetri, amount=6, reason="Heist", by=alice)
    client = client_for(bob)

    response = client.post(action_url(demetri, "specialization-learn"),
                           {"skill": "Combat", "name": "Knives", "use": "step_up",
                            "expected_cost": "5"})

    assert response.status_code == 302
    combat = next(f for f in fresh(demetri).sheet["features"] if f["name"] == "Combat")
    assert combat["specializations"] == [{"name": "Knives", "use": "step_up"}]
    assert fresh(demetri).xp_available == 1
    entry = XpEntry.objects.get(character=demetri, kind=XpEntry.Kind.SPEND)
    client.post(reverse("characters:character-xp-undo", args=[demetri.pk, entry.pk]))
    combat = next(f for f in fresh(demetri).sheet["features"] if f["name"] == "Combat")
    assert combat["specializations"] == []
    assert fresh(demetri).xp_available == 6


def test_a_specialization_without_the_xp_is_refused(demetri, bob, client_for):
    response = client_for(bob, htmx=True).post(
        action_url(demetri, "specialization-learn"),
        {"skill": "Combat", "name": "Knives", "use": "spread", "expected_cost": "5"})

    assert "A new specialization costs 5 XP; you have 0 available" in text_of(response)
    assert not XpEntry.objects.filter(character=demetri, kind=XpEntry.Kind.SPEND).exists()


def test_the_gm_awards_xp(demetri, alice, client_for, ledger_stays_balanced):
    client_for(alice).post(reverse("characters:character-xp-award", args=[demetri.pk]),
                           {"amount": "5", "reason": "Clever plan"})

    assert fresh(demetri).xp_available == 5


# --- The demo -------------------------------------------------------------------------------


def test_the_demo_builds_a_valid_character_with_a_roll(alice, bob):
    campaign = campaign_create(name=demo.CAMPAIGN_NAME, ruleset="shahquest",
                               starting_xp=0, gm=alice)
    Membership.objects.create(campaign=campaign, user=bob)

    demo.build(campaign=campaign, gm=alice, players=[bob], rng=random.Random(7))

    character = campaign.characters.get()
    assert character.name == "Demetri"
    assert character.rolls.count() == 1
    assert character.sheet["stress"]["physical"]["stress"] == 8
    assert campaign.system_data == SYSTEM.default_system_data()


# --- Every view, for everyone ---------------------------------------------------------------


def _views(character: Character) -> list[tuple[str, str, dict[str, Any]]]:
    roll = Roll.objects.filter(character=character).first()
    assert roll is not None
    return [
        ("get", character.get_absolute_url(), {}),
        ("get", create_url(character.campaign), {}),
        ("post", action_url(character, "plot-points"), {"change": "1"}),
        ("post", action_url(character, "stress-take"), {"kind": "mental", "die": "6"}),
        ("get", reverse("rolls:roll-create", args=[character.pk]), {}),
        ("post", reverse("rolls:roll-create", args=[character.pk]), {"feature": ["3"]}),
        ("get", reverse("rolls:roll-odds", args=[character.pk]), {"feature": ["3"]}),
        ("post", reverse("rolls:roll-act", args=[roll.code, "choose"]),
         {"effort": ["0"], "effect": []}),
        ("get", reverse("characters:character-xp", args=[character.pk]), {}),
        ("get", spend_url(character), {"key": "skill:Physical"}),
    ]


@pytest.fixture
def rolled(demetri, bob, client_for, scripted_dice) -> Character:  # type: ignore[no-untyped-def]
    scripted_dice([5] * 10)
    client_for(bob).post(reverse("rolls:roll-create", args=[demetri.pk]), {"feature": ["3"]})
    return demetri


@pytest.mark.parametrize("htmx", [False, True])
def test_anonymous_users_are_sent_to_log_in_and_strangers_get_404(
        rolled, carol, client_for, htmx):
    anonymous = Client(headers={"HX-Request": "true"} if htmx else {})
    stranger = client_for(carol, htmx=htmx)
    for method, url, data in _views(rolled):
        response = getattr(anonymous, method)(url, data)
        assert response.status_code == 302 and "/login/" in response["Location"], url
        assert getattr(stranger, method)(url, data).status_code == 404, url


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("who", ["alice", "bob"])
def test_the_player_and_the_gm_use_every_view(rolled, client_for, request, htmx, who,
                                               scripted_dice):
    scripted_dice([5] * 10)
    client = client_for(request.getfixturevalue(who), htmx=htmx)
    for method, url, data in _views(rolled):
        response = getattr(client, method)(url, data)
        assert response.status_code in (200, 302), (url, response.status_code)
