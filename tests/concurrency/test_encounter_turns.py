"""The turn under concurrency (docs/encounters.md, "Two at once"): the GM's two tabs, a co-GM
and the player whose character's turn it is press "Next" (the player's "Done") on the same
turn at the same moment. Each press carries the turn its page showed and the encounter's row
is locked while it changes, so exactly one moves the turn on and the others are told it had
already moved: no update lost, none applied twice. The same with "Next", "Previous" and
"Delay" pressed at once: one of them, whole."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from encounters import services
from encounters.models import Encounter
from tests.concurrency import storm
from tests.concurrency.storm import Attempt, made, refused
from tests.factories import CharacterFactory, UserFactory

pytestmark = storm.POSTGRES_ONLY

CO_GM = getattr(Membership.Role, "CO_GM", None)
STORMS = 6


def turn_of(encounter: Encounter) -> dict[str, str]:
    """The turn as every open page shows it now."""
    encounter = Encounter.objects.select_related("current").get(pk=encounter.pk)
    return {"round": str(encounter.round),
            "turn": str(encounter.current.code) if encounter.current else ""}


def press(client: Client, url: str, shown: dict[str, str], who: str) -> Any:
    def act(_: int) -> Attempt:
        return storm.post(client, url, shown, who=who, action=url.rstrip("/").rsplit("/", 1)[1])
    return act


def url(name: str, encounter: Encounter) -> str:
    return reverse(f"encounters:{name}", args=[encounter.campaign_id, encounter.pk])


@pytest.mark.skipif(CO_GM is None, reason="no co-GM seat in this tree yet")
def test_four_presses_of_one_turn_move_it_on_once(campaign, alice, bob, client_for):
    erin = UserFactory(username="erin")
    Membership.objects.create(campaign=campaign, user=erin, role=CO_GM)
    CharacterFactory(campaign=campaign, owner=bob, name="Rook")
    encounter = services.encounter_start(campaign=campaign, by=alice, name="Alone")
    services.turn_next(encounter=encounter, shown=services.Shown(1, ""), by=alice)
    sessions = {"alice-1": client_for(alice), "alice-2": client_for(alice),
                "erin": client_for(erin), "bob": client_for(bob)}

    for number in range(STORMS):
        shown = turn_of(encounter)  # Rook's turn of round number + 1, on every page
        attempts = storm.storm({who: press(client, url("turn-next", encounter), shown, who)
                                for who, client in sessions.items()}, rounds=1)

        assert len(made(attempts)) == 1, attempts
        assert all("already moved on" in a.message for a in refused(attempts)), attempts
        assert Encounter.objects.get(pk=encounter.pk).round == number + 2


@pytest.mark.skipif(CO_GM is None, reason="no co-GM seat in this tree yet")
def test_next_previous_and_delay_at_once_make_one_change(campaign, alice, bob, dave,
                                                         client_for):
    erin = UserFactory(username="erin")
    Membership.objects.create(campaign=campaign, user=erin, role=CO_GM)
    CharacterFactory(campaign=campaign, owner=bob, name="Rook")
    encounter = services.encounter_start(campaign=campaign, by=alice, name="Crossfire")
    for _ in range(3):  # Rook, Wren, then Rook of round 2
        now = turn_of(encounter)
        services.turn_next(encounter=encounter, shown=services.Shown(
            int(now["round"]), now["turn"]), by=alice)
    shown = turn_of(encounter)

    attempts = storm.storm({
        "alice-1": press(client_for(alice), url("turn-next", encounter), shown, "alice-1"),
        "alice-2": press(client_for(alice), url("turn-previous", encounter), shown, "alice-2"),
        "erin": press(client_for(erin), url("turn-delay", encounter), shown, "erin"),
    }, rounds=1)

    [winner] = made(attempts)
    encounter = Encounter.objects.select_related("current").get(pk=encounter.pk)
    names = [c.name for c in encounter.combatants.all()]
    outcome = {"next": (2, "Wren", ["Rook", "Wren"]), "previous": (1, "Wren", ["Rook", "Wren"]),
               "delay": (2, "Wren", ["Wren", "Rook"])}[winner.action]
    assert (encounter.round, encounter.current.name, names) == outcome
