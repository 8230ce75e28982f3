"""Results readable from across the table, on a phone (issue 17, "The look"): after a roll the
outcome is drawn larger than the dice's faces and above them; the fresh dice settle in with a
short animation, which never runs for someone whose device asks for less motion, nor in the
roll log (static/css/results.css). Markup and headers: tests/rolls/test_roll_results.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, AsgiLiveServer, create_campaign, screenshot, sign_up

pytestmark = [pytest.mark.django_db(transaction=True)]

FRESH_DICE = "#npc-roll-result .roll-result svg.die"
ANIMATIONS = "dice => dice.map(die => die.getAnimations().length)"


@pytest.fixture
def phone_with_less_motion(browser: Browser, asgi_server: AsgiLiveServer) -> Iterator[Page]:
    """A phone whose owner asked for reduced motion (the system setting the CSS media query
    ``prefers-reduced-motion: reduce`` reads)."""
    context = browser.new_context(base_url=asgi_server.url, viewport=PHONE, has_touch=True,
                                  is_mobile=True, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def gm_rolls_for_an_npc(gm: Page, *, name: str, campaign: str) -> None:
    """Sign up, create a Maelstrom campaign and roll seven dice for an NPC from its
    dashboard; waits for the result."""
    sign_up(gm, name)
    create_campaign(gm, name=campaign, ruleset="maelstrom")
    gm.fill("#npc-text", "7 dice diff 6")
    gm.click("button:has-text('Roll for the NPC')")
    expect(gm.locator("#npc-roll-result .roll-outcome")).to_be_visible()


def font_px(page: Page, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)"))


def test_on_a_phone_the_outcome_is_larger_than_the_dice_and_above_them(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = new_page(phone=True)
    gm_rolls_for_an_npc(gm, name="vera", campaign="Night Run")

    outcome = gm.locator("#npc-roll-result .roll-outcome")
    face = "#npc-roll-result .roll-result svg.die .die-face"
    big = font_px(gm, "#npc-roll-result .roll-outcome")
    assert big > font_px(gm, face)
    assert big > font_px(gm, "#npc-roll-result .roll-head summary")  # the largest thing there
    outcome_box, die_box = outcome.bounding_box(), gm.locator(FRESH_DICE).first.bounding_box()
    assert outcome_box and die_box
    assert outcome_box["y"] + outcome_box["height"] <= die_box["y"]
    # The fresh dice settle in (the animation keeps its last frame, so it is still there).
    assert all(gm.eval_on_selector_all(FRESH_DICE, ANIMATIONS))
    outcome.scroll_into_view_if_needed()
    screenshot(gm, "roll-result-phone", full_page=False)

    # The roll log draws the same dice without moving them.
    gm.click("a:has-text('Roll log')")
    expect(gm.locator(".roll-log svg.die").first).to_be_visible()
    assert not any(gm.eval_on_selector_all(".roll-log svg.die", ANIMATIONS))


def test_with_reduced_motion_the_fresh_dice_do_not_move(phone_with_less_motion: Page) -> None:
    gm = phone_with_less_motion
    gm_rolls_for_an_npc(gm, name="wynn", campaign="Still Water")

    counts = gm.eval_on_selector_all(FRESH_DICE, ANIMATIONS)
    assert counts and not any(counts), counts
    big = font_px(gm, "#npc-roll-result .roll-outcome")
    assert big > font_px(gm, "#npc-roll-result .roll-result svg.die .die-face")
    assert big > font_px(gm, "#npc-roll-result .roll-head summary")
