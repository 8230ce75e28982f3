"""A server asked to stop ends its open live streams at once (issue 18; core/stopping.py,
campaigns/live.py).

uvicorn answers SIGTERM by waiting for every request in flight to finish, up to its graceful
timeout (20 s in production), and never tells the application; an open event stream is such
a request. So every restart waited the whole 20 s, then cut the streams. Now a stream ends,
leaving its groups, as soon as its process is asked to stop, and the server stops as soon as
its ordinary requests are done; the page reconnects by itself (static/js/live.js).

First the stream itself, on the in-memory layer, in this process: a real signal raised while
a stream waits (the test plays the server, installing the handler a server would). Then the
production server: uvicorn with one and with two workers, a stream open, SIGTERM.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from channels.layers import (  # type: ignore[import-untyped]  # channels ships no type hints
    DEFAULT_CHANNEL_LAYER,
    channel_layers,
    get_channel_layer,
)

import core.stopping
from benchmarks.serving import (
    BASE_DIR,
    ServingError,
    free_port,
    manage,
    stop,
    wait_until_serving,
)
from campaigns.live import _stream
from tests.campaigns.test_live_processes import (
    SETUP_SCRIPT,
    EventStream,
    require_redis,
    server_env,
)

STOP_SIGNALS = core.stopping.STOP_SIGNALS
RESTART_FRAME = b"event: liveRestart\ndata: {}\n\n"
"""A stopping stream's last frame (campaigns.live, core.live.RESTART_EVENT)."""


# --- the stream, in this process ------------------------------------------------------------


@pytest.fixture
def in_memory_layer(settings):  # type: ignore[no-untyped-def]
    """The in-memory channel layer (whatever REDIS_URL says), fresh for the test."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
    yield get_channel_layer()
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)


@pytest.fixture
def fresh_stop(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A process that has not been asked to stop, and its SIGTERM and SIGINT handlers put back
    afterwards (the stream chains onto them)."""
    monkeypatch.setattr(core.stopping, "_stop", core.stopping._Stop())
    handlers = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    yield
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


