"""Shattered World statistics under concurrency: Bob's sheet and the GM's dashboard card lose
and regain points of the same pools at once (Shattered World Core Engine, Mechanical
(Non-Roleplay) Actions: a pool stops at 0 and at its maximum). Every point the pages
confirmed moved the pool by exactly one, and changing one pool never undoes another's change
stored in the same sheet."""

from __future__ import annotations

from characters.models import Character
from tests import shattered_world_cast as cast
from tests.concurrency import storm
from tests.concurrency.storm import made, refused, tried
from tests.helpers import action_url

pytestmark = storm.POSTGRES_ONLY

# The Shattered World cast (tests/shattered_world_cast.py):
# Alice GMs "The Shattered Coast", Bob plays Kaelin (Physical Fitness 18, 24 hit points).
sw_campaign, kaelin = cast.sw_campaign, cast.kaelin


def test_points_lost_and_regained_from_the_sheet_and_the_card_at_once_all_count(
    kaelin, client_for, alice, bob
):
    """Each round, of four sessions two lose a point of Physical Fitness, one regains one and
    one loses a hit point: Physical Fitness drains to 0 and then refuses, and both pools
    end exactly where the confirmed changes put them."""
    url = action_url(kaelin, "pool")
    moves = [("lose-PF", url, {"pool": "PF", "direction": "lose", "amount": "1"}),
             ("lose-PF", url, {"pool": "PF", "direction": "lose", "amount": "1"}),
             ("regain-PF", url, {"pool": "PF", "direction": "regain", "amount": "1"}),
             ("lose-HP", url, {"pool": "HP", "direction": "lose", "amount": "1"})]
    sessions = storm.sheet_and_card(client_for, player=bob, gm=alice)

    attempts = storm.storm(storm.taking_turns(sessions, moves), rounds=20)

    sheet = Character.objects.get(pk=kaelin.pk).sheet
    physical, hit_points = sheet["statistics"]["PF"], sheet["hit_points"]
    assert len(tried(attempts, "lose-PF")) == 40
    assert physical["current"] == (18 - len(made(attempts, "lose-PF"))
                                   + len(made(attempts, "regain-PF")))
    assert 0 <= physical["current"] <= physical["max"] == 18
    assert len(refused(attempts, "lose-PF")) > 0, "the storm should drain the pool to 0"
    assert len(made(attempts, "lose-HP")) == 20
    assert hit_points == {"current": 4, "max": 24}
    assert sheet["statistics"]["EN"] == {"current": 16, "max": 16}
    for attempt in refused(attempts):
        assert "is already at" in attempt.message, attempt
