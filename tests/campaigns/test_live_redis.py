"""The live table on Redis, as production runs it (core/live.py, campaigns/live.py): an idle
stream outlives the Redis client's socket timeout and still hears the next event; a stream
whose Redis goes away ends cleanly with one warning, and new streams are answered 503 while
pages keep working; five hundred streams closing at once leave no group member behind.

Every test here runs against a private ``redis-server`` that the module starts on a free port
(``--save ''``, nothing written to disk), whatever ``REDIS_URL`` says, so the SQLite pass
exercises Redis too and stopping a server never touches the system's. Without a
``redis-server`` binary the tests fail with a clear message, never skip.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.exceptions import ImproperlyConfigured

from campaigns import live
from core import live as live_events
from core.live import RedisLayer, group_name, seat_group_name
from tests.campaigns.test_live import Stream, _scope, send, stream_test

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION_BACKEND = "core.live.RedisLayer"
"""What sheetkeeper/settings.py names when REDIS_URL is set (checked below)."""


def production_layers(url: str) -> dict[str, object]:
    """``CHANNEL_LAYERS`` exactly as the settings build it from ``REDIS_URL=url``."""
    return {"default": {"BACKEND": PRODUCTION_BACKEND, "CONFIG": {"hosts": [url]}}}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RedisServer:
    """A private ``redis-server`` on a free port, in memory only; ``url`` is its address."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed: the live table's Redis tests start "
                        "their own (apt-get install redis-server)", pytrace=False)
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_timeout=1)
        for _ in range(200):  # until it answers PING (about 20 ms here), at most 10 s
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                if self.process.poll() is not None:
                    pytest.fail(f"redis-server on port {self.port} exited at start")
                time.sleep(0.05)
        else:
            self.stop()
            pytest.fail(f"redis-server on port {self.port} did not answer within 10 s")
        self.client = client

    def group_members(self) -> dict[str, int]:
        """How many channels each group holds (channels_redis keeps a group as a sorted set
        ``asgi:group:<name>``); groups with none are absent."""
        return {key.decode().removeprefix("asgi:group:"): int(self.client.zcard(key))
                for key in self.client.scan_iter(match="asgi:group:*")}

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    yield server
    server.stop()


@pytest.fixture
def redis_layer(redis_server: RedisServer, settings) -> RedisServer:  # type: ignore[no-untyped-def]
    """The production channel layer on the module's private Redis, emptied first."""
    redis_server.client.flushdb()
    settings.CHANNEL_LAYERS = production_layers(redis_server.url)
    return redis_server


