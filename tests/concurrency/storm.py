"""The storm runner the concurrency tests share: several logged-in sessions (one
``django.test.Client`` each, in its own thread, so each has its own database connection) fire
their attempts round by round, a barrier lining them up before every round so the requests
really overlap; then the test checks the invariants against what the sessions were told.

An attempt's outcome is read the way the person would read it: the page's success or error
message (``django.contrib.messages``), a redirect after a confirmed change, or the refusal
shown in the form. A server error is never an outcome: the test client raises the view's
exception in the thread, and :func:`storm` raises it again in the test, naming the session.

The sessions most storms play: the player's sheet and the GM's dashboard card, two tabs each
(:func:`sheet_and_card`), taking turns through a list of moves (:func:`taking_turns`); and a
purchase confirmed at the price its quote showed (:func:`buy_at_quoted_price`).
"""

from __future__ import annotations

import html
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.contrib import messages
from django.contrib.messages import get_messages
from django.db import connections
from django.test import Client

ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"

POSTGRES_ONLY = [
    pytest.mark.skipif(
        not ON_POSTGRES,
        reason="concurrency tests need PostgreSQL: SQLite serialises writers, so nothing can "
               "race (CI's PostgreSQL pass runs them: DATABASE_URL=postgres://..., see .ci/run)",
    ),
    pytest.mark.django_db(transaction=True),
]
"""``pytestmark`` of every concurrency module: PostgreSQL only, and real commits (the threads'
connections must see each other's rows, which a test wrapped in one transaction would hide)."""

ROUND_TIMEOUT = 60.0
"""Seconds a session waits at a round's barrier for the others before the storm fails."""


@dataclass(frozen=True)
class Attempt:
    """One thing a session tried and what it was told.

    Attributes:
        who: the session's name ("bob-1", "alice").
        action: what was tried ("bank", "mark", "tension-take").
        ok: whether the change was made (the success message, or a redirect to the result).
        message: the success or refusal text, as the page shows it.
        detail: what the test needs to replay the count (a die size, a ledger entry id).
    """

    who: str
    action: str
    ok: bool
    message: str = ""
    detail: Mapping[str, Any] = field(default_factory=dict)


_ERRORS = re.compile(r'class="errorlist[^"]*"[^>]*>(.*?)</(?:ul|p)>', re.S)


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def refusal_text(response: Any) -> str:
    """The refusals a form page shows (its ``errorlist`` paragraphs and lists), joined."""
    return " ".join(_text(m) for m in _ERRORS.findall(response.content.decode()))


def outcome(response: Any) -> tuple[bool, str]:
    """``(made, text)`` for a response of a change view: made when the page says so (a
    success message) or redirects without an error message (a roll, a spend); refused when it
    shows an error message or re-renders the form with its refusal.

    Raises AssertionError for a status no user should see (a 5xx would have raised already).
    """
    assert response.status_code in (200, 302, 400), (
        f"unexpected status {response.status_code}: {response.content[:300]!r}")
    said = list(get_messages(response.wsgi_request))
    errors = [str(m) for m in said if m.level == messages.ERROR]
    if errors:
        return False, " ".join(errors)
    done = [str(m) for m in said if m.level == messages.SUCCESS]
    if done or response.status_code == 302:
        return True, " ".join(done)
    return False, refusal_text(response)


def post(client: Client, url: str, data: Mapping[str, Any], *, who: str, action: str,
         **detail: Any) -> Attempt:
    """POST ``data`` to ``url`` as a plain form (POST/redirect/GET) and read the outcome.

    The messages cookie of earlier attempts is dropped first (nobody reads those pages in a
    storm), so the outcome is this request's message alone.
    """
    client.cookies.pop("messages", None)
    ok, text = outcome(client.post(url, data))
    return Attempt(who=who, action=action, ok=ok, message=text, detail=detail)


EXPECTED_COST = re.compile(r'name="expected_cost" value="(\d+)"')
"""The price an XP page's quote asks to confirm (its hidden ``expected_cost``)."""


def buy_at_quoted_price(client: Client, url: str, data: Mapping[str, Any], *, who: str,
                        action: str) -> Attempt | None:
    """Ask the price of a purchase (``data`` to the XP page's ``url``, with HTMX, as the page
    does) and confirm the price shown (the attempt's ``cost``); None when the quote offered
    nothing to confirm (too little XP, or at the maximum)."""
    quote = client.get(url, data, headers={"HX-Request": "true"})
    assert quote.status_code == 200
    seen = EXPECTED_COST.search(quote.content.decode())
    if seen is None:
        return None
    return post(client, url, {**data, "expected_cost": seen[1]}, who=who, action=action,
                cost=int(seen[1]))


