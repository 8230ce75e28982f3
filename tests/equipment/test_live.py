"""The Equipment card is live (docs/equipment.md, "Live"): a change of the inventory, made on
one page, redraws the card on every open page of the sheet (the owner's, the GM's), bumps the
campaign's live version, and leaves no other region stale; the page that made it is answered
with the card, labelled with the version it brought, so that it does not ask again.

The pages and the judgement are those of tests/core/test_no_stale_page.py, for every system.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from core.regions import DRAWN_HEADER
from equipment.inventory import INVENTORY_REGION
from equipment.models import Item
from equipment.services import item_add
from tests.core.test_no_stale_page import (
    HTMX,
    PAGES,
    SYSTEMS,
    RecordingLayer,
    World,
    judge,
    look,
    look_again,
)
from tests.system_fixtures import demo_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> RecordingLayer:
    """What ``core.live`` sends once a transaction commits, recorded instead of sent."""
    recording = RecordingLayer()
    monkeypatch.setattr("core.live.get_channel_layer", lambda: recording)
    return recording


@pytest.fixture
def world(request: pytest.FixtureRequest, alice: Any, bob: Any) -> World:
    """A demo campaign of the system ``request.param``: alice GMs it, bob plays in it and
    dave too (tests/core/test_no_stale_page.py's world)."""
    dave = get_user_model().objects.create_user(username="dave")
    campaign = demo_campaign(request.param, name="Live kit", gm=alice, players=[bob, dave],
                             rng=random.Random(33))
    users = {"gm": alice, "player": bob, "other": dave}
    clients = {}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    return World(campaign, campaign.characters.get(owner=bob), users, clients)

OWN_SHEET, GM_SHEET = "bob's own sheet", "the GM's view of bob's sheet"


def _change(world: World, layer: RecordingLayer, act: Any, capture: Any) -> Any:
    seen = [look(world, page) for page in PAGES]
    before = Campaign.objects.get(pk=world.campaign.pk)
    layer.sent.clear()
    with capture(execute=True):
        answer = act()
    world.reread()
    after = {page.page.name: look_again(world, page) for page in seen}
    verdict = judge(world, seen, after, layer)
    now = Campaign.objects.get(pk=world.campaign.pk)
    return answer, verdict, before, now


@pytest.mark.parametrize("world", SYSTEMS, indirect=True)
def test_an_item_added_on_the_sheet_redraws_the_card_on_every_open_sheet(
        world: World, layer: RecordingLayer, seeded_rng: random.Random,
        django_capture_on_commit_callbacks: Any) -> None:
    url = reverse("equipment:item-add", args=[world.character.pk])

    answer, verdict, before, now = _change(
        world, layer, lambda: world.clients["player"].post(
            url, {"name": "Grappling hook", "quantity": "1", "note": "knotted rope"},
            headers=HTMX),
        django_capture_on_commit_callbacks)

    assert answer.status_code == 200
    assert {(OWN_SHEET, INVENTORY_REGION), (GM_SHEET, INVENTORY_REGION)} <= set(verdict.changed)
    assert not verdict.stale, verdict.stale
    assert now.page_version(is_gm=False) == before.page_version(is_gm=False) + 1


@pytest.mark.parametrize("world", ["maelstrom"], indirect=True)
def test_a_shot_fired_by_the_gm_shows_on_the_players_open_sheet(
        world: World, layer: RecordingLayer, seeded_rng: random.Random,
        django_capture_on_commit_callbacks: Any) -> None:
    pistol = item_add(character=world.character, name="Pistol, Heavy", quantity=1, note="",
                      details={"weapon": "pistol-heavy", "loaded": 8}, by=world.users["player"])
    url = reverse("equipment:item-act", args=[world.character.pk, pistol.pk, "fire"])

    _, verdict, _, _ = _change(world, layer,
                               lambda: world.clients["gm"].post(url, headers=HTMX),
                               django_capture_on_commit_callbacks)

    assert (OWN_SHEET, INVENTORY_REGION) in verdict.changed
    assert not verdict.stale, verdict.stale
    assert Item.objects.get(pk=pistol.pk).details["loaded"] == 7


@pytest.mark.django_db(transaction=True)
def test_the_change_answers_with_the_card_at_the_version_it_brought(client_for, bob,  # type: ignore[no-untyped-def]
                                                                   bobs_character):
    """Transactional: the version is bumped when the change really commits, inside the
    request, as in production (tests/core/test_live_drawn.py)."""
    before = Campaign.objects.get(pk=bobs_character.campaign_id).live_version
    client = client_for(bob, htmx=True)

    answer = client.post(reverse("equipment:item-add", args=[bobs_character.pk]),
                         {"name": "Rope", "quantity": "1"})
    refused = client.post(reverse("equipment:item-add", args=[bobs_character.pk]),
                          {"name": "", "quantity": "1"})

    now = Campaign.objects.get(pk=bobs_character.campaign_id).live_version
    assert now == before + 1
    assert answer[DRAWN_HEADER] == f"{now} {INVENTORY_REGION}"
    assert DRAWN_HEADER not in refused
    region = client.get(f"{bobs_character.get_absolute_url()}?live={INVENTORY_REGION}")
    assert "Rope" in region.content.decode() and region["ETag"] == f'"v{now}"'
