"""The live table across processes: two real daphne servers sharing one Redis, as in
production with several workers. A roll made through server A reaches a page whose event
stream is open on server B; a GM-only event sent through A reaches the GM's page on B and
never the player's (campaigns/live.py).

The servers do not use the suite's test database (whatever DATABASE_URL says): they share a
SQLite file in a temporary directory, migrated and populated by ``manage.py`` subprocesses.
Everything on the wire is the standard library: asyncio streams, HTTP/1.1 by hand.

These tests need Redis at 127.0.0.1:6379 (CI has it); without it they fail, never skip.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.serving import (
    BASE_DIR,
    SESSION_SETUP,
    ServingError,
    body_chunks,
    free_port,
    http_request,
    manage,
    start_daphne,
    stop,
    wait_until_serving,
)
from tests.environment import worker_redis_url

REDIS_HOST, REDIS_PORT, REDIS_DB = "127.0.0.1", 6379, 8
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}"
if os.environ.get("PYTEST_XDIST_WORKER"):
    # Each xdist worker that runs these tests starts its own two servers, on a database of
    # its own (8 for gw0, 9 for gw1...; the suite's own take 1 to 4 in CI, tests/environment.py).
    REDIS_URL = worker_redis_url(REDIS_URL, os.environ["PYTEST_XDIST_WORKER"])
EVENT_WITHIN = 2.0
"""How long a page may wait for an event made on the other server (the goal is 1 s)."""
SILENCE = 1.0
"""How long a player's page must stay silent after a GM-only event."""

# Run by `manage.py shell -c` against the servers' database. The campaign gets a random id:
# group names are `campaign-<id>`, so a concurrent run on the same Redis database cannot be
# heard here. Prints the ids and session keys as JSON on its last line.
SETUP_SCRIPT = SESSION_SETUP + """
import json, secrets
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

gm = UserFactory(username="gm", password=None)
player = UserFactory(username="player", password=None)
campaign = CampaignFactory(id=100_000 + secrets.randbelow(10**9), created_by=gm)
character = CharacterFactory(campaign=campaign, owner=player, name="Rook",
                             attributes={"Precision": 3}, abilities={"Driving": 2})
print(json.dumps({"campaign": campaign.pk, "character": character.pk,
                  "gm": session_for(gm), "player": session_for(player)}))
"""

ANNOUNCE_SCRIPT = """
from django.db import transaction
from core.live import announce
with transaction.atomic():
    announce({campaign}, {event!r}, character_id={character}, gm_only={gm_only})
"""


# --- the servers ------------------------------------------------------------------------


def require_redis() -> None:
    """Fail (never skip) with a clear message when Redis cannot be reached."""
    try:
        with socket.create_connection((REDIS_HOST, REDIS_PORT), timeout=2) as conn:
            conn.sendall(b"PING\r\n")
            reply = conn.recv(64)
    except OSError as exc:
        pytest.fail(
            f"Redis is not reachable at {REDIS_HOST}:{REDIS_PORT} ({exc}). The cross-process "
            "live-table tests need a real Redis there (CI runs one); start it, e.g. "
            "`redis-server --daemonize yes`.",
            pytrace=False,
        )
    if not reply.startswith(b"+PONG"):
        pytest.fail(f"{REDIS_HOST}:{REDIS_PORT} answered {reply!r} to PING, not Redis's +PONG",
                    pytrace=False)


@dataclass
class Servers:
    a: int
    b: int
    env: dict[str, str]
    campaign: int
    character: int
    gm_session: str
    player_session: str

    def announce(self, event: str, *, gm_only: bool) -> list[str]:
        """A ``manage.py shell -c`` command sending ``event`` through A's settings."""
        code = ANNOUNCE_SCRIPT.format(campaign=self.campaign, character=self.character,
                                      event=event, gm_only=gm_only)
        return [sys.executable, "manage.py", "shell", "-v", "0", "-c", code]


def server_env(tmp: Path) -> dict[str, str]:
    """The environment of a test server process: a SQLite file in ``tmp`` (shared by every
    process of the module) and the Redis channel layer, as production shares events."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "sheetkeeper.settings",
        "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
        "REDIS_URL": REDIS_URL,
        "DEBUG": "true",
        "ALLOWED_HOSTS": "127.0.0.1",
        "PYTHONPATH": str(BASE_DIR),
    }


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    """Two daphne processes (A and B) on one SQLite file and one Redis database; both are
    killed when the module's tests are done, whatever happened."""
    require_redis()
    tmp = tmp_path_factory.mktemp("live-processes")
    env = server_env(tmp)
    processes: list[subprocess.Popen[bytes]] = []
    try:
        manage(env, "migrate", "--noinput", "-v", "0")
        ids = json.loads(manage(env, "shell", "-v", "0", "-c", SETUP_SCRIPT).splitlines()[-1])
        ports = [free_port(), free_port()]
        logs = [tmp / f"daphne-{name}.log" for name in "ab"]
        processes += [start_daphne(port, env, log) for port, log in zip(ports, logs, strict=True)]
        for port, process, log in zip(ports, processes, logs, strict=True):
            wait_until_serving(port, process, log, within=10)
    except ServingError as exc:
        for process in processes:
            stop(process)
        pytest.fail(str(exc), pytrace=False)
    try:
        yield Servers(a=ports[0], b=ports[1], env=env, campaign=ids["campaign"],
                      character=ids["character"], gm_session=ids["gm"],
                      player_session=ids["player"])
    finally:
        for process in processes:
            stop(process)


