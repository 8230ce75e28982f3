"""Two copies of one form at the same moment, on PostgreSQL (core/submissions.py): both
requests get past the "already done?" look-up before either commits, because the character
(or the session) they both need is held by a third connection until both are waiting for it.
Then one makes the roll or the awards and the unique token decides the other: it writes
nothing and answers with the first one's result."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

from django.test import Client

from campaigns.models import Session
from characters.models import Character, XpEntry
from core.models import FormSubmission
from rolls.models import Roll
from table.services import session_create
from tests.concurrency import storm
from tests.concurrency.held import Background, uncommitted, waiting_for_locks
from tests.helpers import roll_url

pytestmark = storm.POSTGRES_ONLY


def twice_at_once(post: Callable[[Client], Any], make_client: Callable[[], Client],
                  row: Any) -> list[Any]:
    """Send ``post`` from two clients at once while ``row`` is held locked (SELECT ... FOR
    UPDATE) by another connection, let go once both wait for it; the two responses."""
    clients = [make_client(), make_client()]
    with uncommitted(lambda: type(row).objects.select_for_update().get(pk=row.pk)):
        sent = [Background(lambda client=client: post(client)) for client in clients]
        storm.wait_until(lambda: waiting_for_locks() >= 2, "both copies wait for the row",
                         within=storm.ROUND_TIMEOUT)
    for copy in sent:
        copy.join()
    assert not [copy.error for copy in sent if copy.error], [copy.error for copy in sent]
    return [copy.result for copy in sent]


def test_two_copies_of_the_roll_dialog_at_once_make_one_roll(bob, bobs_character, client_for):
    def logged_in() -> Client:
        return client_for(bob)

    sheet = logged_in().get(bobs_character.get_absolute_url()).content.decode()
    token = re.search(r'name="submission" value="([^"]+)" id="roll-submission"', sheet)
    assert token is not None
    data = {"submission": token.group(1), "kind": "willpower", "difficulty": "6",
            "threshold": "0"}
    url = roll_url(bobs_character)

    first, second = twice_at_once(lambda c: c.post(url, data), logged_in,
                                  Character.objects.get(pk=bobs_character.pk))

    rolls = list(Roll.objects.filter(character=bobs_character))
    assert len(rolls) == 1
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == rolls[0].get_absolute_url()
    assert FormSubmission.objects.filter(form="roll").count() == 1


def test_two_copies_of_the_award_grid_at_once_award_once(alice, bobs_character, client_for):
    session = session_create(campaign=bobs_character.campaign,
                             date=datetime.date(2026, 11, 21))
    url = session.get_absolute_url()

    def logged_in() -> Client:
        return client_for(alice)

    page = logged_in().get(url).content.decode()
    token = re.search(r'name="submission" value="([^"]+)"', page)
    assert token is not None
    data = {"submission": token.group(1), "expected_entries": "0", "amount_all": "3",
            "reason_all": "The heist"}

    first, second = twice_at_once(lambda c: c.post(url, data), logged_in,
                                  Session.objects.get(pk=session.pk))

    awarded = list(XpEntry.objects.filter(session=session))
    assert [(e.character_id, e.available_delta) for e in awarded] == [(bobs_character.pk, 3)]
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == url
