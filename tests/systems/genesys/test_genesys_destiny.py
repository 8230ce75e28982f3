"""The Genesys Destiny pool at the table: the GM sets or rolls it on the dashboard and flips a
point by hand; a player flips a light point in the check dialog to upgrade an ability die
(an Impossible task needs it), the GM flips a dark point to upgrade a difficulty die by asking
for the roll with it (Genesys dice pool, Upgrading and Downgrading Dice; Difficulty;
Impossible Tasks). The odds shown first are the upgraded pool's; the flip is made in the
roll's own transaction and is part of the roll's record; every open page of the campaign
redraws the pool. The engine's side: tests/rulesets/genesys/test_genesys_destiny.py."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from rolls.models import RequestedRoll, Roll
from rulesets import genesys
from rulesets.errors import RuleError
from systems.genesys.system import SYSTEM
from tests.helpers import campaign_action_url, odds_url, redrawn_by, roll_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import set_sheet, text_of

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/systems/genesys/test_genesys_cast.py).
gx_campaign, kes = cast.gx_campaign, cast.kes

LIGHT_NOTE = "Destiny: light point flipped to upgrade an ability die"
DARK_NOTE = "Destiny: dark point flipped to upgrade a difficulty die"


def destiny(campaign: Campaign) -> dict[str, Any] | None:
    """The campaign's stored Destiny pool, read fresh."""
    return Campaign.objects.get(pk=campaign.pk).system_data.get("destiny")


def set_pool(campaign: Campaign, light: int, dark: int) -> None:
    data = dict(Campaign.objects.get(pk=campaign.pk).system_data)
    data["destiny"] = {"light": light, "dark": dark, "rolled": []}
    Campaign.objects.filter(pk=campaign.pk).update(system_data=data)


def meter(response, label: str) -> float:  # type: ignore[no-untyped-def]
    """The probability the odds box shows for ``label`` (its meter's value)."""
    content = response.content.decode()
    start = content.index(f"<dt>{label}</dt>")
    return float(content[start:].split('value="', 1)[1].split('"', 1)[0])


@pytest.fixture
def sharp(kes) -> Character:  # type: ignore[no-untyped-def]
    """Kestrel with Agility 3: Agility alone rolls 3 ability dice."""
    return set_sheet(kes, characteristics={
        "Brawn": 2, "Agility": 3, "Intellect": 2, "Cunning": 2, "Willpower": 2, "Presence": 2})


# --- The GM's moves on the dashboard --------------------------------------------------------


def test_the_gm_sets_the_pool_in_place_and_the_message_goes_beside_the_panel(
    client_for, alice, gx_campaign
) -> None:
    response = client_for(alice, htmx=True).post(campaign_action_url(gx_campaign, "destiny-set"),
                                                 {"light": "2", "dark": "3"})

    content = response.content.decode()
    assert '<div id="gx-destiny-status" hx-swap-oob="innerHTML">' in content
    assert '<section class="card gx-destiny" id="gx-destiny"' in content
    assert "The Destiny pool is set: 2 light, 3 dark." in text_of(response)
    assert "2 light side · 3 dark side" in text_of(response)
    assert content.count('class="gx-destiny-pip gx-destiny-light"') == 2
    assert content.count('class="gx-destiny-pip gx-destiny-dark"') == 3
    assert destiny(gx_campaign) == {"light": 2, "dark": 3, "rolled": []}


def test_a_plain_post_comes_back_to_the_dashboard_which_shows_the_pool(
    client_for, alice, gx_campaign
) -> None:
    client = client_for(alice)

    response = client.post(campaign_action_url(gx_campaign, "destiny-set"),
                           {"light": "1", "dark": "0"})
    page = client.get(response.url)

    assert response.url == gx_campaign.get_absolute_url()
    assert "The Destiny pool is set: 1 light, 0 dark." in text_of(page)
    assert "1 light side · 0 dark side" in text_of(page)


