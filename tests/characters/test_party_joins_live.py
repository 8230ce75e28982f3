"""A character made during play joins the GM's open dashboard without a reload (issue 17,
item 14): creating one announces ``partyChanged``, which the dashboard's party and character
list listen for; so does importing one."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from characters import services
from characters.models import Character
from tests.factories import CharacterFactory
from tests.helpers import redrawn_by

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard_too(heard: list[Any], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """``heard`` (tests/characters/conftest.py), the imports' announcements included."""
    monkeypatch.setattr("transfer.imports.announce", services.announce)
    return heard


def test_creating_a_character_tells_the_dashboard(campaign: Campaign, bob: Any,
                                                  heard: list[Any]) -> None:
    sheet = CharacterFactory.build(campaign=campaign).sheet
    newt = services.character_create(campaign=campaign, owner=bob, name="Newt", concept="",
                                     sheet=sheet)
    assert heard == [(campaign.pk, "partyChanged", newt.pk)]


def test_importing_a_character_tells_the_dashboard(
        campaign: Campaign, bob: Any, bobs_character: Character, heard_too: list[Any],
        client_for: Callable[..., Client]) -> None:
    client = client_for(bob)
    exported = client.get(reverse("transfer:character-export", args=[bobs_character.pk]))
    document = json.loads(b"".join(exported.streaming_content) if exported.streaming
                          else exported.content)
    heard_too.clear()
    from transfer.imports import import_character

    copy = import_character(document, campaign, bob)
    assert heard_too == [(campaign.pk, "partyChanged", copy.pk)]


def test_the_dashboard_redraws_its_party_and_list_on_party_changed(
        campaign: Campaign, alice: Any, client_for: Callable[..., Client]) -> None:
    page = client_for(alice).get(campaign.get_absolute_url())
    html = page.content.decode()
    # The "Ask for a roll" form too: a character made during play can be asked at once; and
    # the page's live elements, so that the new character's card is live too.
    assert {"party", "ask-for-roll", "campaign-characters", "live-regions"} <= redrawn_by(
        page.context["live"], "partyChanged")
    assert 'hx-trigger="sse:partyChanged"' in html
    assert 'id="ask-for-roll"' in html
