"""Abuse limits that hold whatever the view (docs/security.md, "Limits"): the login lockout
counts the address the trusted proxy reports, never one a client writes into X-Forwarded-For;
and a database out of reach answers 503 with Retry-After, then recovers by itself.

The proxy tests run the real thing: the Procfile's ``web`` command as a shell expands it,
parsed by uvicorn's own command line, uvicorn's proxy-headers middleware as that builds it,
in front of the project's ASGI application.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psycopg_pool
import pytest
import uvicorn
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connection, connections
from django.test import RequestFactory
from django.urls import reverse
from uvicorn.main import main as uvicorn_cli

from core.net import UNKNOWN, client_ip
from core.unavailable import database_unavailable
from tests.factories import UserFactory

PROCFILE = Path(settings.BASE_DIR) / "Procfile"
ON_POSTGRES = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


# --- the Procfile's uvicorn, in front of the application ---------------------------------------

def procfile_web_args(environ: dict[str, str]) -> list[str]:
    """The Procfile's ``web`` command's arguments after ``uvicorn``, expanded by ``sh`` with
    ``environ`` as a platform would run it."""
    line = next(li for li in PROCFILE.read_text().splitlines() if li.startswith("web:"))
    command = line.removeprefix("web:").strip()
    assert command.startswith("uvicorn "), command
    script = "set -- " + command.removeprefix("uvicorn ") + '; printf "%s\\0" "$@"'
    out = subprocess.run(["sh", "-c", script], env={"PATH": os.environ["PATH"], **environ},
                         capture_output=True, check=True)
    return out.stdout.decode().split("\0")[:-1]


def served_app(environ: dict[str, str]) -> Any:
    """The ASGI application as uvicorn serves it with the Procfile's flags: the project's
    application inside uvicorn's proxy-headers middleware, configured from those flags."""
    from sheetkeeper.asgi import application

    params = uvicorn_cli.make_context("uvicorn", procfile_web_args(environ)).params
    config = uvicorn.Config(application, proxy_headers=params["proxy_headers"],
                            forwarded_allow_ips=params["forwarded_allow_ips"], log_config=None)
    config.load()
    return config.loaded_app


async def _call(app: Any, method: str, path: str, client: tuple[str, int],
                headers: list[tuple[str, str]], body: bytes = b"") -> tuple[int, dict[str, str],
                                                                          str]:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": client, "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"localhost")] + [(k.lower().encode(), v.encode())
                                                 for k, v in headers],
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.Future()  # the client stays connected until the answer is sent
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    response_headers: dict[str, str] = {}
    for key, value in start["headers"]:
        name = key.decode().lower()
        response_headers[name] = "; ".join(filter(None, [response_headers.get(name),
                                                         value.decode()]))
    text = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], response_headers, text.decode()


def failed_logins(app: Any, *, username: str, connect_from: str,
                  forwarded_for: Iterator[str]) -> list[int]:
    """Log in with a wrong password six times through ``app``, each time from the TCP peer
    ``connect_from`` with the next X-Forwarded-For value; the statuses answered."""
    status, headers, page = asyncio.run(_call(app, "GET", "/login/", (connect_from, 50000), []))
    assert status == 200
    cookie = re.search(r"csrftoken=([^;]+)", headers["set-cookie"]).group(1)  # type: ignore[union-attr]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    statuses = []
    for _ in range(6):
        body = urlencode({"csrfmiddlewaretoken": token, "username": username,
                          "password": "not-the-password"}).encode()
        status, _, _ = asyncio.run(_call(
            app, "POST", "/login/", (connect_from, 50001),
            [("cookie", f"csrftoken={cookie}"),
             ("content-type", "application/x-www-form-urlencoded"),
             ("x-forwarded-for", next(forwarded_for))], body))
        statuses.append(status)
    return statuses


def spoofed() -> Iterator[str]:
    """A fresh made-up address per attempt, as an attacker would send."""
    n = 0
    while True:
        n += 1
        yield f"198.51.100.{n}"


