"""Maelstrom creation on a phone: while the player spends starting XP far down the page (the
merits and flaws), the running "XP remaining" stays on the screen, and each choice updates it.
The summary with its breakdown is below every list; the bar at the top of the step keeps the
total in view (systems/maelstrom/static/css/systems/maelstrom.css). Typing fast through the
ranks leaves the console clean: the previews queue, none is cut off (issue 32)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from campaigns.models import Campaign
from tests.e2e.conftest import (
    PHONE,
    audit,
    console_errors,
    create_campaign,
    no_horizontal_scroll,
    sign_up,
)
from tests.e2e.test_maelstrom_journey import ABILITIES, ATTRIBUTES

pytestmark = [pytest.mark.django_db(transaction=True)]


def in_view(page: Page, selector: str) -> bool:
    """Whether the element's whole box is inside the phone's screen."""
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def walk_to_the_xp_step(page: Page) -> None:
    sign_up(page, "vesna")
    create_campaign(page, name="Salvage Run", ruleset="maelstrom")
    campaign = Campaign.objects.get(name="Salvage Run")
    page.goto(reverse("maelstrom:character-create", args=[campaign.pk]))
    page.fill("input[name=name]", "Vesna")
    page.click("button:has-text('Next: Attributes')")
    page.check("input[name=primary][value=Physical]")
    for name, dots in ATTRIBUTES.items():
        page.fill(f"input[name={name}]", str(dots))
    page.click("button:has-text('Next: Abilities')")
    for name, dots in ABILITIES.items():
        page.fill(f"input[name={name}]", str(dots))
    page.click("button:has-text('Next: Starting XP')")


def test_the_xp_remaining_stays_in_view_while_the_player_picks_merits_and_flaws(
    new_page,  # type: ignore[no-untyped-def]
) -> None:
    page = new_page(phone=True)
    walk_to_the_xp_step(page)
    bar = page.locator("#xp-bar")
    expect(bar).to_contain_text("30 XP remaining")

    # Far down the page: the merits and flaws, the summary further still below them.
    flaw = page.locator("select[name=mf-0-choice]")
    flaw.scroll_into_view_if_needed()
    assert not in_view(page, "#xp-summary")
    flaw.select_option("Addict|1")
    expect(bar).to_contain_text("31 XP remaining")  # a flaw gives XP
    assert in_view(page, "#xp-bar")

    merit = page.locator("select[name=mf-1-choice]")
    merit.scroll_into_view_if_needed()
    merit.select_option("Huge Size|4")
    expect(bar).to_contain_text("27 XP remaining")  # a merit costs XP
    assert in_view(page, "#xp-bar")

    # Reading what each merit does, further down still, the total is there too.
    page.locator("summary:has-text('What each merit and flaw does')").click()
    page.locator("dt:has-text('Huge Size')").scroll_into_view_if_needed()
    assert in_view(page, "#xp-bar")
    expect(bar).to_contain_text("27 XP remaining")

    # Typing fast through the ranks on a slow phone connection, a value and Tab each: every
    # change asks for the total while the answer to the one before is still on its way. The
    # requests queue; none is cut off (htmx reports a cut-off request in the console:
    # htmx:sendAbort, htmx:afterRequest).
    network = page.context.new_cdp_session(page)
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1})
    for name, value in (("willpower", "4"), ("ability_piloting", "1"), ("willpower", "5"),
                        ("ability_navigation", "1")):
        field = page.locator(f"input[name={name}]")
        field.fill("")
        field.press_sequentially(value)
        page.keyboard.press("Tab")
    expect(bar).to_contain_text("14 XP remaining")  # Willpower 3 → 5: 9, two abilities: 2 each
    expect(page.locator(".htmx-request")).to_have_count(0)
    assert console_errors(page) == []
    network.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    no_horizontal_scroll(page)
    audit(page, label="creation step 4 (phone), scrolled to the merits")
