"""Live tables under load (docs/performance.md, "Live tables on one machine"): how many
tables one machine serves while every open page follows its live regions, and how fast every
page catches up after a restart.

    .venv/bin/python -m benchmarks.tables [--tables 10,50,100,200,300] [--duration 60]
                                          [--restart 100] [--workers 2] [--inside]
                                          [--instances 2] [--database-url URL]
                                          [--redis-url URL]

(``--tables ""`` with ``--restart N`` measures only the restart.)

Method:

1. **A fresh PostgreSQL database** (``--database-url``, default ``$BENCH_DATABASE_URL``, else
   ``postgres://postgres@127.0.0.1:5432/sheetkeeper_tables``): dropped and created again, so
   **whatever it held is lost**; migrated, static files collected into a temporary
   directory; then ``benchmarks/tables_seed.py``: as many tables as the largest step needs,
   the five systems in turn, each a campaign with a GM and four players filled by the
   system's own demo, and an open session of play. Each seat gets a logged-in session.
2. **The production server** (``benchmarks.serving.start``: uvicorn as production runs it),
   DEBUG off, PostgreSQL, the Redis channel layer and cache (``--redis-url``, default
   ``redis://127.0.0.1:6379/13``). With ``--instances N``, N such servers on ports of their
   own behind an nginx of the run's own (``benchmarks/nginx.py``), as N hosts would run.
3. **A table is five open pages** (the GM's dashboard and four sheets), each with its own
   client (``benchmarks.browser``). Each page is loaded and read (``benchmarks/tables_pages.py``,
   nothing hard-coded): its stream (``sse-connect``, which names the page: ``?page=``), its
   live regions (``hx-trigger`` naming an ``sse:`` event or ``liveSync``), its forms and the
   body's ``hx-headers``. It holds its stream open and on each event asks, as htmx's SSE
   extension does, every region whose trigger names it (one request in flight per region and
   one queued); an htmx answer's ``HX-Trigger`` fires the regions that listen ``from:body``.
   As static/js/live.js, keeping a version per DOM id: the regions a change's
   ``liveRegions`` frame brings are drawn unless the page shows them as new already; a region
   already at an event's version asks nothing; while the page's own POST is in flight, what
   the stream brings and asks for waits for that answer (whose ``Live-Drawn`` may bring it to
   the version); a region current just before an event that brings its line takes the line
   and asks nothing. A dropped stream reconnects with live.js's jittered delays and then,
   after a random wait of up to ``SYNC_SPREAD_MS``, fires ``liveSync``.
4. **The players and the GM act** from what their pages show: a roll per player about every
   ``--roll-every`` s (each wait drawn between half and one and a half of it) with the roll
   dialog as drawn or with a player's first choices (tried once per page before measuring);
   a GM's track mark on a random party card about every ``--damage-every`` s; an award of
   1 XP to everyone from the session page about every ``--award-every`` s. A table's actions
   take turns, so that every event and every refresh belongs to one cause.
5. **Measured**: per action, from sending its POST until the last region it caused is fresh:
   its answer, its line or its push drawn (over once its POST answered, no region of the
   table asks and its streams were quiet for ``QUIET_SECONDS``). Errors: an answer not
   2xx/3xx, a transport error, a dropped or refused stream, a roll without ``rollMade``, an
   action not over within ``ACTION_TIMEOUT``, an event one page of the table heard and
   another did not, an event outside any action. A roll or mark a rule refuses is counted
   apart, not measured.
6. **Ramp**: each step of ``--tables`` connects its tables (the earlier stay), plays
   ``--duration`` seconds and stops the ramp if its p95 is above 250 ms or it had an error.
   CPU seconds (psutil) of the servers, PostgreSQL (background processes and this
   database's backends), redis-server, this process and the rest of the machine.
7. **Restart** (``--restart N``): N tables connected afresh and idle; the server stopped as
   systemd stops the unit and started again on the same port; when each page's stream was
   open again and every ``liveSync`` region had its answer, from the stop; goal: every page
   current within 10 s of the new server answering.
8. **Inside the server** (``--inside``): a middleware times each request where Django runs
   it (benchmarks/timing.py), reported by route.
9. **Two servers** (``--instances 2``): besides the above, each page's events heard against
   the events its table's actions made, by the instance that served its stream and the one
   that took the POST; and PostgreSQL's (``pg_stat_database``, its processes' CPU) and
   Redis's (``INFO``) work per table and second, with how many hosts they would carry. Every
   step runs, whether the one before held or not.

A benchmark, not a test: it fails only when it could not measure.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import re
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from httpx_sse import ServerSentEvent

from benchmarks import hosts, serving, timing
from benchmarks.browser import EventStream, client, timings
from benchmarks.nginx import UPSTREAM_HEADER, Proxy
from benchmarks.serving import Server, ServingError
from benchmarks.tables_pages import (
    Drawn,
    Form,
    Page,
    Region,
    drawn,
    hidden_value,
    hx_trigger_names,
    parse_page,
)
from core.live import REGIONS_EVENT, RESTART_EVENT, VERSION_EVENT

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/sheetkeeper_tables"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"
GOAL_P95_MS = 250.0
GOAL_TABLES = 300
GOAL_RESTART_S = 10.0
QUIET_SECONDS = 0.4
"""An action is over once its table's streams and regions have been quiet this long."""
ACTION_TIMEOUT = 10.0
CONNECT_CONCURRENCY = 20
"""Pages loaded at once while tables are connected (before any measurement)."""
RESTART_TIMEOUT = 120.0
GENERATOR_LIMIT = 0.9
"""A share of one core above which the generator (one event loop) delays what it measures."""
ROLL_EVENT = "rollMade"
RULES_REFUSED = "refused by the rules"
"""What a roll's check says of an answer that refuses the roll by a rule, not by a failure:
200, no ``rollMade``, the rule's reason in the result's alert (a Shahquest character stressed
out by the GM's random stress marks "can't take any actions until recovered")."""
SUBMISSION = "submission"
CSRF_FIELD = "csrfmiddlewaretoken"
SEED_SCRIPT = """
import json
from benchmarks.tables_seed import seed
print(json.dumps(seed({tables})))
"""


class BenchError(RuntimeError):
    """The benchmark could not measure: the message says what to fix."""


def refused_by_rule(answer: httpx.Response) -> bool:
    """A roll's answer that names the rule refusing it (the result partial's alert)."""
    return (answer.status_code == 200 and 'role="alert"' in answer.text
            and ROLL_EVENT not in hx_trigger_names(answer.headers.get("HX-Trigger")))


class Errors(Counter[str]):
    """Errors by kind (``"POST 500"``, ``"stream dropped"``, ...)."""


# --- a page in a browser ---------------------------------------------------------------------


