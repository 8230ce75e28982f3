"""A local chat channel for the tests: an HTTP server on 127.0.0.1 in a thread of the test's
process, which keeps every post it is sent and answers each with the next status of a
script (then 204, as Discord's webhooks answer a post)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Received:
    """One post as the channel got it: its path, headers and JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class Receiver:
    """The channel: :attr:`url` to connect a hook to, :attr:`posts` received, oldest first,
    and :attr:`statuses`, the answers still to give (then 204), each a status or a
    ``(status, headers)`` pair."""

    url: str
    posts: list[Received] = field(default_factory=list)
    statuses: list[int | tuple[int, dict[str, str]]] = field(default_factory=list)


@pytest.fixture
def receiver(settings: Any) -> Iterator[Receiver]:
    """A channel listening on 127.0.0.1, with ``CHAT_WEBHOOKS_ALLOW_LOCAL`` on so that a hook
    may point at it; stopped after the test."""
    settings.CHAT_WEBHOOKS_ALLOW_LOCAL = True
    lock = threading.Lock()
    state = Receiver(url="")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            with lock:
                state.posts.append(Received(self.path, dict(self.headers.items()),
                                            json.loads(raw or b"{}")))
                answer = state.statuses.pop(0) if state.statuses else 204
            status, headers = answer if isinstance(answer, tuple) else (answer, {})
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # the test's output stays quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/api/webhooks/42/s3cr3t-token"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