def test_rolling_the_pool_rolls_a_force_die_per_character_and_stores_the_faces(
    client_for, alice, kes, gx_campaign, scripted_dice
) -> None:
    scripted_dice([10])  # two light side pips; Kestrel is the party's one character

    response = client_for(alice, htmx=True).post(
        campaign_action_url(gx_campaign, "destiny-roll"), {"dice": ""})

    assert destiny(gx_campaign) == {"light": 2, "dark": 0, "rolled": [10]}
    text = text_of(response)
    assert "Rolled 1 Force die (2 light): the Destiny pool is 2 light, 0 dark." in text
    assert "Rolled on 1 Force die: 2 light." in text


def test_the_gm_may_say_how_many_force_dice_to_roll(client_for, alice, gx_campaign,
                                                    scripted_dice) -> None:
    scripted_dice([1, 7, 8])  # one dark, two dark, one light

    client_for(alice).post(campaign_action_url(gx_campaign, "destiny-roll"), {"dice": "3"})

    assert destiny(gx_campaign) == {"light": 1, "dark": 3, "rolled": [1, 7, 8]}


def test_with_nobody_in_the_party_the_gm_says_how_many_dice(client_for, alice,
                                                            gx_campaign) -> None:
    response = client_for(alice, htmx=True).post(
        campaign_action_url(gx_campaign, "destiny-roll"), {"dice": ""})

    assert "No character is in the party yet: say how many Force dice to roll" in (
        text_of(response))
    assert destiny(gx_campaign) is None


def test_the_gm_flips_a_point_by_hand_and_cannot_flip_one_that_is_not_there(
    client_for, alice, gx_campaign
) -> None:
    set_pool(gx_campaign, 1, 0)
    client = client_for(alice, htmx=True)

    flipped = client.post(campaign_action_url(gx_campaign, "destiny-flip"), {"side": "light"})
    refused = client.post(campaign_action_url(gx_campaign, "destiny-flip"), {"side": "light"})

    assert "A light point flipped to dark: the pool is 0 light, 1 dark." in text_of(flipped)
    assert ("No light side Destiny point is left to flip (the pool is 0 light, 1 dark). "
            "(Genesys rules, Upgrading and Downgrading Dice)") in text_of(refused)
    assert destiny(gx_campaign) == {"light": 0, "dark": 1, "rolled": []}


@pytest.mark.parametrize(("action", "data", "message"), [
    ("destiny-set", {"light": "20", "dark": "5"},
     "a Destiny pool of 25 points is more than the 24 Sheetkeeper keeps"),
    ("destiny-set", {"light": "-1", "dark": "0"},
     "Ensure this value is greater than or equal to 0."),
    ("destiny-roll", {"dice": "13"}, "Ensure this value is less than or equal to 12."),
    ("destiny-flip", {"side": "grey"}, "Select a valid choice."),
], ids=["too many", "negative", "too many dice", "no such side"])
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_bad_move_is_refused_with_a_message_and_writes_nothing(
    client_for, alice, gx_campaign, action, data, message, htmx
) -> None:
    client = client_for(alice, htmx=htmx)

    response = client.post(campaign_action_url(gx_campaign, action), data)
    shown = response if htmx else client.get(response.url)

    assert message in text_of(shown)
    assert destiny(gx_campaign) is None


@pytest.mark.parametrize("who", ["bob", "carol"])
@pytest.mark.parametrize("action", ["destiny-set", "destiny-roll", "destiny-flip"])
def test_players_and_strangers_get_404(client_for, request, gx_campaign, who, action) -> None:
    set_pool(gx_campaign, 1, 1)

    response = client_for(request.getfixturevalue(who)).post(
        campaign_action_url(gx_campaign, action), {"light": "5", "dark": "5", "dice": "2",
                                                  "side": "light"})

    assert response.status_code == 404
    assert destiny(gx_campaign) == {"light": 1, "dark": 1, "rolled": []}


# --- Every page shows the pool, live ---------------------------------------------------------


