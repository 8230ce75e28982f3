"""What the benchmarks' pages share with a browser: an HTTP client of their own (httpx), and
an event stream held open as the served pages hold it (httpx-sse), reconnecting with their
jittered back-off. ``benchmarks.tables`` builds its live pages on it, ``benchmarks.faults``
its idle ones, ``benchmarks.live`` its listeners.

How a page reconnects (its timings) is ``core.live.TIMINGS``, the one source static/js/live.js
reads from the page too (``<main data-live-timings>``); a page that was loaded uses the
timings it carries (:func:`timings`).
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
from httpx_sse import ServerSentEvent, SSEError, aconnect_sse

from core.live import RESTART_EVENT, TIMINGS  # plain values: the generator runs no Django

PAGE_LIMITS = httpx.Limits(max_connections=None, max_keepalive_connections=4,
                           keepalive_expiry=4.0)
"""A page's own connection pool, as each person's browser has its own (one pool for a
thousand open streams made httpcore scan every connection for every request). An idle
connection is let go after 4 s, before uvicorn closes it (``--timeout-keep-alive``, 5 s):
with httpx's default 5 s a request now and then went down a connection the server was
closing, which a browser retries and httpx does not."""
STREAM_TIMEOUT = httpx.Timeout(30.0, read=60.0)
"""The stream sends a keepalive comment every 15 s: 60 s of silence is a dead stream."""


def timings(page_attribute: str | None = None) -> dict[str, float]:
    """``core.live.TIMINGS`` in seconds (``FIRST_DELAY``...), with those a page's
    ``data-live-timings`` JSON gives instead (milliseconds, the same names)."""
    values: dict[str, float] = dict(TIMINGS)
    if page_attribute:
        values.update({name: float(value) for name, value in json.loads(page_attribute).items()
                       if name in TIMINGS})
    return {name.removesuffix("_MS"): value / 1000 for name, value in values.items()}


def client(base: str, session: str = "", timeout: float = 30.0) -> httpx.AsyncClient:
    """A browser's client for ``base``: its own pool (:data:`PAGE_LIMITS`), logged in with the
    ``sessionid`` cookie ``session``, redirects not followed."""
    return httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(
        limits=PAGE_LIMITS), cookies={"sessionid": session} if session else None,
        timeout=httpx.Timeout(timeout), follow_redirects=False)


class EventStream:
    """A page's event stream, held open as static/js/live.js holds it: after any failure it
    tries again after a jittered, doubling delay (RESTART_DELAY apart just after a
    ``liveRestart``). Subclasses hear it through :meth:`on_attempt`, :meth:`on_open`,
    :meth:`on_event` and :meth:`on_drop`.
    """

    def __init__(self, client: httpx.AsyncClient, url: str, rng: random.Random) -> None:
        self.client, self.url, self.rng = client, url, rng
        self.timing = timings()
        self.opens = 0
        """How many times the stream has opened (said it is subscribed)."""
        self.opened = asyncio.Event()
        self.closing = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Open the stream, and keep it open until :meth:`close`."""
        self.closing = False
        self.opened.clear()
        self.task = asyncio.create_task(self._follow())

    async def close(self) -> None:
        """Close the stream (no reconnection)."""
        self.closing = True
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    # -- what a subclass hears ---------------------------------------------------------------

    def on_attempt(self, started: float, response: httpx.Response | None, error: str) -> None:
        """An attempt to open it (``started`` on ``time.perf_counter``) was answered
        (``response``, its body not read) or not (None; ``error`` names the exception)."""

    def on_open(self) -> None:
        """The stream's first frame came: it is subscribed to the campaign's groups."""

    def on_event(self, event: ServerSentEvent) -> None:
        """A named event (``liveRestart`` too) came."""

    def on_drop(self, reason: str) -> None:
        """A stream that answered 200 ended, or failed, other than by :meth:`close`."""

    # -- the loop ----------------------------------------------------------------------------

    async def _follow(self) -> None:
        failures, restarting_since = 0, 0.0
        while not self.closing:
            opened_at = 0.0
            started = time.perf_counter()
            answered = False
            try:
                async with aconnect_sse(self.client, "GET", self.url,
                                        timeout=STREAM_TIMEOUT) as source:
                    answered = True
                    status = source.response.status_code
                    self.on_attempt(started, source.response, "")
                    if status == 200:
                        async for event in source.aiter_sse():
                            if event.retry is not None and not opened_at:
                                opened_at, restarting_since = time.perf_counter(), 0.0
                                self.opens += 1
                                self.opened.set()
                                self.on_open()
                                continue
                            if event.event == RESTART_EVENT:
                                restarting_since, failures = time.perf_counter(), 0
                            if event.event and event.event != "message":
                                self.on_event(event)
                        if not self.closing:
                            self.on_drop("stream ended")
            except (httpx.HTTPError, SSEError) as exc:  # SSEError: not an event stream
                if self.closing:
                    return
                if answered:
                    self.on_drop(f"stream {type(exc).__name__}")
                else:
                    self.on_attempt(started, None, type(exc).__name__)
            if self.closing:
                return
            self.opened.clear()
            if opened_at and time.perf_counter() - opened_at >= self.timing["HEALTHY_AFTER"]:
                failures = 0
            ceiling = min(self.timing["MAX_DELAY"], self.timing["FIRST_DELAY"] * 2 ** failures)
            if restarting_since and (time.perf_counter() - restarting_since
                                     < self.timing["RESTART_WINDOW"]):
                ceiling = self.timing["RESTART_DELAY"]
            failures += 1
            await asyncio.sleep(ceiling / 2 + self.rng.random() * ceiling / 2)
