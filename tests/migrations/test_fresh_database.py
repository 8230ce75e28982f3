"""A fresh database migrated forward as ``make run`` does it, with the task queue's own
migrations (django-tasks-db) among the project's; no model change lacks its migration; and
the real worker command, run on that database, sends a queued reset mail once.

Each command runs as its own process (``manage.py``), on an SQLite file of its own, with the
environment a development checkout has (``DEBUG=on``, nothing else of ours): the mail goes
to the console backend, that is the worker's standard output.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUBJECT = "Subject: Reset your Sheetkeeper password"


@dataclass(frozen=True)
class Fresh:
    """The migrated database file and the environment that names it."""

    path: Path
    env: dict[str, str]


def manage(fresh: Fresh, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=fresh.env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Fresh:
    path = tmp_path_factory.mktemp("fresh") / "db.sqlite3"
    made = Fresh(path, {"PATH": os.environ["PATH"], "DEBUG": "on",
                        "DATABASE_URL": f"sqlite:///{path}"})
    migrated = manage(made, "migrate", "--noinput", "-v", "0")
    assert migrated.returncode == 0, migrated.stderr
    return made


def test_migrate_on_a_fresh_database_makes_the_task_queue_and_leaves_nothing_unapplied(
    fresh: Fresh,
) -> None:
    with sqlite3.connect(fresh.path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert {"django_tasks_database_dbtaskresult", "core_formsubmission"} <= tables

    unapplied = manage(fresh, "migrate", "--check", "--noinput")
    assert unapplied.returncode == 0, unapplied.stdout + unapplied.stderr


def test_no_model_change_lacks_its_migration(fresh: Fresh) -> None:
    check = manage(fresh, "makemigrations", "--check", "--dry-run")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "No changes detected" in check.stdout


def test_the_worker_command_sends_a_queued_reset_mail_once(fresh: Fresh) -> None:
    queued = manage(fresh, "shell", "-v", "0", "-c", (
        "from django.contrib.auth.models import User\n"
        "from accounts.services import password_reset_request\n"
        "User.objects.create_user('dora', 'dora@example.org', 'lantern-quarry-mosaic-41')\n"
        "password_reset_request(email='dora@example.org', domain='127.0.0.1:8000',"
        " use_https=False)\n"))
    assert queued.returncode == 0, queued.stderr
    assert SUBJECT not in queued.stdout  # queueing sent nothing

    worker = ("db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0")
    first, second = manage(fresh, *worker), manage(fresh, *worker)

    assert first.returncode == 0, first.stderr
    assert first.stdout.count(SUBJECT) == 1
    assert "To: dora@example.org" in first.stdout
    assert "http://127.0.0.1:8000/reset/" in first.stdout
    assert second.returncode == 0, second.stderr
    assert SUBJECT not in second.stdout  # done once, not again