@dataclass
class Action:
    """One cause: a POST and the refreshes it set off."""

    kind: str
    sent: float
    answered: float = 0.0
    last: float = 0.0
    fresh: Counter[str] = field(default_factory=Counter)
    """How its change reached the pages: ``asked``, region answers; ``line``, regions that
    took an event's line; ``pushed``, ``liveRegions`` frames drawn."""
    heard: dict[int, set[str]] = field(default_factory=dict)
    """Per page (its index in the table), the stream's event names heard meanwhile."""

    def freshened(self, how: str, when: float) -> None:
        """A page shows (some of) the action's change from ``when`` on."""
        self.fresh[how] += 1
        self.last = max(self.last, when)


class LivePage(EventStream):
    """One open page: its client (cookies), what it shows, its stream and its regions."""

    def __init__(self, table: Table, index: int, url: str, session: str, base: str) -> None:
        super().__init__(client(base, session), "", table.rng)
        self.table = table
        self.index = index
        self.page_url = url
        self.page = Page()
        self.html = ""
        self.synced_at = 0.0
        """When the regions asked after the last reconnection all had their answers."""
        self.reopened_at = 0.0
        self.upstream = ""
        """The server instance that answered the stream's last opening (nginx's
        ``X-Upstream``), "" without a proxy."""
        self.events_made = 0
        self.events_heard = 0
        """Events its table's actions made while measured, and those this page heard."""
        self.in_flight: dict[int, bool] = {}
        """Per region: True when a request is queued behind the one in flight."""
        self.version = 0
        """The campaign version the page was drawn at (its live elements' ``data-live-version``)."""
        self.held: dict[str, int] = {}
        """DOM id -> the campaign version it was drawn at since (live.js's ``held``)."""
        self.listed: set[str] = set()
        """The region ids whose element now holds a ``data-live-list`` (live.js's
        ``putLines`` needs one)."""
        self.form_choice: list[tuple[str, str]] | None = None
        self.tasks: set[asyncio.Task[object]] = set()
        self.changing = 0
        """The page's own POSTs in flight (live.js's ``changing``)."""
        self.waiting: list[Callable[[], None]] = []
        """What waits for the page's POSTs to be answered (live.js's ``waiting``), in order."""

    def spawn(self, work: Coroutine[Any, Any, object]) -> None:
        """Run ``work`` on its own, keeping a reference until it is done."""
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def load(self) -> None:
        """GET the page and read it. Raises BenchError unless it answers 200 with a stream."""
        answer = await self.client.get(self.page_url)
        if answer.status_code != 200:
            raise BenchError(f"GET {self.page_url} answered {answer.status_code}: "
                             f"{answer.text[:300]!r}")
        self.html = answer.text
        self.page = parse_page(self.html)
        self.url = self.page.stream
        self.timing = timings(self.page.timings)
        self.version = next((r.version for r in self.page.regions if r.version is not None), 0)
        self.listed = drawn(self.html).listed
        if not self.page.stream or not self.page.regions:
            raise BenchError(f"{self.page_url} has no sse-connect stream or no live region")

    def htmx_headers(self, element_id: str = "") -> dict[str, str]:
        """The headers htmx sends from this page."""
        headers = {"HX-Request": "true", "HX-Current-URL": str(self.client.base_url.join(
            self.page_url)), **self.page.headers}
        if element_id:
            headers["HX-Trigger"] = element_id
        return headers

    async def close(self) -> None:
        """Close the stream and drop whatever the page was still asking."""
        running = list(self.tasks)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        await super().close()

    # -- the stream (benchmarks.browser.EventStream) -------------------------------------------

    def on_attempt(self, started: float, response: httpx.Response | None, error: str) -> None:
        """A refused stream is an error; no answer is a drop (expected in a restart)."""
        if response is None:
            self.table.run.dropped(f"stream {error}")
        elif response.status_code != 200:
            self.table.run.error(f"stream answered {response.status_code}")
        else:
            self.upstream = response.headers.get(UPSTREAM_HEADER, "")

    def on_open(self) -> None:
        """On a reopening, fire ``liveSync`` (after a random spread)."""
        if self.opens > 1:
            self.reopened_at = time.perf_counter()
            self.spawn(self._live_sync())

    def on_event(self, event: ServerSentEvent) -> None:
        """``liveVersion`` moves the regions it leaves current; ``liveRegions`` draws the
        regions it brings; any other refreshes."""
        if event.event in (VERSION_EVENT, REGIONS_EVENT):
            note = json.loads(event.data)
            if event.event == VERSION_EVENT:
                self.note_version(int(note["version"]), set(note["names"]))
            else:
                self.draw_pushed(int(note["version"]), str(note["html"]))
        elif event.event != RESTART_EVENT:
            self.table.heard(self, event.event, *event_data(event.data))

    def on_drop(self, reason: str) -> None:
        """A dropped stream: an error, or expected while the server restarts."""
        self.table.run.dropped(reason)

    def at(self, element_id: str) -> int:
        """The campaign version the page shows ``element_id`` at (live.js's ``at``)."""
        return self.held.get(element_id, self.version)

    def ids_of(self, region: Region) -> list[str]:
        """The ids a region asks for; the reconnection's, every region's (live.js's)."""
        if region.sync:
            return [i for r in self.page.regions if r.version is not None and not r.sync
                    for i in region_ids(r)]
        return region_ids(region)

    def held_version(self, region: Region) -> int:
        """The version the page holds ``region`` at: its oldest id's (live.js's
        ``versionOf``)."""
        return min(map(self.at, self.ids_of(region)), default=self.version)

    def note_version(self, version: int, names: set[str]) -> None:
        """live.js's ``noteVersion``: an id of no region that hears one of ``names`` is
        current at ``version`` if it was at the one before."""
        live = [r for r in self.page.regions if r.version is not None and not r.sync]
        touched = {i for r in live if names & r.sse for i in region_ids(r)}
        for i in {i for r in live for i in region_ids(r)} - touched:
            if self.at(i) == version - 1:
                self.held[i] = version

    def show(self, version: int, ids: set[str], html: Drawn) -> None:
        """The page now shows ``ids`` of ``html`` drawn at ``version`` (never older than
        what it held)."""
        for i in ids:
            self.held[i] = max(self.at(i), version)
        self.listed = (self.listed - ids) | (html.listed & ids)

    def draw_pushed(self, version: int, html: str) -> None:
        """live.js's ``drawPushed``: after the page's own POSTs are answered, each top-level
        region of the stream's ``html`` that the page shows older than ``version``, with no
        id in it newer, is drawn; it is fresh for the action under way from now."""
        if self.changing:
            self.waiting.append(functools.partial(self.draw_pushed, version, html))
            return
        pushed = drawn(html)
        fresh = [top for top, inner in pushed.tops.items()
                 if self.at(top) < version and all(self.at(i) <= version for i in inner)]
        self.show(version, {i for top in fresh for i in {top, *pushed.tops[top]}}, pushed)
        if fresh and self.table.action is not None:
            self.table.action.freshened("pushed", time.perf_counter())

    async def _live_sync(self) -> None:
        """Every region that hears ``liveSync`` asks again; stamp when all have answered
        (a region whose answer failed stays stale: htmx does not ask again)."""
        started = self.reopened_at
        await asyncio.sleep(self.rng.random() * self.timing["SYNC_SPREAD"])
        answers = await asyncio.gather(*(self.refresh(number) for number, region in
                                         enumerate(self.page.regions) if region.live_sync))
        if self.reopened_at == started and all(answers):
            self.synced_at = time.perf_counter()

    # -- regions -----------------------------------------------------------------------------

    def trigger(self, names: set[str], *, local: bool = False, version: int = 0,
                lines: frozenset[str] = frozenset()) -> None:
        """Ask every region that hears one of ``names`` (stream events, or with ``local``
        the events an htmx answer triggered on this page). As static/js/live.js: a live
        region that hears a stream event of a ``version`` takes the event's ``lines`` (the
        region ids it brings a line for) when it was current just before it; else it waits
        while the page's own POST is in flight, and asks nothing when it already holds that
        version."""
        for number, region in enumerate(self.page.regions):
            if not names & (region.local if local else region.sse):
                continue
            if version and region.version is not None and not region.sync:
                if lines and self.put_lines(region, version, lines):
                    continue
                if self.changing:
                    self.ask_later(number, version)
                    continue
                if version <= self.held_version(region):
                    continue
            self.spawn(self.refresh(number))

    def put_lines(self, region: Region, version: int, lines: frozenset[str]) -> bool:
        """live.js's ``putLines``: a region current at ``version - 1`` whose every id has a
        line in the event and a list on the page (``data-live-list``), and none of whose ids
        an answer on its way will redraw, takes the lines and
        holds ``version``; True when it did (it asks nothing, and is fresh for the action
        under way from now: the line's arrival counts as its answer)."""
        asks = set(region_ids(region))
        if self.held_version(region) != version - 1 or not asks \
                or not asks <= lines & self.listed:
            return False
        for number in self.in_flight:  # an answer on its way redraws them whole: ask after it
            if set(self.ids_of(self.page.regions[number])) & asks:
                return False
        for i in asks:
            self.held[i] = version
        if self.table.action is not None:  # the region is fresh now, as if its answer had come
            self.table.action.freshened("line", time.perf_counter())
        return True

    def ask_later(self, number: int, version: int) -> None:
        """live.js's ``askLater``: once the page's POSTs are answered, the region asks if it
        is still older than ``version`` then."""
        def then() -> None:
            if version > self.held_version(self.page.regions[number]):
                self.spawn(self.refresh(number))
        self.waiting.append(then)

    async def refresh(self, number: int) -> bool:
        """One region asks for its fragment; as htmx's ``queue last``: while one request is
        in flight, one more waits, and further triggers meanwhile add nothing. False when
        its (last) answer failed: htmx then leaves the region as it was."""
        if number in self.in_flight:
            self.in_flight[number] = True
            return True
        self.in_flight[number] = False
        try:
            while True:
                ok = await self._ask(self.page.regions[number])
                if not self.in_flight.get(number):
                    return ok
                self.in_flight[number] = False
        finally:
            self.in_flight.pop(number, None)

    async def _ask(self, region: Region) -> bool:
        table, run = self.table, self.table.run
        action = table.action
        table.begin()
        try:
            params: list[tuple[str, str]] = []
            for form_id in dict.fromkeys(region.include):
                form = self.page.form(form_id)
                if form is not None:
                    params += form.values(exclude=(CSRF_FIELD,))
            headers = self.htmx_headers(region.element_id)
            if region.version is not None:  # as static/js/live.js asks
                headers["If-None-Match"] = f'"v{self.held_version(region)}"'
            if region.method == "GET":
                # As htmx does, the included fields join the URL's own query (httpx's
                # params= would replace it: ?live=... lost, the whole page asked).
                query = urllib.parse.parse_qsl(urllib.parse.urlsplit(region.url).query)
                answer = await self.client.get(region.url.split("?", 1)[0],
                                               params=form_data([*query, *params]),
                                               headers=headers)
            else:
                answer = await self.client.post(region.url, data=form_data(params),
                                                headers=headers)
            done = time.perf_counter()
            run.refreshes += 1
            if not 200 <= answer.status_code < 400:
                run.error(f"region {region.method} {answer.status_code}")
                return False
            if region.url == self.page_url:
                self.html = answer.text  # the page as it is now (the GM's cards)
            if answer.status_code == 200:  # what it drew, at its version (ETag "v42")
                tag = re.fullmatch(r'"v(\d+)"', answer.headers.get("ETag", ""))
                html = drawn(answer.text)
                self.show(int(tag[1]) if tag else 0, {*self.ids_of(region), *html.ids}, html)
            elif answer.status_code == 304:
                run.unchanged += 1
            if action is not None and action is table.action:
                action.freshened("asked", done)
            return True
        except httpx.HTTPError as exc:
            run.dropped(f"region {type(exc).__name__}")
            return False
        finally:
            table.end()

    # -- posting -----------------------------------------------------------------------------

    async def post(self, form: Form, data: list[tuple[str, str]]) -> httpx.Response:
        """POST ``data`` as the form's htmx does (its target in ``HX-Target``)."""
        headers = self.htmx_headers(form.element_id)
        if form.target.startswith("#"):
            headers["HX-Target"] = form.target[1:]
        self.changing += 1
        answer: httpx.Response | None = None
        try:
            answer = await self.client.post(form.action, data=form_data(data), headers=headers)
            return answer
        finally:
            self.changing -= 1
            if answer is not None and 200 <= answer.status_code < 300:
                # Live-Drawn: "42 card-12": the regions its answer drew, at that version.
                words = answer.headers.get("Live-Drawn", "").split()
                for i in words[1:]:
                    self.held[i] = max(self.at(i), int(words[0]))
            if not self.changing:
                waiting, self.waiting = self.waiting, []
                for then in waiting:
                    then()


