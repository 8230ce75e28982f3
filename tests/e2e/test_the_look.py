"""The look at the table (issue 17): for every system's demo campaign, the GM's dashboard at
1280x800 is play first (the party, the latest rolls, the roll requests and the system's panel
in play start in the first screen, side by side), and a player's sheet fits a 390 px phone;
both pass axe in the light and the dark scheme, and the header's switch picks a scheme that
stays on every page. Takes the README's screenshots of each page in both schemes
(``make screenshots``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page, expect

import systems
from campaigns.models import Campaign
from table.management.commands.load_demo import DEMO_PASSWORD, GM, PLAYERS
from tests.conftest import TALLY
from tests.e2e.conftest import AXE, AsgiLiveServer, audit, no_horizontal_scroll, screenshot

pytestmark = [pytest.mark.django_db(transaction=True)]

DASHBOARD = {"width": 1280, "height": 800}


@pytest.fixture
def demo() -> list[Campaign]:
    """Every system's demo campaign (``manage.py load_demo``)."""
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 (closed at exit)
    return list(Campaign.objects.order_by("pk"))


@pytest.fixture
def person(browser: Browser, asgi_server: AsgiLiveServer) -> Iterator[Callable[..., Page]]:
    """``person(username, phone=False)``: a page logged in as that demo user."""
    contexts: list[Any] = []

    def make(username: str, *, phone: bool = False) -> Page:
        context = browser.new_context(
            base_url=asgi_server.url, viewport={"width": 390, "height": 844} if phone
            else DASHBOARD, has_touch=phone, is_mobile=phone,
            device_scale_factor=2 if phone else 1)
        context.set_default_timeout(10_000)
        context.add_init_script(path=str(AXE))
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.js_errors = errors  # type: ignore[attr-defined]
        page.goto("/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", DEMO_PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        return page

    yield make
    for context in contexts:
        context.close()


def both_schemes(page: Page, name: str) -> None:
    """Screenshots of the page as it is, light then dark (the first screen only); none of
    the tests' made-up system, which the README does not show."""
    if name.startswith(TALLY.slug):
        return
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        screenshot(page, f"{name}-{scheme}", full_page=False)
    page.emulate_media(color_scheme="light")


def in_first_screen(page: Page, selector: str) -> bool:
    """Whether the element's top edge is inside the viewport with the page unscrolled."""
    top = page.evaluate(f"document.querySelector({selector!r}).getBoundingClientRect().top")
    viewport = page.viewport_size
    assert viewport is not None
    return 0 <= top < viewport["height"] - 80


def test_every_dashboard_is_play_first_and_every_sheet_fits_a_phone(
        demo: list[Campaign], person: Callable[..., Page]) -> None:
    gm = person(GM)
    for campaign in demo:
        system = systems.for_campaign(campaign)
        gm.goto(campaign.get_absolute_url())
        label = f"{campaign.ruleset} dashboard"
        audit(gm, label=label)
        no_horizontal_scroll(gm)
        for region in ("#party", "#campaign-rolls", "#request-form"):
            assert in_first_screen(gm, region), f"{label}: {region} is below the first screen"
        if system.panel_in_play:
            assert in_first_screen(gm, "#system-panel"), f"{label}: its panel is off screen"
        else:
            assert gm.locator("#system-panel").count() == 0, f"{label}: configuration in play"
        # Side by side: the rolls start level with the party, not under it.
        party = gm.locator("#party").bounding_box()
        rolls = gm.locator("#campaign-rolls").bounding_box()
        assert party and rolls and rolls["x"] > party["x"] + party["width"] - 1, label
        both_schemes(gm, f"{campaign.ruleset}-dashboard")

    for campaign in demo:
        character = campaign.characters.filter(owner__username=PLAYERS[0]).first()
        assert character is not None
        player = person(PLAYERS[0], phone=True)
        player.goto(character.get_absolute_url())
        label = f"{campaign.ruleset} sheet (phone)"
        audit(player, label=label)
        no_horizontal_scroll(player)
        both_schemes(player, f"{campaign.ruleset}-sheet-phone")
        player.context.close()


def test_the_theme_switch_overrides_the_device_and_stays(
        demo: list[Campaign], person: Callable[..., Page]) -> None:
    page = person(GM)
    page.emulate_media(color_scheme="light")
    page.goto(demo[0].get_absolute_url())
    background = "getComputedStyle(document.documentElement).backgroundColor"
    light = page.evaluate(background)
    switch = page.locator("#theme-switch")
    expect(switch).to_have_text("Theme: device")

    switch.click()  # device -> dark
    expect(switch).to_have_text("Theme: dark")
    dark = page.evaluate(background)
    assert dark != light
    audit(page, label="dashboard, dark by the switch")

    page.goto(demo[1].get_absolute_url())  # another page keeps the choice
    expect(page.locator("#theme-switch")).to_have_text("Theme: dark")
    assert page.evaluate(background) == dark

    page.locator("#theme-switch").click()  # dark -> light, on a device that prefers dark
    page.emulate_media(color_scheme="dark")
    expect(page.locator("#theme-switch")).to_have_text("Theme: light")
    assert page.evaluate(background) == light
    page.locator("#theme-switch").click()  # back to the device's
    expect(page.locator("#theme-switch")).to_have_text("Theme: device")
    assert page.evaluate(background) == dark


def test_without_javascript_the_device_decides_and_no_switch_shows(
        demo: list[Campaign], browser: Browser, asgi_server: AsgiLiveServer) -> None:
    context = browser.new_context(base_url=asgi_server.url, java_script_enabled=False,
                                  color_scheme="dark")
    page = context.new_page()
    page.goto("/login/")
    # The button is in the page, hidden; only static/js/theme.js shows it.
    assert page.locator("#theme-switch").count() == 1
    expect(page.locator("#theme-switch")).to_be_hidden()
    context.close()