def test_the_sheet_shows_the_campaigns_pool(client_for, bob, kes, gx_campaign) -> None:
    assert "No Destiny pool yet: the GM sets or rolls it at the start of the session." in (
        text_of(client_for(bob).get(kes.get_absolute_url())))

    set_pool(gx_campaign, 2, 1)

    assert "Destiny pool 2 light side · 1 dark side" in text_of(
        client_for(bob).get(kes.get_absolute_url()))


def test_a_change_of_the_pool_redraws_it_on_every_sheet_and_on_the_dashboard(
    client_for, alice, bob, kes, gx_campaign
) -> None:
    sheet = client_for(bob).get(kes.get_absolute_url())
    dashboard = client_for(alice).get(gx_campaign.get_absolute_url())

    assert "gx-destiny" in redrawn_by(sheet.context["live"], "campaignChanged")
    assert "system-panel" in redrawn_by(dashboard.context["live"], "campaignChanged")
    set_pool(gx_campaign, 0, 2)
    region = client_for(bob).get(kes.get_absolute_url(), {"live": "gx-destiny"})
    assert region.content.decode().lstrip().startswith('<div id="gx-destiny">')
    assert "0 light side · 2 dark side" in text_of(region)


def test_every_move_and_every_flip_is_announced_to_the_whole_campaign(
    client_for, alice, bob, kes, gx_campaign, seeded_rng, monkeypatch
) -> None:
    heard: list[tuple[int, str, bool]] = []

    def hear(campaign_id: int, event: str, *, gm_only: bool = False, **_: Any) -> None:
        heard.append((campaign_id, event, gm_only))

    monkeypatch.setattr("table.services.announce", hear)
    monkeypatch.setattr("systems.genesys.destiny.announce", hear)
    client_for(alice).post(campaign_action_url(gx_campaign, "destiny-set"),
                           {"light": "1", "dark": "0"})
    client_for(bob).post(roll_url(kes), {"skill": "Cool", "destiny_point": "on"})

    assert heard == [(gx_campaign.pk, "campaignChanged", False)] * 2


def test_a_player_sees_no_panel_on_the_campaign_page(client_for, bob, gx_campaign) -> None:
    set_pool(gx_campaign, 1, 1)

    content = client_for(bob).get(gx_campaign.get_absolute_url()).content.decode()

    assert 'id="gx-destiny"' not in content and "destiny-set" not in content


# --- The player's light flip, in the check ----------------------------------------------------


def test_the_odds_shown_first_are_the_upgraded_pools_the_seeds_worked_case(
    client_for, bob, sharp, gx_campaign
) -> None:
    set_pool(gx_campaign, 1, 2)
    client = client_for(bob, htmx=True)

    plain = client.get(odds_url(sharp), {"characteristic": "Agility"})
    flipped = client.get(odds_url(sharp), {"characteristic": "Agility", "destiny_point": "on"})

    assert "Agility, Average: 3 ability vs 2 difficulty" in text_of(plain)
    text = text_of(flipped)
    assert "Agility, Average: 2 ability, 1 proficiency vs 2 difficulty" in text
    assert LIGHT_NOTE in text
    # The odds box's figure is the engine's for the upgraded pool: the worked 7997/12288.
    engine = genesys.odds(genesys.parse_pool("2A 1P 2D"))
    assert engine.success == Fraction(7997, 12288)
    assert meter(flipped, "Success") == pytest.approx(float(engine.success), abs=1e-6)
    assert meter(flipped, "Advantage") == pytest.approx(float(engine.advantage), abs=1e-6)
    assert ("Destiny: rolling flips a light point (the pool 1 light, 2 dark becomes "
            "0 light, 3 dark).") in text
    assert not Roll.objects.exists()