class ServerHandler:
    """What a server installs for SIGTERM and SIGINT (uvicorn: ``Server.handle_exit``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, bool]] = []

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.calls.append((signum, isinstance(frame, FrameType)))


def _members(layer: Any, groups: list[str]) -> dict[str, set[str]]:
    """The channels in each of ``groups`` on the in-memory layer."""
    return {group: set(layer.groups.get(group, {})) for group in groups}


@pytest.mark.parametrize("signum", STOP_SIGNALS, ids=["SIGTERM", "SIGINT"])
def test_a_waiting_stream_ends_and_leaves_its_groups_once_the_server_is_asked_to_stop(  # type: ignore[no-untyped-def]
    signum, in_memory_layer, fresh_stop
) -> None:
    layer = in_memory_layer
    server = ServerHandler()
    for each in STOP_SIGNALS:
        signal.signal(each, server)
    groups = [["campaign-7", "campaign-7-user-2"], ["campaign-7", "campaign-7-gm"]]

    async def scenario() -> None:
        streams = [_stream(names) for names in groups]
        for stream in streams:
            assert (await anext(stream)).endswith(b": connected\n\n")
        assert all(_members(layer, ["campaign-7"])["campaign-7"])
        waiting = [asyncio.ensure_future(anext(stream)) for stream in streams]
        # Not asked to stop: the streams keep waiting for events.
        done, _ = await asyncio.wait(waiting, timeout=0.3)
        assert done == set()

        signal.raise_signal(signum)  # as `systemctl stop` or Ctrl+C would

        for stream, next_frame in zip(streams, waiting, strict=True):
            # Its last frame says the server is stopping (the page reconnects soon and
            # often), then the stream is over.
            assert await asyncio.wait_for(next_frame, 5) == RESTART_FRAME
            with pytest.raises(StopAsyncIteration):
                await asyncio.wait_for(anext(stream), 5)
        # Every group left: an event sent now reaches nobody.
        assert _members(layer, ["campaign-7", "campaign-7-user-2", "campaign-7-gm"]) == {
            "campaign-7": set(), "campaign-7-user-2": set(), "campaign-7-gm": set()}
        await layer.group_send("campaign-7", {"type": "campaign.event", "names": ["rollMade"]})
        assert layer.channels == {}

    asyncio.run(scenario())
    # The server heard the signal all the same, once, with the same arguments.
    assert server.calls == [(signum, True)]


def test_a_stream_opened_once_the_server_is_stopping_ends_after_its_first_frame(  # type: ignore[no-untyped-def]
    in_memory_layer, fresh_stop
) -> None:
    # A keep-alive connection can still bring a request in while the server drains.
    layer = in_memory_layer
    signal.signal(signal.SIGTERM, ServerHandler())

    async def scenario() -> None:
        first = _stream(["campaign-7"])
        await anext(first)  # installs the chained handler
        signal.raise_signal(signal.SIGTERM)
        assert await asyncio.wait_for(anext(first), 5) == RESTART_FRAME
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(anext(first), 5)

        later = _stream(["campaign-8"])
        assert (await anext(later)).endswith(b": connected\n\n")
        assert await asyncio.wait_for(anext(later), 5) == RESTART_FRAME
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(anext(later), 5)
        assert _members(layer, ["campaign-7", "campaign-8"]) == {
            "campaign-7": set(), "campaign-8": set()}

    asyncio.run(scenario())


@pytest.mark.parametrize("default", [signal.SIG_DFL, signal.SIG_IGN], ids=["SIG_DFL", "SIG_IGN"])
def test_without_a_servers_handler_nothing_is_chained(  # type: ignore[no-untyped-def]
    default, in_memory_layer, fresh_stop
) -> None:
    # The development server, tests, a shell: their signals behave as before.
    signal.signal(signal.SIGTERM, default)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own: KeyboardInterrupt

    async def scenario() -> None:
        stream = _stream(["campaign-7"])
        await anext(stream)
        await stream.aclose()

    asyncio.run(scenario())
    assert signal.getsignal(signal.SIGTERM) is default
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


# --- the production server -------------------------------------------------------------------

GRACEFUL_TIMEOUT = 20
"""deploy/sheetkeeper.service's ``--timeout-graceful-shutdown``: how long uvicorn waited for
open streams before they ended by themselves."""

STOPPED_WITHIN = 8.0
"""How soon after SIGTERM the server must have exited: far below the graceful timeout, far
above the second or so a stop takes."""


@dataclass
class Site:
    env: dict[str, str]
    tmp: Path
    campaign: int
    sessions: list[str]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """A database (a SQLite file, as the cross-process tests use) with a campaign, its GM and a
    player logged in; the servers use the Redis channel layer, as production does."""
    require_redis()
    tmp = tmp_path_factory.mktemp("live-shutdown")
    env = server_env(tmp)
    try:
        manage(env, "migrate", "--noinput", "-v", "0")
        ids = json.loads(manage(env, "shell", "-v", "0", "-c", SETUP_SCRIPT).splitlines()[-1])
    except ServingError as exc:
        pytest.fail(str(exc), pytrace=False)
    return Site(env=env, tmp=tmp, campaign=ids["campaign"], sessions=[ids["gm"], ids["player"]])


def start_uvicorn(port: int, env: dict[str, str], log: Path, workers: int
                  ) -> subprocess.Popen[bytes]:
    """uvicorn as deploy/sheetkeeper.service runs it (lifespan off, 20 s graceful timeout)."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "sheetkeeper.asgi:application",
             "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
             "--lifespan", "off", "--timeout-graceful-shutdown", str(GRACEFUL_TIMEOUT)],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_ends_the_open_streams_and_the_server_stops_at_once(  # type: ignore[no-untyped-def]
    site, workers
) -> None:
    port = free_port()
    log = site.tmp / f"uvicorn-{workers}.log"
    process = start_uvicorn(port, site.env, log, workers)
    try:
        wait_until_serving(port, process, log, within=20, name="uvicorn")

        async def scenario() -> None:
            # Several pages, so that with two workers both are likely to hold some (which
            # worker accepts a connection is the kernel's choice).
            pages = [await EventStream.open(port, site.campaign, session)
                     for session in site.sessions * 3]
            try:
                process.send_signal(signal.SIGTERM)
                stopped = time.monotonic()
                ends = asyncio.gather(*(page.task for page in pages))
                try:
                    await asyncio.wait_for(ends, STOPPED_WITHIN)
                except TimeoutError:
                    pytest.fail(f"the open streams did not end within {STOPPED_WITHIN:g} s of "
                                f"SIGTERM:\n{log.read_text()}", pytrace=False)
                # Each stream ended as a response ends, with the chunked body's last chunk
                # (a connection cut mid-body fails the reader instead).
                for page in pages:
                    assert page.task.result() is None
                    # Its last frame told the page to reconnect soon (static/js/live.js).
                    assert await page.next_event(1) == ("liveRestart", {})
                try:
                    await asyncio.to_thread(
                        process.wait, STOPPED_WITHIN - (time.monotonic() - stopped))
                except subprocess.TimeoutExpired:
                    pytest.fail(f"uvicorn was still running {STOPPED_WITHIN:g} s after "
                                f"SIGTERM:\n{log.read_text()}", pytrace=False)
            finally:
                for page in pages:
                    await page.close()

        asyncio.run(scenario())
    finally:
        if process.poll() is None:
            stop(process)
    output = log.read_text()
    assert "timeout graceful shutdown exceeded" not in output, output
    assert "Traceback" not in output, output
