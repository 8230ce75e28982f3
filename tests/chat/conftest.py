"""The chat's tests: a local channel (tests/chat/receiver.py) and a resolver that never asks
the network."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from chat import addresses
from tests.chat.receiver import receiver

__all__ = ["receiver", "resolver"]

Resolver = Callable[[dict[str, list[str]]], None]


@pytest.fixture(autouse=True)
def resolver(monkeypatch: pytest.MonkeyPatch) -> Resolver:
    """Host names resolve to what the test says (``resolver({"discord.com": [...]})``), and
    any other name to nothing, so no test asks a real DNS server."""
    answers: dict[str, list[str]] = {}

    def resolve(host: str, port: int) -> list[str]:
        if host not in answers:
            raise OSError(f"no address for {host}")
        return answers[host]

    monkeypatch.setattr(addresses, "resolve", resolve)
    return answers.update
