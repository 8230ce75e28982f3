"""Shattered World's table readings at the table (docs/systems/shattered_world.md, Table
readings): the GM's choice on the settings page changes a character's odds, roll and buy-in
prices; the engine's cases are in tests/rulesets/shattered_world/."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rolls.models import Roll
from tests import shattered_world_cast as sheet_tests
from tests.helpers import odds_url, roll_url, spend_url, text_of

pytestmark = pytest.mark.django_db
kaelin = sheet_tests.kaelin  # the fixture, shared
sw_campaign = sheet_tests.sw_campaign  # the fixture, shared

READINGS = {"multiplier_order": "as_written", "zero_becomes_one": "every_total",
            "field_role_hit_points": "not_allowed"}
# Kaelin's field role die, a d8, halved then tripled against 10: ×2 at the seed's reading
# (faces 5-8 reach 10), ×5/2 in the order written (a 4 does too).
POOL = {"die": "frd", "target": "10", "modifiers": "", "multipliers": "/2 x3", "action": ""}
TOUGH = {"name": "Toughness", "cost": "2/e", "effect": "+5 HP", "field_role": "Mage",
         "subrole": "", "ability": "", "hit_points": 5, "min_achievements": 0, "requires": ""}


def test_the_gms_readings_change_the_odds_the_roll_and_the_price_of_hit_points(
    client_for, alice, bob, kaelin, scripted_dice
):
    player = client_for(bob, htmx=True)
    assert "Success 50.0 %" in text_of(player.get(odds_url(kaelin), POOL))
    kaelin.campaign.system_data = {"custom_buy_ins": [TOUGH]}
    kaelin.campaign.save(update_fields=["system_data"])
    kaelin.sheet = {**kaelin.sheet, "achievements": {"total": 30, "milestones": [],
                                                      "feats": {}}}
    kaelin.save(update_fields=["sheet"])
    assert "Toughness 0 → 1" in text_of(client_for(bob).get(spend_url(kaelin),
                                                            {"key": "buy_in:Toughness"}))

    client_for(alice).post(reverse("campaigns:campaign-readings", args=[kaelin.campaign.pk]),
                           READINGS)

    odds = text_of(player.get(odds_url(kaelin), POOL))
    assert "Success 62.5 %" in odds
    assert "final factor ×5/2 (table reading)" in odds
    scripted_dice([4])
    player.post(roll_url(kaelin), POOL)
    made = Roll.objects.get()
    assert (made.outcome, made.result["total"]) == ("success", 10)
    assert made.result["pool"]["multiplier_order"] == "as_written"
    assert made.readings == {"multiplier_order": "as_written",
                             "field_role_hit_points": "not_allowed"}
    refused = client_for(bob).get(spend_url(kaelin), {"key": "buy_in:Toughness"})
    assert refused.status_code == 400
    assert ('Toughness: hit points are not bought from another field role at this table '
            '(table reading "Hit points from another field role": not allowed).'
            in text_of(refused))