def region_ids(region: Region) -> list[str]:
    """The ids a region asks for (``?live=a&live=b``)."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(region.url).query).get("live", [])


def event_data(data: str) -> tuple[int, frozenset[str]]:
    """What an event's data (read once) tells a page: the campaign's live version it carries
    (``{"version": 42, ...}``, 0 if none, as static/js/live.js reads it) and the region ids
    it brings a line for (``{"prepend": {"campaign-rolls": ...}}`` on ``rollMade``,
    ``{"prepend": {"recent-rolls": ...}}`` on ``rollMade-12``: core.live.drawing; none if it
    brings none)."""
    try:
        note = json.loads(data)
    except ValueError:
        return 0, frozenset()
    if not isinstance(note, dict):
        return 0, frozenset()
    version, lines = note.get("version", 0), note.get("prepend") or {}
    return (version if isinstance(version, int) else 0,
            frozenset(lines) if isinstance(lines, dict) else frozenset())


def form_data(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Name/value pairs as httpx's form body (a name given twice is sent twice)."""
    data: dict[str, list[str]] = {}
    for name, value in pairs:
        data.setdefault(name, []).append(value)
    return data


class Table:
    """A campaign's five open pages, its actions one at a time."""

    def __init__(self, run: Run, seats: dict[str, Any], base: str,
                 rng: random.Random) -> None:
        self.run = run
        self.seats = seats
        self.rng = rng
        campaign = seats["campaign"]
        self.gm = LivePage(self, 0, f"/campaigns/{campaign}/", seats["gm"]["session"],
                           base)
        self.players = [LivePage(self, number + 1, f"/characters/{player['character']}/",
                                 player["session"], base)
                        for number, player in enumerate(seats["players"])]
        self.pages = [self.gm, *self.players]
        self.turn = asyncio.Lock()
        self.action: Action | None = None
        self.asking = 0
        self.activity = 0.0

    def begin(self) -> None:
        """A region of the table starts asking."""
        self.asking += 1
        self.activity = time.perf_counter()

    def end(self) -> None:
        """A region of the table has its answer (or its failure)."""
        self.asking -= 1
        self.activity = time.perf_counter()

    def heard(self, page: LivePage, name: str, version: int = 0,
              lines: frozenset[str] = frozenset()) -> None:
        """A page's stream said ``name`` (of the campaign's live ``version``, 0 if none,
        with lines for the regions ``lines``): note it for the action, and refresh."""
        self.activity = time.perf_counter()
        if self.action is not None:
            self.action.heard.setdefault(page.index, set()).add(name)
        elif self.run.measuring:
            self.run.error("event heard outside any action")
        page.trigger({name}, version=version, lines=lines)

    async def connect(self) -> None:
        """Load the five pages, open their streams, wait until each is subscribed."""
        for page in self.pages:
            await page.load()
        for page in self.pages:
            page.start()
        await asyncio.wait_for(asyncio.gather(*(page.opened.wait() for page in self.pages)),
                               30)

    async def close(self) -> None:
        """Close the five pages."""
        await asyncio.gather(*(page.close() for page in self.pages))

    # -- acting ------------------------------------------------------------------------------

    async def act(self, kind: str, page: LivePage,
                  make: Callable[[], Awaitable[tuple[Form, list[tuple[str, str]]] | None]],
                  check: Callable[[httpx.Response], str] | None = None) -> None:
        """Take the table's turn: prepare (``make``), POST, then wait until every region it
        set off has answered; record the latency or the errors."""
        run = self.run
        async with self.turn:
            prepared = await make()
            if prepared is None:
                return
            form, data = prepared
            await self._settle(0.0)  # nothing of an earlier cause still under way
            action = Action(kind, time.perf_counter())
            self.action = action
            settled = False
            try:
                try:
                    answer = await page.post(form, data)
                except httpx.HTTPError as exc:
                    run.error(f"{kind} POST {type(exc).__name__}")
                    return
                action.answered = time.perf_counter()
                if not 200 <= answer.status_code < 400:
                    run.error(f"{kind} POST {answer.status_code}")
                    return
                problem = check(answer) if check else ""
                if problem == RULES_REFUSED:
                    run.ruled_out += 1
                    return
                if problem:
                    run.error(problem)
                    return
                page.trigger(hx_trigger_names(answer.headers.get("HX-Trigger")), local=True)
                settled = True
                quiet = await self._settle(QUIET_SECONDS, within=ACTION_TIMEOUT, heard=action)
                everything = set().union(*action.heard.values()) if action.heard else set()
                self.count_hearing(action, everything, answer.headers.get(UPSTREAM_HEADER, ""))
                if not quiet:
                    run.error(f"{kind}: not every page heard it and refreshed within "
                              f"{ACTION_TIMEOUT:g} s")
                    return
                for number in range(len(self.pages)):
                    if action.heard.get(number, set()) != everything:
                        run.error("an event some pages of the table heard and one did not")
                        break
                if not action.fresh:
                    run.error(f"{kind}: no page refreshed anything")
                    return
                run.record(action)
            finally:
                if not settled:  # a failed POST: its events, if any, still belong to it
                    await self._settle(QUIET_SECONDS, within=ACTION_TIMEOUT)
                self.action = None

    def count_hearing(self, action: Action, made: set[str], posted_to: str) -> None:
        """Count, per page, the events the action made (every name any page of the table
        heard) and those the page heard, by the instance that served the page's stream and
        the one that took the POST (``posted_to``; "" without a proxy)."""
        if not self.run.measuring:
            return
        for page in self.pages:
            heard = len(action.heard.get(page.index, set()) & made)
            page.events_made += len(made)
            page.events_heard += heard
            counts = self.run.hearing.setdefault((page.upstream, posted_to), [0, 0, 0])
            counts[0] += 1
            counts[1] += len(made)
            counts[2] += heard

    async def _settle(self, quiet: float, within: float = ACTION_TIMEOUT,
                      heard: Action | None = None) -> bool:
        """Wait until no region of the table is asking and nothing happened for ``quiet``
        seconds (and, with ``heard``, every page of the table heard at least one event since
        that action began: every change is announced to the whole campaign, so a page that
        heard nothing yet will); False when that takes longer than ``within``."""
        deadline = time.perf_counter() + within
        while True:
            now = time.perf_counter()
            left = quiet - (now - self.activity)
            everyone = heard is None or len(heard.heard) == len(self.pages)
            if self.asking == 0 and left <= 0 and everyone:
                return True
            if now > deadline:
                return False
            await asyncio.sleep(max(0.01, min(left, 0.05)))

    async def roll(self, player: LivePage) -> None:
        """The player rolls with the sheet's dialog (the choice found to work)."""

        async def make() -> tuple[Form, list[tuple[str, str]]] | None:
            form = player.page.form("roll-form")
            if form is None or player.form_choice is None:
                return None
            return form, player.form_choice

        await self.act("roll", player, make, self._rolled(player))

    def _rolled(self, player: LivePage) -> Callable[[httpx.Response], str]:
        def check(answer: httpx.Response) -> str:
            token = hidden_value(answer.text, SUBMISSION)
            if token is not None and player.form_choice is not None:
                player.form_choice = [(name, token if name == SUBMISSION else value)
                                      for name, value in player.form_choice]
            if refused_by_rule(answer):
                # The rules keep this character out of action (the GM's random marks may
                # stress one out): its player stops rolling, as a player at the table would.
                player.form_choice = None
                return RULES_REFUSED
            if ROLL_EVENT not in hx_trigger_names(answer.headers.get("HX-Trigger")):
                return "roll refused (answered without rollMade)"
            if token is None:
                return "roll answer without the next submission token"
            return ""
        return check

    async def mark(self) -> None:
        """The GM presses a track control of a party card on the dashboard."""

        async def make() -> tuple[Form, list[tuple[str, str]]] | None:
            page = parse_page(self.gm.html)
            self.gm.page.forms = page.forms  # as the dashboard shows them now
            cards = [form for form in page.forms if form.target.startswith("#card-")
                     and form.submits()]
            if not cards:
                self.run.error("no party card with a track control")
                return None
            target = self.rng.choice(sorted({form.target for form in cards}))
            buttons = [(form, button) for form in cards if form.target == target
                       for button in form.submits()]
            form, button = self.rng.choice(buttons)
            return form, form.values(button=button)

        def check(answer: httpx.Response) -> str:
            # A mark the rules refuse (healing what is not hurt): the card names the rule,
            # nothing changed and nothing is announced. Counted apart, not measured.
            return RULES_REFUSED if 'role="alert"' in answer.text else ""

        await self.act("track", self.gm, make, check)

    async def award(self) -> None:
        """The GM opens the session page and gives everyone 1 XP."""

        async def make() -> tuple[Form, list[tuple[str, str]]] | None:
            url = f"/campaigns/{self.seats['campaign']}/sessions/{self.seats['session']}/"
            answer = await self.gm.client.get(url)
            if answer.status_code != 200:
                self.run.error(f"session page {answer.status_code}")
                return None
            forms = [form for form in parse_page(answer.text).forms
                     if any(f.name == "amount_all" for f in form.fields)]
            if not forms:
                self.run.error("no award form on the session page")
                return None
            data = [(name, value) for name, value in forms[0].values()
                    if name not in ("amount_all", "reason_all")]
            return forms[0], [*data, ("amount_all", "1"), ("reason_all", "Benchmark night")]

        await self.act("award", self.gm, make)


