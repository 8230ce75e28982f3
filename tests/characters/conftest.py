"""Fixtures of a character's life: a character fresh from creation (no history yet, so it may
be deleted), and the live events the character services announce."""

from __future__ import annotations

import pytest

from characters import services
from characters.models import Character
from tests.factories import maelstrom_sheet_for


@pytest.fixture
def fresh_character(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's Finch, just made the way the creation page makes one: its starting XP is its
    only ledger entry, written by its creation; no roll, no request."""
    return services.character_create(campaign=campaign, owner=bob, name="Finch",
                                     concept="Courier", sheet=maelstrom_sheet_for(),
                                     starting_xp=30)


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str, int | None]]:
    """What ``characters.services`` announces, as ``(campaign id, event, character id)``."""
    events: list[tuple[int, str, int | None]] = []

    def record(campaign_id: int, event: str, *, character_id: int | None = None,
               gm_only: bool = False) -> None:
        events.append((campaign_id, event, character_id))

    monkeypatch.setattr("characters.services.announce", record)
    return events