@pytest.fixture(autouse=True)
def loud_layer_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a fresh process would: the next layer warning is logged as one
    (core.live says it once a minute at most)."""
    monkeypatch.setitem(live_events._layer_warned, "until", 0.0)


def _stream_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.WARNING]


async def _next_event(stream: Stream, within: float) -> bytes:
    """The next frame that is not a keepalive."""
    while (frame := await stream.next_frame(timeout=within)) == b": keepalive\n\n":
        pass
    return frame


def test_the_settings_use_this_layer_when_redis_url_is_set() -> None:
    """The tests below use what production uses: the settings, read in a fresh interpreter
    with REDIS_URL set, name the same layer with the same configuration."""
    url = "redis://127.0.0.1:6379/3"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    code = "import json, sheetkeeper.settings as s; print(json.dumps(s.CHANNEL_LAYERS))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, env={**env, "REDIS_URL": url}, timeout=60)
    assert result.returncode == 0, result.stderr
    import json

    assert json.loads(result.stdout) == production_layers(url)


@stream_test
def test_an_idle_stream_outlives_the_redis_socket_timeout_and_hears_the_next_event(
    campaign, bob, redis_layer, caplog
) -> None:  # type: ignore[no-untyped-def]
    # Production configuration throughout (keepalives every 15 s included: a keepalive that
    # cancelled the pending receive every second would hide the fault), idle for longer than
    # the Redis client's socket timeout, so through more than one of channels_redis'
    # blocking pops.
    layer = get_channel_layer()
    socket_timeout = float(layer.hosts[0].get("socket_timeout", 5))  # redis-py 8's default
    stream = Stream(bob, campaign.pk)

    async def scenario() -> None:
        status, _ = await stream.open()
        assert status == 200
        assert await stream.communicator.receive_nothing(timeout=socket_timeout + 1)
        await send(campaign.pk)
        assert (await _next_event(stream, within=5)).startswith(b"event: rollMade\n")
        await stream.close()

    with caplog.at_level(logging.DEBUG, logger="core.live"):
        async_to_sync(scenario)()
    assert _stream_warnings(caplog) == []


@stream_test
def test_a_stream_whose_redis_goes_away_ends_with_one_warning_and_pages_keep_working(
    campaign, bob, client_for, settings, caplog
) -> None:  # type: ignore[no-untyped-def]
    server = RedisServer()  # this one is stopped mid-stream: not the module's
    settings.CHANNEL_LAYERS = production_layers(server.url)
    open_page, late_page = Stream(bob, campaign.pk), Stream(bob, campaign.pk)
    frames: list[bytes] = []

    async def scenario() -> None:
        status, _ = await open_page.open()
        assert status == 200
        await asyncio.to_thread(server.stop)
        while True:  # until the stream ends (the layer's retries take a few seconds)
            message = await open_page.communicator.receive_output(timeout=60)
            frames.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        await open_page.communicator.wait(timeout=5)  # the application ended, no exception

    try:
        with caplog.at_level(logging.DEBUG, logger="core.live"):
            async_to_sync(scenario)()
            [warning] = _stream_warnings(caplog)
            assert warning.name == "core.live" and warning.exc_info is None
            assert "ConnectionError" in warning.getMessage()
            assert all(frame in (b"", b": keepalive\n\n") for frame in frames), frames

            # A page opened meanwhile is told to come back later; the outage was reported
            # already, so the log gains no warning, and no error for the 503 either.
            caplog.clear()
            status, body = async_to_sync(late_page.open)()
            assert status == 503
            assert b"Live updates are unavailable" in body
            assert _stream_warnings(caplog) == []
            assert "unavailable" in caplog.records[-1].getMessage()  # at debug level
    finally:
        if server.process.poll() is None:
            server.stop()
    # The pages themselves never needed Redis.
    assert client_for(bob).get(campaign.get_absolute_url()).status_code == 200


@stream_test
def test_five_hundred_streams_closing_at_once_leave_no_group_member_behind(
    campaign, alice, bob, redis_layer
) -> None:  # type: ignore[no-untyped-def]
    # Five hundred tabs: a GM's and a player's (two groups each: their audience's and their
    # seat's), all closed together, as when a server process stops or a proxy drops its
    # connections.
    scopes = [_scope(alice, campaign.pk), _scope(bob, campaign.pk)]
    streams = [Stream(None, campaign.pk, scope=scopes[i % 2]) for i in range(500)]

    async def scenario() -> None:
        for start in range(0, len(streams), 50):
            statuses = await asyncio.gather(*(s.open() for s in streams[start:start + 50]))
            assert {status for status, _ in statuses} == {200}
        assert redis_layer.group_members() == {
            group_name(campaign.pk): 250,
            group_name(campaign.pk, gm_only=True): 250,
            seat_group_name(campaign.pk, alice.pk): 250,
            seat_group_name(campaign.pk, bob.pk): 250,
        }
        # Every page hears an event and then closes: the layer is busiest right after one.
        # (An announcement goes to both audiences' groups: core.live.announce.)
        await send(campaign.pk)
        await send(campaign.pk, gm_only=True)
        for stream in streams:
            assert (await _next_event(stream, within=10)).startswith(b"event: rollMade\n")
        for stream in streams:
            await stream.communicator.send_input({"type": "http.disconnect"})
        # Until every stream's application has ended by itself (no second cancellation from
        # the test harness), within a bound far above the second this takes.
        await asyncio.wait_for(asyncio.gather(*(s.communicator.future for s in streams)), 60)

    async_to_sync(scenario)()
    assert redis_layer.group_members() == {}


def test_a_socket_timeout_no_longer_than_the_blocking_pop_is_refused() -> None:
    # The configuration that made every idle stream die: refused at start, naming both.
    with pytest.raises(ImproperlyConfigured, match="socket_timeout .* receive_timeout"):
        RedisLayer(hosts=[{"address": "redis://127.0.0.1:6379/0", "socket_timeout": 5}])
    with pytest.raises(ImproperlyConfigured, match="socket_timeout"):
        RedisLayer(hosts=["redis://127.0.0.1:6379/0?socket_timeout=2"], receive_timeout=2)
    layer = RedisLayer(hosts=["redis://127.0.0.1:6379/0"])
    assert layer.hosts[0]["socket_timeout"] > layer.brpop_timeout


@stream_test
def test_streams_that_ended_while_redis_was_away_leave_their_groups_once_it_is_back(
    campaign, bob, redis_layer, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # A packaged Redis keeps its data across a restart: the entries of streams that ended
    # while it was away (their group_discard failed) would stay for the group's expiry.
    monkeypatch.setattr(live, "_deferred_leaves", set())
    cut, later = Stream(bob, campaign.pk), Stream(bob, campaign.pk)
    real_discard = RedisLayer.group_discard

    async def unreachable(self, group, channel):  # type: ignore[no-untyped-def]
        raise redis.ConnectionError("Error 111 connecting to Redis")

    async def scenario() -> None:
        assert (await cut.open())[0] == 200
        monkeypatch.setattr(RedisLayer, "group_discard", unreachable)
        await cut.communicator.send_input({"type": "http.disconnect"})
        await asyncio.wait_for(cut.communicator.future, 10)
        assert redis_layer.group_members()[group_name(campaign.pk)] == 1  # left behind
        monkeypatch.setattr(RedisLayer, "group_discard", real_discard)  # Redis is back
        assert (await later.open())[0] == 200
        assert redis_layer.group_members() == {group_name(campaign.pk): 1,
                                               seat_group_name(campaign.pk, bob.pk): 1}
        await later.communicator.send_input({"type": "http.disconnect"})
        await asyncio.wait_for(later.communicator.future, 10)

    async_to_sync(scenario)()
    assert redis_layer.group_members() == {}
    assert live._deferred_leaves == set()


def test_a_group_entry_is_forgotten_soon_after_the_longest_stream_could_have_ended() -> None:
    layer = RedisLayer(hosts=["redis://127.0.0.1:6379/0"])
    assert live.STREAM_SECONDS < layer.group_expiry <= live.STREAM_SECONDS + 600


@stream_test
def test_a_stream_opened_on_a_dead_pooled_connection_tries_again_instead_of_refusing(
    campaign, bob, redis_layer, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # Right after a Redis restart the pool still holds connections Redis dropped: the first
    # command on one fails, and the pool replaces it. A page opened then is not refused.
    real_add = RedisLayer.group_add
    failures = []

    async def first_fails(self, group, channel):  # type: ignore[no-untyped-def]
        if not failures:
            failures.append(group)
            raise redis.ConnectionError("Error UNKNOWN while writing to socket. Connection lost.")
        await real_add(self, group, channel)

    monkeypatch.setattr(RedisLayer, "group_add", first_fails)
    page = Stream(bob, campaign.pk)

    async def scenario() -> None:
        assert (await page.open())[0] == 200
        await send(campaign.pk)
        assert (await _next_event(page, within=10)).startswith(b"event: rollMade\n")
        await page.communicator.send_input({"type": "http.disconnect"})
        await asyncio.wait_for(page.communicator.future, 10)

    async_to_sync(scenario)()
    assert failures == [group_name(campaign.pk)]
    assert redis_layer.group_members() == {}