# --- the run ---------------------------------------------------------------------------------


class Run:
    """Everything measured in one step (and the shared state of the server)."""

    def __init__(self) -> None:
        self.errors = Errors()
        self.latencies: dict[str, list[float]] = {}
        self.answers: dict[str, list[float]] = {}
        """Per cause, the POST's own latency (until its answer), in ms: the rest of an
        action's latency is its events and the regions they set off."""
        self.lags: list[float] = []
        """How late the generator's event loop woke for a timer (:func:`watch_lag`), in ms:
        the generator's own delay, which is in every latency it measures."""
        self.refreshes = 0
        self.fresh: dict[str, Counter[str]] = {}
        """Per cause, how its actions reached the pages (:attr:`Action.fresh`)."""
        self.unchanged = 0
        """Region answers 304: nothing changed since the page's version (core/regions.py)."""
        self.refused = 0
        self.ruled_out = 0
        """Rolls and marks refused by a rule during the step (:data:`RULES_REFUSED`): not
        measured."""
        self.sitting_out = 0
        """Players whose character no roll of theirs could be made for when connected."""
        self.measuring = False
        self.server_down = False
        self.dialogs: Counter[tuple[str, str]] = Counter()
        """Sheets whose roll dialog was sent as drawn or with a player's choices, by system."""
        self.hearing: dict[tuple[str, str], list[int]] = {}
        """(instance serving a page's stream, instance that took the POST) -> [page x action
        pairs, events made, events heard] (:meth:`Table.count_hearing`)."""

    def error(self, kind: str) -> None:
        """Count an error of ``kind`` (while measuring)."""
        if self.measuring:
            self.errors[kind] += 1

    def dropped(self, kind: str) -> None:
        """A connection failed or a stream ended: expected while the server restarts
        (counted apart), an error otherwise."""
        if self.server_down:
            self.refused += 1
        else:
            self.error(kind)

    def record(self, action: Action) -> None:
        """Keep a finished action's latency (while measuring), in ms."""
        if self.measuring:
            self.latencies.setdefault(action.kind, []).append(
                (max(action.last, action.answered) - action.sent) * 1000)
            self.answers.setdefault(action.kind, []).append(
                (action.answered - action.sent) * 1000)
            self.fresh.setdefault(action.kind, Counter()).update(action.fresh)

    def reset(self) -> None:
        """Forget the figures of the last step."""
        self.errors = Errors()
        self.latencies = {}
        self.answers = {}
        self.lags = []
        self.refreshes = 0
        self.fresh = {}
        self.unchanged = 0
        self.refused = 0
        self.ruled_out = 0
        self.hearing = {}


