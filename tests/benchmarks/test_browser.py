"""The benchmarks' event stream (benchmarks/browser.py) reconnects as static/js/live.js does:
after each failure in a row a delay between half and all of a doubling ceiling, from
FIRST_DELAY_MS up to MAX_DELAY_MS (core.live.TIMINGS); the timings a page carries win."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from benchmarks import browser
from benchmarks.tables_pages import parse_page
from core.live import TIMINGS


class Refused(browser.EventStream):
    """A stream whose every opening is answered 503; it stops after ``tries`` of them."""

    def __init__(self, tries: int) -> None:
        transport = httpx.MockTransport(lambda request: httpx.Response(503))
        super().__init__(httpx.AsyncClient(base_url="http://test", transport=transport),
                         "/events/", random.Random(3))
        self.tries = tries
        self.statuses: list[int | None] = []

    def on_attempt(self, started: float, response: httpx.Response | None, error: str) -> None:
        self.statuses.append(None if response is None else response.status_code)
        if len(self.statuses) == self.tries:
            self.closing = True


def test_a_refused_stream_waits_a_jittered_doubling_delay_up_to_the_ceiling(
        monkeypatch: pytest.MonkeyPatch) -> None:
    delays: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        delays.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr("benchmarks.browser.asyncio.sleep", sleep)
    stream = Refused(tries=9)

    async def run() -> None:
        stream.start()
        assert stream.task is not None
        await asyncio.wait_for(stream.task, 5)
        await stream.client.aclose()

    asyncio.run(run())
    assert stream.statuses == [503] * 9
    first, most = TIMINGS["FIRST_DELAY_MS"] / 1000, TIMINGS["MAX_DELAY_MS"] / 1000
    assert len(delays) == 8
    for failures, delay in enumerate(delays):
        ceiling = min(most, first * 2 ** failures)
        assert ceiling / 2 <= delay <= ceiling
    assert len(set(delays)) == len(delays)  # jittered, not a fixed schedule


def test_the_timings_a_page_carries_win_over_the_kept_ones() -> None:
    kept = browser.timings()
    assert kept["SYNC_SPREAD"] == TIMINGS["SYNC_SPREAD_MS"] / 1000
    page = parse_page('<body><main data-live-timings=\'{"SYNC_SPREAD_MS": 500}\'></main></body>')
    carried = browser.timings(page.timings)
    assert carried["SYNC_SPREAD"] == 0.5
    assert carried["FIRST_DELAY"] == kept["FIRST_DELAY"]
