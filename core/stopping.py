"""The server process is stopping: what a long request waits on to end in time.

Why: uvicorn (the production server, deploy/sheetkeeper.service) answers SIGTERM or SIGINT
by waiting up to ``--timeout-graceful-shutdown`` for every request in flight, and never tells
the application (no ``http.disconnect``; the lifespan shutdown comes after the connections).
An open live stream (:mod:`campaigns.live`) lasts up to an hour, so without this every
restart would wait the whole timeout and then cut the streams (docs/reliability.md, "A
restart ends the open streams at once").

How: the first stream a process opens chains a handler onto the server's own for SIGTERM and
SIGINT (:func:`install`). The handler notes the stop and wakes every future handed out by
:func:`stopping`, then calls the server's handler with the same arguments, so the server
stops as it would on its own, only without the streams holding it up. Only a handler that
a server set (a Python callable) is chained: SIG_DFL, SIG_IGN, Python's own SIGINT handler
(KeyboardInterrupt) and ``asyncio.run``'s are left alone, so a process without a server's
handler (the tests, a shell) keeps its own behaviour.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT)
"""The signals uvicorn (and daphne) stop on: ``systemctl stop`` and Ctrl+C."""

Handler = Callable[[int, FrameType | None], Any]


class _Stop:
    """This process's stop: whether it was asked for, and the futures waiting for it."""

    def __init__(self) -> None:
        self.requested = False
        self.waiting: set[asyncio.Future[None]] = set()


_stop = _Stop()


class _Chained:
    """A signal handler that notes the stop, then calls the handler it replaced."""

    def __init__(self, previous: Handler) -> None:
        self.previous = previous

    def __call__(self, signum: int, frame: FrameType | None) -> Any:
        request_stop()
        return self.previous(signum, frame)


def install() -> None:
    """Chain :func:`request_stop` onto this process's SIGTERM and SIGINT handlers, each one
    that a server set and that is not chained yet. Called by :func:`stopping`, so from the
    event loop's thread once the server runs (its handlers are in place by then); only the
    main thread may set handlers, so elsewhere (a test's loop in a worker thread) nothing is
    done. A server that sets its handler again later (uvicorn puts the previous ones back
    when it stops) is chained again by the next stream."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in STOP_SIGNALS:
        current = signal.getsignal(signum)
        if callable(current) and _is_a_servers(current):
            signal.signal(signum, _Chained(current))


def _is_a_servers(handler: Handler) -> bool:
    """Whether ``handler`` is one a server set to stop on, and not chained yet. Python's own
    SIGINT handler raises KeyboardInterrupt, which a shell or a test run may catch and carry
    on. ``asyncio.run``'s (3.11+, while its loop runs, where SIGINT had Python's) cancels the
    main task, which ends the streams anyway; chained, it would not be put back afterwards
    (asyncio restores the default only if its own handler is still the one in place)."""
    if isinstance(handler, _Chained) or handler is signal.default_int_handler:
        return False
    owner = getattr(handler.func, "__self__", None) if isinstance(handler, partial) else None
    return not isinstance(owner, asyncio.Runner)


def request_stop() -> None:
    """Note that this process is stopping and wake every :func:`stopping` future. Safe in a
    signal handler and from any thread: a handler runs between two bytecodes of the main
    thread, maybe in the middle of the event loop's own bookkeeping, so each future is
    resolved by a callback its loop runs (``call_soon_threadsafe``, which also wakes a loop
    that sleeps in its selector)."""
    stop = _stop
    stop.requested = True
    for future in list(stop.waiting):
        with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits there
            future.get_loop().call_soon_threadsafe(_resolve, future)


def stopping() -> asyncio.Future[None]:
    """A future of the running loop, done (result None) once this process has been asked to
    stop; already done if it has. :func:`install` runs first. Cancel the future when it is no
    longer wanted: it is then forgotten."""
    install()
    stop = _stop
    future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    stop.waiting.add(future)
    future.add_done_callback(stop.waiting.discard)
    if stop.requested:  # looked at after the add: a stop in between wakes the future anyway
        _resolve(future)
    return future


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
