"""Where a request's time goes inside the server, for the live-tables benchmark
(``benchmarks/tables.py``): each request's wall time as Django runs it, the CPU its own thread
used meanwhile, and its database statements with the time spent in them.

Under load a request's wall time is far more than its CPU (docs/performance.md, "Fourth
round: where a request waits", has a roll POST's figures). What is not its own CPU is
waiting: for PostgreSQL to answer, or, in a worker whose other threads (other requests, the
event loop serving the streams) hold the interpreter, for its turn to run. The statements'
time says how much of it came while talking to the database (a round trip, and taking the
interpreter back after it).

:func:`request_timing` is a middleware the benchmark's settings put in when
``BENCH_TIMING_DIR`` names a directory (``benchmarks/bench_settings.py``); each server process
appends one line a request to ``<pid>.log`` there. :func:`read` gathers the lines of a span of
time by route. The product's settings never include it.
"""

from __future__ import annotations

import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TextIO

from django.db import connection
from django.http import HttpRequest, HttpResponse

TIMING_DIR = "BENCH_TIMING_DIR"
"""The environment variable naming the directory the lines go to."""

_files: dict[tuple[int, str], TextIO] = {}
_opening = threading.Lock()


def _log() -> TextIO:
    """This process's log file in the directory named now, opened once (line-buffered: a
    line is written whole)."""
    key = (os.getpid(), os.environ[TIMING_DIR])
    with _opening:
        if key not in _files:
            directory = Path(key[1])
            directory.mkdir(parents=True, exist_ok=True)
            _files[key] = (directory / f"{key[0]}.log").open("a", buffering=1)
        return _files[key]


@dataclass
class _Statements:
    count: int = 0
    wall: float = 0.0
    cpu: float = 0.0

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: Any) -> Any:
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            return execute(sql, params, many, context)
        finally:
            self.count += 1
            self.wall += time.perf_counter() - started
            self.cpu += time.thread_time() - cpu


@contextmanager
def _watching() -> Iterator[_Statements]:
    statements = _Statements()
    with connection.execute_wrapper(statements):
        yield statements


def request_timing(get_response: Callable[[HttpRequest], HttpResponse]
                   ) -> Callable[[HttpRequest], HttpResponse]:
    """A middleware: one line a request, ``end method route live status wall cpu statements
    statement_wall statement_cpu`` (``end`` in seconds since the epoch, the rest in ms; ``live``
    is 1 for a live region's request, ``?live=``). ``route`` is the URL pattern
    (``characters/<int:pk>/roll/``), so a route's requests are counted together."""

    def middleware(request: HttpRequest) -> HttpResponse:
        started, cpu = time.perf_counter(), time.thread_time()
        with _watching() as statements:
            response = get_response(request)
        wall, used = time.perf_counter() - started, time.thread_time() - cpu
        match = request.resolver_match
        route = match.route if match is not None else request.path
        _log().write(
            f"{time.time():.6f} {request.method} {route or '/'} {int('live' in request.GET)} "
            f"{response.status_code} {wall * 1000:.2f} {used * 1000:.2f} {statements.count} "
            f"{statements.wall * 1000:.2f} {statements.cpu * 1000:.2f}\n")
        return response

    return middleware


def percentile(values: Iterable[float], share: float) -> float:
    """The nearest-rank percentile of ``values`` (``share`` 0.95 for p95); NaN for none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


class Timed(NamedTuple):
    """One request as the middleware timed it, in ms (``statements`` a count)."""

    wall: float
    cpu: float
    statements: int
    statement_wall: float
    statement_cpu: float

    @property
    def waiting(self) -> float:
        """Neither its own CPU nor its statements' time: waiting for its turn to run."""
        return self.wall - self.cpu - (self.statement_wall - self.statement_cpu)


@dataclass
class Route:
    """One route's requests in a span."""

    label: str
    requests: list[Timed] = field(default_factory=list)

    def spread(self, column: Callable[[Timed], float]) -> str:
        """``"p50 / p95"`` of ``column`` over the requests, to a tenth."""
        values = [column(request) for request in self.requests]
        return f"{percentile(values, 0.5):.1f} / {percentile(values, 0.95):.1f}"


def read(directory: Path, since: float, until: float) -> list[Route]:
    """The requests that ended between ``since`` and ``until`` (seconds since the epoch), by
    route (``GET characters/<int:pk>/`` and its live regions apart), most requests first."""
    routes: dict[str, Route] = defaultdict(lambda: Route(""))
    for log in sorted(directory.glob("*.log")):
        for line in log.read_text().splitlines():
            parts = line.split()
            if len(parts) != 10 or not since <= float(parts[0]) <= until:
                continue  # a line being written, or outside the span
            label = f"{parts[1]} {parts[2]}{' ?live' if parts[3] == '1' else ''}"
            route = routes[label]
            route.label = label
            route.requests.append(Timed(float(parts[5]), float(parts[6]), int(parts[7]),
                                        float(parts[8]), float(parts[9])))
    return sorted(routes.values(), key=lambda route: -len(route.requests))