@pytest.mark.django_db(transaction=True)
def test_a_client_sending_its_own_x_forwarded_for_is_still_locked_out():
    # Straight at uvicorn (the Procfile binds 0.0.0.0), a new made-up address each attempt:
    # uvicorn believes nobody but the configured proxy, so the count stays on the real one.
    UserFactory(username="gm-of-the-table")
    statuses = failed_logins(served_app({}), username="gm-of-the-table",
                             connect_from="203.0.113.7", forwarded_for=spoofed())
    assert statuses[:settings.AXES_FAILURE_LIMIT - 1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert statuses[-1] == 429


@pytest.mark.django_db(transaction=True)
def test_behind_a_platform_router_the_lockout_counts_the_address_the_router_saw():
    # A router that appends (Heroku-style): "whatever the client sent, the address it saw".
    # With the router's network trusted, uvicorn takes the rightmost untrusted entry.
    UserFactory(username="gm-of-the-table")
    appended = (f"{fake}, 203.0.113.7" for fake in spoofed())
    statuses = failed_logins(served_app({"FORWARDED_ALLOW_IPS": "10.0.0.0/8"}),
                             username="gm-of-the-table", connect_from="10.1.2.3",
                             forwarded_for=appended)
    assert statuses[-1] == 429


@pytest.mark.django_db(transaction=True)
def test_behind_nginx_each_client_has_its_own_count():
    # nginx on the same machine sets X-Forwarded-For to the address it saw: two players behind
    # it are two addresses, so one player's typos never lock the other out.
    UserFactory(username="gm-of-the-table")
    app = served_app({})
    first = failed_logins(app, username="gm-of-the-table", connect_from="127.0.0.1",
                          forwarded_for=iter(["192.0.2.10"] * 6))
    second = failed_logins(app, username="gm-of-the-table", connect_from="127.0.0.1",
                           forwarded_for=iter(["192.0.2.20"] * 6))
    assert first[-1] == 429
    assert second[0] == 200


def test_the_procfile_trusts_only_the_configured_proxy():
    assert "'*'" not in PROCFILE.read_text() and '"*"' not in PROCFILE.read_text()
    args = procfile_web_args({})
    assert args[args.index("--forwarded-allow-ips") + 1] == "127.0.0.1"
    args = procfile_web_args({"FORWARDED_ALLOW_IPS": "10.0.0.0/8"})
    assert args[args.index("--forwarded-allow-ips") + 1] == "10.0.0.0/8"
    assert shlex.join(args)  # the arguments survive quoting: nothing left unexpanded


def test_the_client_address_is_the_servers_remote_addr_never_a_forwarded_header():
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="198.51.100.1")
    assert client_ip(request) == "203.0.113.7"
    assert client_ip(factory.get("/", REMOTE_ADDR="2001:db8:0:0::1")) == "2001:db8::1"
    assert client_ip(factory.get("/", REMOTE_ADDR="")) == UNKNOWN
    assert client_ip(factory.get("/", REMOTE_ADDR="unix:/run/sk.sock")) == UNKNOWN
    assert settings.AXES_CLIENT_IP_CALLABLE == "core.net.client_ip"
    assert settings.RATELIMIT_IP_META_KEY == "core.net.client_ip"


# --- the database out of reach ---------------------------------------------------------------

def pool_timeout() -> OperationalError:
    """What Django raises when the pool has no connection to lend: its OperationalError,
    caused by psycopg_pool's PoolTimeout."""
    try:
        try:
            raise psycopg_pool.PoolTimeout("couldn't get a connection after 10.00 sec")
        except psycopg_pool.PoolTimeout as exc:
            raise OperationalError(str(exc)) from exc
    except OperationalError as wrapped:
        return wrapped


class Outage:
    """While on, every use of the database fails as an exhausted pool makes it fail."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch

    def start(self) -> None:
        def refuse() -> None:
            raise pool_timeout()

        self.monkeypatch.setattr(connections[DEFAULT_DB_ALIAS], "ensure_connection", refuse)

    def end(self) -> None:
        self.monkeypatch.undo()


@pytest.fixture
def outage(monkeypatch):  # type: ignore[no-untyped-def]
    return Outage(monkeypatch)


@pytest.mark.django_db
def test_a_page_answers_503_with_retry_after_while_the_pool_is_dry_then_recovers(
    client, alice, outage
):
    client.force_login(alice)
    client.raise_request_exception = False
    outage.start()
    away = client.get(reverse("campaigns:campaign-list"))
    assert away.status_code == 503
    assert away["Retry-After"] == "5"
    assert "could not reach its database" in away.content.decode()
    outage.end()  # connections are free again: nothing is restarted
    assert client.get(reverse("campaigns:campaign-list")).status_code == 200


@pytest.mark.django_db
def test_a_roll_posted_while_the_pool_is_dry_answers_503_and_writes_nothing(
    client, bob, bobs_character, outage
):
    client.force_login(bob)
    client.raise_request_exception = False
    outage.start()
    url = reverse("rolls:roll-create", args=[bobs_character.pk])
    response = client.post(url, {"kind": "action", "trait": ["Wits"], "difficulty": "6",
                                 "threshold": "0"})
    assert response.status_code == 503
    outage.end()
    assert not bobs_character.rolls.exists()


def test_only_a_database_out_of_reach_is_a_503():
    import psycopg.errors

    assert database_unavailable(pool_timeout())
    refused = psycopg.OperationalError("connection failed: Connection refused")
    assert database_unavailable(refused)
    try:
        raise OperationalError("deadlock detected") from psycopg.errors.DeadlockDetected()
    except OperationalError as deadlock:
        assert not database_unavailable(deadlock)
    assert not database_unavailable(ValueError("bad input"))


@pytest.mark.skipif(not ON_POSTGRES, reason="the connection pool is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_real_pool_running_dry_answers_503_then_recovers(client, alice):
    """A pool of one connection, lent to another thread: the request waits the pool's timeout,
    answers 503; once the connection is given back, the next request is served."""
    options = connection.settings_dict["OPTIONS"]
    saved = options.get("pool")
    connection.close()
    connection.close_pool()
    options["pool"] = {"min_size": 1, "max_size": 1, "timeout": 0.5}
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        connections[DEFAULT_DB_ALIAS].ensure_connection()
        holding.set()
        release.wait(30)
        connections[DEFAULT_DB_ALIAS].close()  # back to the pool

    holder = threading.Thread(target=hold, daemon=True)
    try:
        client.force_login(alice)  # (borrows and gives back the pool's one connection)
        connection.close()
        holder.start()
        assert holding.wait(30)
        client.raise_request_exception = False
        dry = client.get(reverse("campaigns:campaign-list"))
        assert dry.status_code == 503
        assert dry["Retry-After"]
        connection.close()
        release.set()
        holder.join(30)
        assert client.get(reverse("campaigns:campaign-list")).status_code == 200
    finally:
        release.set()
        holder.join(30)
        connection.close()
        connection.close_pool()
        if saved is None:
            options.pop("pool", None)
        else:
            options["pool"] = saved
