"""One roll dialog for every system (issue 32): each sheet draws the shared
rolls/_roll_dialog.html with its system's fields, so every sheet has the same form, asks for
its odds on the same events and has the phone's roll bar; the bar's line comes from the
server, with the odds' answer and with a roll's, in the system's words while there are no
odds (no script copies anything into it)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from core import submissions
from tests.system_fixtures import demo_character, fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()

ODDS_EVENTS = {"load", "change from:#roll-form", "change from:[form='roll-form']",
               "input changed delay:400ms from:#roll-form", "trackChanged from:body",
               "sse:trackChanged-{pk}", "sse:xpChanged-{pk}", "sse:campaignChanged",
               "liveSync from:body"}
"""When a sheet asks for the odds again: whatever may change the pool (the dialog's comment
says why each)."""

BAR_LINE = re.compile(r'<span[^>]*id="roll-bar-odds"[^>]*>(.*?)</span>', re.S)


def bar_line(html: str) -> str:
    """What the roll bar's line (``#roll-bar-odds``) says in ``html``."""
    found = BAR_LINE.search(html)
    assert found is not None, "no roll bar line"
    return unescape(found[1]).strip()


def odds_events(html: str, odds_url: str) -> set[str]:
    """The events on which the element asking for ``odds_url`` asks."""
    box = re.search(rf'<div hx-get="{re.escape(odds_url)}"[^>]*hx-trigger="([^"]*)"', html)
    assert box is not None, "no odds box"
    return {event.strip() for event in box[1].split(",")}


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_sheet_has_one_roll_dialog_and_the_phones_roll_bar_saying_what_to_pick(
        client_for, alice, bob, slug) -> None:  # type: ignore[no-untyped-def]
    character = demo_character(slug, gm=alice, player=bob)
    page = client_for(bob).get(character.get_absolute_url()).content.decode()

    assert len(re.findall(r'<form [^>]*id="roll-form"', page)) == 1
    assert page.count('class="roll-bar"') == 1
    assert re.search(r'<div class="roll-bar">.*<button type="submit" form="roll-form">', page,
                     re.S)
    assert bar_line(page)  # the system's prompt until the odds come


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_sheet_asks_for_its_odds_on_the_same_events(client_for, alice, bob, slug
                                                         ) -> None:  # type: ignore[no-untyped-def]
    character = demo_character(slug, gm=alice, player=bob)
    page = client_for(bob).get(character.get_absolute_url()).content.decode()
    odds_url = reverse("rolls:roll-odds", args=[character.pk])

    expected = {event.format(pk=character.pk) for event in ODDS_EVENTS}
    assert odds_events(page, odds_url) == expected


@pytest.mark.parametrize("slug", SYSTEMS)
def test_odds_asked_from_a_sheet_with_nothing_picked_give_the_bar_its_prompt_again(
        client_for, alice, bob, slug) -> None:  # type: ignore[no-untyped-def]
    character = demo_character(slug, gm=alice, player=bob)
    sheet = client_for(bob).get(character.get_absolute_url()).content.decode()
    prompt = bar_line(sheet)

    # Nothing picked (an empty form): no odds, so no headline; a system whose empty form is
    # a pool (the test system's one die) has its headline.
    answer = client_for(bob, htmx=True).get(reverse("rolls:roll-odds", args=[character.pk]),
                                            {"roll_bar": "1"}).content.decode()

    if 'class="odds-bars"' in answer:
        assert bar_line(answer) not in ("", prompt)
    else:
        assert bar_line(answer) == prompt


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_roll_from_the_sheet_brings_the_bars_headline_with_the_odds_in_one_answer(
        client_for, alice, bob, slug) -> None:  # type: ignore[no-untyped-def]
    character = demo_character(slug, gm=alice, player=bob)
    data = {**fixtures_for(slug).roll_pool, submissions.FIELD: submissions.new_token(),
            "roll_bar": "1"}

    answer = client_for(bob).post(
        reverse("rolls:roll-create", args=[character.pk]), data,
        headers={"HX-Request": "true", "HX-Trigger": "roll-form", "HX-Target": "roll-result"})

    html = answer.content.decode()
    assert answer.status_code == 200 and "rollMade" in answer["HX-Trigger"]
    headline = re.search(r'id="roll-odds"[^>]*data-headline="([^"]*)"', html)
    assert headline is not None and headline[1]
    assert bar_line(html) == unescape(headline[1])
    assert html.count('class="roll-result') == 1


def test_a_roll_from_the_roll_page_brings_no_line_for_a_bar_it_has_not(
        client_for, bob, bobs_character, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    data = {**fixtures_for("maelstrom").roll_pool, submissions.FIELD: submissions.new_token()}

    answer = client_for(bob).post(
        reverse("rolls:roll-create", args=[bobs_character.pk]), data,
        headers={"HX-Request": "true", "HX-Trigger": "roll-form", "HX-Target": "roll-result"})

    html = answer.content.decode()
    assert 'id="roll-odds"' in html  # the dialog's odds, for the same choices
    assert 'id="roll-bar-odds"' not in html  # it would land in the result