async def choose_roll(player: LivePage, rng: random.Random) -> None:
    """Find what this sheet's roll dialog sends for a roll the rules accept: as drawn, else a
    player's first choices (``Form.choices``). Each try is a real roll, made before any
    measurement. Raises BenchError when none works."""
    form = player.page.form("roll-form")
    if form is None:
        raise BenchError(f"{player.page_url} has no roll-form")
    tries: list[Callable[[], list[tuple[str, str]]]] = [
        form.values, functools.partial(form.choices, None, boxes=1),
        functools.partial(form.choices, None, boxes=2),
        *(functools.partial(form.choices, rng, boxes=2) for _ in range(3))]
    refusals = []
    ruled: list[bool] = []
    for number, make in enumerate(tries):
        data = make()  # with the submission token of the last answer
        answer = await player.post(form, data)
        token = hidden_value(answer.text, SUBMISSION)
        if token is not None:
            form = _with_token(form, token)
        if answer.status_code == 200 and ROLL_EVENT in hx_trigger_names(
                answer.headers.get("HX-Trigger")):
            player.form_choice = [(name, token if name == SUBMISSION and token else value)
                                  for name, value in data]
            system = player.table.seats["system"]
            player.table.run.dialogs[(system, "as drawn" if number == 0 else "with choices")] += 1
            return
        refusals.append(f"{answer.status_code} {answer.text[:200]!r}")
        ruled.append(refused_by_rule(answer))
    if not all(ruled):
        raise BenchError(f"no roll from {player.page_url} was accepted: {refusals}")
    # A rule refused every pool: the character cannot act (stressed out by an earlier
    # step's marks). Its player sits out, as at the table; the report counts them.
    player.form_choice = None
    player.table.run.sitting_out += 1


def _with_token(form: Form, token: str) -> Form:
    for control in form.fields:
        if control.name == SUBMISSION:
            control.value = token
    return form