def test_the_roll_flips_the_point_and_records_the_flip(client_for, bob, sharp, gx_campaign,
                                                       seeded_rng) -> None:
    set_pool(gx_campaign, 1, 2)

    # As the dialog posts it (htmx names the form): the answer brings the dialog's odds.
    response = client_for(bob, htmx=True).post(
        roll_url(sharp), {"characteristic": "Agility", "destiny_point": "on"},
        headers={"HX-Trigger": "roll-form"})

    roll = Roll.objects.get()
    assert roll.result["pool"]["destiny_flips"] == ["light"]
    assert (roll.result["pool"]["ability"], roll.result["pool"]["proficiency"]) == (2, 1)
    assert LIGHT_NOTE in roll.result["pool"]["notes"]
    assert destiny(gx_campaign) == {"light": 0, "dark": 3, "rolled": []}
    assert LIGHT_NOTE in text_of(response)
    # The answer's odds are drawn for the pool as the roll left it: no light point now.
    assert "No light side Destiny point is left to flip" in text_of(response)


def test_the_roll_log_and_the_sheet_say_the_point_was_flipped(
    client_for, bob, sharp, gx_campaign, seeded_rng
) -> None:
    set_pool(gx_campaign, 1, 0)
    client = client_for(bob)
    client.post(roll_url(sharp), {"skill": "Ranged", "destiny_point": "on"})

    log = client.get(reverse("rolls:roll-list", args=[gx_campaign.pk]))
    sheet = client.get(sharp.get_absolute_url())

    for page in (log, sheet):
        assert f'<p class="help gx-destiny-note">{LIGHT_NOTE}</p>' in page.content.decode()


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_with_no_light_point_left_the_roll_is_refused_and_nothing_is_stored(
    client_for, bob, sharp, gx_campaign, seeded_rng, htmx
) -> None:
    set_pool(gx_campaign, 0, 3)

    response = client_for(bob, htmx=htmx).post(
        roll_url(sharp), {"characteristic": "Agility", "destiny_point": "on"})

    assert ("No light side Destiny point is left to flip (the pool is 0 light, 3 dark). "
            "(Genesys rules, Upgrading and Downgrading Dice)") in text_of(response)
    assert not Roll.objects.exists()
    assert destiny(gx_campaign) == {"light": 0, "dark": 3, "rolled": []}


def test_the_dialog_offers_the_flip_and_refuses_an_impossible_task_without_it(
    client_for, bob, kes, gx_campaign
) -> None:
    set_pool(gx_campaign, 1, 0)
    client = client_for(bob, htmx=True)

    sheet = text_of(client_for(bob).get(kes.get_absolute_url()))
    odds = client.get(odds_url(kes), {"skill": "Cool", "difficulty": "Impossible"})

    assert ("Flip a light Destiny point to upgrade an ability die (an Impossible task needs "
            "one)") in sheet
    assert ("Attempting an Impossible task requires the player to spend one Destiny point: "
            "tick “Flip a light Destiny point” to attempt it") in text_of(odds)


def test_a_player_cannot_flip_the_gms_dark_point(client_for, bob, kes, gx_campaign,
                                                 seeded_rng) -> None:
    set_pool(gx_campaign, 1, 1)

    response = client_for(bob, htmx=True).post(roll_url(kes), {"skill": "Cool",
                                                              "destiny_dark": "on"})

    assert ("Only the GM flips a dark Destiny point, by asking for the roll with it. "
            "(Genesys rules, Difficulty)") in text_of(response)
    assert not Roll.objects.exists()
    assert destiny(gx_campaign) == {"light": 1, "dark": 1, "rolled": []}


# --- The GM's dark flip, with "Ask for a roll" ------------------------------------------------


def ask(client_for, alice, campaign: Campaign, **what: str):  # type: ignore[no-untyped-def]
    return client_for(alice).post(reverse("rolls:requested-roll-create", args=[campaign.pk]),
                                  {"character": "all", "note": "", "skill": "Ranged",
                                   "difficulty": "Easy", **what})


