"""A page whose event stream drops reconnects later and later, not every 2 s (static/js/live.js):
the waits double from about a second up to a minute, with jitter, and once the stream is back
the page catches up ("liveSync") after a random moment of up to 3 s, in one request for all
its regions (issue 18), answered 304 when nothing changed meanwhile. A page told its viewer
lost their seat stops reconnecting; one told their seat changed reconnects at once and asks
for everything.

The browser's clock is Playwright's fake one, paused, so the waits are stepped through exactly, and
``Math.random`` is pinned to 0.5 (each wait is then three quarters of its ceiling). The event
stream's answers come from a route: a stream that ends at once, a 503 as while Redis is down,
then the real server.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable

import pytest
from django.db.models import F
from playwright.sync_api import Page, Route

from campaigns.models import Campaign
from tests.e2e.conftest import EVENTS, PASSWORD, allow_console_errors
from tests.e2e.test_maelstrom_at_the_table import log_in
from tests.factories import CampaignFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]

COUNTERS = """
Math.random = () => 0.5;
window.streamsOpened = 0; window.streamErrors = 0; window.liveSyncs = 0;
const RealEventSource = window.EventSource;
window.EventSource = function (url, options) {
  window.streamsOpened += 1;
  return new RealEventSource(url, options);
};
window.EventSource.CONNECTING = 0; window.EventSource.OPEN = 1; window.EventSource.CLOSED = 2;
document.addEventListener("htmx:sseError", () => { window.streamErrors += 1; }, true);
document.addEventListener("liveSync", () => { window.liveSyncs += 1; }, true);
"""
"""An init script: counts the EventSources the page makes, their errors and its catch-ups."""

WAITS_MS = [750, 1500, 3000, 6000, 12000, 24000, 45000, 45000]
"""Three quarters of 1, 2, 4... s, the ceiling stopping at 60 s."""
SYNC_WAIT_MS = 1500
"""Half of live.js's SYNC_SPREAD_MS (3 s), ``Math.random`` being 0.5."""


def until(page: Page, expression: str, within: float = 10) -> None:
    """Wait (in real time, the page's clock being fake) until ``expression`` is true."""
    deadline = time.monotonic() + within
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still not {expression} after {within} s"
        time.sleep(0.02)


@pytest.fixture
def table_page(new_page: Callable[..., Page]) -> Page:
    gm = UserFactory(username="reconnecting-gm", password=PASSWORD)  # type: ignore[no-untyped-call]
    campaign = CampaignFactory(name="The Long Night", created_by=gm)  # type: ignore[no-untyped-call]
    page = new_page()
    log_in(page, "reconnecting-gm")
    page.context.add_init_script(COUNTERS)
    # The page's time stands still unless the test moves it (run_for).
    start = datetime.datetime(2026, 1, 1, 20, 0, tzinfo=datetime.UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + datetime.timedelta(seconds=1))
    page.campaign_url = campaign.get_absolute_url()  # type: ignore[attr-defined]
    return page


