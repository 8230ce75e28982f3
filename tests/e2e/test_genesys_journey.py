"""A Genesys table in two real browsers: the GM at a desktop, the player on a phone.

Sign up, create a Genesys campaign through the UI, join, build Kestrel (a broken career rule
first, named, the boxes kept), see the pool as dice with its odds, roll and see every die
with its symbols and the net result, suffer wounds in place, buy Agility on the XP page at
the price shown, finish creation there, and the GM's dashboard card and skill list. axe-core
audits every page; the phone never scrolls sideways and its buttons are thumb-sized.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from characters.models import Character
from rolls.models import Roll
from tests.e2e.conftest import (
    audit,
    create_campaign,
    join_by_invite,
    phone_checks,
    screenshot,
    sign_up,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

CAREER = ["Cool", "Coordination", "Deception", "Perception", "Ranged", "Skulduggery",
          "Stealth", "Streetwise"]
FREE = ["Cool", "Ranged", "Skulduggery", "Stealth", "Athletics", "Charm"]


def phone_check(page: Page, label: str) -> None:
    phone_checks(page, label, buttons_only=True)


def gm_creates_a_campaign(gm: Page) -> str:
    sign_up(gm, "gwen")
    invite = create_campaign(gm, name="The Long Night", ruleset="genesys", starting_xp=110)
    audit(gm, label="Genesys campaign page (GM)")
    # The skill list is configuration: on the settings page.
    gm.click("main a:has-text('Settings')")
    expect(gm.locator("#system-panel")).to_contain_text("Athletics · Brawn")
    gm.go_back()
    return invite


def player_joins(player: Page, invite: str) -> None:
    join_by_invite(player, invite, username="kit", campaign="The Long Night")
    player.click("a:has-text('Create a character')")


def player_builds_kestrel(player: Page) -> Character:
    expect(player.locator("h1")).to_have_text("New Genesys character")
    phone_check(player, "creation page (phone)")
    player.fill("input[name=name]", "Kestrel")
    player.fill("input[name=concept]", "A smuggler who owes everyone")
    player.fill("input[name=career]", "Scoundrel")
    for name in CAREER[:7]:  # one career skill short: the rule is named
        player.get_by_label(f"{name} is a career skill", exact=True).check()
    for name in FREE:
        player.get_by_label(f"a free rank in {name}", exact=True).check()
    player.click("button:has-text('Create the character')")

    expect(player.locator("#creation-errors")).to_contain_text(
        "choose exactly 8 career skills (you chose 7)")
    expect(player.locator("input[name=name]")).to_have_value("Kestrel")
    expect(player.get_by_label("a free rank in Charm", exact=True)).to_be_checked()
    phone_check(player, "creation page with the rule named")

    player.get_by_label(f"{CAREER[7]} is a career skill", exact=True).check()
    player.click("button:has-text('Create the character')")
    expect(player.locator("h1")).to_have_text("Kestrel")
    return Character.objects.get(name="Kestrel")


def test_a_genesys_table_from_sign_up_to_spending_xp(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = new_page()
    player = new_page(phone=True)

    invite = gm_creates_a_campaign(gm)
    player_joins(player, invite)
    kestrel = player_builds_kestrel(player)
    expect(player.locator("#sheet-tracks")).to_contain_text("Wounds 0 / 12")
    phone_check(player, "sheet (player, phone)")

    # The check: Ranged (Agility 2, rank 1) against Average with a boost die; the pool shows
    # as dice with its odds before anything is rolled.
    player.select_option("#id_skill", "Ranged")
    player.fill("#id_boost", "1")
    player.locator("#id_boost").dispatch_event("change")
    odds = player.locator("#roll-odds")
    expect(odds).to_contain_text("Agility + Ranged, Average: 1 ability, 1 proficiency vs "
                                 "2 difficulty, 1 boost")
    expect(odds.locator("svg.gdie")).to_have_count(5)
    expect(odds.locator("svg.gdie-proficiency")).to_have_attribute("aria-label",
                                                                   "Proficiency die")
    audit(player, label="sheet with the pool and odds")

    player.click("#roll-button")
    expect(player.locator("#roll-result .gx-dice svg.gdie")).to_have_count(5)
    roll = Roll.objects.get(character=kestrel)
    expect(player.locator("#roll-result")).to_contain_text(roll.summary)
    expect(player.locator("#roll-result .gx-net")).to_be_visible()
    phone_check(player, "sheet after a roll")
    player.evaluate("document.querySelector('#roll-result').scrollIntoView({block: 'start'})")
    screenshot(player, "genesys-roll-phone", full_page=False)

    # Wounds change in place (no page load).
    player.evaluate("window.stillThisPage = true")
    player.fill("#gx-wounds-amount", "3")
    player.click("#gx-wounds-suffer")
    # (The answer says "Suffered 3 wounds: 3/12."; the live refresh that follows may replace
    # the box, message and all, with the same state.)
    expect(player.locator("#gx-wounds")).to_contain_text("3 / 12")
    assert player.evaluate("window.stillThisPage") is True
    phone_check(player, "sheet after suffering wounds")
    screenshot(player, "genesys-sheet-phone")

    # Creation is Step 4, investing the XP: the sheet says how much is left and points to the
    # XP page, where each line shows its price and buys at it, and where creation ends.
    expect(player.locator("#sheet-creation")).to_contain_text(
        "In creation: 110 XP left to invest.")
    player.click("#invest-xp")
    expect(player.locator("h1")).to_have_text("Kestrel: experience")
    phone_check(player, "XP page (phone)")
    expect(player.locator("#gx-creation-step")).to_contain_text("110 XP left to invest")
    buy = player.get_by_role("button", name="Buy Agility 2 → 3 for 30 XP")
    expect(buy.locator("xpath=..")).to_contain_text("Agility 2 → 3: 30 XP")
    buy.click()
    expect(player.locator("#xp-panel")).to_contain_text("Spent 30 XP: Agility 2 → 3.")
    expect(player.locator("#xp-panel .xp-remaining")).to_have_text("80 XP available")
    expect(player.locator("#gx-creation-step")).to_contain_text("80 XP left to invest")
    audit(player, label="XP page after a purchase")
    kestrel.refresh_from_db()
    assert kestrel.sheet["characteristics"]["Agility"] == 3

    # Done buying: "Finish creation" on the XP page, and the sheet is ready to play.
    player.click("#finish-creation")
    expect(player.locator("h1")).to_have_text("Kestrel")
    expect(player.locator("main")).to_contain_text("Creation finished")
    expect(player.locator("#sheet-creation")).not_to_contain_text("left to invest")
    kestrel.refresh_from_db()
    assert kestrel.sheet["creation"] is False

    # The GM's dashboard: Kestrel's card with her wounds; the GM adds a strain in place,
    # then adds a skill to the campaign's list on the settings page.
    gm.goto(f"/campaigns/{kestrel.campaign_id}/")
    card = gm.locator(f"#card-{kestrel.pk}")
    expect(card).to_contain_text("Wounds 3/12")
    expect(card).to_contain_text("Ag 3")
    gm.click(f"#card-{kestrel.pk}-strain-suffer")
    expect(gm.locator(f"#card-{kestrel.pk}")).to_contain_text("Strain 1/12")
    audit(gm, label="dashboard (GM)")
    screenshot(gm, "genesys-dashboard-desktop")
    gm.click("main a:has-text('Settings')")
    gm.fill("#gx-skill-name", "Arcana")
    gm.select_option("#gx-skill-characteristic", "Intellect")
    gm.click("#gx-skill-set")
    # (The live refresh may replace the panel, message and all, as soon as it lands.)
    expect(gm.locator("#system-panel")).to_contain_text("Arcana · Intellect")
    audit(gm, label="settings (GM)")
    kestrel.refresh_from_db()
    assert kestrel.sheet["strain"]["current"] == 1
