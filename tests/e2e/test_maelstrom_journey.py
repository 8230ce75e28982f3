"""A Maelstrom table in two real browsers: the GM at a desktop, the player on a phone.

Sign up, create a campaign, invite, join, build a character, roll from the sheet; the roll
appears in the GM's open roll log, the GM's damage mark and XP award on the player's open
sheet, all without a reload (the live table); XP spend. axe-core audits every page the
journey visits, and every page is checked for sideways scrolling on the phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from characters.models import Character
from rolls.models import Roll
from tests.e2e.conftest import audit, no_horizontal_scroll, screenshot, sign_up

pytestmark = [pytest.mark.django_db(transaction=True)]

ATTRIBUTES = {"strength": 3, "precision": 4, "reflexes": 2,  # Physical, primary: +6
              "perception": 3, "intelligence": 2, "wits": 2}  # Mental: +4
ABILITIES = {"driving": 3, "firearms": 3,
             "athletics": 2, "alertness": 2, "melee": 2, "stealth": 2,
             "investigation": 1, "streetwise": 1, "technology": 1, "survival": 1,
             "medicine": 1, "science": 1}


def gm_creates_a_campaign(gm: Page) -> str:
    sign_up(gm, "gwen")
    audit(gm, label="after sign-up")
    gm.goto("/campaigns/new/")
    audit(gm)
    gm.fill("input[name=name]", "Rust and Static")
    gm.select_option("select[name=ruleset]", "maelstrom")
    gm.click("button:has-text('Create campaign')")
    expect(gm.locator("h1")).to_have_text("Rust and Static")
    audit(gm, label="campaign page (GM)")
    invite = gm.input_value("#invite-link")
    assert "/campaigns/join/" in invite
    return invite


def player_joins_and_builds_a_character(player: Page, invite: str) -> Character:
    player.goto(invite)
    # Not logged in: the join page sends the player to sign up (or log in) and back.
    player.click("main a:has-text('Sign up')") if player.url.endswith("/login/") else None
    sign_up_via_next(player)
    audit(player, label="join page")
    no_horizontal_scroll(player)
    player.click("button:has-text('Join')")
    expect(player.locator("h1")).to_have_text("Rust and Static")
    player.click("a:has-text('Create a character')")

    player.fill("input[name=name]", "Vex")
    player.fill("[name=concept]", "Smuggler with a fast bike")
    audit(player, label="creation step 1")
    no_horizontal_scroll(player)
    player.click("button:has-text('Next: Attributes')")

    player.check("input[name=primary][value=Physical]")
    for name, dots in ATTRIBUTES.items():
        player.fill(f"input[name={name}]", str(dots))
    audit(player, label="creation step 2")
    no_horizontal_scroll(player)
    player.click("button:has-text('Next: Abilities')")

    for name, dots in ABILITIES.items():
        player.fill(f"input[name={name}]", str(dots))
    audit(player, label="creation step 3")
    no_horizontal_scroll(player)
    player.click("button:has-text('Next: Starting XP')")

    audit(player, label="creation step 4")
    no_horizontal_scroll(player)
    player.click("button:has-text('Next: Review')")
    audit(player, label="creation review")
    no_horizontal_scroll(player)
    player.click("button:has-text('Create character')")
    expect(player.locator("h1")).to_have_text("Vex")
    return Character.objects.get(name="Vex")


def sign_up_via_next(player: Page) -> None:
    if "/signup/" not in player.url:
        player.goto(player.url.replace("/login/", "/signup/"))
    player.fill("input[name=username]", "pax")
    player.fill("input[name=email]", "pax@example.org")
    player.fill("input[name=password1]", "a-long-table-password")
    player.fill("input[name=password2]", "a-long-table-password")
    player.click("button:has-text('Create account')")
    player.wait_for_load_state()


def test_a_maelstrom_table_from_sign_up_to_spending_xp(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = new_page()
    player = new_page(phone=True)

    invite = gm_creates_a_campaign(gm)
    vex = player_joins_and_builds_a_character(player, invite)
    audit(player, label="sheet (player, phone)")
    no_horizontal_scroll(player)

    # The player ticks Precision and Driving; the exact odds appear before any roll.
    player.check("input[name=trait][value=Precision]")
    player.check("input[name=trait][value=Driving]")
    expect(player.locator("#roll-odds")).to_contain_text("Precision + Driving: 7 dice")
    expect(player.locator("#roll-odds")).to_contain_text("Success")
    audit(player, label="sheet with odds")

    # The GM has the campaign's roll log open, as at the table.
    gm.goto(f"/campaigns/{vex.campaign_id}/rolls/")
    expect(gm.locator("#roll-log")).to_contain_text("No rolls yet")
    gm.evaluate("window.stillThisPage = true")

    # A double-click on Roll makes one roll, shown with every die in the live region.
    player.locator("#roll-form button[type=submit]").first.dblclick()
    outcome = re.compile(r"success|failure|botch", re.I)
    expect(player.locator("#roll-result")).to_contain_text(outcome)
    assert Roll.objects.filter(character=vex).count() == 1
    assert player.locator("#roll-result").get_attribute("aria-live") == "polite"
    audit(player, label="sheet after a roll")
    # The phone's screen after a roll, scrolled to the odds and the dice.
    player.evaluate("document.querySelector('#roll-odds').scrollIntoView({block: 'start'})")
    screenshot(player, "maelstrom-sheet-phone", full_page=False)

    # The roll appears in the GM's open log without a reload.
    roll = Roll.objects.get(character=vex)
    expect(gm.locator("#roll-log")).to_contain_text(roll.summary)
    expect(gm.locator("#roll-log")).to_contain_text("Vex")
    assert gm.evaluate("window.stillThisPage") is True
    audit(gm, label="roll log")

    # The GM marks two lethal on Vex's sheet: the track and the wound penalty change in place.
    gm.goto(f"/characters/{vex.pk}/")
    gm.evaluate("window.stillThisPage = true")
    gm.select_option("#damage-kind", "lethal")
    gm.fill("#damage-levels", "2")
    player.evaluate("window.stillThisPage = true")
    gm.click("button[name=action][value=damage]")
    expect(gm.locator("#wound-penalty-note")).to_contain_text("−1 die (Scratched)")
    assert gm.evaluate("window.stillThisPage") is True  # no reload
    # ... and on the player's phone, which is still showing the sheet.
    expect(player.locator("#wound-penalty-note")).to_contain_text("−1 die (Scratched)")
    expect(player.locator("#health-track").get_by_role("img").nth(1)).to_have_accessible_name(
        "Scratched: lethal")
    assert player.evaluate("window.stillThisPage") is True
    audit(gm, label="sheet (GM) after damage")
    screenshot(gm, "maelstrom-sheet-desktop")

    # The GM awards 3 XP; the player spends it on a dot of Stealth (2 -> 3 costs 6).
    gm.goto(f"/characters/{vex.pk}/xp/")
    audit(gm, label="XP page (GM)")
    before = Character.objects.get(pk=vex.pk).xp_available
    award = gm.locator("section:has(#award-heading)")
    award.locator("input[name=amount]").fill("3")
    award.locator("input[name=reason]").fill("Escaped the blockade")
    award.locator("button:has-text('Award')").click()
    expect(gm.locator("#xp-panel")).to_contain_text(f"{before + 3} XP available")
    # The player's open sheet shows the new balance without a reload.
    expect(player.locator("#sheet-xp")).to_contain_text(f"XP: {before + 3} available")
    assert Character.objects.get(pk=vex.pk).xp_available == before + 3

    player.goto(f"/characters/{vex.pk}/xp/")
    audit(player, label="XP page (player, phone)")
    no_horizontal_scroll(player)
    # The price shows as the trait is chosen, with the button that buys at it.
    player.select_option("select[name=trait]", "ability:Stealth")
    expect(player.locator("#spend-quote")).to_contain_text("Stealth 2 → 3 costs 6 XP")
    buy = player.locator("#spend-quote button:has-text('Buy for 6 XP')")
    expect(buy).to_be_visible()
    audit(player, label="XP page with the price")
    buy.click()
    expect(player.locator("#xp-panel")).to_contain_text(f"{before + 3 - 6} XP available")
    vex.refresh_from_db()
    assert vex.xp_available == before + 3 - 6
    assert vex.sheet["abilities"]["Stealth"] == 3