def test_a_dropped_stream_reconnects_later_and_later_then_catches_up(table_page: Page) -> None:
    page = table_page
    answer = {"with": "drop"}

    def events(route: Route) -> None:
        if answer["with"] == "drop":  # the stream opens and ends at once
            route.fulfill(status=200, content_type="text/event-stream", body=": connected\n\n")
            answer["with"] = "503"
        elif answer["with"] == "503":  # the layer is unreachable
            route.fulfill(status=503, content_type="text/plain", body="unavailable")
        else:
            route.fallback()  # the real stream

    page.route(EVENTS, events)
    # The streams this test breaks: the browser reports each 503, htmx each stream error.
    allow_console_errors(page, r"status of 503 .*/events/(\?page=\S*)?\)$", r"^\[object Event\] \(")
    page.goto(page.campaign_url)  # type: ignore[attr-defined]
    until(page, "window.streamErrors === 1")
    assert page.locator("#live-status").text_content() == "Live updates paused: reconnecting…"

    for attempt, wait in enumerate(WAITS_MS, start=2):
        page.clock.run_for(wait - 10)
        assert page.evaluate("window.streamsOpened") == attempt - 1, f"attempt {attempt} early"
        page.clock.run_for(10)
        assert page.evaluate("window.streamsOpened") == attempt
        until(page, f"window.streamErrors === {attempt}")

    # The server is back: the next attempt (still 45 s later) opens, and the page catches up
    # a moment later, asking once for all its regions.
    asked: list[str] = []
    answered: list[int] = []
    page.on("request", lambda request: asked.append(request.url) if "?live=" in request.url
            else None)
    page.on("response", lambda response: answered.append(response.status)
            if "?live=" in response.url else None)
    answer["with"] = "server"
    page.clock.run_for(WAITS_MS[-1])
    until(page, "document.getElementById('live-status').hidden")  # the stream is open
    page.clock.run_for(SYNC_WAIT_MS - 10)
    assert page.evaluate("window.liveSyncs") == 0, "caught up before its random moment"
    page.clock.run_for(10)
    until(page, "window.liveSyncs === 1")
    page.wait_for_load_state("networkidle")
    assert len(asked) == 1, asked
    assert "live=campaign-characters" in asked[0] and "live=campaign-rolls" in asked[0]
    # Nothing changed at the table while the stream was down: the page holds the campaign's
    # version, so its regions are not drawn again (core/regions.py).
    deadline = time.monotonic() + 10
    while not answered and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert answered == [304], answered
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_page_whose_viewer_lost_their_seat_stops_reconnecting(table_page: Page) -> None:
    page = table_page
    page.route(EVENTS, lambda route: route.fulfill(
        status=200, content_type="text/event-stream",
        body='event: liveClosed\ndata: {"campaign": 1}\n\n'))
    page.goto(page.campaign_url)  # type: ignore[attr-defined]
    status = page.locator("#live-status")
    until(page, "!document.getElementById('live-status').hidden")
    assert "no longer seated" in (status.text_content() or "")
    page.clock.run_for(10 * 60 * 1000)
    assert page.evaluate("window.streamsOpened") == 1
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_page_told_the_server_is_restarting_tries_again_every_second(table_page: Page) -> None:
    """A restart takes seconds: a page whose stream ended with ``liveRestart`` tries again
    about every second (three quarters of one, Math.random being 0.5) instead of doubling
    its wait, so it does not sleep through the moment the new server answers."""
    page = table_page
    answer = {"with": "restart"}

    def events(route: Route) -> None:
        if answer["with"] == "restart":  # the old server's last frame, then it is gone
            route.fulfill(status=200, content_type="text/event-stream",
                          body="event: liveRestart\ndata: {}\n\n")
            answer["with"] = "down"
        else:  # nobody answers yet (a proxy's 503 while the new server starts)
            route.fulfill(status=503, content_type="text/plain", body="starting")

    page.route(EVENTS, events)
    allow_console_errors(page, r"status of 503 .*/events/(\?page=\S*)?\)$", r"^\[object Event\] \(")
    page.goto(page.campaign_url)  # type: ignore[attr-defined]
    until(page, "window.streamErrors === 1")
    for attempt in range(2, 8):  # doubling would have waited 0.75, 1.5, 3, 6, 12, 24 s
        page.clock.run_for(740)
        assert page.evaluate("window.streamsOpened") == attempt - 1, f"attempt {attempt} early"
        page.clock.run_for(10)
        assert page.evaluate("window.streamsOpened") == attempt
        until(page, f"window.streamErrors === {attempt}")


def test_a_page_whose_seat_changed_reconnects_at_once_and_asks_for_everything(
        table_page: Page) -> None:
    """The GM seat handed over: the stream says so (``liveClosed`` with ``changed``) and ends.
    The page reopens at once, for the seat as it is now, and what it holds means nothing to
    that seat (the GM's pages and a player's count versions apart): once back it asks for
    every region with no version it holds (``If-None-Match: "v0"``), and draws the answer."""
    page = table_page
    answer = {"with": "changed"}

    def events(route: Route) -> None:
        if answer["with"] == "changed":
            route.fulfill(status=200, content_type="text/event-stream",
                          body='event: liveClosed\ndata: {"campaign": 1, "changed": true}\n\n')
            answer["with"] = "server"
        else:
            route.fallback()

    page.route(EVENTS, events)
    # A change before the page is drawn: the page holds version 1, the seat's version.
    Campaign.objects.filter(name="The Long Night").update(live_version=F("live_version") + 1)
    asked: list[tuple[str, str | None]] = []
    answered: list[int] = []
    page.on("request", lambda request: asked.append(
        (request.url, request.headers.get("if-none-match"))) if "?live=" in request.url
        else None)
    page.on("response", lambda response: answered.append(response.status)
            if "?live=" in response.url else None)
    page.goto(page.campaign_url)  # type: ignore[attr-defined]
    until(page, "window.streamsOpened === 2")  # at once: the clock has not moved
    until(page, "document.getElementById('live-status').hidden")  # the new stream is open
    assert page.evaluate("window.streamErrors") == 0
    page.clock.run_for(SYNC_WAIT_MS)
    until(page, "window.liveSyncs === 1")
    deadline = time.monotonic() + 10
    while not answered and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    assert [version for _, version in asked] == ['"v0"'], asked
    assert answered == [200], answered
    assert page.js_errors == []  # type: ignore[attr-defined]
