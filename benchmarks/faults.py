"""Faults at the table: many tables' live streams held idle, then play while Redis goes away
for a while and PostgreSQL restarts, against a production-like server of its own.

    .venv/bin/python -m benchmarks.faults [--tables 50] [--players 4] [--idle 300] [--play 150]
                                          [--redis-outage 30] [--workers 2] [--app-dir DIR]
                                          [--log-dir DIR] [--dump FILE]

The method and the figures are docs/reliability.md's: a PostgreSQL cluster and a
redis-server of its own (stopped and removed on exit, Ctrl-C and SIGTERM); uvicorn as
production runs it (``benchmarks.serving``) serving ``--app-dir``; ``--tables`` Maelstrom
campaigns of a GM and ``--players`` players, every person's page holding its event stream
(``benchmarks.browser``, reconnecting as static/js/live.js does); ``--idle`` seconds idle,
then ``--play`` seconds of rolls and GM actions from the pages' own forms while Redis is
stopped for ``--redis-outage`` seconds (at a fifth of the play) and PostgreSQL restarts (at
three fifths); then catching up, closing, and counting stale group entries and lost rolls.

Exit status 1 when a roll is lost or a 5xx answer came outside an outage window (the issue's
pass/fail figures), 2 when it could not run; 0 otherwise. All traffic stays on 127.0.0.1;
every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import urlencode

import httpx
import psutil
from httpx_sse import ServerSentEvent

from benchmarks import serving
from benchmarks.browser import EventStream, client
from benchmarks.http import ROLL_BODY
from benchmarks.serving import (
    BASE_DIR,
    SESSION_SETUP,
    RedisServer,
    ServingError,
    free_port,
    run,
)
from benchmarks.tables_pages import parse_page
from core.live import TIMINGS

PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"
SETTLE_SECONDS = 30.0
"""After play, how long pages may take to hear (or reconnect after) every roll."""
DRAIN_SECONDS = 30.0
"""After the streams are closed, how long the server may take to leave their groups."""
REQUEST_TIMEOUT = 30.0
"""A request with no whole answer within this counts as unanswered."""
OPEN_CONCURRENCY = 20
"""Streams opened at once at the start (a stampede of 250 would measure the stampede)."""
NPC_ROLL = "5 dice diff 7 threshold 1"

SEED_SCRIPT = SESSION_SETUP + """
import json
import campaigns
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

tables = []
for t in range({tables}):
    gm = UserFactory(username=f"faults-gm-{{t}}", password=None)
    campaign = CampaignFactory(created_by=gm, name=f"Faults table {{t}}")
    players = []
    for p in range({players}):
        user = UserFactory(username=f"faults-{{t}}-{{p}}", password=None)
        character = CharacterFactory(campaign=campaign, owner=user, name=f"Hero {{t}}-{{p}}")
        players.append({{"session": session_for(user), "character": character.pk}})
    tables.append({{"campaign": campaign.pk, "gm": session_for(gm), "players": players}})
