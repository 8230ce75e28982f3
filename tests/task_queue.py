"""The task queue as production has it, for the tests of what is queued and what the worker
does with it (the session runs tasks where they are queued otherwise: tests/conftest.py,
``IMMEDIATE_TASKS``)."""

from __future__ import annotations

from typing import Any

import pytest
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from core import housekeeping
from sheetkeeper import settings as project_settings


@pytest.fixture
def database_queue(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks go to the database queue that the settings name (``TASKS``), and wait there for
    :func:`run_the_worker`; no pruning is due, so a test sees only the tasks it queued."""
    settings.TASKS = project_settings.TASKS
    monkeypatch.setattr(housekeeping, "_next_check", float("inf"))


def queued(task_path: str | None = None) -> list[DBTaskResult]:
    """The queue's rows, oldest first, those of ``task_path`` only when given
    (``"accounts.tasks.password_reset_mail"``)."""
    rows = DBTaskResult.objects.order_by("enqueued_at")
    return list(rows.filter(task_path=task_path) if task_path else rows)


def run_the_worker() -> None:
    """Run every task waiting in the queue, then return: the loop of ``manage.py db_worker
    --batch`` (claim a row, run its task, store the outcome), without the signal handlers the
    command would install in pytest's own process.

    Its loop closes stale connections between tasks, as a request does, which inside a test's
    transaction would end it: a test that calls this is ``django_db(transaction=True)``.
    """
    Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
           startup_delay=False, max_tasks=None, worker_id="test-worker",
           excluded_queue_names=[]).run()
