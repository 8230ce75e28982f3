"""The live-table benchmark's pages each keep their own connections, as each person's
browser does (benchmarks/browser.py, PAGE_LIMITS): with one pool for every page, httpcore
scanned a thousand open streams for every request, and the generator spent most of its CPU,
which it takes from the server it measures on the same machine, doing so."""

from __future__ import annotations

import asyncio
import random

import uvicorn

from benchmarks import browser, serving, tables

SEATS = {"campaign": 1, "gm": {"session": "gm"},
         "players": [{"session": f"p{n}", "character": n} for n in range(4)]}


def test_no_two_pages_share_a_connection_pool() -> None:
    async def build() -> list[object]:
        run = tables.Run()
        first = tables.Table(run, SEATS, "http://127.0.0.1:1", random.Random(1))
        second = tables.Table(run, SEATS, "http://127.0.0.1:1", random.Random(2))
        pages = [*first.pages, *second.pages]
        try:
            return [page.client._transport for page in pages]
        finally:
            await asyncio.gather(*(page.client.aclose() for page in pages))

    transports = asyncio.run(build())
    assert len(transports) == 10
    assert len({id(transport) for transport in transports}) == 10


def test_a_page_lets_an_idle_connection_go_before_the_server_closes_it() -> None:
    # The server is run with uvicorn's own keep-alive timeout (the production unit sets
    # none); a page that reused a connection the server was closing got a transport error.
    assert "--timeout-keep-alive" not in serving.UVICORN_FLAGS
    server_keeps = uvicorn.Config("sheetkeeper.asgi:application").timeout_keep_alive
    assert browser.PAGE_LIMITS.keepalive_expiry is not None
    assert browser.PAGE_LIMITS.keepalive_expiry < server_keeps