print(json.dumps({{"app": campaigns.__file__, "tables": tables}}))
"""


def now() -> float:
    """The clock every timestamp of a run uses."""
    return time.monotonic()


# --- the private services ------------------------------------------------------------------


class Postgres:
    """A PostgreSQL cluster of our own in ``root``, on a free port of 127.0.0.1."""

    def __init__(self, root: Path) -> None:
        candidates = sorted(Path("/").glob(PG_BIN_GLOB.lstrip("/")))
        if not candidates:
            raise ServingError(f"no PostgreSQL server found in {PG_BIN_GLOB} "
                              "(apt-get install postgresql)")
        self.bin = candidates[-1]
        self.root = root
        self.data = root / "data"
        self.log = root / "postgres.log"
        self.port = free_port()
        self.started = False
        # initdb refuses to run as root: the cluster belongs to the postgres account then.
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []

    @property
    def url(self) -> str:
        """The cluster's ``sheetkeeper`` database, as the server is given it."""
        return f"postgres://postgres@127.0.0.1:{self.port}/sheetkeeper"

    def _pg_ctl(self, *args: str) -> str:
        return run([*self.as_owner, str(self.bin / "pg_ctl"), "-D", str(self.data),
                    "-l", str(self.log), "-w", "-t", "60", *args], start_new_session=True)

    def start(self) -> None:
        """initdb, start, create the ``sheetkeeper`` database. Raises ServingError."""
        self.root.mkdir(mode=0o700)
        if self.as_owner:
            shutil.chown(self.root, "postgres", "postgres")
            self.root.parent.chmod(0o711)  # postgres must reach its directory
        run([*self.as_owner, str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
             "-A", "trust", "--no-sync", "-E", "UTF8"])
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 "
                   f"-c unix_socket_directories={self.data}")
        self._pg_ctl("-o", options, "start")
        self.started = True
        import psycopg  # the product's PostgreSQL driver

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname="postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE sheetkeeper")

    def restart(self) -> None:
        """A fast restart (``pg_ctl restart -m fast``): sessions are cut, data is kept."""
        self._pg_ctl("-m", "fast", "restart")

    def stop(self) -> None:
        """Stop the cluster at once (``pg_ctl -m immediate``), if it runs; never raises."""
        if self.started:
            with contextlib.suppress(ServingError, subprocess.TimeoutExpired):
                self._pg_ctl("-m", "immediate", "stop")
            self.started = False

    def version(self) -> str:
        """What ``postgres --version`` says."""
        return run([str(self.bin / "postgres"), "--version"]).strip()

    def rolls_present(self, codes: list[str]) -> set[str]:
        """Which of ``codes`` (``Roll.code``, as pages name rolls) are rows of the roll log."""
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                             dbname="sheetkeeper") as conn:
            rows = conn.execute("SELECT code::text FROM rolls_roll WHERE code::text = ANY(%s)",
                                (codes,))
            return {row[0] for row in rows}


# --- HTTP as the pages do it (benchmarks.browser) ---------------------------------------------


@dataclass
class Answer:
    """One request's outcome: ``status`` None when no whole answer came (``error`` says
    why)."""

    kind: str
    started: float
    ended: float
    status: int | None
    headers: dict[str, str] = field(default_factory=dict)
    text: str = ""
    error: str = ""


@dataclass
class Person:
    """A logged-in browser: its own client (``benchmarks.browser.client``) and CSRF secret (a
    32-character secret Django takes as it is, in the cookie and in ``X-CSRFToken``)."""

    session: str
    base: str
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))
    client: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        self.client = client(self.base, self.session, timeout=REQUEST_TIMEOUT)

    def headers(self, *, post: bool = False) -> dict[str, str]:
        """The headers of its requests (the Cookie header wins over the client's jar)."""
        cookie = {"Cookie": f"sessionid={self.session}; csrftoken={self.csrf}"}
        if not post:
            return cookie
        return {**cookie, "X-CSRFToken": self.csrf, "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded"}


def hidden_forms(page: str, action: str) -> list[dict[str, str]]:
    """The hidden fields (but the CSRF token, sent as a header) of each form of ``page``
    that posts to ``action``, in page order."""
    return [{f.name: f.value for f in form.fields if f.kind == "hidden" and f.name
             and f.name != "csrfmiddlewaretoken"}
            for form in parse_page(page).forms if form.action == action]


def encode(fields: dict[str, str], extra: str = "") -> bytes:
    """A form body: ``fields`` then the already-encoded ``extra``."""
    return "&".join(part for part in (urlencode(fields), extra) if part).encode()


def roll_id(answer: Answer) -> str | None:
    """The roll's code in its ``HX-Trigger: {"rollMade": {"id": "<code>"}}``, or None (no
    roll made)."""
    try:
        return str(json.loads(answer.headers.get("hx-trigger", ""))["rollMade"]["id"])
    except (ValueError, KeyError, TypeError):
        return None


@dataclass
class MadeRoll:
    """A roll answered 200 with its code (``id``): which table and character, when it was
    sent."""

    table: int
    character: int | None
    sent: float
    answered: float
    id: str


