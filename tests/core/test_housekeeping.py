"""Old double-submit tokens and finished task results are pruned by the worker, never by a
request (issue 31, finding 8c; core/housekeeping.py): a copy of a form inside the window still
replays, tokens past it are deleted by the task, and a guarded submit only queues the task, at
most once per period."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta

import pytest
import redis.exceptions
from django.core.cache import cache
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from core import housekeeping
from core.models import FormSubmission
from core.submissions import FIELD, new_token, submit_once
from tests import task_queue
from tests.helpers import roll_url
from tests.task_queue import queued, run_the_worker

pytestmark = pytest.mark.django_db

database_queue = task_queue.database_queue

PRUNE = "core.housekeeping.prune"
ACTION = {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
          "threshold": "0"}
HOUR = timedelta(hours=1)


@pytest.fixture
def prune_due(database_queue, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:  # type: ignore[no-untyped-def]
    """No prune was queued lately, by this process or any sharing its cache."""
    monkeypatch.setattr(housekeeping, "_next_check", 0.0)
    cache.delete(housekeeping.PRUNE_DUE_KEY)
    yield
    cache.delete(housekeeping.PRUNE_DUE_KEY)


def token_of(user, *, age: timedelta) -> str:  # type: ignore[no-untyped-def]
    """A token ``user``'s roll form stored ``age`` ago."""
    token = new_token()
    row = FormSubmission.objects.create(user=user, form="roll", token=token, result_id=1)
    FormSubmission.objects.filter(pk=row.pk).update(created_at=timezone.now() - age)
    return token


def tokens() -> set[str]:
    return set(FormSubmission.objects.values_list("token", flat=True))


def result(status: str, *, finished: timedelta | None = None) -> DBTaskResult:
    """A row of the queue in ``status``, finished ``finished`` ago (None: not finished)."""
    return DBTaskResult.objects.create(
        args_kwargs={"args": [], "kwargs": {}}, task_path=PRUNE, backend_name="default",
        status=status, finished_at=None if finished is None else timezone.now() - finished)


def test_a_copy_sent_inside_the_window_still_replays_and_one_past_it_acts(
    database_queue, bob
) -> None:  # type: ignore[no-untyped-def]
    token = new_token()
    submit_once(user=bob, form="roll", token=token, act=lambda: 41, result_id=lambda r: r)
    rows = FormSubmission.objects.filter(token=token)
    rows.update(created_at=timezone.now() - housekeeping.SUBMISSIONS_KEPT + HOUR)
    housekeeping.prune.call()

    def roll_again() -> int:
        raise AssertionError("a copy inside the window acted")

    again = submit_once(user=bob, form="roll", token=token, act=roll_again,
                        result_id=lambda r: r)
    assert (again.replayed, again.result_id) == (True, 41)

    rows.update(created_at=timezone.now() - housekeeping.SUBMISSIONS_KEPT - HOUR)
    housekeeping.prune.call()

    late = submit_once(user=bob, form="roll", token=token, act=lambda: 42,
                       result_id=lambda r: r)
    assert (late.replayed, late.result_id) == (False, 42)


def test_the_task_deletes_the_tokens_past_the_window_and_keeps_the_others(
    database_queue, bob
) -> None:  # type: ignore[no-untyped-def]
    window = housekeeping.SUBMISSIONS_KEPT
    old = {token_of(bob, age=window * 30), token_of(bob, age=window + timedelta(minutes=1))}
    young = {token_of(bob, age=window - timedelta(minutes=1)), token_of(bob, age=timedelta())}

    deleted = housekeeping.prune.call()

    assert deleted == {"form_submissions": len(old), "task_results": 0}
    assert tokens() == young


def test_the_task_deletes_old_finished_results_and_never_a_waiting_or_running_one(
    database_queue,
) -> None:  # type: ignore[no-untyped-def]
    ok, failed = housekeeping.TASK_RESULTS_KEPT, housekeeping.FAILED_TASK_RESULTS_KEPT
    old = [result(TaskResultStatus.SUCCESSFUL, finished=ok + HOUR),
           result(TaskResultStatus.FAILED, finished=failed + HOUR)]
    kept = [result(TaskResultStatus.SUCCESSFUL, finished=ok - HOUR),
            result(TaskResultStatus.FAILED, finished=failed - HOUR),  # still to look into
            result(TaskResultStatus.READY), result(TaskResultStatus.RUNNING)]
    DBTaskResult.objects.update(enqueued_at=timezone.now() - failed * 10)  # age alone: no

    deleted = housekeeping.prune.call()

    assert deleted == {"form_submissions": 0, "task_results": len(old)}
    assert set(DBTaskResult.objects.values_list("pk", flat=True)) == {row.pk for row in kept}


@pytest.mark.django_db(transaction=True)
def test_a_guarded_roll_queues_the_prune_once_and_the_worker_runs_it(
    prune_due, bobs_character, bob, client_for, seeded_rng
) -> None:  # type: ignore[no-untyped-def]
    old = token_of(bob, age=housekeeping.SUBMISSIONS_KEPT + HOUR)
    client = client_for(bob, htmx=True)

    first, second = new_token(), new_token()
    for token in (first, second):
        response = client.post(roll_url(bobs_character), {**ACTION, FIELD: token})
        assert response.status_code == 200

    assert tokens() == {old, first, second}  # the requests pruned nothing
    [prune] = queued(PRUNE)  # the first queued it; the second asked nothing within the hour
    assert prune.status == TaskResultStatus.READY

    run_the_worker()

    assert tokens() == {first, second}
    prune.refresh_from_db()
    assert prune.status == TaskResultStatus.SUCCESSFUL
    assert prune.return_value == {"form_submissions": 1, "task_results": 0}


def test_another_process_sharing_the_cache_does_not_queue_it_again(prune_due, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    housekeeping.prune_when_due()
    monkeypatch.setattr(housekeeping, "_next_check", 0.0)  # as a fresh process would be

    housekeeping.prune_when_due()

    assert len(queued(PRUNE)) == 1
    cache.delete(housekeeping.PRUNE_DUE_KEY)  # the period over
    monkeypatch.setattr(housekeeping, "_next_check", 0.0)
    housekeeping.prune_when_due()
    assert len(queued(PRUNE)) == 2


def test_a_cache_out_of_reach_queues_nothing_raises_nothing_and_is_not_asked_again_soon(
    prune_due, monkeypatch, caplog
) -> None:  # type: ignore[no-untyped-def]
    asked: list[str] = []

    def unreachable(key: str, *args: object, **kwargs: object) -> bool:
        asked.append(key)
        raise redis.exceptions.ConnectionError("Connection refused")

    monkeypatch.setattr(cache, "add", unreachable)

    with caplog.at_level(logging.WARNING, logger="core.housekeeping"):
        housekeeping.prune_when_due()
        housekeeping.prune_when_due()

    assert queued() == []
    assert asked == [housekeeping.PRUNE_DUE_KEY]
    assert "pruning not queued: Connection refused" in caplog.text
