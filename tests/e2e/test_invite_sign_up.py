"""An invite link survives signing up, and the GM copies it with one button, in a real browser.

A logged-out visitor opens the GM's invite link and lands on Log in; the header's "Sign up"
keeps the invite, so after creating the account the new player is on that campaign's join
page and joins. The GM's "Copy link" puts the link on the clipboard and says "Copied" in a
status region; the button also works on the invite block htmx swaps in after "Renew link".
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PASSWORD, audit, create_campaign, sign_up

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_a_new_player_signs_up_from_the_invite_and_lands_on_its_join_page(
    new_page: Callable[..., Page],
) -> None:
    gm = new_page()
    sign_up(gm, "ines")
    invite = create_campaign(gm, name="Lantern Road", ruleset="maelstrom")

    player = new_page(phone=True)
    player.goto(invite)
    expect(player.locator("h1")).to_have_text("Log in")
    # On a phone the header's links are folded into its menu.
    player.locator(".site-menu > summary").click()
    player.locator("header").get_by_role("link", name="Sign up").click()
    expect(player.locator("h1")).to_have_text("Sign up")
    player.fill("input[name=username]", "wren")
    player.fill("input[name=email]", "wren@example.org")
    player.fill("input[name=password1]", PASSWORD)
    player.fill("input[name=password2]", PASSWORD)
    player.click("button:has-text('Create account')")

    expect(player.get_by_role("button", name="Join Lantern Road")).to_be_visible()
    assert player.url == invite
    audit(player, label="join page after sign-up")
    player.get_by_role("button", name="Join Lantern Road").click()
    expect(player.locator("h1")).to_have_text("Lantern Road")


def test_the_gm_copies_the_invite_link_with_one_button(new_page: Callable[..., Page]) -> None:
    gm = new_page()
    gm.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(gm, "ines")
    invite = create_campaign(gm, name="Lantern Road", ruleset="maelstrom")

    status = gm.locator("#invite-copy-status")
    expect(status).to_have_attribute("role", "status")
    expect(status).to_be_empty()
    gm.get_by_role("button", name="Copy link").click()

    expect(status).to_have_text("Copied")
    assert gm.evaluate("navigator.clipboard.readText()") == invite
    audit(gm, label="dashboard with the invite copied")

    gm.get_by_role("button", name="Renew link").click()
    renewed = gm.locator("#invite-link")
    expect(renewed).not_to_have_value(invite)
    gm.get_by_role("button", name="Copy link").click()
    expect(status).to_have_text("Copied")
    assert gm.evaluate("navigator.clipboard.readText()") == renewed.input_value()
