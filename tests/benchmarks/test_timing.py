"""The live-table benchmark's timing inside the server (benchmarks/timing.py,
``benchmarks.tables --inside``): each request is one line, counted under its URL pattern with
its statements, and a span of time reads only its own requests."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from benchmarks import timing

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed(settings: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The product's middleware with the timing one where the benchmark's settings put it
    (benchmarks/bench_settings.py), writing to ``tmp_path``."""
    monkeypatch.setenv(timing.TIMING_DIR, str(tmp_path))
    product = list(settings.MIDDLEWARE)
    after = product.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1
    settings.MIDDLEWARE = [*product[:after], "benchmarks.timing.request_timing",
                           *product[after:]]
    return tmp_path


def test_a_request_is_counted_under_its_route_with_its_statements(
        timed: Path, bobs_character: Any, bob: Any) -> None:
    client = Client()
    client.force_login(bob)
    since = time.time()
    seen: list[str] = []

    def note(execute: Any, sql: str, *rest: Any) -> Any:
        seen.append(sql)
        return execute(sql, *rest)

    # Not CaptureQueriesContext: the request's start empties its log.
    with connection.execute_wrapper(note):
        assert client.get(bobs_character.get_absolute_url()).status_code == 200
    assert client.get(bobs_character.get_absolute_url(),
                      {"live": "recent-rolls"}).status_code == 200
    assert client.get(bobs_character.get_absolute_url()).status_code == 200

    routes = {route.label: route for route in timing.read(timed, since, time.time())}

    whole, region = routes["GET characters/<int:pk>/"], routes["GET characters/<int:pk>/ ?live"]
    assert len(whole.requests) == 2 and len(region.requests) == 1
    wall, cpu, statements, in_statements, _ = whole.requests[0]
    assert statements == len(seen) > 0
    assert 0 < in_statements <= wall and cpu > 0
    assert timing.read(timed, 0, since) == []  # before the span: none of them


def test_the_span_leaves_out_other_times_and_half_written_lines(timed: Path) -> None:
    (timed / "1.log").write_text(
        "100.000 GET characters/<int:pk>/ 0 200 10.00 4.00 5 3.00 0.50\n"
        "200.000 POST characters/<int:character_id>/roll/ 0 200 30.00 12.00 12 9.00 1.00\n"
        "201.000 POST characters/<int:character_id>/roll/ 0 200 20.0")

    routes = timing.read(timed, 150, 300)

    assert [(route.label, route.requests) for route in routes] == [
        ("POST characters/<int:character_id>/roll/", [(30.0, 12.0, 12, 9.0, 1.0)])]
    assert routes[0].spread(lambda request: request.wall) == "30.0 / 30.0"
    # Neither its own CPU (12) nor its statements' time less their CPU (9 - 1).
    assert routes[0].requests[0].waiting == pytest.approx(10.0)


def test_the_product_never_times_its_requests() -> None:
    assert "benchmarks.timing.request_timing" not in settings.MIDDLEWARE
