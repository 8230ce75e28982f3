"""The longest names allowed, with no spaces to break them at, on a 390 px phone (issue 17,
items 1 and 18).

A GM with the longest login and display names creates a campaign: a 5,000-character name is
refused with the limit stated and kept in the box, the longest allowed name is accepted. A
player (as long-named) joins and makes a character the same way. The sheet (its heading,
the "is ready to play" banner, the roll bar), the GM's dashboard and both campaign lists
then fit the phone's width, and every select's label on the creation page and the roll form
is on the screen in full.
"""

from __future__ import annotations

from typing import cast

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from accounts.forms import DISPLAY_NAME_MAX
from campaigns.models import Campaign
from characters.models import Character
from systems.three_d6.sheet import NAME_MAX_LENGTH
from tests.e2e.conftest import audit, no_horizontal_scroll, sign_up

pytestmark = [pytest.mark.django_db(transaction=True)]

CHARACTER_MAX = cast("int", Character._meta.get_field("name").max_length)
CAMPAIGN_MAX = cast("int", Campaign._meta.get_field("name").max_length)
USERNAME_MAX = cast("int", get_user_model()._meta.get_field("username").max_length)

CAMPAIGN_NAME = "Campaign" + "C" * (CAMPAIGN_MAX - len("Campaign"))
CHARACTER_NAME = "Character" + "W" * (CHARACTER_MAX - len("Character"))
TRAIT_NAME = "Trait" + "T" * (NAME_MAX_LENGTH - len("Trait"))


def long_named(page: Page, start: str) -> None:
    """Sign up with the longest login name and give the account the longest display name."""
    username = start + "x" * (USERNAME_MAX - len(start))
    sign_up(page, username)
    get_user_model().objects.filter(username=username).update(
        first_name=start.capitalize() + "Y" * (DISPLAY_NAME_MAX - len(start)))


def selects_fully_visible(page: Page) -> None:
    """Every shown ``select`` in ``main``, and its label, lies within the viewport's width,
    and the choice it shows is not cut: it fits the box on one line, or wraps inside it."""
    cut = page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const outside = (e) => { const r = e.getBoundingClientRect();
                                   return r.left < -1 || r.right > width + 1; };
          const ruler = document.createElement('canvas').getContext('2d');
          const cut = [];
          for (const select of document.querySelectorAll('main select')) {
            if (!select.offsetParent) continue;
            const label = document.querySelector(`label[for="${select.id}"]`);
            if (label && outside(label)) cut.push('label: ' + label.textContent.trim());
            if (outside(select)) cut.push('select: ' + select.name);
            const style = getComputedStyle(select);
            ruler.font = style.font;
            const shown = select.options[select.selectedIndex]?.text ?? '';
            // The box's room for text: its width less its padding and the arrow.
            const room = select.clientWidth - parseFloat(style.paddingLeft)
                         - parseFloat(style.paddingRight) - 24;
            // Longer, it must wrap inside the box: a native select never does; a styled
            // one (a customizable select) may, when nothing overflows its box.
            const wraps = style.appearance === 'base-select'
                          && select.scrollWidth <= select.clientWidth
                          && select.scrollHeight <= select.clientHeight + 1;
            if (ruler.measureText(shown).width > room && !wraps)
              cut.push(`${select.name} shows "${shown}" cut`);
          }
          return cut;
        }"""
    )
    assert cut == [], f"{page.url}: cut at {page.viewport_size}: {cut}"


def fits(page: Page, label: str) -> None:
    audit(page, label=label)
    no_horizontal_scroll(page)


def test_the_longest_names_fit_a_phone(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = new_page(phone=True)
    long_named(gm, "gm")

    # An over-long campaign name is refused with the limit stated and kept.
    gm.goto("/campaigns/new/")
    too_long = "C" * 5000
    gm.fill("input[name=name]", too_long)
    gm.select_option("select[name=ruleset]", "three_d6")
    gm.click("button:has-text('Create campaign')")
    expect(gm.get_by_text(f"Keep the name to {CAMPAIGN_MAX} characters (it has 5000).")
           ).to_be_visible()
    expect(gm.locator("input[name=name]")).to_have_value(too_long)
    fits(gm, "campaign form refused (phone)")
    selects_fully_visible(gm)

    gm.fill("input[name=name]", CAMPAIGN_NAME)
    gm.click("button:has-text('Create campaign')")
    expect(gm.locator("h1")).to_have_text(CAMPAIGN_NAME)
    invite = gm.input_value("#invite-link")
    fits(gm, "dashboard (GM, phone)")

    # The GM names a trait with the longest name a trait may have (on the settings page):
    # the creation form's label and the roll form's choice of trait show it.
    gm.click("main a:has-text('Settings')")
    fits(gm, "settings (GM, phone)")
    panel = gm.locator("#system-panel")
    panel.locator("summary:has-text('Rename traits and subtraits')").click()
    panel.locator("input[name=t0]").fill(TRAIT_NAME)
    with gm.expect_response(lambda r: "/system/names/" in r.url):
        panel.locator("button:has-text('Save names')").click()
    expect(gm.locator("#system-panel input[name=t0]")).to_have_value(TRAIT_NAME)
    gm.go_back()  # to the dashboard
    expect(gm.locator("h1")).to_have_text(CAMPAIGN_NAME)

    player = new_page(phone=True)
    long_named(player, "player")
    player.goto(invite)
    player.click("button:has-text('Join')")
    expect(player.locator("h1")).to_have_text(CAMPAIGN_NAME)
    fits(player, "campaign page (player, phone)")

    player.click("a:has-text('Create a character')")
    selects_fully_visible(player)
    too_long = "W" * 5000
    player.fill("input[name=name]", too_long)
    player.click("button:has-text('Create the character')")
    expect(player.get_by_text(f"Keep the name to {CHARACTER_MAX} characters (it has 5000).")
           ).to_be_visible()
    expect(player.locator("input[name=name]")).to_have_value(too_long)
    fits(player, "creation refused (phone)")

    player.fill("input[name=name]", CHARACTER_NAME)
    player.click("button:has-text('Create the character')")
    expect(player.locator("h1")).to_have_text(CHARACTER_NAME)
    expect(player.get_by_text(f"{CHARACTER_NAME} is ready to play.")).to_be_visible()
    expect(player.locator(".roll-bar")).to_be_visible()
    fits(player, "sheet (phone)")
    selects_fully_visible(player)

    player.goto("/campaigns/")
    expect(player.get_by_text(CAMPAIGN_NAME).first).to_be_visible()
    fits(player, "campaign list (player, phone)")

    gm.reload()
    expect(gm.get_by_text(CHARACTER_NAME).first).to_be_visible()
    fits(gm, "dashboard (GM, phone)")
    selects_fully_visible(gm)
    gm.goto("/campaigns/")
    fits(gm, "campaign list (GM, phone)")
