"""``manage.py chat_receiver``: the local channel a developer points a hook at prints what the
worker sends it (chat/management/commands/chat_receiver.py)."""

from __future__ import annotations

import io
import socket
import threading
import time

import httpx
import pytest
from django.core.management import call_command

from chat import posts


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_it_prints_each_post_and_fails_the_first_ones_when_asked() -> None:
    port, out = _free_port(), io.StringIO()
    options = {"port": port, "fail": 1, "count": 2, "stdout": out}
    thread = threading.Thread(target=call_command, args=["chat_receiver"], kwargs=options,
                              daemon=True)
    thread.start()
    body = posts.discord_body(posts.Post(title="Rook rolled 7 dice", footer="The Drift",
                                         lines=("Success · 2 successes",)))
    for _ in range(50):  # the server starts in its thread
        try:
            first = httpx.post(f"http://127.0.0.1:{port}/hook", json=body)
            break
        except httpx.ConnectError:
            time.sleep(0.05)
    else:
        pytest.fail("the receiver did not start")
    second = httpx.post(f"http://127.0.0.1:{port}/hook", json=body)
    thread.join(timeout=5)

    assert not thread.is_alive()  # it stopped after its two posts

    assert (first.status_code, second.status_code) == (500, 204)
    printed = out.getvalue()
    assert "POST /hook -> 500" in printed and "POST /hook -> 204" in printed
    assert "Rook rolled 7 dice" in printed and "Success · 2 successes" in printed
