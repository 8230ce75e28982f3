"""A page does not ask again for what its own change's answer brought (issue 18,
core.regions.drawn, static/js/live.js): the roller's sheet shows the dialog's fresh odds from
the roll's own answer; the GM's dashboard takes the card from the mark's answer. Every other
open page gets what the change redrew from its stream, drawn for its viewer, and asks for
nothing (issue 36, liveRegions): the player's sheet the GM's mark. A roll's lines come with
its event to every page that was current just before it (characters.live, table.live): the
roll in the recent rolls of every open copy of the sheet, the roller's own among them, and in
the latest rolls of every campaign page; one that was not current asks, and one that a
change left as it was (liveVersion) is still current."""

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
from rolls.models import Roll
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]

HEARD = """
window.heard = [];
document.addEventListener("htmx:sseMessage", (event) => {
  window.heard.push(event.detail.type);
}, true);
"""
"""An init script: the stream's events the page's live elements heard, by name."""


def asks(page: Page) -> list[str]:
    """Every URL the page asks from now on (its requests, as they are sent)."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    return asked


def heard(page: Page, name: str, within: float = 10) -> None:
    """Wait until the page's live elements have heard ``name``, then a moment more, in
    which a request it set off would have been sent."""
    deadline = time.monotonic() + within
    while name not in page.evaluate("window.heard"):
        assert time.monotonic() < deadline, f"{name} never arrived"
        time.sleep(0.02)
    page.wait_for_timeout(500)


ITEMS = 'Array.from(region.querySelectorAll("li"), (li) => li.outerHTML)'


def drawn_now(region_id: str, gives: str = ITEMS) -> str:
    """A script giving what the page's region ``region_id`` would draw now (asked by hand,
    not by htmx: marked ``by-hand``): ``gives``, a JavaScript expression of ``region``, the
    region's element in the answer; by default its items' HTML, item by item."""
    return f"""async () => {{
  const answer = await fetch(location.pathname + "?live={region_id}&by-hand=1",
                             {{headers: {{"HX-Request": "true"}}}});
  const holder = document.createElement("div");
  holder.innerHTML = await answer.text();
  const region = holder.querySelector("#{region_id}");
  return {gives};
}}"""


TRACKS = drawn_now("health-track", "region.outerHTML")
"""What the sheet's health track would draw now."""

def without_tokens(html: str) -> str:
    """``html`` without its forms' CSRF tokens (masked anew in every drawing)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


TRACKS_SHOWN = """() => document.getElementById("health-track").outerHTML"""
"""The health track the sheet shows."""

RECENT = drawn_now("recent-rolls")
"""What the sheet's recent rolls would draw now."""

RECENT_SHOWN = """() => Array.from(document.querySelectorAll("#recent-rolls li"),
                                   (li) => li.outerHTML)"""
"""The items the sheet's recent rolls show."""


