"""A Genesys campaign's table readings at the table (docs/systems/genesys.md, Table readings):
the GM's choice changes a player's odds next to the Roll button and the roll itself, which
keeps the readings it was made under. The engine's side is tests/rulesets/genesys/
test_genesys_readings.py."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign
from campaigns.services import readings_update
from rolls.models import Roll
from rulesets import genesys
from tests.helpers import odds_url, roll_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import text_of

pytestmark = pytest.mark.django_db

gx_campaign, kes = cast.gx_campaign, cast.kes

CHECK = {"skill": "Cool", "difficulty": "Impossible", "destiny_point": "on", "boost": "1",
         "setback": "2"}
"""Kestrel's Cool (Presence 2, rank 1): 1 ability, 1 proficiency, and the light point an
Impossible task requires, with a boost and two setback dice."""


def test_the_gms_readings_change_a_players_odds_and_roll(
    client_for, alice, bob, kes, gx_campaign, seeded_rng
) -> None:
    Campaign.objects.filter(pk=gx_campaign.pk).update(
        system_data={"destiny": {"light": 2, "dark": 1, "rolled": []}})
    player = client_for(bob, htmx=True)
    before = text_of(player.get(odds_url(kes), CHECK))
    assert "Presence + Cool, Impossible: 2 proficiency vs 5 difficulty, 1 boost, 2 setback" \
        in before

    readings_update(campaign=gx_campaign, by=alice,
                    values={"impossible_destiny": "attempt_only", "boost_setback": "cancel"})

    after = text_of(player.get(odds_url(kes), CHECK))
    assert "Presence + Cool, Impossible: 1 ability, 1 proficiency vs 5 difficulty, 1 setback" \
        in after
    assert "1 boost and 1 setback cancelled each other (table reading)" in after
    assert genesys.IMPOSSIBLE_FLIP_NOTE in after
    player.post(roll_url(kes), CHECK)
    roll = Roll.objects.get()
    assert roll.readings == {"impossible_destiny": "attempt_only", "boost_setback": "cancel"}
    assert genesys.DicePool.from_dict(roll.result["pool"]).notation() == "1A 1P 5D 1S"
    assert roll.result["pool"]["destiny_flips"] == ["light"]
