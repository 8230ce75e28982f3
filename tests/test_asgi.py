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


def _scope(method: str, path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """An HTTP request's ASGI scope, as uvicorn builds it."""
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
        "headers": [(b"host", b"testserver"), *headers],
    }


def _serve(scope: dict[str, Any], chunks: list[bytes]) -> tuple[int, bytes, int]:
    """Run the application on ``scope`` with ``chunks`` as the body, the client staying until
    the answer is sent; returns the status, the answer's body and how many chunks were read."""
    pending = [{"type": "http.request", "body": chunk, "more_body": n < len(chunks) - 1}
               for n, chunk in enumerate(chunks)]
    read = 0
    sent: list[Mapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        if pending:
            read += 1
            return pending.pop(0)
        await asyncio.Future()  # the client stays until the answer is sent
        raise AssertionError("unreachable")

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)

    asyncio.run(application(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, read


def _get(path: str, cookie: str) -> tuple[int, bytes]:
    status, body, _ = _serve(_scope("GET", path, [(b"cookie", cookie.encode())]), [b""])
    return status, body


# The request reads the session and the character on its own thread: data is committed.
@pytest.mark.django_db(transaction=True)
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


# --- the body's cap (settings.REQUEST_BODY_MAX_BYTES) ------------------------------------------


def _post(headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[int, bytes, int]:
    """POST ``chunks`` as the body to the import page straight to the ASGI application, as
    uvicorn without nginx would; returns the status, the body and how many chunks the
    application read."""
    return _serve(_scope("POST", "/campaigns/import/", headers), chunks)


MIB = 1024 * 1024


def test_a_body_declared_longer_than_the_cap_is_refused_before_a_byte_is_read(settings) -> None:  # type: ignore[no-untyped-def]
    chunks = [b"x" * MIB] * 30  # a 30 MiB upload
    status, body, read = _post([(b"content-length", str(30 * MIB).encode())], chunks)

    assert status == 413
    assert read == 0
    assert b"at most 11 MiB" in body and b"Nothing was saved" in body


def test_a_chunked_body_is_cut_off_as_soon_as_it_passes_the_cap(settings) -> None:  # type: ignore[no-untyped-def]
    chunks = [b"x" * MIB] * 30  # no Content-Length: the length shows only as it comes

    status, _, read = _post([], chunks)

    assert status == 413
    assert read == settings.REQUEST_BODY_MAX_BYTES // MIB + 1


@pytest.mark.django_db(transaction=True)
def test_a_body_under_the_cap_is_read_and_answered_by_the_site(settings) -> None:  # type: ignore[no-untyped-def]
    status, body, read = _post([(b"content-length", b"5")], [b"a=1&b"])

    assert status == 403  # a POST without its CSRF cookie: the site's own answer
    assert read == 1
    assert b"than this server takes" not in body