def test_the_roller_takes_the_odds_from_its_answer_and_the_roll_from_its_event(
        new_page: Callable[..., Page], table: dict[str, Any]) -> None:  # noqa: F811
    vex: Character = table["character"]
    roller, other = new_page(), new_page()
    for page in (roller, other):
        page.add_init_script(HEARD)
        log_in(page, "pax")
        page.goto(vex.get_absolute_url())
    roller.check("input[name=trait][value=Precision]")
    roller.check("input[name=trait][value=Driving]")
    expect(roller.locator("#roll-odds")).to_contain_text("Precision + Driving: 7 dice")
    expect(roller.locator("#roll-bar-odds")).to_contain_text("Success")
    headline = roller.locator("#roll-bar-odds").text_content()
    # The first roll: an empty list has nowhere to put a line, so both pages ask for it.
    expect(roller.locator("#recent-rolls")).to_contain_text("No rolls yet")
    roller.locator("#roll-form .actions button").first.click()
    for page in (roller, other):
        expect(page.locator("#recent-rolls li")).to_have_count(1)
        heard(page, f"rollMade-{vex.pk}")
        page.evaluate("window.heard = []")
    by_roller, by_other = asks(roller), asks(other)

    roller.locator("#roll-form .actions button").first.click()
    expect(roller.locator("#roll-result")).to_contain_text(re.compile(r"success|failure|botch",
                                                                      re.I))
    roll = Roll.objects.filter(character=vex).latest("pk")
    link = f"#recent-rolls a[href='{roll.get_absolute_url()}']"
    expect(roller.locator(link)).to_have_count(1)
    heard(roller, f"rollMade-{vex.pk}")
    # The roll's own answer brought the odds, its event the line: nothing more was asked.
    assert len(by_roller) == 1 and "/roll/" in by_roller[0], by_roller  # the POST alone
    expect(roller.locator("#roll-odds")).to_contain_text("Precision + Driving: 7 dice")
    expect(roller.locator("#roll-bar-odds")).to_have_text(headline or "")
    expect(roller.locator("#roll-odds")).not_to_have_attribute("data-headline", re.compile(""))

    # The same sheet in another tab made no change: its line came with the event too.
    expect(other.locator(link)).to_have_count(1)
    heard(other, f"rollMade-{vex.pk}")
    assert not [url for url in by_other if "live=" in url], by_other
    for page in (roller, other):  # what each would have asked for
        assert page.evaluate(RECENT_SHOWN) == page.evaluate(RECENT)
        expect(page.locator("#recent-rolls li")).to_have_count(2)


def test_the_gms_mark_on_a_card_is_not_asked_again(new_page, table) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    vex: Character = table["character"]
    gm, player = new_page(), new_page()
    for page in (gm, player):
        page.add_init_script(HEARD)
    log_in(gm, "gwen")
    log_in(player, "pax")
    gm.goto(vex.campaign.get_absolute_url())
    player.goto(vex.get_absolute_url())
    card = gm.locator(f"#card-{vex.pk}")
    expect(card).to_contain_text("Healthy")
    by_gm, by_player = asks(gm), asks(player)

    gm.select_option(f"#card-{vex.pk}-kind", "lethal")
    gm.fill(f"#card-{vex.pk}-levels", "2")
    gm.click(f"#card-{vex.pk}-damage")
    expect(card).to_contain_text("Scratched · wound penalty −1 die")
    heard(gm, f"trackChanged-{vex.pk}")
    assert not [url for url in by_gm if "live=" in url], by_gm
    # The player's sheet did not make the change: its stream brings its tracks, drawn for
    # the player (liveRegions), before the change's own event: it asks for nothing.
    expect(player.locator("#wound-penalty-note")).to_contain_text("−1 die (Scratched)")
    heard(player, f"trackChanged-{vex.pk}")
    assert not [url for url in by_player if "live=" in url], by_player
    assert without_tokens(player.evaluate(TRACKS_SHOWN)) == without_tokens(
        player.evaluate(TRACKS))
    # Its forms carry this browser's CSRF token: the player marks more from the pushed form.
    player.select_option("#damage-kind", "bashing")
    player.click("#mark-damage")
    expect(player.locator("#health-track")).to_contain_text("Hurt · wound penalty −1 die")

    # The mark's answer replaced the form that sent it: the dashboard still follows the
    # table (nothing waits for an answer it already had).
    player.check("input[name=trait][value=Precision]")
    player.locator("#roll-form .actions button").first.click()
    expect(gm.locator("#campaign-rolls")).to_contain_text("Vex")
    assert any("live=campaign-rolls" in url for url in by_gm), by_gm


LATEST = drawn_now("campaign-rolls")
"""What the page's latest rolls would draw now."""


def asked_latest(asked: list[str]) -> list[str]:
    """The page's own requests for its latest rolls (not the test's, by hand)."""
    return [url for url in asked if "live=campaign-rolls" in url and "by-hand" not in url]