Sessions = Mapping[str, tuple[Client, Mapping[str, str]]]
"""Session name -> (its logged-in client, what each of its POSTs adds)."""


def sheet_and_card(client_for: Callable[..., Client], *, player: Any, gm: Any) -> Sessions:
    """The player's sheet in two tabs and the GM's dashboard in two tabs: the GM's changes
    come from the dashboard's party card (``from=dashboard``)."""
    sheet: dict[str, str] = {}
    card = {"from": "dashboard"}
    return {"player-sheet": (client_for(player), sheet),
            "player-tab": (client_for(player), sheet),
            "gm-card": (client_for(gm), card), "gm-tab": (client_for(gm), card)}


def taking_turns(sessions: Sessions, moves: Sequence[tuple[str, str, Mapping[str, Any]]]
                 ) -> dict[str, Callable[[int], Attempt]]:
    """:func:`storm`'s sessions, each posting ``moves`` (``(action, url, form data)``) in
    turn: in round ``n`` the ``i``-th session posts move ``(i + n) % len(moves)``, with what
    it adds to every POST."""
    names = list(sessions)

    def player(who: str) -> Callable[[int], Attempt]:
        client, extra = sessions[who]

        def act(n: int) -> Attempt:
            action, url, data = moves[(names.index(who) + n) % len(moves)]
            return post(client, url, {**data, **extra}, who=who, action=action)
        return act

    return {who: player(who) for who in names}


def storm(
    sessions: Mapping[str, Callable[[int], Attempt | Iterable[Attempt] | None]], rounds: int,
) -> list[Attempt]:
    """Run every session's ``act(round)`` for ``rounds`` rounds, each session in its own
    thread, all sessions lined up by a barrier before each round.

    Args:
        sessions: name -> ``act(round)``, returning the attempt(s) made that round (or None
            when the session had nothing to try). Each ``act`` uses its own Client.
        rounds: how many rounds every session plays.

    Returns:
        Every attempt, in the order they finished.

    Raises:
        AssertionError: a session raised (a server error, a deadlock, a failed check): the
            first such error, naming the session; or a session never finished.
    """
    barrier = threading.Barrier(len(sessions))
    attempts: list[Attempt] = []
    failures: list[tuple[str, BaseException]] = []
    guard = threading.Lock()

    def run(name: str, act: Callable[[int], Attempt | Iterable[Attempt] | None]) -> None:
        try:
            for number in range(rounds):
                barrier.wait(ROUND_TIMEOUT)
                made = act(number)
                batch = [] if made is None else [made] if isinstance(made, Attempt) else made
                with guard:
                    attempts.extend(batch)
        except threading.BrokenBarrierError:
            pass  # another session failed and broke the barrier; its error is reported
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            with guard:
                failures.append((name, exc))
            barrier.abort()
        finally:
            # Each thread opened its own connection; the test's flush needs them gone.
            connections.close_all()

    threads = [threading.Thread(target=run, args=item, name=item[0], daemon=True)
               for item in sessions.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(ROUND_TIMEOUT * 2)
    stuck = [thread.name for thread in threads if thread.is_alive()]
    if failures:
        name, exc = failures[0]
        raise AssertionError(f"session {name} failed: {exc!r}") from exc
    assert not stuck, f"sessions never finished: {stuck}"
    return attempts


def made(attempts: Iterable[Attempt], action: str | None = None) -> list[Attempt]:
    """The attempts that changed something (of ``action`` when given)."""
    return [a for a in attempts if a.ok and (action is None or a.action == action)]


def refused(attempts: Iterable[Attempt], action: str | None = None) -> list[Attempt]:
    """The attempts that were refused (of ``action`` when given)."""
    return [a for a in attempts if not a.ok and (action is None or a.action == action)]


def tried(attempts: Iterable[Attempt], action: str) -> list[Attempt]:
    """Every attempt of ``action``."""
    return [a for a in attempts if a.action == action]


def backend_pid() -> int:
    """The PostgreSQL backend id of this thread's connection (it opens one if needed)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        row = cursor.fetchone()
    assert row is not None
    return int(row[0])


def waits_for_a_lock(pid: int) -> bool:
    """Whether the backend ``pid`` is blocked on a lock right now. Call outside a transaction:
    pg_stat_activity is a snapshot taken once per transaction."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


def wait_until(condition: Callable[[], bool], what: str, within: float = 10.0) -> None:
    """Poll ``condition`` every 20 ms until it holds; AssertionError naming ``what`` after
    ``within`` seconds."""
    ends = time.monotonic() + within
    while not condition():
        if time.monotonic() > ends:
            raise AssertionError(f"never happened within {within} s: {what}")
        time.sleep(0.02)
