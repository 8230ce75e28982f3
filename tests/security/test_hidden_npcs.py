"""A hidden NPC is invisible to the players everywhere (docs/npcs.md): no page, live region,
live event, roll log line or export of a player's names it or points at it, whatever the GM
does with it: damage, rolls, copies, a change of what the players see that keeps it hidden,
its archive. Once revealed by name, its name (and nothing of its sheet) reaches them.

Where an NPC's pages answer a player at all, the authorization matrix asks (404 for every
NPC URL: tests/security/test_authorization_matrix.py); this asks what the players' own pages
and streams carry while the GM plays the NPC.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from characters import npcs
from characters.models import Character
from core.live import group_name
from tests.core.test_no_stale_page import RecordingLayer, layer  # noqa: F401 (fixture)
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db

SECRET = "Vexamordine Hollowgrave"
"""The hidden NPC's name. Its first word is the trace looked for (it names the copies too), so
it is long: every page carries random CSRF tokens of letters and digits, and a three-letter
name turned up in one of them about one run in a few thousand."""


def traces(npc: Character) -> list[str]:
    """What would give the NPC away: its name (and its copies'), and its id as the pages and
    events use ids (a sheet's URL, a card, a per-character event)."""
    return [npc.name.split()[0], f"/characters/{npc.pk}/", f"card-{npc.pk}",
            *(f"{event}-{npc.pk}" for event in ("Changed", "Made", "Requested"))]


def players_pages(client: Client, campaign: Any, character: Character) -> dict[str, str]:
    """Every page of the campaign a player reads, and the dashboard's live regions alone."""
    urls = {
        "dashboard": campaign.get_absolute_url(),
        "regions": campaign.get_absolute_url() + "?live=campaign-rolls&live=npcs-shown"
                   "&live=campaign-characters&live=live-regions",
        "roll log": reverse("rolls:roll-list", args=[campaign.pk]),
        "sessions": reverse("table:session-list", args=[campaign.pk]),
        "table's history": reverse("history:campaign-history", args=[campaign.pk]),
        "own history": reverse("history:character-history", args=[character.pk]),
        "own diff": reverse("history:character-between", args=[character.pk]),
        "table's luck": reverse("history:campaign-luck", args=[campaign.pk]),
        "table's luck over time": reverse("history:campaign-luck-chart",
                                          args=[campaign.pk, "time"]),
        "own luck": reverse("history:character-luck", args=[character.pk]),
        "own sheet": character.get_absolute_url(),
        "own export": reverse("transfer:character-export", args=[character.pk]),
    }
    pages = {}
    for label, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (label, response.status_code)
        pages[label] = response.content.decode()
    return pages


def test_nothing_a_player_reads_or_hears_gives_a_hidden_npc_away(  # type: ignore[no-untyped-def]
        client_for, campaign, alice, bob, bobs_character, layer,  # noqa: F811 (fixture)
        django_capture_on_commit_callbacks) -> None:
    npc = CharacterFactory(campaign=campaign, owner=alice, name=SECRET, is_npc=True)
    gm = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        gm.post(reverse("characters:character-action", args=[npc.pk, "damage"]),
                {"kind": "bashing", "levels": "1"})
        gm.post(reverse("rolls:roll-create", args=[npc.pk]),
                {"kind": "willpower", "difficulty": "8", "threshold": "0",
                 "in_the_open": "on"})
        gm.post(reverse("characters:npc-copy", args=[npc.pk]), {"count": "2"})
        gm.post(reverse("characters:npc-shown", args=[npc.pk]), {"shown": ""})
        gm.post(reverse("characters:npc-archive", args=[npc.pk]), {"archived": "1"})
        gm.post(reverse("characters:npc-archive", args=[npc.pk]), {"archived": "0"})
    made = list(Character.npcs.filter(campaign=campaign))
    assert len(made) == 3 and npc.rolls.count() == 1  # the GM's changes all happened
    assert layer.sent, "the GM's pages heard nothing"

    players_group = group_name(campaign.pk)
    heard_by_players = [json.dumps(message) for group, message in layer.sent
                        if group == players_group]
    pages = players_pages(client_for(bob), campaign, bobs_character)
    for hidden in made:
        for trace in traces(hidden):
            for event in heard_by_players:
                assert trace not in event, (trace, event)
            for label, page in pages.items():
                assert trace not in page, (trace, label)


def test_a_revealed_npc_shows_its_name_and_nothing_of_its_sheet(  # type: ignore[no-untyped-def]
        client_for, campaign, alice, bob, bobs_character) -> None:
    npc = CharacterFactory(campaign=campaign, owner=alice, name=SECRET, is_npc=True,
                           concept="Zanzibar pearl fence")
    npcs.npc_show(npc=npc, shown=Character.Shown.NAME, by=alice)
    pages = players_pages(client_for(bob), campaign, bobs_character)
    assert SECRET in pages["dashboard"] and SECRET in pages["regions"]
    for label, page in pages.items():
        assert "Zanzibar" not in page, label
        assert not re.search(rf"/characters/{npc.pk}/", page), label
