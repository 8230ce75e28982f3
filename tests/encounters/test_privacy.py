"""A hidden NPC is invisible to the players everywhere: the campaign page, the sheet, their
fragments, the encounter's record and the live events; its turn reads "The GM's turn"; and a
change only the GM's pages show moves nothing a player's page counts (docs/security.md,
"Hidden activity"; docs/encounters.md, "Who sees what")."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from campaigns.models import Campaign
from core.live import group_name
from encounters import services
from tests.core.test_no_stale_page import RecordingLayer, layer  # noqa: F401 (fixture)
from tests.encounters.helpers import npc, shown, turn, url
from tests.helpers import text_of

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
SECRET = "Grub the Lurker"


def _next(encounter: Any, by: Any) -> None:
    services.turn_next(encounter=encounter, shown=shown(encounter), by=by)


def names_in_order(response: Any) -> list[str]:
    """The names of the turn order a page shows."""
    return re.findall(r'class="turn-name">([^<]*)<', response.content.decode())


def sent_to(recording: RecordingLayer, campaign: Campaign, *, gm: bool) -> list[dict[str, Any]]:
    """The events the players' group (or the GM's) was sent."""
    group = group_name(campaign.pk, gm_only=gm)
    return [message for name, message in recording.sent if name == group]


def players_pages(client: Client, campaign: Campaign, character: Any) -> list[str]:
    """Everything a player's open pages may show of the encounter: the campaign page and
    its region alone, the sheet and its region alone, the encounter list."""
    region = "?live=turn-order"
    return [client.get(page).content.decode() for page in (
        campaign.get_absolute_url(), campaign.get_absolute_url() + region,
        character.get_absolute_url(), character.get_absolute_url() + region,
        f"/campaigns/{campaign.pk}/encounters/")]


@pytest.fixture
def crowd(fight: Any, alice: Any, grub: Any, vell: Any) -> Any:
    """The fight with Grub (hidden) and Captain Vell (shown by name) added after the party,
    begun: Rook's turn."""
    services.combatants_add(encounter=fight, characters=[grub, vell], by=alice)
    _next(fight, alice)
    return fight


def test_a_hidden_npc_is_in_no_page_or_fragment_a_player_gets(crowd, client_for, bob, rook,
                                                               alice):
    client = client_for(bob)
    secret_code = str(crowd.combatants.get(name=SECRET).code)

    for _ in range(4):  # Rook, Wren, Grub, Vell: every turn of the round
        for page in players_pages(client, crowd.campaign, rook):
            assert SECRET not in page
            assert secret_code not in page
        _next(crowd, alice)


def test_the_players_read_the_gms_turn_while_the_hidden_npc_acts(crowd, client_for, alice,
                                                                 bob, rook):
    _next(crowd, alice)
    _next(crowd, alice)  # Grub's turn

    page = client_for(bob).get(crowd.campaign.get_absolute_url())
    player = text_of(page)
    sheet = text_of(client_for(bob).get(rook.get_absolute_url()))
    gm = text_of(client_for(alice).get(crowd.campaign.get_absolute_url()))

    assert "The GM's turn" in player and "The GM's turn" in sheet
    assert names_in_order(page) == ["Rook", "Wren", "Captain Vell"]  # no Grub, no gap
    assert f"{SECRET}'s turn" in gm and "NPC · hidden" in gm


def test_an_npc_shown_by_name_is_named_to_the_players(crowd, client_for, alice, bob):
    for _ in range(3):
        _next(crowd, alice)  # Captain Vell's turn

    assert "Captain Vell's turn" in text_of(client_for(bob).get(crowd.campaign.get_absolute_url()))


def test_the_record_shows_the_players_only_who_they_may_see(crowd, client_for, alice, bob):
    services.encounter_end(encounter=crowd, by=alice)

    player = text_of(client_for(bob).get(crowd.get_absolute_url()))
    gm = text_of(client_for(alice).get(crowd.get_absolute_url()))

    assert "Rook" in player and "Captain Vell" in player and SECRET not in player
    assert f"{SECRET} NPC · hidden from the players" in gm


def test_a_change_the_players_cannot_see_is_announced_to_the_gm_alone(
        fight, alice, grub, layer, django_capture_on_commit_callbacks):  # noqa: F811 (fixture)
    campaign = fight.campaign
    other = npc(campaign, alice, "Grub's twin", sheet=grub.sheet)
    with django_capture_on_commit_callbacks(execute=True):
        services.combatants_add(encounter=fight, characters=[grub, other], by=alice)
    versions = Campaign.objects.values_list("live_version", "hidden_version").get(pk=campaign.pk)
    assert sent_to(layer, campaign, gm=False) == []
    assert [m["names"] for m in sent_to(layer, campaign, gm=True)] == [["encounterChanged"]]
    assert versions == (0, 1)

    with django_capture_on_commit_callbacks(execute=True):
        _next(fight, alice)  # Rook: the players see it
        _next(fight, alice)  # Wren
        _next(fight, alice)  # Grub: "The GM's turn", which the players see
        _next(fight, alice)  # the twin: still "The GM's turn", the GM's alone
    heard = [m["names"] for m in sent_to(layer, campaign, gm=False)]
    assert heard == [["encounterChanged"]] * 3
    assert Campaign.objects.values_list("live_version", "hidden_version").get(
        pk=campaign.pk) == (3, 2)
    players = json.dumps(sent_to(layer, campaign, gm=False))
    assert SECRET not in players and "twin" not in players


def test_a_player_may_not_post_the_hidden_npcs_turn_as_done(crowd, client_for, alice, bob):
    _next(crowd, alice)
    _next(crowd, alice)  # Grub's turn: the players' pages hold no turn to post

    client_for(bob).post(url("turn-next", crowd), turn(crowd))

    crowd.refresh_from_db()
    assert crowd.current.name == SECRET


def test_the_sheet_says_your_turn_and_offers_done_to_its_player(crowd, client_for, bob, rook,
                                                                 dave, wren):
    mine = client_for(bob).get(rook.get_absolute_url())
    theirs = client_for(dave).get(wren.get_absolute_url())

    assert "Your turn" in text_of(mine) and 'id="turn-done"' in mine.content.decode()
    assert "Rook's turn" in text_of(theirs) and 'id="turn-done"' not in theirs.content.decode()


def test_done_on_the_sheet_answers_with_the_sheets_order(crowd, client_for, bob, rook):
    answer = client_for(bob).post(url("turn-next", crowd),
                                  {**turn(crowd), "sheet": str(rook.pk)}, headers=HTMX)

    assert answer.status_code == 200
    assert "Wren's turn" in text_of(answer) and 'id="turn-done"' not in answer.content.decode()
    assert 'id="turn-order"' in answer.content.decode()