# --- HTTP and Server-Sent Events by hand ------------------------------------------------


class EventStream:
    """A page's open event stream: a task parses frames into a queue of (event, data)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 head: dict[str, str]) -> None:
        self.writer = writer
        self.events: asyncio.Queue[tuple[str, dict[str, object]]] = asyncio.Queue()
        self.connected = asyncio.Event()
        self.task = asyncio.create_task(self._read(reader, head))

    @classmethod
    async def open(cls, port: int, campaign: int, session: str) -> EventStream:
        """Open the campaign's stream as the session's user; return once subscribed (the
        ``: connected`` comment comes after the subscription)."""
        reader, writer, status, head = await http_request(
            port, "GET", f"/campaigns/{campaign}/events/",
            {"Accept": "text/event-stream", "Cookie": f"sessionid={session}"},
        )
        assert status == 200, f"the event stream answered {status} {head}"
        assert head["content-type"].startswith("text/event-stream"), head
        stream = cls(reader, writer, head)
        await asyncio.wait_for(stream.connected.wait(), 5)
        return stream

    async def _read(self, reader: asyncio.StreamReader, head: dict[str, str]) -> None:
        buffer = b""
        async for chunk in body_chunks(reader, head):
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.decode().splitlines()
                              if ": " in line and not line.startswith(":"))
                if ": connected" in block.decode().splitlines():
                    self.connected.set()
                if "event" in fields:
                    self.events.put_nowait((fields["event"], json.loads(fields["data"])))

    async def next_event(self, within: float) -> tuple[str, dict[str, object]]:
        return await asyncio.wait_for(self.events.get(), within)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


async def post_roll(port: int, character: int, session: str) -> int:
    """Roll Precision for the character as the session's user; the response's status."""
    csrf = secrets.token_hex(16)  # a 32-character secret: Django accepts it unmasked
    body = b"kind=action&trait=Precision&difficulty=6&threshold=0"
    reader, writer, status, head = await http_request(
        port, "POST", f"/characters/{character}/roll/",
        {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf,
         "Content-Type": "application/x-www-form-urlencoded"}, body,
    )
    async for _ in body_chunks(reader, head):
        pass
    writer.close()
    return status


async def run_announce(command: list[str], env: dict[str, str]) -> None:
    process = await asyncio.create_subprocess_exec(
        *command, cwd=BASE_DIR, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    assert process.returncode == 0, output.decode()


# --- the tests --------------------------------------------------------------------------


def test_a_roll_made_through_one_server_reaches_a_page_on_the_other(servers: Servers) -> None:
    async def scenario() -> None:
        page = await EventStream.open(servers.b, servers.campaign, servers.player_session)
        try:
            status = await post_roll(servers.a, servers.character, servers.player_session)
            assert status == 302, "the roll was not made (302 to the roll expected)"
            try:
                heard = [await page.next_event(EVENT_WITHIN), await page.next_event(0.5),
                         await page.next_event(0.5)]
            except TimeoutError:
                pytest.fail(f"server B's page heard no rollMade within {EVENT_WITHIN} s of "
                            "the roll on server A: is the Redis layer shared?", pytrace=False)
        finally:
            await page.close()
        # The campaign's live version after the roll (campaigns.versions) comes with it, and
        # once more after its frames, with their names (core.live.VERSION_EVENT).
        version = heard[0][1].get("version")
        assert isinstance(version, int) and version > 0
        data = {"campaign": servers.campaign, "character": servers.character,
                "version": version}
        names = ["rollMade", f"rollMade-{servers.character}"]
        # The roll's line in the latest rolls comes with the first name (table/live.py), its
        # line in the character's recent rolls with the character's (characters/live.py):
        # drawn on server A and carried by Redis.
        line = heard[0][1].get("prepend", {}).get("campaign-rolls", "")
        assert line.startswith("<li data-roll=") and "Rook" in line, heard[0]
        recent = heard[1][1].get("prepend", {}).get("recent-rolls", "")
        assert recent.startswith("<li data-live-key=\"roll-"), heard[1]
        assert heard == [(names[0], {**data, "prepend": {"campaign-rolls": line}}),
                         (names[1], {**data, "prepend": {"recent-rolls": recent}}),
                         ("liveVersion", {"version": version, "names": names})]

    asyncio.run(scenario())


def test_a_player_on_another_server_never_hears_a_gm_only_event(servers: Servers) -> None:
    async def scenario() -> None:
        gm_page = await EventStream.open(servers.b, servers.campaign, servers.gm_session)
        player_page = await EventStream.open(servers.b, servers.campaign,
                                             servers.player_session)
        try:
            await run_announce(servers.announce("rollMade", gm_only=True), servers.env)
            event, _ = await gm_page.next_event(EVENT_WITHIN)
            assert event == "rollMade"  # the GM hears it, on the other server
            try:
                leaked = await player_page.next_event(SILENCE)
            except TimeoutError:
                pass  # silence, as it should be
            else:
                pytest.fail(f"the player on server B heard a GM-only event: {leaked}")
            # The player's stream is alive all the same: a public event gets through.
            await run_announce(servers.announce("trackChanged", gm_only=False), servers.env)
            event, _ = await player_page.next_event(EVENT_WITHIN)
            assert event == "trackChanged"
        finally:
            await gm_page.close()
            await player_page.close()

    asyncio.run(scenario())
