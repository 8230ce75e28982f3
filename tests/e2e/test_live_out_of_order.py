"""Answers of overlapping live regions that arrive out of order never draw an older state over
a newer one (issue 36, static/js/live.js). Each region answer, and each set of regions the
stream brings (``liveRegions``), says the version it was drawn at (``ETag: "v<n>"``); the
catching-up request ("liveSync") redraws every region of the page, so it overlaps each
region's own. Here one answer is held back at the network, already drawn, until a newer
answer for the same region has been drawn, and then let go: the page must still show the
newer state.

The player's sheet follows the GM's damage marks on the dashboard (``trackChanged-<id>``
redraws the tracks and the wound note)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import F
from playwright.sync_api import Page, expect

from campaigns.models import Campaign
from characters.models import Character
from tests.e2e.conftest import without_pushes
from tests.e2e.test_live_own_changes import HEARD, asks, drawn_now, heard
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)
from tests.e2e.test_shahquest_live_table import SSE_OPEN, wait_until_live

pytestmark = [pytest.mark.django_db(transaction=True)]

ANSWERED = """
window.answered = [];
document.addEventListener("htmx:afterRequest", (event) => {
  window.answered.push(event.detail.pathInfo.requestPath);
}, true);
"""
"""An init script: the path (with its query) of every request htmx has finished with, its
answer swapped or dropped."""

WOUND_NOTE = "#wound-penalty-note"

NOTE_NOW = drawn_now("wound-penalty-note", "region.textContent")
"""A script giving the wound note the server draws now for the page (asked by hand)."""


WATCH = """() => {
  window.notes = [];
  new MutationObserver(() => {
    const note = document.getElementById("wound-penalty-note");
    const text = note ? note.textContent.trim() : "";
    if (window.notes[window.notes.length - 1] !== text) { window.notes.push(text); }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""
"""A script: from now on, every wound note the page shows, in turn (``window.notes``)."""


def open_live(page: Page, username: str, url: str, *, pushes: bool = True) -> None:
    """Log ``page`` in as ``username`` and open ``url``, its stream open; with ``pushes``
    False, a stream that brings no region (every region asks for itself)."""
    for script in (SSE_OPEN, HEARD, ANSWERED):
        page.context.add_init_script(script)
    if not pushes:
        without_pushes(page)
    log_in(page, username)
    page.goto(url)
    wait_until_live(page)


def damage(gm: Page, character: Character, levels: int) -> None:
    """The GM marks ``levels`` lethal on the character's card, and sees it marked."""
    gm.select_option(f"#card-{character.pk}-kind", "lethal")
    gm.fill(f"#card-{character.pk}-levels", str(levels))
    gm.click(f"#card-{character.pk}-damage")
    expect(gm.locator(f"#card-{character.pk} [role=status]")).to_contain_text(
        f"Marked {levels} lethal")


def answered(page: Page, path: str, times: int = 1, within: float = 10) -> None:
    """Wait until htmx has finished with ``times`` answers to ``path``, then a moment more
    (in which a request it set off would be sent and answered)."""
    deadline = time.monotonic() + within
    while page.evaluate("window.answered").count(path) < times:
        assert time.monotonic() < deadline, f"{path} was never answered"
        time.sleep(0.02)
    page.wait_for_timeout(500)


def hold_first(page: Page, url: str) -> list[tuple[Any, Any]]:
    """Hold the first request for ``url`` (a path with its query): it is answered at once by
    the server (drawn now), and the answer kept, not given to the page; the list gets
    ``(route, answer)``. Every other request goes through."""
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        if held or not route.request.url.endswith(url):
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(re.compile(r".*\?live=.*"), hold)
    return held


def wait_held(page: Page, held: list[tuple[Any, Any]]) -> None:
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the request was never sent"
        page.wait_for_timeout(50)


def note_in(answer: Any) -> str:
    """The wound note a held answer draws."""
    found = re.search(r'id="wound-penalty-note"[^>]*>(.*?)</p>', answer.text(), re.S)
    assert found, answer.text()
    return found[1]


def region_url(page: Page, selector: str) -> str:
    """The ``hx-get`` of the page's live element matching ``selector``."""
    url = page.get_attribute(f"#live-regions > {selector}", "hx-get")
    assert url
    return url


@pytest.mark.parametrize("pushes", [True, False], ids=["pushed", "asked"])
def test_the_catching_up_answer_drawn_before_a_change_does_not_undo_it(
        new_page: Callable[..., Page], table: dict[str, Any], pushes: bool) -> None:  # noqa: F811
    """The catching-up answer (every region) is drawn, then the GM marks damage and the
    tracks come drawn by the stream (or, from a stream that brings none, by their own
    answer); the catching-up answer arrives last, older."""
    vex: Character = table["character"]
    player, gm = new_page(), new_page()
    open_live(player, "pax", vex.get_absolute_url(), pushes=pushes)
    open_live(gm, "gwen", vex.campaign.get_absolute_url())
    before = player.locator(WOUND_NOTE).text_content()
    # A change the page never heard of (a version bumped behind its back): the catching-up
    # request has something to draw.
    Campaign.objects.filter(pk=vex.campaign_id).update(live_version=F("live_version") + 1)
    sync = region_url(player, "[data-live-sync]")
    held = hold_first(player, sync)
    player.evaluate("htmx.trigger(document.body, 'liveSync')")
    wait_held(player, held)
    by_player = asks(player)

    damage(gm, vex, 2)
    heard(player, f"trackChanged-{vex.pk}")
    # Brought by the stream, the tracks ask for nothing; from a stream that brings none,
    # they ask.
    assert any("live=" in url for url in by_player) is not pushes, by_player
    expect(player.locator(WOUND_NOTE)).not_to_have_text(before or "")
    after = player.evaluate(NOTE_NOW)
    expect(player.locator(WOUND_NOTE)).to_have_text(after)

    route, drawn_before = held[0]
    assert note_in(drawn_before) != after  # the held answer draws the older state
    player.evaluate(WATCH)
    route.fulfill(response=drawn_before)
    # Not drawn; and since it was newer than the page for the regions the change left alone
    # (the version bumped behind the page's back), the page asks again and draws that.
    answered(player, sync, times=2)
    expect(player.locator(WOUND_NOTE)).to_have_text(after)
    assert player.evaluate("window.answered").count(sync) == 2
    assert set(player.evaluate("window.notes")) <= {after.strip()}  # not even for a moment


def test_a_tracks_answer_drawn_before_the_catching_up_one_does_not_undo_it(
        new_page: Callable[..., Page], table: dict[str, Any]) -> None:  # noqa: F811
    """The GM marks damage: the tracks' answer is drawn then held. The GM marks more, and
    the catching-up answer draws both marks; the tracks' first answer arrives last, older.
    (The tracks' second ask waits behind their first, htmx queueing one element's
    requests, and then has nothing to ask: the page holds the newest version.) The page's
    stream brings no region: it would bring the tracks, and they would not ask."""
    vex: Character = table["character"]
    player, gm = new_page(), new_page()
    open_live(player, "pax", vex.get_absolute_url(), pushes=False)
    open_live(gm, "gwen", vex.campaign.get_absolute_url())
    tracks = region_url(player, f"[hx-trigger='sse:trackChanged-{vex.pk}']")
    held = hold_first(player, tracks)

    damage(gm, vex, 1)
    wait_held(player, held)
    player.evaluate("window.heard = []")
    damage(gm, vex, 2)
    heard(player, f"trackChanged-{vex.pk}")
    sync = region_url(player, "[data-live-sync]")
    player.evaluate("htmx.trigger(document.body, 'liveSync')")
    answered(player, sync)
    after = player.evaluate(NOTE_NOW)
    expect(player.locator(WOUND_NOTE)).to_have_text(after)

    route, drawn_before = held[0]
    assert note_in(drawn_before) != after  # the held answer draws the older state
    player.evaluate(WATCH)
    route.fulfill(response=drawn_before)
    answered(player, tracks)
    expect(player.locator(WOUND_NOTE)).to_have_text(after)
    assert set(player.evaluate("window.notes")) <= {after.strip()}  # not even for a moment
