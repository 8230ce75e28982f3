"""Pruning what is kept only for a while: the double-submit tokens (``core.FormSubmission``)
and the queue's finished task results (django-tasks-db's ``DBTaskResult``).

Both tables gain a row per event (a guarded form sent, a task run) and would otherwise grow
for ever. :func:`prune` deletes the old rows; it is a task, run by the worker
(``manage.py db_worker``), never by a request. django-tasks has no clock of its own, so the
write paths that add rows ask :func:`prune_when_due` after their change, and it queues one
:func:`prune` at most once per :data:`PRUNE_EVERY`: a quiet site adds no rows and needs no
pruning, and a busy one is pruned about hourly. Rows are therefore deleted some time between
their age limit and that limit plus an hour (longer only when nothing is written).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

import redis.exceptions
from django.core.cache import cache
from django.db import DatabaseError
from django.db.models import Q
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from core.models import FormSubmission

logger = logging.getLogger(__name__)

SUBMISSIONS_KEPT = timedelta(days=1)
"""How long a double-submit token is kept, so a copy of its form still replays. Copies come
from a double click or a browser retrying a slow request (within seconds), a form sent again
after going Back or reopening a tab (within the evening's session, or the next morning): a day
holds all of these. A form sent again after that is a day-old page, and acts as a new one."""

TASK_RESULTS_KEPT = timedelta(days=1)
"""How long a task that ran successfully is kept in the queue table. Its arguments hold what
it was given (a reset task: the address asked for, which may be anyone's), so not longer than
its outcome could interest anyone."""

FAILED_TASK_RESULTS_KEPT = timedelta(days=7)
"""How long a task that failed is kept, with its traceback, for whoever looks into it
(``/admin/``, "Task results")."""

PRUNE_EVERY = timedelta(hours=1)
"""At most one :func:`prune` is queued per this period: per process, and across processes
when they share the cache (Redis, ``REDIS_URL``)."""

PRUNE_DUE_KEY = "housekeeping:prune-queued"
"""The cache key whose presence says a :func:`prune` was queued within :data:`PRUNE_EVERY`."""

_next_check = 0.0
"""``time.monotonic()`` before which this process does not ask the cache again: the write
paths stay free of cache round trips (and of a stopped Redis's timeouts) but once an hour."""


@task()
def prune() -> dict[str, int]:
    """Delete the double-submit tokens older than :data:`SUBMISSIONS_KEPT` and the finished
    task results older than :data:`TASK_RESULTS_KEPT` (:data:`FAILED_TASK_RESULTS_KEPT` for
    failed ones); tasks waiting or running are never touched.

    Returns the rows deleted: ``{"form_submissions": n, "task_results": m}``.
    """
    now = timezone.now()
    submissions, _ = FormSubmission.objects.filter(created_at__lt=now - SUBMISSIONS_KEPT).delete()
    results, _ = DBTaskResult.objects.filter(
        Q(status=TaskResultStatus.SUCCESSFUL, finished_at__lt=now - TASK_RESULTS_KEPT)
        | Q(status=TaskResultStatus.FAILED, finished_at__lt=now - FAILED_TASK_RESULTS_KEPT)
    ).delete()
    return {"form_submissions": submissions, "task_results": results}


def prune_when_due() -> None:
    """Queue :func:`prune` unless one was queued within :data:`PRUNE_EVERY`; called by the
    write paths that add rows to prune, after their change. Costs nothing most of the time,
    a cache ``add`` once per period, and a queued task's row when due.

    Never raises: a cache that cannot be reached or a queue that cannot be written to is
    logged as a warning and the pruning waits for the next period, since the caller's change
    is already made.
    """
    global _next_check
    now = time.monotonic()
    if now < _next_check:
        return
    _next_check = now + PRUNE_EVERY.total_seconds()
    try:
        # add() sets the key only where it is absent: one process of those sharing the cache
        # wins each period, and queues.
        if cache.add(PRUNE_DUE_KEY, True, timeout=int(PRUNE_EVERY.total_seconds())):
            prune.enqueue()
    except (redis.exceptions.RedisError, OSError, DatabaseError) as exc:
        logger.warning("pruning not queued: %s", exc)