SHOWN = """() => Array.from(document.querySelectorAll("#campaign-rolls li"), (li) => {
  const copy = li.cloneNode(true);
  copy.classList.remove("roll-new");
  if (!copy.classList.length) { copy.removeAttribute("class"); }
  copy.querySelectorAll(".roll-new-tag").forEach((tag) => tag.remove());
  return copy.outerHTML;
})"""
"""The items the page shows, without board.js's passing "new" mark."""


def test_a_roll_s_line_comes_with_its_event_to_a_current_page_and_another_asks(
        new_page: Callable[..., Page], table: dict[str, Any]) -> None:  # noqa: F811
    vex: Character = table["character"]
    player, gm, fellow = new_page(), new_page(), new_page()
    for page in (player, gm, fellow):
        page.add_init_script(HEARD)
    log_in(player, "pax")
    player.goto(vex.get_absolute_url())
    player.check("input[name=trait][value=Precision]")

    def roll() -> Roll:
        count = Roll.objects.filter(character=vex).count()
        player.locator("#roll-form .actions button").first.click()
        expect(player.locator("#recent-rolls li")).to_have_count(count + 1)
        return Roll.objects.filter(character=vex).latest("pk")

    roll()  # the list is not empty: a line has somewhere to go
    log_in(gm, "gwen")
    gm.goto(vex.campaign.get_absolute_url())
    log_in(fellow, "pax")  # the player's own campaign page, in another tab
    fellow.goto(vex.campaign.get_absolute_url())
    by_gm, by_fellow = asks(gm), asks(fellow)

    made = roll()
    heard(gm, "rollMade")
    heard(fellow, "rollMade")
    for page, asked in ((gm, by_gm), (fellow, by_fellow)):
        expect(page.locator("#campaign-rolls li").first).to_have_attribute(
            "data-roll", str(made.code))
        assert not asked_latest(asked), asked
        assert page.evaluate(SHOWN) == page.evaluate(LATEST)  # what it would have asked for
    expect(gm.locator("#campaign-rolls li").first).to_have_class(re.compile("roll-new"))

    # The GM's own GM-only NPC roll: the GM's page takes its line from its event while its
    # POST is in flight; the player's page never hears of it, and no version it counts
    # moves for it (issue 31): it is still current just before the next roll, and takes
    # that roll's line without asking.
    gm.fill("#npc-text", "5 dice diff 6")
    gm.check("input[name=gm_only]")
    gm.click("text=Roll for the NPC")
    npc = Roll.objects.filter(character=None)
    expect(gm.locator("#campaign-rolls li").first).to_contain_text("GM")
    assert gm.locator("#campaign-rolls li").first.get_attribute("data-roll") == str(
        npc.get().code)
    made = roll()
    heard(fellow, "rollMade")
    expect(fellow.locator("#campaign-rolls li").first).to_have_attribute(
        "data-roll", str(made.code))
    assert not asked_latest(by_fellow), by_fellow
    assert fellow.evaluate(SHOWN) == fellow.evaluate(LATEST)
    assert gm.evaluate(SHOWN) == gm.evaluate(LATEST)  # the GM heard both: lines both times
    assert not asked_latest(by_gm), by_gm

    # A change the pages never heard of (its event lost on the way, here a version bumped
    # behind their backs): neither is current just before the next roll, so both ask for
    # the list instead of taking that roll's line.
    Campaign.objects.filter(pk=vex.campaign_id).update(live_version=F("live_version") + 1)
    made = roll()
    heard(gm, "rollMade")
    heard(fellow, "rollMade")
    for page, asked in ((gm, by_gm), (fellow, by_fellow)):
        expect(page.locator("#campaign-rolls li").first).to_have_attribute(
            "data-roll", str(made.code))
        assert asked_latest(asked), asked
        assert page.evaluate(SHOWN) == page.evaluate(LATEST)