def test_the_gm_asks_for_a_roll_with_a_dark_flip_and_it_flips_when_the_roll_is_made(
    client_for, alice, bob, kes, gx_campaign, seeded_rng
) -> None:
    set_pool(gx_campaign, 0, 1)
    assert "Flip a dark Destiny point to upgrade a difficulty die (when the roll is made)" in (
        text_of(client_for(alice).get(gx_campaign.get_absolute_url())))

    assert ask(client_for, alice, gx_campaign, destiny_dark="on").status_code == 302
    request = kes.requested_rolls.get()
    assert request.describe() == "Ranged (Agility), Easy, the GM flips a dark Destiny point"
    assert destiny(gx_campaign) == {"light": 0, "dark": 1, "rolled": []}  # not yet

    client_for(bob, htmx=True).post(roll_url(kes), {**dict(request.prefill()),
                                                    "answers": str(request.pk)})

    roll = Roll.objects.get()
    assert roll.result["pool"]["destiny_flips"] == ["dark"]
    assert (roll.result["pool"]["difficulty"], roll.result["pool"]["challenge"]) == (0, 1)
    assert DARK_NOTE in roll.result["pool"]["notes"]
    assert destiny(gx_campaign) == {"light": 1, "dark": 0, "rolled": []}
    request.refresh_from_db()
    assert request.answer == roll


def test_the_gm_cannot_ask_for_a_dark_flip_the_pool_cannot_spare(
    client_for, alice, kes, gx_campaign
) -> None:
    set_pool(gx_campaign, 2, 1)
    assert ask(client_for, alice, gx_campaign, destiny_dark="on").status_code == 302

    client = client_for(alice, htmx=True)
    response = client.post(reverse("rolls:requested-roll-create", args=[gx_campaign.pk]),
                           {"character": "all", "note": "", "skill": "Ranged",
                            "difficulty": "Easy", "destiny_dark": "on"})

    assert ("Kestrel: The Destiny pool has 1 dark point and open requests already flip 1: no "
            "dark point is left to flip for this roll.") in text_of(response)
    assert RequestedRoll.objects.count() == 1


def test_an_answer_must_carry_the_gms_flip_as_asked(client_for, alice, bob, kes, gx_campaign,
                                                    seeded_rng) -> None:
    set_pool(gx_campaign, 0, 1)
    ask(client_for, alice, gx_campaign, destiny_dark="on")
    request = kes.requested_rolls.get()
    posted = {k: v for k, v in request.prefill() if k != "destiny_dark"}

    response = client_for(bob, htmx=True).post(roll_url(kes), {**posted,
                                                              "answers": str(request.pk)})

    assert "The GM asked for this roll with a dark Destiny point flipped" in text_of(response)
    assert not Roll.objects.exists()
    assert destiny(gx_campaign) == {"light": 0, "dark": 1, "rolled": []}


def test_an_impossible_request_needs_a_light_point(client_for, alice, kes, gx_campaign) -> None:
    response = client_for(alice, htmx=True).post(
        reverse("rolls:requested-roll-create", args=[gx_campaign.pk]),
        {"character": "all", "note": "", "skill": "Ranged", "difficulty": "Impossible"})

    assert ("Kestrel: The Destiny pool has no light point, and an Impossible task needs one: "
            "set or roll the pool first.") in text_of(response)
    assert not RequestedRoll.objects.exists()


# --- What an import may bring -----------------------------------------------------------------


@pytest.mark.parametrize(("stored", "words"), [
    ({"light": -1, "dark": 0}, "light side Destiny points cannot be negative"),
    ({"light": 3, "dark": 0, "rolled": [1]}, "showing 1 pips holds 1 points, not 3"),
    ({"light": 0, "dark": 1, "rolled": [13]}, "a Force die has faces 1 to 12, not 13"),
    ([1, 2], "the Destiny pool must be an object"),
])
def test_a_stored_pool_no_move_could_leave_is_refused(stored: Any, words: str) -> None:
    with pytest.raises(RuleError) as error:
        SYSTEM.check_system_data({"destiny": stored})
    assert words in error.value.message


def test_a_rolled_pool_flipped_since_is_accepted() -> None:
    SYSTEM.check_system_data({"destiny": {"light": 1, "dark": 2, "rolled": [10, 1]}})