class Recorder:
    """Every request, roll and fault of a run, timestamped on :func:`now`."""

    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.rolls: list[MadeRoll] = []
        self.rolls_refused: list[Answer] = []
        self.windows: dict[str, tuple[float, float]] = {}
        self.play: tuple[float, float] = (0.0, 0.0)

    async def send(self, kind: str, person: Person, method: str, path: str, *,
                   post: bool = False, body: bytes = b"") -> Answer:
        """One request of ``person``'s; its outcome, recorded."""
        started = now()
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                response = await person.client.request(method, path, content=body or None,
                                                       headers=person.headers(post=post))
            answer = Answer(kind, started, now(), response.status_code,
                            {k.lower(): v for k, v in response.headers.items()}, response.text)
        except Exception as exc:  # refused, reset, timed out, garbled: no answer
            answer = Answer(kind, started, now(), None, error=type(exc).__name__)
        self.answers.append(Answer(answer.kind, answer.started, answer.ended, answer.status,
                                   error=answer.error))  # not the body: memory
        return answer

    def in_outage(self, start: float, end: float) -> bool:
        """Whether [start, end] overlaps an outage window."""
        return any(start <= until and end >= since for since, until in self.windows.values())


# --- the pages ------------------------------------------------------------------------------


class Page(EventStream):
    """One open page of a table: its event stream (``benchmarks.browser.EventStream``,
    reconnecting as the served pages do), the ``rollMade-<character>`` frames it heard."""

    def __init__(self, recorder: Recorder, table: int, campaign: int, person: Person,
                 rng: random.Random) -> None:
        super().__init__(person.client, f"/campaigns/{campaign}/events/", rng)
        self.recorder, self.table, self.campaign = recorder, table, campaign
        self.connected_at: list[float] = []
        self.frames: dict[str, list[float]] = defaultdict(list)
        self.drops: list[float] = []

    def on_attempt(self, started: float, response: httpx.Response | None, error: str) -> None:
        """Record the opening's answer (or its absence) as a request."""
        took = time.perf_counter() - started
        self.recorder.answers.append(Answer("stream open", now() - took, now(), None if
                                            response is None else response.status_code,
                                            error=error))

    def on_open(self) -> None:
        """Stamp the connection: a reconnected page re-reads everything live."""
        self.connected_at.append(now())

    def on_event(self, event: ServerSentEvent) -> None:
        """Stamp a ``rollMade-<character>`` frame."""
        if event.event.startswith("rollMade-"):
            self.frames[event.event].append(now())

    def on_drop(self, reason: str) -> None:
        """Stamp a stream that ended other than by this script."""
        self.drops.append(now())

    def heard(self, rolls: list[MadeRoll]) -> list[bool]:
        """For one character's ``rolls`` (in the order sent), whether this page heard each:
        a ``rollMade-<character>`` frame that arrived after the roll was sent, or a
        reconnection after it. Each frame counts for one roll: the latest one sent before it
        that has none yet (a frame follows its roll closely; a roll whose event was lost
        leaves an earlier roll without a frame, not a later one)."""
        if not rolls:
            return []
        frames = self.frames.get(f"rollMade-{rolls[0].character}", [])
        matched = [False] * len(rolls)
        waiting: list[int] = []  # rolls sent before the current frame, still without one
        sent = 0
        for arrived in frames:
            while sent < len(rolls) and rolls[sent].sent <= arrived:
                waiting.append(sent)
                sent += 1
            if waiting:
                matched[waiting.pop()] = True
        return [done or bisect.bisect_left(self.connected_at, roll.sent) < len(self.connected_at)
                for roll, done in zip(rolls, matched, strict=True)]


async def player(recorder: Recorder, table: int, person: Person, character: int,
                 until: float, every: float, rng: random.Random) -> None:
    """Load the sheet and roll from it, every ``every`` seconds on average, until ``until``."""
    sheet, roll = f"/characters/{character}/", f"/characters/{character}/roll/"
    await asyncio.sleep(rng.uniform(0, every))
    while now() < until:
        page = await recorder.send("sheet GET", person, "GET", sheet)
        if page.status == 200:
            forms = hidden_forms(page.text, roll)
            sent = now()
            answer = await recorder.send("roll POST", person, "POST", roll, post=True,
                                         body=encode(forms[0] if forms else {}, ROLL_BODY))
            note_roll(recorder, answer, table, character, sent)
        await asyncio.sleep(min(rng.uniform(0.5, 1.5) * every, max(0.0, until - now())))


