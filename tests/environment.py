"""The test run's environment, set before Django reads its settings: debugging on, and each
pytest-xdist worker's own Redis database.

Loaded with ``-p tests.environment`` (pyproject.toml's addopts), because pytest-django imports
the settings before any conftest.py is read; what is set here reaches the servers and
``manage.py`` processes the tests start too, as their environment.

``DEBUG`` is off unless the environment turns it on (sheetkeeper/settings.py): the tests turn
it on for themselves, as ``make run`` does, unless the run says otherwise. (pytest-django still
runs each test with ``settings.DEBUG`` False, as Django's own test runner does.)

``make test`` runs the suite on both cores (pytest-xdist, ``-n``). The databases need nothing
here: pytest-django gives each worker its own test database (``test_<name>_gw0``, ``_gw1``
on PostgreSQL; SQLite's in-memory database is per process anyway). Redis has no such
suffix: with ``REDIS_URL`` set (the PostgreSQL-and-Redis pass of ``.ci/run``), worker ``gwN``
uses database number ``base + N`` of the same server, so one worker's channel groups and
cached counts never meet another's.
"""

from __future__ import annotations

import os
import re

REDIS_DATABASES = 16
"""How many numbered databases a stock redis-server has (``databases 16``)."""


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` (``redis://`` or ``rediss://host:port/<n>``, ``n`` 0 when absent) moved to
    database ``n + N`` for xdist worker ``gwN``. Raises ValueError when the worker's number
    does not fit in Redis's 16 databases, the worker id is not xdist's ``gw<N>``, or the URL
    names its database otherwise (a unix socket, a ``?db=`` option)."""
    number = re.fullmatch(r"gw(\d+)", worker)
    if number is None:
        raise ValueError(f"not a pytest-xdist worker id: {worker!r}")
    head, _, tail = url.partition("?")
    match = re.fullmatch(r"(?P<base>rediss?://[^/]*)(?:/(?P<db>\d*))?", head)
    if match is None or re.search(r"(^|&)db=", tail):
        raise ValueError(f"REDIS_URL is not redis://host:port/<db> (a unix socket or a ?db= "
                         f"option cannot be given a database per worker): {url!r}")
    database = int(match["db"] or 0) + int(number[1])
    if database >= REDIS_DATABASES:
        raise ValueError(f"worker {worker} of {url!r} needs Redis database {database}; "
                         f"a stock server has {REDIS_DATABASES}: run fewer workers")
    return f"{match['base']}/{database}" + (f"?{tail}" if tail else "")


os.environ.setdefault("DEBUG", "on")

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("REDIS_URL", "").strip():
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"].strip(), _worker)
