"""A live region asks for itself alone (issue 18, core/regions.py), and gets exactly what the
whole page shows there: for every system's sheet and the campaign's pages, as the GM and as a
player, each region rendered alone equals the same element of the page drawn in full, and the
page's one request after a reconnection holds every region once."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.test.html import Element, parse_html
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from core.regions import LIVE_PARAMETER, LivePage
from core.submissions import FIELD as SUBMISSION_FIELD
from tests.system_fixtures import demo_campaign, selectable_systems

SYSTEMS = selectable_systems()
FRESH_EACH_TIME = {"csrfmiddlewaretoken", SUBMISSION_FIELD}
"""Hidden inputs whose value is new at every rendering: blanked before comparing."""
BOOKKEEPING = "data-live-version"
"""The campaign version a live element was drawn at (core/regions.py): the page's own
bookkeeping, not what it shows; blanked before comparing (tests/core/test_no_stale_page.py
compares regions across versions)."""


def blank_tokens(node: Element | str) -> None:
    """Blank, in place, what is new at every rendering of ``node`` and its children (the
    :data:`FRESH_EACH_TIME` inputs' values, the :data:`BOOKKEEPING` attribute)."""
    if isinstance(node, str):
        return
    names = dict(node.attributes)
    if node.name == "input" and names.get("name") in FRESH_EACH_TIME:
        node.attributes = [(k, "" if k == "value" else v) for k, v in node.attributes]
    node.attributes = [(k, "" if k == BOOKKEEPING else v) for k, v in node.attributes]
    for child in node.children:
        blank_tokens(child)


def find(node: Element | str, element_id: str) -> list[Element]:
    """Every element of ``node`` whose id is ``element_id``."""
    if isinstance(node, str):
        return []
    found = [node] if dict(node.attributes).get("id") == element_id else []
    for child in node.children:
        found += find(child, element_id)
    return found


def element(html: str, element_id: str) -> Element:
    """The one element with ``element_id`` in ``html``, its fresh tokens blanked."""
    tree = parse_html(html)
    found = find(tree, element_id)
    assert len(found) == 1, f"{len(found)} elements #{element_id}"
    blank_tokens(found[0])
    return found[0]


def assert_regions_alone(client: Client, page_url: str) -> LivePage:
    """Each live region of the page at ``page_url``, asked for alone, is the page's own;
    the reconnection's request holds all it names once each. Returns the page's
    declaration."""
    page = client.get(page_url)
    assert page.status_code == 200
    live: LivePage = page.context["live"]
    whole = page.content.decode()
    assert live.ids, "a live page declares its regions"
    tree = parse_html(whole)  # once: parsing the page is most of these tests' time

    def in_whole(region: str) -> Element | None:
        found = find(tree, region)
        assert len(found) <= 1, f"{len(found)} elements #{region}"
        if found:
            blank_tokens(found[0])
        return found[0] if found else None

    for region in live.ids:
        alone = client.get(live.url_for([region]), headers={"HX-Request": "true"})
        assert alone.status_code == 200, region
        html = alone.content.decode()
        assert "<html" not in html and 'id="character-writing"' not in html, region
        drawn = in_whole(region)
        if drawn is None:  # a system without that part (no panel)
            assert not find(parse_html(html), region), region
            continue
        assert element(html, region) == drawn, region
    synced = parse_html(client.get(live.url_for(live.sync_ids),
                                   headers={"HX-Request": "true"}).content.decode())
    for region in live.sync_ids:
        drawn = in_whole(region)
        if drawn is None:
            continue
        [again] = find(synced, region)
        blank_tokens(again)
        assert again == drawn, region
    # The page draws one hidden element per region and one for the reconnection, each
    # asking the page's own URL for exactly its ids.
    for drawn in live.elements():
        assert f'hx-get="{drawn["url"].replace("&", "&amp;")}"' in whole
    return live


@pytest.fixture
def table(request: pytest.FixtureRequest, alice: Any, bob: Any) -> tuple[Campaign, Character]:
    campaign = demo_campaign(request.param, name="Live", gm=alice, players=[bob],
                             rng=random.Random(18))
    return campaign, campaign.characters.get(owner=bob)


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_every_sheet_region_alone_is_the_sheet_s_own(
        table: tuple[Campaign, Character], viewer: str, alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    _, character = table
    live = assert_regions_alone(client_for(alice if viewer == "gm" else bob),
                                character.get_absolute_url())
    assert {"recent-rolls", "roll-requests", "character-status", "sheet-xp"} <= set(live.ids)


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_every_campaign_region_alone_is_the_page_s_own(
        table: tuple[Campaign, Character], viewer: str, alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    campaign, character = table
    live = assert_regions_alone(client_for(alice if viewer == "gm" else bob),
                                campaign.get_absolute_url())
    assert "campaign-rolls" in live.ids
    assert (f"card-{character.pk}" in live.ids) == (viewer == "gm")


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
def test_the_settings_panel_alone_is_the_page_s_own(
        table: tuple[Campaign, Character], alice: Any,
        client_for: Callable[..., Client]) -> None:
    campaign, _ = table
    assert_regions_alone(client_for(alice),
                         reverse("campaigns:campaign-settings", args=[campaign.pk]))


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_a_region_the_page_does_not_have_is_not_found(
        table: tuple[Campaign, Character], alice: Any, bob: Any, carol: Any,
        client_for: Callable[..., Client]) -> None:
    """Only the page's declared regions may be asked for: not another partial of its
    template, and not a region of the GM's dashboard by a player; a stranger gets nothing
    of a page they cannot open, as for the page itself."""
    campaign, character = table
    stranger = client_for(carol)
    for url in (character.get_absolute_url(), campaign.get_absolute_url(),
                reverse("campaigns:campaign-settings", args=[campaign.pk])):
        assert stranger.get(f"{url}?{LIVE_PARAMETER}=sheet-xp").status_code == 404
    assert client_for(bob).get(reverse("campaigns:campaign-settings", args=[campaign.pk])
                               + f"?{LIVE_PARAMETER}=system-panel").status_code == 404
    player = client_for(bob)
    sheet = character.get_absolute_url()
    assert player.get(f"{sheet}?{LIVE_PARAMETER}=roll-dialog").status_code == 404
    assert player.get(f"{sheet}?{LIVE_PARAMETER}=gm-notes").status_code == 404
    board = campaign.get_absolute_url()
    assert player.get(f"{board}?{LIVE_PARAMETER}=card-{character.pk}").status_code == 404
    assert player.get(f"{board}?{LIVE_PARAMETER}=party").status_code == 404
    assert client_for(alice).get(f"{board}?{LIVE_PARAMETER}=party").status_code == 200


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_the_gm_s_notes_never_reach_a_player_s_region(
        table: tuple[Campaign, Character], alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    _, character = table
    Character.objects.filter(pk=character.pk).update(gm_notes="The GM's secret plan")
    gm = client_for(alice)
    live: LivePage = gm.get(character.get_absolute_url()).context["live"]
    everything = live.url_for(live.ids)
    assert client_for(bob).get(everything).status_code == 200
    assert "secret plan" not in client_for(bob).get(everything).content.decode()


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_an_archived_campaign_s_pages_ask_for_nothing(
        table: tuple[Campaign, Character], alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    """Nothing on an archived campaign's pages changes, and a region drawn alone would keep
    the controls the page's read-only filter drops: they declare no region."""
    campaign, character = table
    Campaign.objects.filter(pk=campaign.pk).update(archived_at="2026-01-01T00:00Z")
    gm = client_for(alice)
    for url in (character.get_absolute_url(), campaign.get_absolute_url()):
        page = gm.get(url)
        assert page.context["live"].elements() == []
        assert "liveSync" not in page.content.decode()
        assert gm.get(f"{url}?{LIVE_PARAMETER}=sheet-xp").status_code == 404
