"""Helpers of the PostgreSQL race tests that stop one transaction half-way: another
connection's change held open (its row locks held, its writes unseen) while a call in a
thread of its own runs into it, and a count of the connections waiting for a lock."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, connections, transaction

from tests.concurrency import storm


@contextmanager
def uncommitted(work: Callable[[], object]) -> Iterator[None]:
    """Run ``work`` in a transaction on another connection and hold it open, its locks
    held and its writes unseen, until the block ends; then commit it."""
    done, release = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def run() -> None:
        try:
            with transaction.atomic():
                work()
                done.set()
                release.wait(storm.ROUND_TIMEOUT)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)
            done.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert done.wait(storm.ROUND_TIMEOUT)
    assert not failures, failures
    try:
        yield
    finally:
        release.set()
        thread.join(storm.ROUND_TIMEOUT)
    assert not failures, failures


class Background:
    """``call()`` run in a thread of its own (its own connection): its result or error."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self.thread.start()

    def _run(self, call: Callable[[], Any]) -> None:
        try:
            self.result = call()
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            self.error = exc
        finally:
            connections.close_all()

    def join(self) -> None:
        self.thread.join(storm.ROUND_TIMEOUT)
        assert not self.thread.is_alive()


def waiting_for_locks() -> int:
    """How many connections to the test database wait for a lock now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       "AND datname = current_database()")
        return int(cursor.fetchone()[0])


def behind(work: Callable[[], object], call: Callable[[], Any]) -> Background:
    """Start ``call`` while ``work`` is held uncommitted on another connection, let ``work``
    commit once ``call`` waits for a lock (or has already finished, having waited for
    nothing), and return ``call``'s outcome once it has finished."""
    with uncommitted(work):
        outcome = Background(call)
        storm.wait_until(lambda: waiting_for_locks() >= 1 or not outcome.thread.is_alive(),
                         "the call waits for the held change or finishes")
    outcome.join()
    return outcome
