"""A whole Maelstrom table at once: the GM awards a session's XP to everyone from one tab and
asks everyone for a roll from another, while both players roll and spend XP from their sheets
(Maelstrom rules.md, Earning Experience; Spending Experience; docs/architecture.md, the GM's
requested rolls). The GM's moves touch every character of the party in one transaction; the
players' touch their own: nothing may deadlock, every award and request confirmed is there
once, and every balance equals its ledger."""

from __future__ import annotations

import datetime
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership, Session
from characters.models import Character, XpEntry
from characters.services import xp_award
from rolls.models import RequestedRoll, Roll
from rolls.services import requested_roll_create
from systems.maelstrom.system import SYSTEM
from tests.concurrency import storm
from tests.concurrency.held import Background
from tests.concurrency.storm import Attempt, made, refused
from tests.factories import CharacterFactory, UserFactory
from tests.helpers import roll_url, spend_url

pytestmark = [*storm.POSTGRES_ONLY, pytest.mark.usefixtures("ledger_stays_balanced")]


@pytest.fixture
def party(campaign, bob) -> tuple[Any, Character, Character]:  # type: ignore[no-untyped-def]
    """Dana joins The Drift; Bob plays Zed and Dana plays Abe. Zed is made first, so his row
    comes before Abe's by id and after it by name: the award locks the party by id, a request
    writes to it by name."""
    dana = UserFactory(username="dana")
    Membership.objects.create(campaign=campaign, user=dana, role=Membership.Role.PLAYER)
    zed = CharacterFactory(campaign=campaign, owner=bob, name="Zed")
    abe = CharacterFactory(campaign=campaign, owner=dana, name="Abe")
    return dana, zed, abe


def test_session_awards_and_party_roll_requests_while_the_players_roll_and_spend(
    campaign, party, alice, bob, client_for
):
    dana, zed, abe = party
    session = Session.objects.create(campaign=campaign, date=datetime.date(2026, 11, 21),
                                     title="The heist")
    award_url = reverse("table:session-detail", args=[campaign.pk, session.pk])
    request_url = reverse("rolls:requested-roll-create", args=[campaign.pk])

    def gm_awards(client: Client) -> Callable[[int], Attempt]:
        return lambda n: storm.post(client, award_url,
                                    {"amount_all": "1", "reason_all": f"Scene {n}"},
                                    who="alice-awards", action="award")

    def gm_requests(client: Client) -> Callable[[int], Attempt]:
        return lambda n: storm.post(client, request_url,
                                    {"character": "all", "kind": "action",
                                     "traits": "Perception + Alertness", "difficulty": "6",
                                     "threshold": "0", "note": f"Look around {n}"},
                                    who="alice-requests", action="request")

    def player(who: str, client: Client, character: Character) -> Callable[[int], Attempt]:
        def act(n: int) -> Attempt:
            if n % 2:
                return storm.post(
                    client, spend_url(character),
                    {"trait": "specialty", "ability": "Alertness",
                     "specialty_name": f"Ambush {n}", "expected_cost": "2"},
                    who=who, action="spend", character=character.pk)
            return storm.post(client, roll_url(character),
                              {"trait": ["Perception", "Alertness"], "difficulty": "6",
                               "threshold": "0", "kind": "action"},
                              who=who, action="roll", character=character.pk)
        return act

    attempts = storm.storm({
        "alice-awards": gm_awards(client_for(alice)),
        "alice-requests": gm_requests(client_for(alice)),
        "bob": player("bob", client_for(bob), zed),
        "dana": player("dana", client_for(dana), abe),
    }, rounds=20)

    assert not refused(attempts)  # everything asked was affordable and legal
    awards, requests = made(attempts, "award"), made(attempts, "request")
    assert len(awards) == len(requests) == 20
    for character in (zed, abe):
        row = Character.objects.get(pk=character.pk)
        spends = [a for a in made(attempts, "spend") if a.detail["character"] == character.pk]
        rolls = [a for a in made(attempts, "roll") if a.detail["character"] == character.pk]
        assert row.xp_available == 30 + len(awards) - 2 * len(spends) >= 0
        assert XpEntry.objects.filter(character=character, session=session).count() == 20
        assert RequestedRoll.objects.filter(character=character).count() == 20
        assert Roll.objects.filter(character=character).count() == len(rolls) == 10


def test_a_party_request_is_not_held_up_by_an_award_locking_the_party(
    campaign, party, alice, bob
):
    """The race the storm above can hit, made certain. The award has Zed's row (it locks the
    party by id) and is about to lock Abe's; meanwhile the GM's other tab asks the party for
    a roll, writing Abe's request, then Zed's (by name). Writing a row that points at a
    locked character must not wait for that lock, or the award and the request each wait for
    the other and PostgreSQL fails one of them."""
    _, zed, abe = party
    session = Session.objects.create(campaign=campaign, date=datetime.date(2026, 11, 21))
    locked, go = threading.Event(), threading.Event()
    request_pid: list[int] = []

    def award() -> str:
        with transaction.atomic():  # as session_award: the party one by one, by id
            xp_award(character=zed, amount=1, reason="Heroism", by=alice, session=session)
            locked.set()
            assert go.wait(30)
            xp_award(character=abe, amount=1, reason="Heroism", by=alice, session=session)
        return "done"

    what = SYSTEM.request_form(campaign, {"kind": "action", "traits": "Perception + Alertness",
                                          "difficulty": "6", "threshold": "0"})
    assert what.is_valid(), what.errors

    def request() -> list[RequestedRoll]:
        request_pid.append(storm.backend_pid())
        return requested_roll_create(characters=[abe, zed], system=SYSTEM,
                                     what=what.cleaned_data, note="", by=alice)

    awarding = Background(award)
    assert locked.wait(30)
    asking = Background(request)
    try:
        storm.wait_until(lambda: not asking.thread.is_alive() or (
            bool(request_pid) and storm.waits_for_a_lock(request_pid[0])),
            "the party's request is written or waits")
        # Written while the award still holds Zed's row: it never waited.
        assert isinstance(asking.result, list), (
            f"the request waited for the award's lock on Zed: {asking.error}")
    finally:
        go.set()
        awarding.join()
        asking.join()

    assert awarding.result == "done", awarding.error
    assert RequestedRoll.objects.filter(character__in=[zed, abe]).count() == 2
    assert XpEntry.objects.filter(session=session).count() == 2
