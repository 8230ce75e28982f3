"""The Genesys Destiny pool under concurrency: the GM's two dashboard tabs, a co-GM's and the
player's sheet flip Destiny points at once (Genesys dice pool, Upgrading and Downgrading
Dice; Difficulty): the GM's tabs and the co-GM flip points by hand, each way, while Bob rolls
checks investing a light point. Every flip the pages confirmed happened exactly once: the
pool keeps its size, each side is the start plus the flips onto it minus the flips off it,
every confirmed roll is in the log with its flip, and a refusal only ever says that no point
of that side was left."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from campaigns.models import Campaign, Membership
from rolls.models import Roll
from tests.concurrency import storm
from tests.concurrency.storm import Attempt, made, refused, tried
from tests.factories import UserFactory
from tests.helpers import campaign_action_url, roll_url
from tests.systems.genesys import test_genesys_cast as cast

pytestmark = storm.POSTGRES_ONLY

# The Genesys cast (tests/systems/genesys/test_genesys_cast.py): alice GMs "The Long Night",
# Bob plays Kestrel.
gx_campaign, kes = cast.gx_campaign, cast.kes

START = {"light": 6, "dark": 6}
ROUNDS = 16
CO_GM = getattr(Membership.Role, "CO_GM", None)
"""The co-GM's seat (the campaigns app's), which runs the table as the GM does."""


def pool_of(campaign: Campaign) -> dict[str, int]:
    data = Campaign.objects.get(pk=campaign.pk).system_data["destiny"]
    return {"light": data["light"], "dark": data["dark"]}


@pytest.mark.skipif(CO_GM is None, reason="no co-GM seat in this tree yet")
def test_the_gms_tabs_a_co_gm_and_a_players_checks_flip_the_pool_and_lose_no_flip(
    gx_campaign, kes, client_for, alice, bob
):
    erin = UserFactory(username="erin")
    Membership.objects.create(campaign=gx_campaign, user=erin, role=CO_GM)
    assert storm.post(client_for(alice), campaign_action_url(gx_campaign, "destiny-set"),
                      {"light": "6", "dark": "6"}, who="alice", action="setup").ok
    flip_url = campaign_action_url(gx_campaign, "destiny-flip")

    def flipping(client: Client, who: str, sides: tuple[str, ...]
                 ) -> Callable[[int], Attempt]:
        """A GM's page flipping by hand, ``sides`` in turn (the side the point shows now)."""
        def act(n: int) -> Attempt:
            side = sides[n % len(sides)]
            return storm.post(client, flip_url, {"side": side}, who=who, action=f"{side}-flip")
        return act

    def rolling(client: Client) -> Callable[[int], Attempt]:
        """Bob's sheet: a check investing a light point (a light point turns dark)."""
        def act(n: int) -> Attempt:
            return storm.post(client, roll_url(kes),
                              {"skill": "Ranged", "difficulty": "Average",
                               "destiny_point": "on"}, who="bob", action="light-flip-roll")
        return act

    attempts = storm.storm({
        "alice-tab-1": flipping(client_for(alice), "alice-tab-1", ("dark", "light")),
        "alice-tab-2": flipping(client_for(alice), "alice-tab-2", ("light", "dark", "dark")),
        "erin-co-gm": flipping(client_for(erin), "erin", ("dark",)),
        "bob-sheet": rolling(client_for(bob)),
    }, rounds=ROUNDS)

    assert len(attempts) == 4 * ROUNDS
    to_dark = made(attempts, "light-flip") + made(attempts, "light-flip-roll")
    to_light = made(attempts, "dark-flip")
    pool = pool_of(gx_campaign)
    assert pool["light"] + pool["dark"] == 12
    assert pool["light"] == START["light"] + len(to_light) - len(to_dark)
    assert pool["dark"] == START["dark"] + len(to_dark) - len(to_light)
    rolls = list(Roll.objects.filter(campaign=gx_campaign))
    assert len(rolls) == len(made(attempts, "light-flip-roll"))
    assert all(r.result["pool"]["destiny_flips"] == ["light"] for r in rolls)
    assert all(r.result["pool"]["proficiency"] == 2 for r in rolls)  # Ranged 1, upgraded
    assert tried(attempts, "dark-flip") and tried(attempts, "light-flip-roll")
    for attempt in refused(attempts):
        side = "dark" if attempt.action == "dark-flip" else "light"
        assert f"No {side} side Destiny point is left to flip" in attempt.message, attempt
