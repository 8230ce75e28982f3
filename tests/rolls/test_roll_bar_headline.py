"""The phone's roll bar and the odds box (issue 17, items 2 and 15): the odds' own answer
carries the headline for the bar, for the sheet to pick out; a whole sheet that a live
refresh reads carries nothing that would land in the bar out of band (it reset the bar to
"Tick traits, then" after every roll, and was an error on a sheet without a bar); a page
asks for the headline only where it has a place for it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import CharacterFactory
from tests.system_fixtures import demo_character, selectable_systems

SYSTEMS = selectable_systems()

OUT_OF_BAND_HEADLINE = re.compile(r'<[^>]*id="roll-bar-odds"[^>]*hx-swap-oob')
ASKS_FOR_HEADLINE = 'hx-select-oob="#roll-bar-odds'


def test_the_odds_answer_carries_the_headline_in_band(client_for, campaign, bob) -> None:  # type: ignore[no-untyped-def]
    rider = CharacterFactory(campaign=campaign, owner=bob, name="Rider",
                             attributes={"Precision": 3}, abilities={"Driving": 2})
    url = reverse("rolls:roll-odds", args=[rider.pk])
    page = client_for(bob, htmx=True).get(url, {
        "kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
        "threshold": "0"}).content.decode()

    # RULES.md's worked numbers for 5 dice at difficulty 6: 84.4 % success, 5.2 % botch.
    assert '<span id="roll-bar-odds">Success 84.4 %, botch 5.2 %</span>' in page
    assert not OUT_OF_BAND_HEADLINE.search(page)


def test_odds_without_a_pool_leave_the_headline_empty(client_for, campaign, bob) -> None:  # type: ignore[no-untyped-def]
    rider = CharacterFactory(campaign=campaign, owner=bob, name="Rider")
    url = reverse("rolls:roll-odds", args=[rider.pk])
    page = client_for(bob, htmx=True).get(url, {"kind": "action"}).content.decode()

    # A page with a bar says so, and gets the system's prompt instead (rolls.views).
    assert '<span id="roll-bar-odds"></span>' in page
    assert "Tick traits, then" not in page


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_live_refresh_of_the_sheet_sends_nothing_for_the_roll_bar(  # type: ignore[no-untyped-def]
        client_for, alice, bob, slug) -> None:
    character = demo_character(slug, gm=alice, player=bob)
    page = client_for(bob, htmx=True).get(character.get_absolute_url()).content.decode()

    assert not OUT_OF_BAND_HEADLINE.search(page)
    assert page.count('id="roll-bar-odds"') <= 1  # the bar's own place, if the sheet has one


@pytest.mark.parametrize("slug", SYSTEMS)
@pytest.mark.parametrize("where", ["sheet", "roll page"])
def test_a_page_asks_for_the_headline_only_where_it_has_a_place_for_it(  # type: ignore[no-untyped-def]
        client_for, alice, bob, slug, where) -> None:
    character = demo_character(slug, gm=alice, player=bob)
    url = (character.get_absolute_url() if where == "sheet"
           else reverse("rolls:roll-create", args=[character.pk]))
    page = client_for(bob).get(url).content.decode()

    if ASKS_FOR_HEADLINE in page:
        assert 'id="roll-bar-odds"' in page
    if where == "sheet" and 'class="roll-bar"' in page:
        assert ASKS_FOR_HEADLINE in page
