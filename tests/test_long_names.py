"""Over-long names are refused with the limit stated, never cut short (issue 17, item 1).

Every selectable system's creation form (its first step, for a system with creation pages of
its own) and the campaign's forms: a name longer than its column is refused with a message
naming the limit and the name's length, the typed name is kept in the form, nothing is
saved, and the field carries no ``maxlength`` attribute (with one, the browser cuts a pasted
name short without a word). The longest allowed name is accepted.
"""

from __future__ import annotations

import html
import re
from typing import Any, cast

import pytest
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters.models import Character
from tests.system_fixtures import fixtures_for, selectable_systems

CHARACTER_LIMIT = cast("int", Character._meta.get_field("name").max_length)
CAMPAIGN_LIMIT = cast("int", Campaign._meta.get_field("name").max_length)

pytestmark = pytest.mark.django_db


def creation_page(campaign: Campaign) -> str:
    """Where the campaign's characters are made: the system's own first step, or the
    one-page form."""
    own_pages = systems.for_campaign(campaign).creation_url(campaign)
    return own_pages or reverse("characters:character-create", args=[campaign.pk])


def name_input(page: str) -> str:
    """The ``<input>`` tag of the form's ``name`` field."""
    found = re.search(r'<input[^>]*name="name"[^>]*>', page)
    assert found, "no name field on the page"
    return found.group(0)


@pytest.fixture(params=selectable_systems())
def table(request: pytest.FixtureRequest, alice: Any, bob: Any) -> Campaign:
    """A campaign of each selectable system, Alice its GM, Bob a player."""
    campaign = campaign_create(name="Long Names", ruleset=request.param, starting_xp=30,
                               gm=alice)
    Membership.objects.create(campaign=campaign, user=bob)
    return campaign


@pytest.mark.parametrize("length", [CHARACTER_LIMIT + 1, 5000])
def test_an_over_long_character_name_is_refused_with_the_limit_and_kept(
        table: Campaign, bob: Any, client_for: Any, length: int) -> None:
    name = "N" * length
    data = {**fixtures_for(table.ruleset).new_character, "name": name}
    response = client_for(bob).post(creation_page(table), data)

    assert response.status_code in (200, 400)
    page = html.unescape(response.content.decode())
    assert (f"Keep the name to {CHARACTER_LIMIT} characters (it has {length})."
            in page)
    assert f'value="{name}"' in name_input(page)
    assert not Character.objects.filter(campaign=table).exists()


def test_a_character_name_of_the_longest_length_is_accepted(
        table: Campaign, bob: Any, client_for: Any) -> None:
    name = "N" * CHARACTER_LIMIT
    data = {**fixtures_for(table.ruleset).new_character, "name": name}
    response = client_for(bob).post(creation_page(table), data)

    # Saved (one-page creation) or on to the next step (creation pages of its own).
    assert response.status_code == 302, response.content.decode()[:2000]


def test_the_creation_form_lets_the_browser_keep_a_long_name(
        table: Campaign, bob: Any, client_for: Any) -> None:
    page = client_for(bob).get(creation_page(table)).content.decode()

    assert "maxlength" not in name_input(page)


@pytest.mark.parametrize("htmx", [False, True])
def test_an_over_long_campaign_name_is_refused_on_creation_and_kept(
        alice: Any, client_for: Any, htmx: bool) -> None:
    name = "C" * 5000
    response = client_for(alice, htmx=htmx).post(
        reverse("campaigns:campaign-create"),
        {"name": name, "ruleset": selectable_systems()[0], "starting_xp": "30"})

    page = html.unescape(response.content.decode())
    assert f"Keep the name to {CAMPAIGN_LIMIT} characters (it has 5000)." in page
    assert f'value="{name}"' in name_input(page)
    assert "maxlength" not in name_input(page)
    assert not Campaign.objects.exists()


def test_a_campaign_name_of_the_longest_length_is_accepted(alice: Any,
                                                           client_for: Any) -> None:
    name = "C" * CAMPAIGN_LIMIT
    response = client_for(alice).post(
        reverse("campaigns:campaign-create"),
        {"name": name, "ruleset": selectable_systems()[0], "starting_xp": "30"})

    assert response.status_code == 302
    assert Campaign.objects.get().name == name


def test_an_over_long_campaign_name_is_refused_in_the_settings_and_nothing_renamed(
        campaign: Campaign, client_for: Any, alice: Any) -> None:
    name = "C" * (CAMPAIGN_LIMIT + 1)
    client: Client = client_for(alice)
    response = client.post(reverse("campaigns:campaign-settings", args=[campaign.pk]),
                           {"name": name, "description": "", "starting_xp": "30"})

    page = html.unescape(response.content.decode())
    assert (f"Keep the name to {CAMPAIGN_LIMIT} characters (it has {CAMPAIGN_LIMIT + 1})."
            in page)
    assert f'value="{name}"' in name_input(page)
    campaign.refresh_from_db()
    assert campaign.name == "The Drift"


def test_an_over_long_name_is_refused_when_a_character_is_edited_and_kept(
        bobs_character: Character, client_for: Any, bob: Any) -> None:
    url = reverse("characters:character-edit", args=[bobs_character.pk])
    client: Client = client_for(bob)
    assert "maxlength" not in name_input(client.get(url).content.decode())
    name = "R" * 5000
    response = client.post(url, {"name": name, "concept": "", "backstory": "", "notes": ""})

    page = html.unescape(response.content.decode())
    assert f"Keep the name to {CHARACTER_LIMIT} characters (it has 5000)." in page
    assert f'value="{name}"' in name_input(page)
    bobs_character.refresh_from_db()
    assert bobs_character.name == "Rook"


def test_the_display_name_lets_the_browser_keep_a_long_name(client_for: Any, bob: Any) -> None:
    page = client_for(bob).get(reverse("account")).content.decode()
    field = re.search(r'<input[^>]*name="first_name"[^>]*>', page)
    assert field and "maxlength" not in field.group(0)
