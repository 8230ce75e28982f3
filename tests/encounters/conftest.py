"""The encounters' cast: alice GMs The Drift, bob plays Rook and dave plays Wren; the GM has
two NPCs, Grub (hidden from the players) and Captain Vell (shown by name)."""

from __future__ import annotations

from typing import Any

import pytest

from characters.models import Character
from encounters import services
from encounters.models import Encounter
from tests.encounters.helpers import npc
from tests.factories import CharacterFactory


@pytest.fixture
def rook(campaign: Any, bob: Any) -> Character:
    return CharacterFactory(campaign=campaign, owner=bob, name="Rook")


@pytest.fixture
def wren(campaign: Any, dave: Any) -> Character:
    return Character.objects.get(campaign=campaign, name="Wren")


@pytest.fixture
def grub(campaign: Any, alice: Any, rook: Character) -> Character:
    """A hidden NPC (the players must never learn of it)."""
    return npc(campaign, alice, "Grub the Lurker", sheet=rook.sheet)


@pytest.fixture
def vell(campaign: Any, alice: Any, rook: Character) -> Character:
    """An NPC the players see by name."""
    return npc(campaign, alice, "Captain Vell", shown=Character.Shown.NAME, sheet=rook.sheet)


@pytest.fixture
def fight(campaign: Any, alice: Any, rook: Character, wren: Character) -> Encounter:
    """A running encounter with the party (Rook, Wren), not begun."""
    return services.encounter_start(campaign=campaign, by=alice, name="Ambush at the docks")