def _rolled_once_with_the_gm_watching(new_page: Callable[..., Page],
                                      vex: Character) -> tuple[Page, Page]:
    """Pax's sheet after one roll from it, and the GM's dashboard opened after that roll
    (noting the events it hears, ``HEARD``): ``(player, gm)``."""
    player, gm = new_page(), new_page()
    gm.add_init_script(HEARD)
    log_in(player, "pax")
    player.goto(vex.get_absolute_url())
    player.check("input[name=trait][value=Precision]")
    player.locator("#roll-form .actions button").first.click()
    expect(player.locator("#recent-rolls li")).to_have_count(1)
    log_in(gm, "gwen")
    gm.goto(vex.campaign.get_absolute_url())
    return player, gm


def test_a_line_waits_for_an_answer_already_on_its_way_to_the_same_list(
        new_page: Callable[..., Page], table: dict[str, Any]) -> None:  # noqa: F811
    # The page's catching-up request (every region, the latest rolls with them) is drawn
    # before a roll and answered after the roll's event: had the page put the roll's line
    # in, that answer would have drawn the list without it, at a version the page already
    # held. The latest rolls ask instead, after it.
    vex: Character = table["character"]
    player, gm = _rolled_once_with_the_gm_watching(new_page, vex)
    held: list[tuple[Any, Any]] = []
    asked: list[Any] = []

    def hold(route: Any) -> None:
        url = route.request.url
        if "by-hand" in url:
            route.continue_()
        elif "live=party" in url:  # the catching-up request: drawn now, answered later
            held.append((route, route.fetch()))
        else:
            asked.append(route)

    gm.route(re.compile(r".*/campaigns/\d+/\?live=.*"), hold)
    gm.evaluate("htmx.trigger(document.body, 'liveSync')")
    while not held:
        gm.wait_for_timeout(50)
    player.locator("#roll-form .actions button").first.click()
    expect(player.locator("#recent-rolls li")).to_have_count(2)
    made = Roll.objects.filter(character=vex).latest("pk")
    heard(gm, "rollMade")
    assert [route.request.url for route in asked if "live=campaign-rolls" in route.request.url]

    route, drawn_before = held[0]
    route.fulfill(response=drawn_before)  # the older answer first...
    expect(gm.locator("#campaign-rolls li")).to_have_count(1)
    for waiting in asked:  # ...then the latest rolls' own, drawn now
        waiting.continue_()
    expect(gm.locator("#campaign-rolls li").first).to_have_attribute("data-roll", str(made.code))
    assert gm.evaluate(SHOWN) == gm.evaluate(LATEST)


def test_a_change_a_list_does_not_hear_leaves_it_current_for_the_next_line(
        new_page: Callable[..., Page], table: dict[str, Any]) -> None:  # noqa: F811
    # Each event is followed by liveVersion, its version and names: a region that hears none
    # of them was left as it was, and stays current. The GM's mark on a card moves the
    # version without touching the latest rolls, which take the next roll's line without
    # asking (one version behind, they would ask).
    vex: Character = table["character"]
    player, gm = _rolled_once_with_the_gm_watching(new_page, vex)
    by_gm = asks(gm)

    gm.select_option(f"#card-{vex.pk}-kind", "lethal")
    gm.click(f"#card-{vex.pk}-damage")
    expect(gm.locator(f"#card-{vex.pk}")).to_contain_text("Marked 1 lethal")
    heard(gm, f"trackChanged-{vex.pk}")
    player.locator("#roll-form .actions button").first.click()
    expect(player.locator("#recent-rolls li")).to_have_count(2)
    made = Roll.objects.filter(character=vex).latest("pk")
    heard(gm, "rollMade")
    expect(gm.locator("#campaign-rolls li").first).to_have_attribute("data-roll", str(made.code))
    assert not asked_latest(by_gm), by_gm
    assert gm.evaluate(SHOWN) == gm.evaluate(LATEST)
