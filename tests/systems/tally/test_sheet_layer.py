"""The shared sheet layer every system goes through (systems/).

A tiny made-up system, "tally" (a sheet holding one number: the test-only package
tests/tally/, registered for the session by tests/conftest.py), drives the generic views and
services, so the contract is tested apart from any real system: creation, in-place changes,
XP purchases and their undo, rolls and their follow-ups, odds, and the GM's campaign panel.
Each change is all or nothing, and every view answers HTMX with its partial and a plain POST
with a redirect.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

import systems
from campaigns.models import Campaign, Membership
from characters.models import Character, XpEntry
from characters.services import character_create_from_data, xp_undo
from rolls.models import Roll
from rulesets.errors import RuleError
from rulesets.registry import RULESETS
from tests.factories import CampaignFactory
from tests.helpers import action_url
from tests.tally.system import SYSTEM as TALLY

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice: Any, bob: Any) -> Campaign:
    campaign = CampaignFactory(name="Counting House", ruleset="tally", created_by=alice,
                               starting_xp=10)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def tallier(table: Campaign, bob: Any) -> Character:
    return character_create_from_data(campaign=table, owner=bob,
                                      data={"name": "Tam", "concept": "counts", "tally": 2})


def test_every_system_has_its_sheet_layer_and_an_unknown_one_is_refused() -> None:
    assert systems.for_ruleset("tally") is TALLY
    assert all(systems.for_ruleset(slug).slug == slug for slug in RULESETS)
    with pytest.raises(LookupError, match="no_such_system"):
        systems.for_ruleset("no_such_system")


# --- creation -----------------------------------------------------------------------------


def test_a_player_creates_a_character_and_its_starting_xp_opens_the_ledger(client_for, bob,
                                                                           table):
    url = reverse("characters:character-create", args=[table.pk])
    response = client_for(bob).post(url, {"name": "Tam", "tally": "3"})

    character = Character.objects.get()
    assert response.status_code == 302 and response["Location"] == character.get_absolute_url()
    assert character.sheet == {"tally": 3} and character.owner == bob
    assert character.xp_available == 10
    assert character.xp_entries.get().kind == XpEntry.Kind.STARTING


def test_an_invalid_creation_re_renders_the_form_with_the_input_and_writes_nothing(
        client_for, bob, table):
    url = reverse("characters:character-create", args=[table.pk])
    response = client_for(bob).post(url, {"name": "Tam", "tally": "9"})

    assert response.status_code == 400
    assert b'value="Tam"' in response.content
    assert b"less than or equal to 5" in response.content
    assert not Character.objects.exists()


def test_strangers_cannot_create_and_visitors_must_log_in(client, client_for, carol, table):
    url = reverse("characters:character-create", args=[table.pk])
    assert client_for(carol).get(url).status_code == 404
    assert client.get(url)["Location"].startswith(reverse("login"))


# --- the sheet and its in-place changes ---------------------------------------------------


def test_the_sheet_renders_the_systems_own_template(client_for, bob, tallier,
                                                    django_assert_num_queries):
    client = client_for(bob)
    client.get(tallier.get_absolute_url())  # warm the session and template caches
    # with the Equipment card's items, the encounter, the last session (history.between)
    with django_assert_num_queries(8):
        response = client.get(tallier.get_absolute_url())

    assert response.status_code == 200
    assert b"Tally 2" in response.content


@pytest.mark.parametrize("htmx", [True, False])
def test_a_change_is_made_in_place_or_redirected_with_a_message(client_for, bob, tallier,
                                                                htmx):
    response = client_for(bob, htmx=htmx).post(action_url(tallier, "add"), {"amount": "3"},
                                               follow=not htmx)

    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 5
    assert b"Tally now 5." in response.content
    if htmx:
        assert response.content.decode().startswith('<div id="sheet-tracks">')
        assert "trackChanged" in response["HX-Trigger"]
    else:
        assert response.redirect_chain[-1][0] == tallier.get_absolute_url()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_change_names_the_rule_and_writes_nothing(client_for, bob, tallier, htmx):
    tallier.sheet["tally"] = 9
    tallier.save()

    response = client_for(bob, htmx=htmx).post(action_url(tallier, "add"), {"amount": "2"},
                                               follow=not htmx)

    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 9
    assert b"A tally stops at 10. (Tally rules, Limits)" in response.content


def test_an_invalid_form_says_why(client_for, bob, tallier):
    response = client_for(bob, htmx=True).post(action_url(tallier, "add"), {"amount": "x"})

    assert b"Enter a whole number." in response.content
    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 2


def test_a_change_from_the_dashboard_answers_with_the_card(client_for, alice, tallier):
    response = client_for(alice, htmx=True).post(action_url(tallier, "add"),
                                                 {"amount": "1", "from": "dashboard"})

    assert response.content.decode().strip().startswith(f'<article id="card-{tallier.pk}">')
    assert b"tally 3" in response.content


def test_a_gm_only_change_is_hidden_from_players_and_open_to_the_gm(client_for, alice, bob,
                                                                    tallier):
    assert client_for(bob).post(action_url(tallier, "reset")).status_code == 404
    client_for(alice).post(action_url(tallier, "reset"))

    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 0


def test_unknown_changes_strangers_and_visitors_get_nothing(client, client_for, bob, carol,
                                                           tallier):
    assert client_for(bob).post(action_url(tallier, "explode")).status_code == 404
    assert client_for(carol).post(action_url(tallier, "add"), {"amount": "1"}).status_code == 404
    assert client.post(action_url(tallier, "add"))["Location"].startswith(reverse("login"))
    assert client_for(bob).get(action_url(tallier, "add")).status_code == 405
    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 2


# --- XP -----------------------------------------------------------------------------------


def test_the_xp_page_lists_what_xp_buys_with_its_price(client_for, bob, tallier):
    response = client_for(bob).get(reverse("characters:character-xp", args=[tallier.pk]))

    assert b"Tally 2 -&gt; 3: <strong>6 XP</strong>" in response.content
    assert b"Tally extras" in response.content


def test_buying_shows_the_price_then_spends_it_as_one_ledger_entry(client_for, bob, tallier,
                                                                   ledger_stays_balanced):
    url = reverse("characters:character-xp-spend", args=[tallier.pk])
    quote = client_for(bob).get(url, {"key": "tally"})
    assert b"Confirm: spend 6 XP" in quote.content

    client_for(bob).post(url, {"key": "tally", "expected_cost": "6"})

    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 3 and tallier.xp_available == 4
    spend = tallier.xp_entries.get(kind=XpEntry.Kind.SPEND)
    assert (spend.trait_key, spend.rank_from, spend.rank_to, spend.cost) == ("tally", 2, 3, 6)


def test_a_changed_price_or_a_shortfall_is_refused_and_nothing_is_spent(client_for, bob,
                                                                        tallier):
    url = reverse("characters:character-xp-spend", args=[tallier.pk])
    changed = client_for(bob, htmx=True).post(url, {"key": "tally", "expected_cost": "4"})
    assert b"The price changed to 6 XP" in changed.content

    tallier.sheet["tally"] = 5
    tallier.save()
    short = client_for(bob, htmx=True).post(url, {"key": "tally", "expected_cost": "12"})
    assert b"costs 12 XP; you have 10 XP available (2 short)" in short.content

    tallier.refresh_from_db()
    assert tallier.xp_available == 10 and tallier.sheet["tally"] == 5
    assert not tallier.xp_entries.filter(kind=XpEntry.Kind.SPEND).exists()


def test_an_unknown_purchase_names_the_reason(client_for, bob, tallier):
    url = reverse("characters:character-xp-spend", args=[tallier.pk])
    response = client_for(bob).get(url, {"key": "gold"})

    assert response.status_code == 400
    assert b"&#x27;gold&#x27; is not for sale." in response.content


def test_undo_is_a_reversing_entry_that_puts_the_rank_back(client_for, bob, tallier,
                                                          ledger_stays_balanced):
    url = reverse("characters:character-xp-spend", args=[tallier.pk])
    client_for(bob).post(url, {"key": "tally", "expected_cost": "6"})
    spend = tallier.xp_entries.get(kind=XpEntry.Kind.SPEND)

    xp_undo(entry=spend, by=bob, as_gm=False)

    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 2 and tallier.xp_available == 10
    assert tallier.xp_entries.filter(kind=XpEntry.Kind.REVERSAL, reverses=spend).exists()


def test_the_undo_page_says_what_goes_back_in_the_contracts_generic_words(
        client_for, bob, tallier):
    url = reverse("characters:character-xp-spend", args=[tallier.pk])
    client_for(bob).post(url, {"key": "tally", "expected_cost": "6"})
    spend = tallier.xp_entries.get(kind=XpEntry.Kind.SPEND)

    response = client_for(bob).get(
        reverse("characters:character-xp-undo", args=[tallier.pk, spend.pk]))

    assert b"Tally goes back from 3 to 2. The XP comes back. The ledger keeps both" \
        in response.content


def test_undo_is_refused_when_the_rank_changed_since(bob, tallier, alice):
    from characters.services import xp_spend

    spend = xp_spend(character=tallier, key="tally", by=bob)
    tallier.refresh_from_db()
    tallier.sheet["tally"] = 7
    tallier.save()

    with pytest.raises(RuleError, match="has been changed since this spend"):
        xp_undo(entry=spend, by=alice, as_gm=True)


# --- rolls --------------------------------------------------------------------------------


def test_a_roll_is_stored_with_the_engines_result_and_drawn_by_the_system(
        client_for, bob, tallier, scripted_dice):
    scripted_dice([4])
    response = client_for(bob, htmx=True).post(
        reverse("rolls:roll-create", args=[tallier.pk]), {})

    roll = Roll.objects.get()
    assert (roll.ruleset, roll.result, roll.net, roll.summary) == ("tally", {"face": 4}, 4,
                                                                   "rolled 4")
    assert b'<p class="tally-roll">Rolled 4</p>' in response.content
    assert "rollMade" in response["HX-Trigger"]


def test_what_a_roll_spends_from_the_sheet_is_spent_in_the_same_transaction(
        client_for, bob, tallier, scripted_dice):
    scripted_dice([6])
    client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[tallier.pk]),
                                    {"spend": "on"})

    tallier.refresh_from_db()
    assert tallier.sheet["tally"] == 1 and Roll.objects.count() == 1


@pytest.mark.parametrize("htmx", [True, False])
def test_an_illegal_roll_names_the_rule_and_stores_nothing(client_for, bob, tallier, htmx):
    tallier.sheet["tally"] = 0
    tallier.save()

    response = client_for(bob, htmx=htmx).post(
        reverse("rolls:roll-create", args=[tallier.pk]), {"spend": "on"})

    assert b"Nothing left on the tally to spend." in response.content
    assert not Roll.objects.exists()
    assert response.status_code == (200 if htmx else 400)


def test_the_roll_dialog_works_without_javascript(client_for, bob, tallier):
    response = client_for(bob).get(reverse("rolls:roll-create", args=[tallier.pk]))

    assert response.status_code == 200
    assert b'id="roll-form"' in response.content


def test_odds_come_from_the_system(client_for, bob, tallier):
    url = reverse("rolls:roll-odds", args=[tallier.pk])
    response = client_for(bob, htmx=True).get(url)

    assert b"one die" in response.content and b"16.7 %" in response.content
    assert b"Six 16.7 %" in response.content  # the phone's roll bar


def test_a_follow_up_is_a_new_roll_on_its_parent(client_for, bob, carol, tallier,
                                                 scripted_dice):
    scripted_dice([2, 5])
    client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[tallier.pk]), {})
    roll = Roll.objects.get()
    url = reverse("rolls:roll-act", args=[roll.code, "reroll"])

    assert client_for(carol).post(url).status_code == 404
    assert client_for(bob).post(reverse("rolls:roll-act", args=[roll.code, "nope"])
                                ).status_code == 404
    response = client_for(bob, htmx=True).post(url)

    followup = Roll.objects.get(parent=roll)
    assert followup.summary == "rerolled 5"
    assert b"then rerolled 5" in response.content


def test_the_roll_log_draws_each_roll_with_the_systems_template(client_for, bob, alice,
                                                                tallier, scripted_dice):
    scripted_dice([3])
    client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[tallier.pk]), {})

    response = client_for(alice).get(reverse("rolls:roll-list", args=[tallier.campaign_id]))

    assert b'<p class="tally-roll">Rolled 3</p>' in response.content


# --- the GM's campaign panel --------------------------------------------------------------


def test_the_dashboard_shows_the_systems_panel_and_cards_to_the_gm(client_for, alice, bob,
                                                                   tallier):
    gm = client_for(alice).get(tallier.campaign.get_absolute_url())
    player = client_for(bob).get(tallier.campaign.get_absolute_url())

    assert b'id="system-panel"' in gm.content and b"Card of Tam: tally 2" in gm.content
    assert b'id="system-panel"' not in player.content and b"Card of Tam" not in player.content


@pytest.mark.parametrize("htmx", [True, False])
def test_the_gm_changes_campaign_data_all_or_nothing(client_for, alice, table, htmx):
    url = reverse("table:campaign-system-action", args=[table.pk, "bump"])
    client = client_for(alice, htmx=htmx)
    for _ in range(3):
        client.post(url)
    refused = client.post(url, follow=not htmx)

    table.refresh_from_db()
    assert table.system_data["tally"] == 3
    assert b"The campaign tally stops at 3." in refused.content


def test_players_strangers_and_unknown_campaign_changes_get_404(client_for, bob, carol,
                                                               alice, table):
    url = reverse("table:campaign-system-action", args=[table.pk, "bump"])
    assert client_for(bob).post(url).status_code == 404
    assert client_for(carol).post(url).status_code == 404
    assert client_for(alice).post(
        reverse("table:campaign-system-action", args=[table.pk, "nope"])).status_code == 404
    table.refresh_from_db()
    assert table.system_data == {}


# --- roll requests ------------------------------------------------------------------------


def test_the_gm_asks_everyone_and_each_sheet_shows_the_prefilled_roll(
        client_for, alice, bob, tallier, table, scripted_dice):
    other = character_create_from_data(campaign=table, owner=alice,
                                       data={"name": "Ula", "tally": 1})
    url = reverse("rolls:requested-roll-create", args=[table.pk])
    response = client_for(alice, htmx=True).post(
        url, {"character": "all", "spend": "on", "note": "Count the coins"})

    assert b"Asked Tam, Ula for One die, spending one." in response.content
    sheet = client_for(bob).get(tallier.get_absolute_url()).content.decode()
    asked = tallier.requested_rolls.get()
    assert "One die, spending one" in sheet and "Count the coins" in sheet
    assert f'name="answers" value="{asked.pk}"' in sheet
    assert '<input type="hidden" name="spend" value="on">' in sheet

    scripted_dice([5])
    client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[tallier.pk]),
                                    {"answers": str(asked.pk), "spend": "on"})
    asked.refresh_from_db()
    tallier.refresh_from_db()
    assert asked.answer.net == 5 and tallier.sheet["tally"] == 1
    assert other.requested_rolls.get().answer is None


def test_a_request_someone_cannot_roll_names_them_and_asks_nobody(client_for, alice, tallier,
                                                                  table):
    character_create_from_data(campaign=table, owner=alice, data={"name": "Ula", "tally": 0})
    url = reverse("rolls:requested-roll-create", args=[table.pk])
    response = client_for(alice).post(url, {"character": "all", "spend": "on"}, follow=True)

    assert b"Ula: Nothing left on the tally to spend." in response.content
    assert not tallier.requested_rolls.exists()


def test_players_cannot_ask_for_rolls(client_for, bob, table, tallier):
    url = reverse("rolls:requested-roll-create", args=[table.pk])
    assert client_for(bob).post(url, {"character": "all"}).status_code == 404
    assert not tallier.requested_rolls.exists()


# --- session awards -----------------------------------------------------------------------


def test_the_session_grid_offers_the_systems_awards_and_refuses_a_second_once_only_one(
        client_for, alice, tallier, table, ledger_stays_balanced):
    from campaigns.models import Session

    session = Session.objects.create(campaign=table, date="2026-11-21")
    page = client_for(alice).get(session.get_absolute_url())
    assert b"First count" in page.content and b"Participation" not in page.content

    grid = {"expected_entries": "0", f"awards-{tallier.pk}": ["First count", "Counted again"],
            f"amount-{tallier.pk}": "2", f"reason-{tallier.pk}": "Good counting"}
    client_for(alice).post(session.get_absolute_url(), grid)
    tallier.refresh_from_db()
    assert tallier.xp_available == 10 + 4
    assert session.xp_entries.count() == 3

    again = client_for(alice, htmx=True).post(
        session.get_absolute_url(),
        {"expected_entries": "3", f"awards-{tallier.pk}": ["First count"]})
    assert b"Tam: The first count comes once." in again.content
    assert session.xp_entries.count() == 3


# --- another system's changes are not on this sheet -----------------------------------------


@pytest.mark.parametrize(("action", "data"), [
    ("damage", {"kind": "lethal", "levels": "2"}),
    ("willpower", {"action": "spend"}),
    ("bank", {"trait": "willpower", "amount": "1"}),
])
def test_another_systems_track_actions_are_404_on_this_sheet(client_for, bob, tallier,
                                                            action, data):
    """Maelstrom's damage, willpower and banking are its sheet's actions: on a tally sheet
    the same URL names no change (404) and nothing is written."""
    assert action in systems.for_ruleset("maelstrom").actions
    response = client_for(bob).post(action_url(tallier, action), data)

    assert response.status_code == 404
    tallier.refresh_from_db()
    assert tallier.sheet == {"tally": 2} and tallier.xp_available == 10
    assert tallier.xp_entries.count() == 1


@pytest.mark.parametrize("action", ["experience-die", "willpower-spend"])
def test_another_systems_roll_follow_ups_are_404_on_this_roll(client_for, bob, tallier,
                                                             scripted_dice, action):
    assert action in systems.for_ruleset("maelstrom").roll_actions
    scripted_dice([4])
    client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[tallier.pk]), {})
    roll = Roll.objects.get()

    response = client_for(bob).post(reverse("rolls:roll-act", args=[roll.code, action]),
                                    {"key": "willpower"})

    assert response.status_code == 404
    assert not Roll.objects.filter(parent=roll).exists()
    tallier.refresh_from_db()
    assert tallier.xp_available == 10


# --- the system's stylesheet ---------------------------------------------------------------


def test_every_page_of_a_system_links_its_stylesheet_and_no_other(
        client_for, alice, bob, tallier, scripted_dice, bobs_character):
    scripted_dice([2])
    client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[tallier.pk]), {})
    roll = Roll.objects.get()
    link = b'<link rel="stylesheet" href="/static/css/systems/tally.css">'
    pages = [tallier.get_absolute_url(), roll.get_absolute_url(),
             reverse("rolls:roll-list", args=[tallier.campaign_id]),
             reverse("characters:character-xp", args=[tallier.pk]),
             reverse("rolls:roll-create", args=[tallier.pk]),
             reverse("characters:character-create", args=[tallier.campaign_id])]
    for url in pages:
        assert link in client_for(bob).get(url).content, url
    assert link in client_for(alice).get(tallier.campaign.get_absolute_url()).content
    other = client_for(bob).get(bobs_character.get_absolute_url()).content
    assert b"css/systems/maelstrom.css" in other and b"css/systems/tally.css" not in other
