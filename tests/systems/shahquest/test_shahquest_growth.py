"""Growing a Shahquest character after creation, through the ledger: a new attribute, skill or
power bought with XP (the advancement house rule, docs/systems/shahquest.md; Shahquest wiki,
Feature Types: "Any intelligent character is capable of learning Skills given time and proper
training"), a feature renamed, and a feature the GM removes, giving back only what the ledger
shows spent on it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import XpEntry
from characters.services import xp_award
from tests import shahquest_cast as cast
from tests.helpers import spend_url
from tests.shahquest_cast import action_url, fresh, text_of

pytestmark = pytest.mark.django_db
sq_campaign, demetri = cast.sq_campaign, cast.demetri  # the fixtures, shared


def feature(character, kind, name):  # type: ignore[no-untyped-def]
    return next((f for f in fresh(character).sheet["features"]
                 if f["type"] == kind and f["name"] == name), None)


def test_a_new_skill_costs_4_xp_at_d4_and_its_undo_takes_it_off_the_sheet(
        demetri, alice, bob, client_for, ledger_stays_balanced):
    xp_award(character=demetri, amount=10, reason="Heist", by=alice)
    client = client_for(bob, htmx=True)

    refused = client.post(action_url(demetri, "feature-learn"),
                          {"type": "skill", "name": "physical", "expected_cost": "4"})
    assert "already has a skill called physical" in text_of(refused)
    assert "Shahquest wiki, Feature Types" in text_of(refused)
    no_set = client.post(action_url(demetri, "feature-learn"),
                         {"type": "power_set", "name": "Blink", "expected_cost": "4"})
    assert "The power Blink belongs to a power set: name it." in text_of(no_set)
    client.post(action_url(demetri, "feature-learn"),
                {"type": "skill", "name": "Stealth", "expected_cost": "4"})

    assert feature(demetri, "skill", "Stealth") == {
        "type": "skill", "name": "Stealth", "die": 4, "count": 1, "specializations": []}
    assert fresh(demetri).xp_available == 6
    entry = XpEntry.objects.get(character=demetri, kind=XpEntry.Kind.SPEND)
    assert (entry.trait_key, entry.rank_from, entry.rank_to) == ("skill:Stealth", 0, 4)
    undo = reverse("characters:character-xp-undo", args=[demetri.pk, entry.pk])
    assert "The new skill Stealth (d4) comes off the sheet." in text_of(client_for(bob).get(undo))
    client_for(bob).post(undo)
    assert feature(demetri, "skill", "Stealth") is None
    assert fresh(demetri).xp_available == 10


def test_a_renamed_feature_keeps_its_purchases_and_the_gms_removal_gives_back_only_them(
        demetri, alice, bob, client_for, ledger_stays_balanced):
    xp_award(character=demetri, amount=20, reason="Heist", by=alice)
    client_for(bob).post(spend_url(demetri), {"key": "attribute:Wits", "expected_cost": "10"})
    player, gm = client_for(bob, htmx=True), client_for(alice, htmx=True)

    player.post(action_url(demetri, "feature-edit"),
                {"which": "attribute:Wits", "name": "Cunning"})

    assert feature(demetri, "attribute", "Cunning") == {
        "type": "attribute", "name": "Cunning", "die": 10, "count": 1, "ledger_name": "Wits"}
    taken = player.post(action_url(demetri, "feature-learn"),
                        {"type": "attribute", "name": "Wits", "expected_cost": "4"})
    assert "had one under that name" in text_of(taken)
    assert player.post(action_url(demetri, "feature-remove"),
                       {"which": "attribute:Cunning", "confirm": "on"}).status_code == 404
    unconfirmed = gm.post(action_url(demetri, "feature-remove"), {"which": "attribute:Cunning"})
    assert "Tick the box to confirm" in text_of(unconfirmed)

    removed = gm.post(action_url(demetri, "feature-remove"),
                      {"which": "attribute:Cunning", "confirm": "on"})

    assert ("Removed the attribute Cunning: the 10 XP spent on it come back (1 purchase "
            "reversed).") in text_of(removed)
    assert feature(demetri, "attribute", "Cunning") is None
    assert fresh(demetri).xp_available == 20
    reversal = XpEntry.objects.get(character=demetri, kind=XpEntry.Kind.REVERSAL)
    assert reversal.reverses.trait_key == "attribute:Wits"
    rope = gm.post(action_url(demetri, "feature-remove"),
                   {"which": "resource:Grappling hook", "confirm": "on"})
    assert "no XP was spent on it, so none comes back" in text_of(rope)
    solo = gm.post(action_url(demetri, "feature-edit"), {"which": "affiliation:Solo",
                                                         "name": "Alone"})
    assert "Shahquest wiki, Affiliations" in text_of(solo)


def test_a_dialog_drawn_before_a_feature_was_removed_rolls_nothing(
        demetri, alice, bob, client_for):
    # The dialog names features by position: drawn before the removal, its first box would
    # now be the feature that moved into that place.
    page = client_for(bob).get(reverse("rolls:roll-create", args=[demetri.pk])).content.decode()
    seen = page.split('name="features_seen" value="', 1)[1].split('"', 1)[0]
    client_for(alice).post(action_url(demetri, "feature-remove"),
                           {"which": "resource:Grappling hook", "confirm": "on"})
    assert feature(demetri, "resource", "Grappling hook") is None

    stale = client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[demetri.pk]),
                                            {"feature": ["0"], "features_seen": seen})

    assert "The sheet's features changed since this roll was drawn" in text_of(stale)
    assert not demetri.rolls.exists()
