"""Shattered World statistics under concurrency: Bob's sheet and the GM's dashboard card lose
and regain points of the same pools at once (Shattered World Core Engine, Mechanical
(Non-Roleplay) Actions: a pool stops at 0 and at its maximum). Every point the pages
confirmed moved the pool by exactly one, and changing one pool never undoes another's change
stored in the same sheet."""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services import character_create_from_data
from tests.concurrency import storm
from tests.concurrency.storm import Attempt, made, refused, tried
from tests.factories import CampaignFactory

pytestmark = storm.POSTGRES_ONLY

KAELIN = {
    "name": "Kaelin", "concept": "Knight errant", "species": "Elf", "field_role": "Warrior",
    "subrole": "Knight", "hit_points": "24", "proficiencies": ["PF", "EN"], "foible": "",
    "stat_PF": "18", "stat_MA": "12", "stat_EN": "16", "stat_PR": "14", "stat_SP": "10",
    "stat_EM": "11",
}
"""An elven Warrior (Knight) with Physical Fitness 18 and 24 hit points (as the sheet tests
make him)."""


def test_points_lost_and_regained_from_the_sheet_and_the_card_at_once_all_count(
    client_for, alice, bob
):
    """Each round, of four sessions two lose a point of Physical Fitness, one regains one and
    one loses a hit point: Physical Fitness drains to 0 and then refuses, and both pools
    end exactly where the confirmed changes put them."""
    campaign: Campaign = CampaignFactory(name="The Shattered Coast", ruleset="shattered_world",
                                         created_by=alice, starting_xp=0)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    kaelin = character_create_from_data(campaign=campaign, owner=bob, data=KAELIN)
    url = reverse("characters:character-action", args=[kaelin.pk, "pool"])
    moves = [("lose-PF", {"pool": "PF", "direction": "lose"}),
             ("lose-PF", {"pool": "PF", "direction": "lose"}),
             ("regain-PF", {"pool": "PF", "direction": "regain"}),
             ("lose-HP", {"pool": "HP", "direction": "lose"})]
    sessions = {"bob-sheet": (client_for(bob), {}), "bob-tab": (client_for(bob), {}),
                "alice-card": (client_for(alice), {"from": "dashboard"}),
                "alice-tab": (client_for(alice), {"from": "dashboard"})}
    names = list(sessions)

    def player(who: str) -> Callable[[int], Attempt]:
        client, extra = sessions[who]

        def act(n: int) -> Attempt:
            move, data = moves[(names.index(who) + n) % len(moves)]
            return storm.post(client, url, {**data, "amount": "1", **extra}, who=who,
                              action=move)
        return act

    attempts = storm.storm({who: player(who) for who in names}, rounds=20)

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
