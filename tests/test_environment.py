"""The test run's environment (tests/environment.py): each pytest-xdist worker's own Redis
database (two workers never share one, the URL's options survive, a worker past Redis's
sixteen databases is refused rather than silently sharing database 15)."""

from __future__ import annotations

import pytest

from tests.environment import worker_redis_url


def test_each_worker_takes_the_next_database_after_the_urls_own() -> None:
    urls = {worker_redis_url("redis://127.0.0.1:6379/1", f"gw{n}") for n in range(4)}

    assert urls == {f"redis://127.0.0.1:6379/{n}" for n in (1, 2, 3, 4)}


def test_a_url_without_a_database_starts_at_zero_and_keeps_its_options() -> None:
    assert worker_redis_url("redis://cache:6379", "gw1") == "redis://cache:6379/1"
    assert (worker_redis_url("rediss://cache:6380/2?socket_timeout=2", "gw3")
            == "rediss://cache:6380/5?socket_timeout=2")


@pytest.mark.parametrize(("url", "worker"), [("redis://h:6379/14", "gw2"),
                                             ("redis://h:6379/0", "master"),
                                             ("redis://h:6379/x", "gw0"),
                                             ("unix:///run/redis.sock?db=1", "gw0"),
                                             ("redis://h:6379?db=3", "gw1")])
def test_what_cannot_be_given_its_own_database_is_refused(url: str, worker: str) -> None:
    with pytest.raises(ValueError):
        worker_redis_url(url, worker)

