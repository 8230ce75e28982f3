"""A merit or flaw the GM grants or removes after creation (Maelstrom rules.md, Merits and
Flaws: "the storyteller may provide an opportunity to acquire a specific merit or flaw. In
these cases, it'll award or cost available experience points"): the sheet actions
"merit-flaw-grant" and "merit-flaw-remove" of characters:character-action, GM only."""

from __future__ import annotations

import pytest
from django.urls import reverse

import systems
from characters.ledger import ledger_append
from characters.models import XpEntry
from rulesets.maelstrom.storage import LedgerKind
from tests.factories import CharacterFactory
from tests.helpers import action_url, fresh, spend_url, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]


def test_the_gm_grants_a_merit_for_its_xp_and_removing_it_gives_the_xp_back(
    client_for, alice, bobs_character
):
    gm = client_for(alice, htmx=True)
    assert 'id="merit-grant"' in gm.get(bobs_character.get_absolute_url()).content.decode()

    granted = gm.post(action_url(bobs_character, "merit-flaw-grant"),
                      {"choice": "Huge Size|4", "detail": ""})

    assert "Granted Huge Size: 4 XP spent." in text_of(granted)
    assert "Huge Size — merit, 4 XP" in text_of(granted)
    rook = fresh(bobs_character)
    assert (rook.xp_available, rook.xp_total) == (26, 30)
    assert rook.sheet["health"]["huge_size"] is True
    entry = rook.xp_entries.get(kind=LedgerKind.MERIT_GRANTED)
    assert (entry.available_delta, entry.reason) == (-4, "Merit granted: Huge Size")

    removed = gm.post(action_url(bobs_character, "merit-flaw-remove"),
                      {"which": "merit:Huge Size", "confirm": "on"})

    assert "Removed Huge Size: 4 XP given back." in text_of(removed)
    rook = fresh(bobs_character)
    assert (rook.xp_available, rook.sheet["merits_flaws"]) == (30, [])
    assert rook.sheet["health"]["huge_size"] is False
    assert rook.xp_entries.get(kind=XpEntry.Kind.REVERSAL).reverses == entry


def test_removing_a_creation_flaw_costs_its_points_and_is_refused_short_of_them(
    client_for, alice, campaign, bob
):
    rook = CharacterFactory(campaign=campaign, owner=bob, name="Rook", starting_xp=0,
                            merits_flaws=[{"kind": "flaw", "name": "Hunted", "points": 4}])
    creation = ledger_append(rook, kind=LedgerKind.FLAW, available_delta=4, total_delta=4,
                             reason="Flaw: Hunted", created_by=bob, at_creation=True)
    ledger_append(rook, kind=XpEntry.Kind.SPEND, available_delta=-1, reason="Spent",
                  created_by=bob)
    gm = client_for(alice)

    short = gm.post(action_url(rook, "merit-flaw-remove"),
                    {"which": "flaw:Hunted", "confirm": "on"}, follow=True)
    assert ("Removing Hunted costs the 4 XP it gave; Rook has 3 XP available (1 short). "
            "(Maelstrom rules, Merits and Flaws)") in text_of(short)
    assert len(fresh(rook).sheet["merits_flaws"]) == 1

    ledger_append(rook, kind=XpEntry.Kind.AWARD, available_delta=1, total_delta=1,
                  reason="Heroism award", created_by=alice)
    gm.post(action_url(rook, "merit-flaw-remove"), {"which": "flaw:Hunted", "confirm": "on"})
    rook = fresh(rook)
    assert (rook.xp_available, rook.xp_total, rook.sheet["merits_flaws"]) == (0, 1, [])
    assert creation.reversal.reason == "Removed: Flaw: Hunted"


def test_a_grant_is_refused_with_a_reason_when_xp_is_short_or_a_flaws_condition_fails(
    client_for, alice, bobs_character
):
    gm = client_for(alice, htmx=True)
    ledger_append(bobs_character, kind=XpEntry.Kind.SPEND, available_delta=-29, reason="Spent",
                  created_by=alice)

    dear = gm.post(action_url(bobs_character, "merit-flaw-grant"),
                   {"choice": "Strong Bond|4", "detail": "my sister"})
    inept = gm.post(action_url(bobs_character, "merit-flaw-grant"),
                    {"choice": "Inept|2", "detail": "Science"})

    assert ("Strong Bond (my sister) costs 4 XP; Rook has 1 XP available (3 short). "
            "(Maelstrom rules, Merits and Flaws)") in text_of(dear)
    assert ("Inept is taken in an ability with at least one dot; Science has none "
            "(Maelstrom rules, Flaws)") in text_of(inept)
    assert fresh(bobs_character).sheet["merits_flaws"] == []
    assert fresh(bobs_character).xp_entries.count() == 2  # the starting XP and the spend


def test_a_removal_needs_its_confirmation_and_the_player_has_neither_action(
    client_for, alice, bob, campaign
):
    rook = CharacterFactory(campaign=campaign, owner=bob, name="Rook",
                            merits_flaws=[{"kind": "merit", "name": "Early Riser",
                                           "points": 1}])

    unconfirmed = client_for(alice).post(action_url(rook, "merit-flaw-remove"),
                                         {"which": "merit:Early Riser"}, follow=True)
    player = client_for(bob)

    assert "Tick the box to confirm: removing it reverses its XP." in text_of(unconfirmed)
    assert 'id="merit-grant"' not in player.get(rook.get_absolute_url()).content.decode()
    assert player.post(action_url(rook, "merit-flaw-grant"),
                       {"choice": "Short|1"}).status_code == 404
    assert player.post(action_url(rook, "merit-flaw-remove"),
                       {"which": "merit:Early Riser", "confirm": "on"}).status_code == 404
    assert len(fresh(rook).sheet["merits_flaws"]) == 1


def test_an_undo_cannot_take_the_ability_inept_names_to_zero_dots(
    client_for, alice, bobs_character
):
    # "Choose an ability in which your character has at least one dot" (Flaws, Inept): the
    # ability bought from 0 to 1, Inept granted on it, the purchase's undo is refused.
    gm = client_for(alice)
    cost = systems.for_ruleset("maelstrom").quote(bobs_character, "ability:Performance").cost
    gm.post(spend_url(bobs_character), {"key": "ability:Performance",
                                        "expected_cost": str(cost)})
    spend = fresh(bobs_character).xp_entries.get(kind=XpEntry.Kind.SPEND)
    assert fresh(bobs_character).sheet["abilities"]["Performance"] == 1
    gm.post(action_url(bobs_character, "merit-flaw-grant"),
            {"choice": "Inept|2", "detail": "Performance"})

    refused = gm.post(reverse("characters:character-xp-undo",
                              args=[bobs_character.pk, spend.pk]), follow=True)

    assert "Inept names Performance, which keeps at least one dot" in text_of(refused)
    assert fresh(bobs_character).sheet["abilities"]["Performance"] == 1