def note_roll(recorder: Recorder, answer: Answer, table: int, character: int | None,
              sent: float) -> None:
    """Keep a 200 roll answer: as a roll made when it names its roll, else as refused."""
    if answer.status != 200:
        return
    made = roll_id(answer)
    if made is None:
        recorder.rolls_refused.append(answer)
    else:
        recorder.rolls.append(MadeRoll(table, character, sent, answer.ended, made))


async def game_master(recorder: Recorder, table: int, campaign: int, person: Person,
                      characters: list[int], until: float, every: float,
                      rng: random.Random) -> None:
    """Every ``every`` seconds on average, in turn: a quick NPC roll, a level of bashing
    damage, 1 XP awarded, a level healed (each from the page that shows its form)."""
    dashboard = f"/campaigns/{campaign}/"
    turn = 0
    await asyncio.sleep(rng.uniform(0, every))
    while now() < until:
        action = ("npc", "damage", "award", "heal")[turn % 4]
        character = characters[(turn // 4) % len(characters)]
        health = f"/characters/{character}/health/"
        if action == "award":
            page_path, target = f"/characters/{character}/xp/", f"/characters/{character}/xp/award/"
        elif action == "npc":
            page_path, target = dashboard, f"/campaigns/{campaign}/npc-roll/"
        else:
            page_path, target = dashboard, health
        page = await recorder.send(f"GM {action} page GET", person, "GET", page_path)
        if page.status == 200:
            forms = hidden_forms(page.text, target)
            heal = [form for form in forms if form.get("action") == "heal"]
            damage = [form for form in forms if form.get("action") != "heal"]
            fields, extra = {
                "npc": (forms[0] if forms else {}, encode({"text": NPC_ROLL}).decode()),
                "damage": (damage[0] if damage else {}, "kind=bashing&levels=1&action=damage"),
                "award": (forms[0] if forms else {}, "amount=1&reason=Fault+script"),
                "heal": (heal[0] if heal else {"action": "heal", "kind": ""}, ""),
            }[action]
            sent = now()
            answer = await recorder.send(f"GM {action} POST", person, "POST", target,
                                         post=True, body=encode(fields, extra))
            if action == "npc":
                note_roll(recorder, answer, table, None, sent)
        turn += 1
        await asyncio.sleep(min(rng.uniform(0.5, 1.5) * every, max(0.0, until - now())))

# --- the run --------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What a run measured (the module's docstring, "Reported")."""

    pages: list[Page]
    recorder: Recorder
    idle: tuple[float, float]
    groups_needed: int
    groups_open: int
    stale_entries: int
    rolls_missing: list[str]
    log: str


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


async def drive(args: argparse.Namespace, base: str, tables: list[dict[str, Any]],
                pg: Postgres, redis: RedisServer
                ) -> tuple[list[Page], Recorder, tuple[float, float], int, int, int]:
    """Open the pages, idle, play with the faults, catch up, close; the pages, the recorder,
    the idle span, the group entries the open streams needed, held at the end of play and
    left after closing."""
    recorder = Recorder()
    rng = random.Random(args.seed)
    pages = []
    for number, table in enumerate(tables):
        people = [Person(table["gm"], base)] + [Person(p["session"], base)
                                                for p in table["players"]]
        table["people"] = people
        pages += [Page(recorder, number, table["campaign"], person, random.Random(rng.random()))
                  for person in people]
    gate = asyncio.Semaphore(OPEN_CONCURRENCY)
    loop, main = asyncio.get_running_loop(), asyncio.current_task()
    assert main is not None
    # SIGTERM inside the loop cancels the run as Ctrl-C does (asyncio.run's own SIGINT
    # handling), so that every page closes and every service stops.
    loop.add_signal_handler(signal.SIGTERM, main.cancel)

    async def open_page(page: Page) -> None:
        async with gate:
            page.start()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(page.opened.wait(), 60)

    try:
        await asyncio.gather(*(open_page(page) for page in pages))
        unconnected = sum(not page.opens for page in pages)
        if unconnected:
            raise ServingError(f"{unconnected} of {len(pages)} streams never connected")
        # What the open streams need, as the served code subscribes them (a version that adds
        # a group per stream needs more): the baseline the later counts are read against.
        groups_needed = await asyncio.to_thread(redis.group_entries)
        log(f"{len(pages)} streams open ({groups_needed} group entries); idle for "
            f"{args.idle:g} s")
        idle_start = now()
        await sleep_reporting(args.idle, pages, "idle")
        idle = (idle_start, now())

        play_start = now()
        until = play_start + args.play
        recorder.play = (play_start, until)
        log(f"play for {args.play:g} s")
        actors = []
        for number, table in enumerate(tables):
            gm, *players = table["people"]
            characters = [p["character"] for p in table["players"]]
            actors += [player(recorder, number, person, p["character"], until, args.roll_every,
                              random.Random(rng.random()))
                       for person, p in zip(players, table["players"], strict=True)]
            actors.append(game_master(recorder, number, table["campaign"], gm, characters,
                                      until, args.gm_every, random.Random(rng.random())))
        faults = asyncio.create_task(inject(args, recorder, play_start, pg, redis))
        await asyncio.gather(*actors, faults, sleep_reporting(args.play, pages, "play"))

        log("catching up")
        deadline = now() + SETTLE_SECONDS
        while now() < deadline and missed(pages, recorder)[0]:
            await asyncio.sleep(1)
        groups_open = await asyncio.to_thread(redis.group_entries)
    finally:
        await asyncio.gather(*(page.close() for page in pages))
        await asyncio.gather(*(person.client.aclose() for table in tables
                               for person in table["people"]))
        loop.remove_signal_handler(signal.SIGTERM)
        signal.signal(signal.SIGTERM, interrupt)
    log("streams closed; waiting for the server to leave their groups")
    stale = await drain(redis)
    return pages, recorder, idle, groups_needed, groups_open, stale


async def sleep_reporting(seconds: float, pages: list[Page], phase: str) -> None:
    """Sleep ``seconds``, saying every 30 s how many streams dropped so far."""
    ends = now() + seconds
    while (left := ends - now()) > 0:
        await asyncio.sleep(min(30.0, left))
        drops = sum(len(page.drops) for page in pages)
        log(f"{phase}: {max(0.0, ends - now()):.0f} s left; {drops} stream drops so far")


async def inject(args: argparse.Namespace, recorder: Recorder, play_start: float,
                 pg: Postgres, redis: RedisServer) -> None:
    """Stop Redis, start it again, restart PostgreSQL, at the moments of the docstring (5),
    recording each outage window."""
    redis_at = play_start + args.play * 0.2
    await asyncio.sleep(max(0.0, redis_at - now()))
    log("stopping Redis")
    down = now()
    await asyncio.to_thread(redis.stop)
    await asyncio.sleep(max(0.0, down + args.redis_outage - now()))
    await asyncio.to_thread(redis.start)
    recorder.windows["redis"] = (down, now() + args.grace)
    log(f"Redis back after {now() - down:.1f} s")
    pg_at = max(play_start + args.play * 0.6, now() + 10)
    await asyncio.sleep(max(0.0, pg_at - now()))
    log("restarting PostgreSQL")
    down = now()
    await asyncio.to_thread(pg.restart)
    recorder.windows["postgres"] = (down, now() + args.grace)
    log(f"PostgreSQL back after {now() - down:.1f} s")


async def drain(redis: RedisServer) -> int:
    """Group entries left in Redis once they stop shrinking (at most DRAIN_SECONDS)."""
    deadline, last, steady_since = now() + DRAIN_SECONDS, -1, now()
    while True:
        count = await asyncio.to_thread(redis.group_entries)
        if count != last:
            last, steady_since = count, now()
        if count == 0 or now() >= deadline or now() - steady_since >= 10:
            return count
        await asyncio.sleep(1)


def missed(pages: list[Page], recorder: Recorder) -> tuple[int, int, int]:
    """(page x roll pairs missed, rolls with a miss, pairs checked): character rolls
    answered 200 during play, against every page of their table."""
    by_character: dict[int, list[MadeRoll]] = defaultdict(list)
    for roll in recorder.rolls:
        if roll.character is not None:
            by_character[roll.character].append(roll)
    pages_of: dict[int, list[Page]] = defaultdict(list)
    for page in pages:
        pages_of[page.table].append(page)
    pairs = missed_pairs = 0
    rolls_missed: set[str] = set()
    for rolls in by_character.values():
        rolls.sort(key=lambda roll: roll.sent)
        for page in pages_of[rolls[0].table]:
            for roll, heard in zip(rolls, page.heard(rolls), strict=True):
                pairs += 1
                if not heard:
                    missed_pairs += 1
                    rolls_missed.add(roll.id)
    return missed_pairs, len(rolls_missed), pairs


# --- the report -----------------------------------------------------------------------------


def machine(pg: Postgres) -> str:
    """The machine (``benchmarks.serving.machine``), its memory, the date, the versions."""
    return (f"{serving.machine()}, {psutil.virtual_memory().total / 2**30:.1f} GiB memory, "
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {pg.version()}, "
            f"{RedisServer.version()}")


def server_errors(text: str) -> tuple[int, list[tuple[str, int]]]:
    """Tracebacks in the server's log, and the commonest exceptions that ended them."""
    tracebacks = text.count("Traceback (most recent call last)")
    ends = Counter(match.group(1) for match in re.finditer(
        r"^([A-Za-z_][\w.]*(?:Error|Exception|Timeout|Exhausted)\w*)(?::|$)", text, re.M))
    return tracebacks, ends.most_common(6)


def report(outcome: Outcome, args: argparse.Namespace, app: str, setting: str) -> int:
    """Print the table; the exit status (1 when a pass/fail figure is not 0)."""
    recorder, pages = outcome.recorder, outcome.pages
    idle_start, idle_end = outcome.idle
    drops = [t for page in pages for t in page.drops]
    idle_drops = sum(idle_start <= t <= idle_end for t in drops)
    outage_drops = sum(recorder.in_outage(t, t) for t in drops)
    play_drops = len(drops) - idle_drops - outage_drops
    failed = [a for a in recorder.answers if (a.status or 0) >= 500]
    errors_in = [a for a in failed if recorder.in_outage(a.started, a.ended)]
    errors_out = [a for a in failed if not recorder.in_outage(a.started, a.ended)]
    silent = [a for a in recorder.answers if a.status is None]
    silent_in = sum(recorder.in_outage(a.started, a.ended) for a in silent)
    missed_pairs, missed_rolls, pairs = missed(pages, recorder)
    lost = len(outcome.rolls_missing)
    opens = Counter(a.status for a in recorder.answers if a.kind == "stream open")
    windows = ", ".join(f"{name} {until - since - args.grace:.1f} s (+{args.grace:g} s grace)"
                        for name, (since, until) in recorder.windows.items())

    print(f"\nFaults at the table: {args.tables} tables x (1 GM + {args.players} players), "
          f"{len(pages)} streams; idle {args.idle:g} s, play {args.play:g} s (a roll per "
          f"player every ~{args.roll_every:g} s, a GM action every ~{args.gm_every:g} s); "
          f"uvicorn --workers {args.workers}, PostgreSQL and Redis of its own.")
    print(f"App: {app}")
    print(f"Pages reconnect as static/js/live.js: {TIMINGS['FIRST_DELAY_MS'] / 1000:g} s "
          f"doubling to {TIMINGS['MAX_DELAY_MS'] / 1000:g} s, jittered.")
    print(f"Machine: {setting}")
    print(f"Outage windows: {windows}\n")
    print("| figure | value | must be |")
    print("|---|---:|---|")
    print(f"| streams dropped (idle / play outside outages / during outages) | {len(drops)} "
          f"({idle_drops} / {play_drops} / {outage_drops}) | |")
    print(f"| stream opens (200 / other answers / no answer) | {opens.get(200, 0)} / "
          f"{sum(n for s, n in opens.items() if s not in (200, None))} / {opens.get(None, 0)} "
          "| |")
    print(f"| events missed after catching up (page x roll pairs; rolls) | {missed_pairs} of "
          f"{pairs}; {missed_rolls} | |")
    print(f"| 5xx answers during an outage window | {len(errors_in)} | |")
    print(f"| 5xx answers outside the outage windows | {len(errors_out)} | 0 |")
    print(f"| requests without an answer (during / outside outages) | {len(silent)} "
          f"({silent_in} / {len(silent) - silent_in}) | |")
    print(f"| group entries in Redis with every stream open (needed: {outcome.groups_needed}, "
          f"counted when the streams first opened) | {outcome.groups_open} | |")
    print(f"| stale group entries after every stream closed | {outcome.stale_entries} | |")
    excess = max(0, outcome.groups_open - outcome.groups_needed)
    print(f"| of which left by closing (not there as excess while open) | "
          f"{max(0, outcome.stale_entries - excess)} | |")
    print(f"| rolls answered 200 (refused rolls answered 200) | {len(recorder.rolls)} "
          f"({len(recorder.rolls_refused)}) | |")
    print(f"| rolls lost (answered 200, not in the database) | {lost} | 0 |")
    requests = Counter(a.kind for a in recorder.answers if a.kind != "stream open")
    print(f"\nRequests during play: {sum(requests.values())} "
          f"({', '.join(f'{kind} {n}' for kind, n in sorted(requests.items()))}).")
    for label, errors in (("during", errors_in), ("outside", errors_out)):
        if errors:
            kinds = Counter(f"{a.kind} {a.status}" for a in errors)
            print(f"5xx {label} the outages: "
                  f"{', '.join(f'{k} x{n}' for k, n in sorted(kinds.items()))}.")
    recovered = [until for _, until in recorder.windows.values()]
    late = [a.started - max(t for t in recovered if t <= a.started) for a in errors_out
            if any(t <= a.started for t in recovered)]
    if late:
        print(f"{len(late)} of the 5xx outside came after a service answered again, the last "
              f"{max(late):.1f} s after.")
    tracebacks, commonest = server_errors(outcome.log)
    print(f"Server log: {tracebacks} tracebacks; exceptions named most: "
          f"{', '.join(f'{name} x{n}' for name, n in commonest) or 'none'}.")
    failing = bool(lost or errors_out)
    print(f"\nverdict: {'FAILED' if failing else 'passed'} (rolls lost {lost}, 5xx outside "
          f"outages {len(errors_out)}; both must be 0)")
    return 1 if failing else 0


# --- main -----------------------------------------------------------------------------------


def interrupt(signum: int, frame: FrameType | None) -> None:
    """SIGTERM outside the event loop: end the run like Ctrl-C (once; the clean-up runs)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


@contextlib.contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM ends the run like Ctrl-C, through every ``finally`` (the services stop)."""
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def measure(args: argparse.Namespace, tmp: Path) -> tuple[Outcome, str, str]:
    """Start the services and the server, drive the run, stop everything; the outcome, the
    app's path as the server imported it, and the machine line."""
    pg, redis = Postgres(tmp / "postgres"), RedisServer(tmp / "redis")
    servers: list[serving.Server] = []
    server_log = tmp / "uvicorn-1.log"
    try:
        log(f"starting PostgreSQL ({pg.bin}) on port {pg.port}, Redis on port {redis.port}")
        pg.start()
        redis.start()
        env = serving.server_env(pg.url, redis.url, tmp, app_dir=args.app_dir)
        log(f"migrating and seeding {args.tables} tables in {args.app_dir}")
        seeded = json.loads(serving.prepare(env, SEED_SCRIPT.format(
            tables=args.tables, players=args.players), app_dir=args.app_dir))
        servers = serving.start(env, tmp, workers=args.workers, app_dir=args.app_dir)
        setting = machine(pg)
        pages, recorder, idle, groups_needed, groups_open, stale = asyncio.run(
            drive(args, servers[0].url, seeded["tables"], pg, redis))
        made = [roll.id for roll in recorder.rolls]
        present = pg.rolls_present(made)
        servers.pop().stop()
        outcome = Outcome(pages, recorder, idle, groups_needed, groups_open, stale,
                          [rid for rid in made if rid not in present],
                          server_log.read_text(errors="replace"))
        return outcome, str(Path(seeded["app"]).parent.parent), setting
    except ServingError:
        if server_log.exists():
            print(server_log.read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        for server in servers:
            server.stop()
        if args.log_dir:
            args.log_dir.mkdir(parents=True, exist_ok=True)
            for source in (server_log, redis.root / "redis.log", pg.log):
                if source.exists():
                    shutil.copy(source, args.log_dir / source.name)
        redis.stop()
        pg.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables (50)")
    parser.add_argument("--players", type=int, default=4, help="players per table (4)")
    parser.add_argument("--idle", type=float, default=300, help="seconds the streams stay "
                        "idle before play (300)")
    parser.add_argument("--play", type=float, default=150, help="seconds of play (150)")
    parser.add_argument("--redis-outage", type=float, default=30,
                        help="seconds Redis stays stopped (30)")
    parser.add_argument("--grace", type=float, default=0,
                        help="seconds an outage window lasts after the service answers again (0)")
    parser.add_argument("--roll-every", type=float, default=15,
                        help="mean seconds between a player's rolls (15)")
    parser.add_argument("--gm-every", type=float, default=20,
                        help="mean seconds between a GM's actions (20)")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn --workers (2, as the "
                        "Procfile runs it)")
    parser.add_argument("--app-dir", type=Path, default=BASE_DIR,
                        help="the checkout to serve (default: the one this script is in)")
    parser.add_argument("--log-dir", type=Path, help="copy the server's, Redis' and "
                        "PostgreSQL's logs here at the end")
    parser.add_argument("--dump", type=Path, help="write the run's timeline here as JSON "
                        "(every roll, every page's connections, drops and roll frames)")
    parser.add_argument("--seed", type=int, default=14, help="the players' random timing")
    args = parser.parse_args()
    args.app_dir = args.app_dir.resolve()
    if not (args.app_dir / "manage.py").exists():
        sys.exit(f"benchmarks.faults: no manage.py in {args.app_dir}")
    if args.play < args.play * 0.2 + args.redis_outage + args.grace + 20:
        sys.exit("benchmarks.faults: --play is too short for the Redis outage, the "
                 "PostgreSQL restart and a little play after them")

    with terminated_as_interrupt(), tempfile.TemporaryDirectory(prefix="sk-faults-") as name:
        try:
            outcome, app, setting = measure(args, Path(name))
        except ServingError as exc:
            print(f"benchmarks.faults: {exc}", file=sys.stderr)
            sys.exit(2)
        except (KeyboardInterrupt, asyncio.CancelledError):
            print("benchmarks.faults: interrupted; every service it started is stopped",
                  file=sys.stderr)
            sys.exit(130)
    if args.dump:
        dump(outcome, args.dump)
    sys.exit(report(outcome, args, app, setting))


def dump(outcome: Outcome, path: Path) -> None:
    """The run's timeline as JSON (seconds since the idle phase began), for a closer look."""
    zero = outcome.idle[0]
    recorder = outcome.recorder
    path.write_text(json.dumps({
        "idle": [t - zero for t in outcome.idle],
        "play": [t - zero for t in recorder.play],
        "windows": {name: [t - zero for t in span] for name, span in recorder.windows.items()},
        "rolls": [{"id": r.id, "table": r.table, "character": r.character,
                   "sent": r.sent - zero, "answered": r.answered - zero}
                  for r in recorder.rolls],
        "answers": [{"kind": a.kind, "started": a.started - zero, "ended": a.ended - zero,
                     "status": a.status, "error": a.error} for a in recorder.answers],
        "pages": [{"table": p.table, "campaign": p.campaign,
                   "connected": [t - zero for t in p.connected_at],
                   "drops": [t - zero for t in p.drops],
                   "frames": {name: [t - zero for t in times]
                              for name, times in p.frames.items()}}
                  for p in outcome.pages],
    }))


if __name__ == "__main__":
    main()