async def actor(table: Table, every: float, act: Callable[[], Awaitable[None]],
                until: float, rng: random.Random) -> None:
    """Act every ``every`` seconds or so until ``until`` (the first time at random)."""
    wait = rng.uniform(0, every)
    while (left := until - time.perf_counter()) > wait:
        await asyncio.sleep(wait)
        await act()
        wait = rng.uniform(every / 2, every * 1.5)
    await asyncio.sleep(max(0.0, left))  # the step lasts its duration, no act after it


async def connect_tables(tables: list[Table], rng: random.Random) -> None:
    """Load every page, open every stream and find each sheet's working roll."""
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def one(table: Table) -> None:
        async with gate:
            await table.connect()
            for player in table.players:
                await choose_roll(player, rng)

    await asyncio.gather(*(one(table) for table in tables))
    await asyncio.gather(*(table._settle(1.0, within=60) for table in tables))


# --- steps ------------------------------------------------------------------------------------


@dataclass
class Step:
    """One step of the ramp's figures."""

    tables: int
    seconds: float
    latencies: dict[str, list[float]]
    refreshes: int
    errors: Errors
    cpu: dict[str, float]
    answers: dict[str, list[float]]
    lags: list[float]
    inside: list[timing.Route]
    """The step's requests as the server timed them (``--inside``; empty without)."""
    hearing: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    """:attr:`Run.hearing` of the step."""
    pages: tuple[int, int] = (0, 0)
    """(pages that heard every event their table made, pages)."""
    shared: dict[str, float] = field(default_factory=dict)
    """PostgreSQL's and Redis's counters over the step (``--instances``, benchmarks/hosts.py)."""
    fresh: dict[str, Counter[str]] = field(default_factory=dict)
    """:attr:`Run.fresh` of the step."""

    @property
    def all(self) -> list[float]:
        """Every action's latency, sorted."""
        return sorted(value for values in self.latencies.values() for value in values)

    def percentile(self, share: float, values: list[float] | None = None) -> float:
        """The nearest-rank percentile (``share`` 0.95 for p95) of ``values`` or of all."""
        return timing.percentile(self.all if values is None else values, share)

    @property
    def holds(self) -> bool:
        """p95 within the goal and no error."""
        return bool(self.all) and self.percentile(0.95) <= GOAL_P95_MS and not self.errors


async def ramp(args: argparse.Namespace, servers: list[Server], run: Run,
               tables: list[Table], rng: random.Random) -> list[Step]:
    """Each step of ``--tables``: connect its tables, let them play, measure."""
    steps: list[Step] = []
    for count in args.tables:
        print(f"connecting {count} tables ({count * 5} pages)...", file=sys.stderr)
        started = time.perf_counter()
        await connect_tables(tables[len([t for t in tables if t.gm.opens]):count], rng)
        print(f"  connected in {time.perf_counter() - started:.1f} s; playing "
              f"{args.duration} s", file=sys.stderr)
        live = tables[:count]
        run.reset()
        for page in (page for table in live for page in table.pages):
            page.events_made = page.events_heard = 0
        shared = hosts.snapshot(args.database_url, args.redis_url) if args.instances > 1 else {}
        before = serving.cpu_snapshot(servers, args.database, args.redis_pid)
        started, since = time.perf_counter(), time.time()
        until = started + args.duration
        run.measuring = True
        actors = []
        for table in live:
            actors += [actor(table, args.roll_every, functools.partial(table.roll, player),
                             until, rng) for player in table.players]
            actors.append(actor(table, args.damage_every, table.mark, until, rng))
            actors.append(actor(table, args.award_every, table.award, until, rng))
        watching = asyncio.ensure_future(watch_lag(run, until))
        await asyncio.gather(*actors)
        run.measuring = False
        await watching
        seconds = time.perf_counter() - started
        cpu = serving.cpu_delta(before, serving.cpu_snapshot(servers, args.database,
                                                             args.redis_pid))
        if shared:
            shared = hosts.delta(shared, hosts.snapshot(args.database_url, args.redis_url))
        inside = [] if args.timing is None else timing.read(args.timing, since, time.time())
        pages = [page for table in live for page in table.pages]
        heard_all = sum(page.events_heard == page.events_made > 0 for page in pages)
        step = Step(count, seconds, run.latencies, run.refreshes, run.errors, cpu, run.answers,
                    run.lags, inside, run.hearing, (heard_all, len(pages)), shared, run.fresh)
        steps.append(step)
        fresh = sum(run.fresh.values(), Counter[str]())
        print(f"  {count} tables: {len(step.all)} actions, p95 {step.percentile(0.95):.0f} ms,"
              f" {sum(step.errors.values())} errors; {run.refreshes} region requests; "
              f"{fresh['line']} regions took their event's line and {fresh['pushed']} times a "
              f"page drew what its stream pushed instead; refused by a rule "
              f"(not measured): {run.ruled_out}; players sitting out (a character out of action): "
              f"{run.sitting_out}", file=sys.stderr)
        if not step.holds and args.instances == 1:  # several: every step, for the shared costs
            break
    return steps


LAG_PROBE_SECONDS = 0.05
"""How often :func:`watch_lag` sets its timer."""


async def watch_lag(run: Run, until: float) -> None:
    """Until ``until`` (``time.perf_counter``), note how late this process's event loop wakes
    for a timer of :data:`LAG_PROBE_SECONDS`: a generator too busy to read its answers
    adds that delay to the latencies it reports (:attr:`Run.lags`)."""
    while (now := time.perf_counter()) < until:
        await asyncio.sleep(LAG_PROBE_SECONDS)
        run.lags.append(max(0.0, (time.perf_counter() - now - LAG_PROBE_SECONDS) * 1000))


@dataclass
class Restart:
    """The restart's figures (seconds from the stop being sent)."""

    tables: int
    stopped: float
    serving: float
    current: list[float]
    """Per page that caught up: when its last ``liveSync`` region answered."""
    pages: int
    refused: int
    errors: Errors
    unchanged: int = 0
    """Region answers 304 while the pages caught up."""


async def restart(args: argparse.Namespace, server: Server, run: Run, tables: list[Table],
                  rng: random.Random) -> Restart:
    """Connect ``--restart`` tables, stop and start the server, wait until every page is
    current again."""
    await asyncio.gather(*(table.close() for table in tables))
    live = tables[:args.restart]
    for table in live:
        for page in table.pages:
            page.opens = 0
            page.synced_at = 0.0
    print(f"restart: connecting {len(live)} tables...", file=sys.stderr)
    await connect_tables(live, rng)
    await asyncio.sleep(2)
    run.reset()
    run.measuring = True
    pages = [page for table in live for page in table.pages]
    begun = time.perf_counter()
    run.server_down = True
    await asyncio.to_thread(server.stop)
    stopped = time.perf_counter() - begun
    server.restart()
    await asyncio.to_thread(server.wait)
    serving_after = time.perf_counter() - begun
    run.server_down = False
    deadline = time.perf_counter() + RESTART_TIMEOUT
    while time.perf_counter() < deadline and not all(page.synced_at for page in pages):
        await asyncio.sleep(0.1)
    run.measuring = False
    current = sorted(page.synced_at - begun for page in pages if page.synced_at)
    if len(current) < len(pages):
        run.errors[f"pages not current within {RESTART_TIMEOUT:g} s"] += len(pages) - len(
            current)
    return Restart(len(live), stopped, serving_after, current, len(pages), run.refused,
                   run.errors, run.unchanged)


