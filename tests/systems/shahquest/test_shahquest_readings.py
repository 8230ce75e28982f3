"""A GM's table reading at a Shahquest table (docs/systems/shahquest.md, Table readings): no
effect die when no die is left, in the character's odds and roll. The engine's side is in
tests/rulesets/shahquest/test_shahquest_readings.py; the settings page's in
tests/campaigns/test_table_readings.py.

Feature indices of Demetri's sheet (DEMO_DATA): 3 Coordination d10, 8 I've got your back
(quirk d8).
"""

from __future__ import annotations

import pytest

from campaigns.services import readings_update
from rolls.models import Roll
from tests import shahquest_cast as cast
from tests.helpers import campaign_action_url, odds_url, roll_url
from tests.shahquest_cast import text_of

pytestmark = pytest.mark.django_db

sq_campaign, demetri = cast.sq_campaign, cast.demetri

TWO_DICE = {"feature": ["3", "8"]}
"""Coordination d10 and the quirk d8: both dice make the effort, none is left for the effect."""


def test_no_effect_die_when_the_gm_reads_it_so_in_the_odds_and_the_roll(
    sq_campaign, demetri, alice, bob, client_for, scripted_dice
):
    player = client_for(bob)
    assert "No effect die" not in text_of(player.get(odds_url(demetri), TWO_DICE))

    readings_update(campaign=sq_campaign, values={"effect_die_default": "no_effect"}, by=alice)

    assert "No effect die 100.0 %" in text_of(player.get(odds_url(demetri), TWO_DICE))
    scripted_dice([7, 5])
    player.post(roll_url(demetri), TWO_DICE)
    roll = Roll.objects.get(character=demetri)
    assert (roll.result["effort"], roll.result["effect_die"]) == (12, None)
    assert roll.readings == {"effect_die_default": "no_effect"}
    page = text_of(player.get(roll.get_absolute_url()))
    assert "Effort 12, no effect die" in page
    assert "No effect die when no die is left after the effort total (table reading)" in page

    # The GM's general danger follows it too: 3d6 showing 1, 4, 5 leave no die for the effect.
    scripted_dice([1, 4, 5])
    panel = client_for(alice).post(campaign_action_url(sq_campaign, "tension-danger"),
                                   {"setting_die": ""}, follow=True)
    danger = Roll.objects.get(kind="general_danger")
    assert (danger.summary, danger.readings) == ("Effort 9, no effect die, 1 opportunity",
                                                 {"effect_die_default": "no_effect"})
    assert "General danger: effort 9, no effect die." in text_of(panel)
