"""NPCs in export files (docs/npcs.md, "In a file"): a campaign's export carries its NPCs with
their rolls and what the players see of each, and its import brings them back as NPCs; a
player's file never makes one."""

from __future__ import annotations

import json

import pytest

from characters import npcs
from characters.models import Character
from tests.factories import UserFactory
from tests.system_fixtures import open_roll
from transfer.export import export_campaign, export_character
from transfer.imports import import_campaign, import_character

pytestmark = pytest.mark.django_db


def through_a_file(document: dict[str, object]) -> object:
    return json.loads(json.dumps(document))


def test_a_campaigns_npcs_and_their_rolls_come_back_from_its_file(campaign, alice,  # type: ignore[no-untyped-def]
                                                                  bobs_character) -> None:
    [goon] = npcs.npc_copy(source=bobs_character, by=alice, name="Goon")
    npcs.npc_show(npc=goon, shown=Character.Shown.NAME, by=alice)
    roll = open_roll(goon, by=alice)
    assert roll is not None and roll.gm_only
    restored = import_campaign(through_a_file(export_campaign(campaign)), UserFactory())
    twin = Character.npcs.get(campaign=restored)
    assert (twin.name, twin.npc_shown) == ("Goon", Character.Shown.NAME)
    assert [r.gm_only for r in twin.rolls.all()] == [True]
    assert [c.name for c in restored.characters.all()] == ["Rook"]


def test_a_players_import_never_makes_an_npc(campaign, alice, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    document = export_character(bobs_character)
    document["character"]["is_npc"] = True  # type: ignore[index]
    document["character"]["npc_shown"] = "tracks"  # type: ignore[index]
    imported = import_character(through_a_file(document), campaign, bob)
    assert not imported.is_npc and imported.npc_shown == ""
    assert imported in campaign.characters.all()
