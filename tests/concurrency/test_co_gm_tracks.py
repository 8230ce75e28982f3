"""The GM's two tabs, a co-GM and the player's sheet change one character's health chart at
the same moment (Maelstrom rules.md, Marking Damage; docs/decisions.md, "The co-GM"): the
co-GM's marks go through the same row lock as everyone's, so every level any page confirmed
is on the chart, no more, and no change is lost."""

from __future__ import annotations

import pytest

from campaigns.models import Membership
from campaigns.services import membership_seat
from systems.maelstrom import sheet
from tests.concurrency import storm
from tests.concurrency.storm import made, refused
from tests.factories import UserFactory
from tests.helpers import action_url, fresh

pytestmark = storm.POSTGRES_ONLY


@pytest.fixture
def sessions(client_for, campaign, alice, bob) -> storm.Sessions:  # type: ignore[no-untyped-def]
    """The GM's dashboard in two tabs, Dana's (the co-GM's) dashboard, Bob's sheet."""
    dana = UserFactory(username="dana")
    seat = Membership.objects.create(campaign=campaign, user=dana)
    membership_seat(membership=seat, co_gm=True, by=alice)
    card = {"from": "dashboard"}
    return {"gm-card": (client_for(alice), card), "gm-tab": (client_for(alice), card),
            "co-gm-card": (client_for(dana), card), "player-sheet": (client_for(bob), {})}


def test_marks_and_heals_from_the_gm_the_co_gm_and_the_player_are_each_counted_once(
        bobs_character, sessions):
    """Each round two of the four pages mark one bashing level and two heal one, taking
    turns: the bashing on the chart is exactly the marks confirmed minus the heals confirmed,
    the co-GM's among them, and a heal that finds nothing to heal is refused."""
    moves = [("mark", action_url(bobs_character, "damage"), {"kind": "bashing", "levels": "1"}),
             ("heal", action_url(bobs_character, "heal"), {"kind": "bashing"})]

    attempts = storm.storm(storm.taking_turns(sessions, moves), rounds=30)

    assert len(attempts) == 120
    chart = sheet.health(fresh(bobs_character).sheet)
    marks, heals = made(attempts, "mark"), made(attempts, "heal")
    assert len(marks) == 60  # two marks a round never fill eight boxes: every one lands
    assert {a.who for a in marks} == set(sessions)
    assert (chart.bashing, chart.lethal, chart.aggravated) == (len(marks) - len(heals), 0, 0)
    assert all("only 0 levels of bashing" in a.message for a in refused(attempts)), [
        a.message for a in refused(attempts)]
