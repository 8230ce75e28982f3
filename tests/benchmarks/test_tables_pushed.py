"""The live-table benchmark's pages take the regions a change's stream pushes as
static/js/live.js does (drawPushed): drawn, and not asked for again, unless the page shows
something newer in them; while the page's own POST is on its way, after its answer, which may
have drawn them already (Live-Drawn). Held per DOM id, as live.js holds them."""

from __future__ import annotations

import asyncio
import json
import random
import time

import httpx
import pytest
from httpx_sse import ServerSentEvent

from benchmarks import tables
from benchmarks.tables_pages import Form

SEATS = {"campaign": 1, "gm": {"session": "gm"},
         "players": [{"session": f"p{n}", "character": n} for n in range(4)]}
PAGE = """<body><main sse-connect="/campaigns/1/events/?page=/campaigns/1/">
<div hx-get="/campaigns/1/?live=card-1" hx-trigger="sse:trackChanged-1" data-live-version="5">
</div><div hx-get="/campaigns/1/?live=party" hx-trigger="sse:partyChanged" data-live-version="5">
</div></main></body>"""
CARD = '<article id="card-1"><form id="card-1-track"></form></article>'


def frame(name: str, **data: object) -> ServerSentEvent:
    return ServerSentEvent(event=name, data=json.dumps(data))


async def dashboard(monkeypatch: pytest.MonkeyPatch, drawn: str = "",
                    ) -> tuple[tables.LivePage, list[int], asyncio.Event]:
    """The GM's page loaded at version 5, the regions it asks for noted (not asked); its POSTs
    are answered with ``Live-Drawn: drawn`` once the event it returns is set."""
    release = asyncio.Event()

    async def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "GET":
            return httpx.Response(200, text=PAGE)
        await release.wait()
        return httpx.Response(200, headers={"Live-Drawn": drawn} if drawn else {})

    page = tables.Table(tables.Run(), SEATS, "http://test", random.Random(1)).gm
    await page.client.aclose()
    page.client = httpx.AsyncClient(base_url="http://test",
                                    transport=httpx.MockTransport(answer))
    await page.load()
    asked: list[int] = []
    monkeypatch.setattr(page, "refresh", lambda number: number)
    monkeypatch.setattr(page, "spawn", asked.append)
    return page, asked, release


def test_a_pushed_region_is_drawn_fresh_and_not_asked_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        page, asked, _ = await dashboard(monkeypatch)
        action = page.table.action = tables.Action("track", time.perf_counter())
        page.on_event(frame("liveRegions", version=6, html=CARD))
        page.on_event(frame("trackChanged-1", version=6))
        assert (asked, page.at("card-1"), page.at("party")) == ([], 6, 5)
        assert action.fresh == {"pushed": 1}
        page.on_event(frame("trackChanged-1", version=7))  # nothing pushed: it asks
        assert asked == [0]

    asyncio.run(run())


def test_a_push_never_draws_over_something_newer_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        page, asked, _ = await dashboard(monkeypatch)
        page.held["card-1"] = 7
        page.on_event(frame("liveRegions", version=6, html=f'<section id="party">{CARD}</section>'))
        page.on_event(frame("partyChanged", version=6))
        assert (asked, page.at("party"), page.at("card-1")) == ([1], 5, 7)

    asyncio.run(run())


@pytest.mark.parametrize(("drawn", "version"), [("", 6), ("7 card-1", 7)])
def test_while_the_pages_post_is_on_its_way_a_push_waits_for_its_answer(
        monkeypatch: pytest.MonkeyPatch, drawn: str, version: int) -> None:
    async def run() -> None:
        page, asked, release = await dashboard(monkeypatch, drawn)
        posting = asyncio.create_task(page.post(Form("mark", "/mark/", ""), []))
        while not page.changing:
            await asyncio.sleep(0)
        page.on_event(frame("liveRegions", version=6, html=CARD))
        page.on_event(frame("trackChanged-1", version=6))
        assert (asked, page.at("card-1")) == ([], 5)
        release.set()
        await posting
        # Drawn from the push, or by the answer itself (newer): asked for by neither way.
        assert (asked, page.at("card-1")) == ([], version)

    asyncio.run(run())
