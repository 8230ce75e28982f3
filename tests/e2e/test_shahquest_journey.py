"""A Shahquest table in two real browsers: the GM at a desktop, the player on a phone.

Sign up, create a Shahquest campaign through the UI, join, build Demetri of the seed's Dice
Pools example (a broken affiliation rule first), see the odds, roll and see every die, pick
the dice, change plot points and stress in place, the GM's dashboard card and tension pool,
and XP awarded then spent at the price shown. axe-core audits every page; the phone never
scrolls sideways and its buttons are thumb-sized.
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


def phone_check(page: Page, label: str) -> None:
    phone_checks(page, label, buttons_only=True)


def gm_creates_a_campaign(gm: Page) -> str:
    sign_up(gm, "sasha")
    invite = create_campaign(gm, name="The Heist", ruleset="shahquest")
    expect(gm.locator("#system-panel")).to_contain_text("3d6")
    audit(gm, label="Shahquest campaign page (GM)")
    return invite


def player_joins(player: Page, invite: str) -> None:
    join_by_invite(player, invite, username="shawn", campaign="The Heist")
    player.click("a:has-text('Create a character')")


def player_builds_demetri(player: Page) -> Character:
    expect(player.locator("h1")).to_have_text("New Shahquest character")
    phone_check(player, "creation page (phone)")
    player.fill("input[name=name]", "Demetri")
    player.fill("input[name=concept]", "Chandelier-swinging thief")
    player.select_option("select[name=solo]", "4")
    player.select_option("select[name=partner]", "6")
    player.select_option("select[name=gang]", "6")  # breaks the rule: d4, d6, d8 once each
    player.fill("input[name=attribute_1_name]", "Coordination")
    player.select_option("select[name=attribute_1_die]", "10")
    player.fill("input[name=skill_1_name]", "Physical")
    player.select_option("select[name=skill_1_die]", "8")
    player.fill("input[name=skill_1_spec_1_name]", "Athletics")
    player.select_option("select[name=skill_1_spec_1_use]", "spread")
    player.fill("input[name=quirk_1_name]", "I've got your back")
    player.fill("input[name=power_1_set]", "Thief's luck")
    player.fill("input[name=power_1_name]", "Shadow step")
    player.select_option("select[name=power_1_die]", "6")
    player.fill("input[name=extra_1_set]", "Thief's luck")
    player.fill("input[name=extra_1_name]", "Vanish")
    player.fill("textarea[name=extra_1_text]", "Spend a plot point to step out of sight.")
    player.click("button:has-text('Create the character')")

    expect(player.locator("#create-errors")).to_contain_text("d4, a d6 and a d8 once each")
    expect(player.locator("input[name=name]")).to_have_value("Demetri")
    phone_check(player, "creation page with the rule named")

    player.select_option("select[name=gang]", "8")
    player.click("button:has-text('Create the character')")
    expect(player.locator("h1")).to_have_text("Demetri")
    return Character.objects.get(name="Demetri")


def test_a_shahquest_table_from_sign_up_to_spending_xp(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = new_page()
    player = new_page(phone=True)

    invite = gm_creates_a_campaign(gm)
    player_joins(player, invite)
    demetri = player_builds_demetri(player)
    phone_check(player, "sheet (player, phone)")

    # The seed's pool: Coordination d10, the quirk d8, Physical spread by Athletics, a d6
    # setting die; the odds show before the roll.
    dialog = player.locator("#roll-form")
    dialog.get_by_label("Coordination d10").check()
    dialog.get_by_label("I've got your back d8", exact=True).check()
    dialog.get_by_label("Athletics (spreads Physical)").check()
    player.select_option("select[name=setting_die]", "6")
    expect(player.locator("#roll-odds")).to_contain_text("d10 3d8 d6")
    expect(player.locator("#roll-odds")).to_contain_text("Effort 11+")
    audit(player, label="sheet with odds")

    player.click("#roll-button")
    expect(player.locator("#roll-result")).to_contain_text("Effort")
    roll = Roll.objects.get(character=demetri)
    dice = player.locator("#roll-result .sq-rolled")
    expect(dice).to_have_count(5)
    assert [d["size"] for d in roll.result["dice"]] == [10, 8, 8, 8, 6]
    phone_check(player, "sheet after a roll")
    player.evaluate("document.querySelector('#roll-result').scrollIntoView({block: 'start'})")
    screenshot(player, "shahquest-roll-phone", full_page=False)

    # The player keeps the preselected dice (a choice is stored as a follow-up roll).
    player.locator("#roll-result button:has-text('Keep these dice')").click()
    expect(player.locator("#roll-result")).to_contain_text("dice chosen by shawn")
    assert roll.followups.count() == 1

    # Plot points and stress change in place.
    player.evaluate("window.stillThisPage = true")
    player.click("#plot-plus")
    expect(player.locator("#plot-points")).to_have_text("2")
    player.select_option("#stress-kind", "physical")
    player.select_option("#stress-die", "8")
    player.click("#stress-take")
    expect(player.locator("#stress-state")).to_contain_text("Physical stress d8")
    assert player.evaluate("window.stillThisPage") is True
    phone_check(player, "sheet after track changes")
    screenshot(player, "shahquest-sheet-phone")

    # The GM's dashboard shows Demetri's card with his tracks; the GM gives a plot point.
    gm.goto(f"/campaigns/{demetri.campaign_id}/")
    card = gm.locator(f"#card-{demetri.pk}")
    expect(card).to_contain_text("Physical stress d8")
    expect(card).to_contain_text("Plot points 2")
    card.locator("button[name=change][value='1']").click()
    expect(gm.locator(f"#card-{demetri.pk}")).to_contain_text("Plot points 3")
    audit(gm, label="dashboard (GM)")
    screenshot(gm, "shahquest-dashboard-desktop")

    # The GM awards 10 XP; the player sees the price of Physical d8 -> d10 and buys it.
    gm.goto(f"/characters/{demetri.pk}/xp/")
    award = gm.locator("section:has(#award-heading)")
    award.locator("input[name=amount]").fill("10")
    award.locator("input[name=reason]").fill("The chandelier")
    award.locator("button:has-text('Award')").click()
    expect(gm.locator("#xp-panel .xp-remaining")).to_have_text("10 XP available")

    player.goto(f"/characters/{demetri.pk}/xp/")
    phone_check(player, "XP page (phone)")
    # The line shows the price, and its button buys at it.
    buy = player.get_by_role("button", name="Buy Physical d8 → d10 for 10 XP")
    expect(buy.locator("xpath=..")).to_contain_text("Physical d8 → d10: 10 XP")
    audit(player, label="XP page with the prices")
    buy.click()
    expect(player.locator("#xp-panel")).to_contain_text("Spent 10 XP: Physical d8 → d10.")
    expect(player.locator("#xp-panel .xp-remaining")).to_have_text("0 XP available")
    demetri.refresh_from_db()
    physical = next(f for f in demetri.sheet["features"] if f["name"] == "Physical")
    assert physical["die"] == 10
    assert demetri.xp_available == 0