async def measure(args: argparse.Namespace, seats: list[dict[str, Any]], servers: list[Server],
                  base: str) -> tuple[list[Step], Restart | None, Counter[tuple[str, str]]]:
    """The ramp and the restart, as ``args`` asks, against ``base`` (the server, or the
    proxy in front of ``servers``)."""
    rng = random.Random(args.seed)
    run = Run()
    tables = [Table(run, table, base, rng) for table in seats]
    try:
        steps = await ramp(args, servers, run, tables, rng) if args.tables else []
        result = await restart(args, servers[0], run, tables, rng) if args.restart else None
        return steps, result, run.dialogs
    finally:
        await asyncio.gather(*(table.close() for table in tables))
        await asyncio.gather(*(page.client.aclose() for table in tables
                               for page in table.pages))


# --- the report ------------------------------------------------------------------------------


def report(args: argparse.Namespace, steps: list[Step], result: Restart | None,
           dialogs: Counter[tuple[str, str]], before: str) -> None:
    """Print the Markdown tables and the verdicts."""
    print(f"\nLive tables: {args.instances} x uvicorn --workers {args.workers} "
          f"{' '.join(serving.UVICORN_FLAGS)}, "
          f"PostgreSQL, Redis, DEBUG off; a table = the GM's dashboard + 4 sheets, each with "
          f"its stream open; a roll per player every ~{args.roll_every:g} s, a track mark "
          f"every ~{args.damage_every:g} s and an award every ~{args.award_every:g} s per GM; "
          f"{args.duration} s per step.")
    print(f"Machine at the start: {before}")
    print(f"Machine at the end:   {serving.machine()}")
    print("Roll dialogs: " + ", ".join(f"{system} {how} {count}" for (system, how), count
                                      in sorted(dialogs.items())) + "\n")
    if steps:
        print("Latency: from sending the POST to the last region it set off being fresh (its "
              "answer, its event's line, or drawn from its stream's push). CPU: seconds used "
              "during the step (share of one core).\n")
        print("| tables | actions | refreshes | p50 ms | p95 ms | p99 ms | max ms | errors | "
              "uvicorn | postgres | redis | generator | other | holds |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
        for step in steps:
            cpu = " | ".join(f"{step.cpu[key]:.1f} ({step.cpu[key] / step.seconds:.0%})"
                             for key in ("server", "postgres", "redis", "generator", "other"))
            print(f"| {step.tables} | {len(step.all)} | {step.refreshes} | "
                  f"{step.percentile(0.5):.0f} | {step.percentile(0.95):.0f} | "
                  f"{step.percentile(0.99):.0f} | {max(step.all, default=float('nan')):.0f} | "
                  f"{sum(step.errors.values())} | {cpu} | {'yes' if step.holds else '**no**'} |")
        print("\n| tables | action | count | p50 ms | p95 ms | p99 ms | its POST alone: p50 ms "
              "| p95 ms | region answers / lines / pushes drawn |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|---|")
        for step in steps:
            for kind, values in sorted(step.latencies.items()):
                posts = step.answers.get(kind, [])
                fresh = step.fresh.get(kind, Counter[str]())
                print(f"| {step.tables} | {kind} | {len(values)} | "
                      f"{step.percentile(0.5, values):.0f} | {step.percentile(0.95, values):.0f}"
                      f" | {step.percentile(0.99, values):.0f} | "
                      f"{step.percentile(0.5, posts):.0f} | {step.percentile(0.95, posts):.0f} | "
                      f"{fresh['asked']} / {fresh['line']} / {fresh['pushed']} |")
        print("\nThe generator's own delay (its event loop waking late for a timer, "
              f"every {LAG_PROBE_SECONDS * 1000:g} ms):")
        for step in steps:
            print(f"- {step.tables} tables: p50 {step.percentile(0.5, step.lags):.1f} ms, "
                  f"p95 {step.percentile(0.95, step.lags):.1f} ms, "
                  f"max {max(step.lags, default=float('nan')):.1f} ms")
        for step in steps:
            if step.inside:
                report_inside(step)
        for step in steps:
            if args.instances > 1:
                report_instances(step, args)
        # Per table, the fixed cost (idle workers polling Redis, the database's own
        # processes) weighs on small steps: the cost of the tables added is the fairer rate.
        for low, high in zip(steps, steps[1:], strict=False) if args.instances > 1 else ():
            added = high.tables - low.tables
            pg = (high.shared.get("pg:backends_cpu", 0.0) / high.seconds
                  - low.shared.get("pg:backends_cpu", 0.0) / low.seconds) / added
            rd = (high.shared.get("redis:cpu", 0.0) / high.seconds
                  - low.shared.get("redis:cpu", 0.0) / low.seconds) / added
            print(f"\nFrom {low.tables} to {high.tables} tables, each added table cost "
                  f"PostgreSQL (its database's backends) {pg * 1000:.2f} ms and Redis "
                  f"{rd * 1000:.2f} ms of CPU a second.")
        for step in steps:
            if step.errors:
                print(f"\nErrors at {step.tables} tables: " + "; ".join(
                    f"{kind}: {count}" for kind, count in step.errors.most_common()))
        busy = [step.tables for step in steps
                if step.cpu["generator"] / step.seconds >= GENERATOR_LIMIT]
        if busy:
            print(f"\nAt {', '.join(map(str, busy))} tables the load generator used "
                  f">= {GENERATOR_LIMIT:.0%} of a core: its own delays are in those latencies.")
        held = [step.tables for step in steps if step.holds]
        best = max(held, default=0)
        verdict = "met" if best >= GOAL_TABLES else "**NOT met**"
        if best < GOAL_TABLES and len(held) == len(steps):
            verdict += " (the ramp's steps ended before any failed)"
        print(f"\nLargest number of tables that held (p95 <= {GOAL_P95_MS:.0f} ms, no error): "
              f"{best or 'none'}; goal >= {GOAL_TABLES}: {verdict}.")
    if result is not None:
        print(f"\nRestart with {result.tables} tables ({result.pages} pages connected): the "
              f"stop took {result.stopped:.1f} s, the new server answered "
              f"{result.serving:.1f} s after the stop was sent.\n")
        print("| pages current | p50 s | p95 s | last s | last, from the new server s | "
              "dropped or refused meanwhile | errors |")
        print("|---:|---:|---:|---:|---:|---:|---:|")
        values = result.current
        last = values[-1] if values else float("nan")

        def at(share: float) -> float:
            return values[min(len(values) - 1, int(share * len(values)))] if values else \
                float("nan")

        print(f"| {len(values)} / {result.pages} | {at(0.5):.1f} | {at(0.95):.1f} | {last:.1f} "
              f"| {last - result.serving:.1f} | {result.refused} | "
              f"{sum(result.errors.values())} |")
        print(f"\nRegion answers while the pages caught up: {result.unchanged} were 304 (nothing "
              "changed since the page's version).")
        if result.errors:
            print("\nErrors: " + "; ".join(f"{kind}: {count}" for kind, count in
                                           result.errors.most_common()))
        met = len(values) == result.pages and last - result.serving <= GOAL_RESTART_S \
            and not result.errors
        print(f"\nEvery page current within {GOAL_RESTART_S:g} s of the new server answering: "
              f"{'met' if met else '**NOT met**'}.")


def report_instances(step: Step, args: argparse.Namespace) -> None:
    """Whether every page heard every event whichever instance served it, and what the shared
    parts spent (``--instances``)."""
    print(f"\nEvery page hears every event, {step.tables} tables: {step.pages[0]} of "
          f"{step.pages[1]} pages heard every event their table made.\n")
    print("| stream served by | POST taken by | page x action pairs | events made | "
          "events heard |")
    print("|---|---|---:|---:|---:|")
    for (stream, posted), (pairs, made, heard) in sorted(step.hearing.items()):
        print(f"| {stream or '?'} | {posted or '?'} | {pairs} | {made} | {heard} |")
    hosts.report(step.tables, step.seconds, step.cpu, step.shared, args.instances,
                 args.tables_per_host, os.cpu_count() or 1)


def report_inside(step: Step) -> None:
    """The step's requests by route as the server timed them (``--inside``): wall time in
    Django, its thread's own CPU, and its statements (how many, the time in them); what is
    neither its CPU nor its statements is waiting for its turn to run."""
    print(f"\nInside the server at {step.tables} tables (benchmarks/timing.py; ms, p50 / p95; "
          "an event stream's request ends when its stream starts):\n")
    print("| route | requests | wall | own CPU | statements | in statements | "
          "neither (waiting to run) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for route in step.inside[:12]:
        statements = timing.percentile((r.statements for r in route.requests), 0.5)
        print(f"| {route.label} | {len(route.requests)} | "
              f"{route.spread(lambda r: r.wall)} | {route.spread(lambda r: r.cpu)} | "
              f"{statements:.0f} | {route.spread(lambda r: r.statement_wall)} | "
              f"{route.spread(lambda r: r.waiting)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="10,50,100,200,300",
                        help="the ramp's steps, tables connected (10,50,100,200,300; \"\" for "
                        "none)")
    parser.add_argument("--duration", type=int, default=60, help="seconds of play per step")
    parser.add_argument("--restart", type=int, default=0,
                        help="tables connected during the restart (0: no restart)")
    parser.add_argument("--roll-every", type=float, default=30.0)
    parser.add_argument("--damage-every", type=float, default=60.0)
    parser.add_argument("--award-every", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=serving.WORKERS,
                        help=f"uvicorn --workers ({serving.WORKERS}, as production runs it)")
    parser.add_argument("--inside", action="store_true",
                        help="also time each request inside the server (benchmarks/timing.py: "
                             "its thread's CPU, its statements' time) and report it by route")
    parser.add_argument("--instances", type=int, default=1, help="uvicorn instances, each "
                        "on its own port, behind an nginx of the run's own with a Redis of its "
                        "own when more than 1 (1)")
    parser.add_argument("--tables-per-host", type=int, default=150, help="the tables one host "
                        "carries, for the estimate of how many hosts the shared parts carry "
                        "(150: docs/performance.md, \"Where it ends\")")
    parser.add_argument("--seed", type=int, default=18, help="the generator's random seed")
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL")
                        or DEFAULT_DATABASE_URL, help="a PostgreSQL database to DROP and "
                        f"create afresh (default $BENCH_DATABASE_URL, else "
                        f"{DEFAULT_DATABASE_URL})")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL,
                        help=f"the channel layer's Redis (default {DEFAULT_REDIS_URL})")
    args = parser.parse_args()
    args.redis_pid = None  # every redis-server counts, unless the run has one of its own
    args.tables = [int(value) for value in args.tables.split(",") if value.strip()]
    args.database = args.database_url.rsplit("/", 1)[-1]
    needed = max([*args.tables, args.restart, 0])
    if not needed:
        sys.exit("nothing to measure: give --tables or --restart")

    before = serving.machine()
    with tempfile.TemporaryDirectory(prefix="sheetkeeper-tables-") as name:
        tmp = Path(name)
        args.timing = tmp / "timing" if args.inside else None
        # --inside: the product's settings plus the timing middleware (bench_settings.py).
        extra = {timing.TIMING_DIR: str(args.timing)} if args.timing else {}
        env = serving.server_env(args.database_url, args.redis_url, tmp, settings=(
            "benchmarks.bench_settings" if args.inside else "sheetkeeper.settings"), extra=extra)
        servers: list[Server] = []
        proxy: Proxy | None = None
        private_redis = serving.RedisServer(tmp / "redis") if args.instances > 1 else None
        try:
            if private_redis is not None:  # its INFO then counts this run's work alone
                private_redis.start()
                args.redis_url = private_redis.url
                args.redis_pid = private_redis.process.pid if private_redis.process else None
                env["REDIS_URL"] = args.redis_url
            serving.fresh_database(args.database_url)
            print(f"seeding {needed} tables...", file=sys.stderr)
            seats = json.loads(serving.prepare(env, SEED_SCRIPT.format(tables=needed)))
            servers = serving.start(env, tmp, instances=args.instances, workers=args.workers,
                                    proxied=args.instances > 1)
            if args.instances > 1:
                proxy = Proxy(servers, tmp / "nginx")
            base = proxy.url if proxy else servers[0].url
            steps, result, dialogs = asyncio.run(measure(args, seats, servers, base))
        except (BenchError, ServingError) as exc:
            for server in servers:
                print(server.log.read_text()[-3000:], file=sys.stderr)
            if proxy is not None:
                print(proxy.log()[-3000:], file=sys.stderr)
            sys.exit(f"benchmarks.tables: {exc}")
        finally:
            if proxy is not None:
                proxy.stop()
            for server in servers:
                server.stop()
            if private_redis is not None:
                private_redis.stop()
    report(args, steps, result, dialogs, before)


if __name__ == "__main__":
    main()
