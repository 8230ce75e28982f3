"""Who is in the party on the campaign's page: a character dead by its system's rules (a
Maelstrom character whose health chart says dead) leaves the party cards and the roll
requests like one the GM marked dead, and is listed "Out of the party"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from campaigns.models import Campaign
from characters.models import Character
from tests.factories import CharacterFactory
from tests.helpers import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def vex(campaign: Campaign, bob: Any) -> Character:
    """Bob's second character, dead by the rules: its health chart says so, its status
    does not (nobody marked it)."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Vex", dead=True)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_character_dead_by_the_rules_has_no_party_card(
        campaign: Campaign, bobs_character: Character, vex: Character, alice: Any,
        client_for: Callable[..., Client], htmx: bool) -> None:
    assert vex.status == Character.Status.ACTIVE
    page = client_for(alice, htmx=htmx).get(campaign.get_absolute_url())
    html = page.content.decode()
    assert [card["character"].pk for card in page.context["party"]] == [bobs_character.pk]
    assert f'id="card-{bobs_character.pk}"' in html
    assert f'id="card-{vex.pk}"' not in html


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_character_dead_by_the_rules_is_listed_out_of_the_party(
        campaign: Campaign, bobs_character: Character, vex: Character, alice: Any,
        client_for: Callable[..., Client], htmx: bool) -> None:
    page = client_for(alice, htmx=htmx).get(campaign.get_absolute_url())
    assert [c.pk for c in page.context["own_retired"]] == [vex.pk]
    assert [c.pk for c in page.context["sheets"]] == [bobs_character.pk]
    assert "Out of the party Vex Out of the story" in text_of(page)


def test_its_player_finds_it_out_of_the_party_with_its_sheet_linked(
        campaign: Campaign, bobs_character: Character, vex: Character, bob: Any,
        client_for: Callable[..., Client]) -> None:
    page = client_for(bob).get(campaign.get_absolute_url())
    assert [c.pk for c in page.context["own_retired"]] == [vex.pk]
    assert f'href="{vex.get_absolute_url()}"' in page.content.decode()


def test_a_fellow_player_sees_it_out_of_the_party_without_a_link(
        campaign: Campaign, vex: Character, dave: Any,
        client_for: Callable[..., Client]) -> None:
    # The GM keeps the party's sheets to their players (shown by default:
    # tests/campaigns/test_party_sheets.py).
    Campaign.objects.filter(pk=campaign.pk).update(party_sheets=False)
    page = client_for(dave).get(campaign.get_absolute_url())
    assert [c.pk for c in page.context["fellows_retired"]] == [vex.pk]
    assert vex.pk not in [c.pk for c in page.context["fellow_characters"]]
    assert f'href="{vex.get_absolute_url()}"' not in page.content.decode()


def test_the_gm_cannot_ask_it_for_a_roll(
        campaign: Campaign, bobs_character: Character, vex: Character, alice: Any,
        client_for: Callable[..., Client]) -> None:
    page = client_for(alice).get(campaign.get_absolute_url())
    asked = [value for value, _ in page.context["request_form"].fields["character"].choices]
    assert asked == ["all", str(bobs_character.pk)]


def test_a_character_the_gm_marked_dead_keeps_its_status_as_its_tag(
        campaign: Campaign, bobs_character: Character, alice: Any,
        client_for: Callable[..., Client]) -> None:
    Character.objects.filter(pk=bobs_character.pk).update(status=Character.Status.DEAD)
    page = client_for(alice).get(campaign.get_absolute_url())
    assert page.context["party"] == []
    assert "Out of the party Rook Dead" in text_of(page)
