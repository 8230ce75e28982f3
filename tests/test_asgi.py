"""The ASGI entry point as uvicorn serves it (sheetkeeper/asgi.py): a synchronous page goes
from the event loop into its request's thread once and runs its whole middleware chain and
view there, rather than bouncing between the two at every middleware that Django adapts
(docs/performance.md, issue 18's fifth round); the async event stream still streams."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest
from asgiref.sync import AsyncToSync, SyncToAsync
from django.test import Client

from sheetkeeper.asgi import application

# The request reads the session and the character on its own thread: data is committed.
pytestmark = pytest.mark.django_db(transaction=True)


def _get(path: str, cookie: str) -> tuple[int, bytes]:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())],
    }
    messages = [{"type": "http.request", "body": b"", "more_body": False}]
    sent: list[Mapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.Future()  # the client stays until the answer is sent
        raise AssertionError("unreachable")

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_a_sheet_is_drawn_in_one_hop_from_the_event_loop_and_back(
        bobs_character: Any, bob: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client()
    client.force_login(bob)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    hops: Counter[str] = Counter()
    into_thread, onto_loop = SyncToAsync.__call__, AsyncToSync.__call__

    def counted_into_thread(self: SyncToAsync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        hops["into a thread"] += 1
        return into_thread(self, *args, **kwargs)

    def counted_onto_loop(self: AsyncToSync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        hops["onto the event loop"] += 1
        return onto_loop(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted_into_thread)
    monkeypatch.setattr(AsyncToSync, "__call__", counted_onto_loop)

    status, body = _get(bobs_character.get_absolute_url(), cookie)

    assert status == 200
    assert bobs_character.name.encode() in body
    # Into the thread for the request's start (its signal), for the whole chain and view,
    # and for the answer's close; never back onto the event loop in between.
    assert hops == Counter({"into a thread": 3})
