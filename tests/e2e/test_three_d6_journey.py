"""A 3d6 table in two real browsers, as new users meet it: the GM at a desktop, the player on
a phone.

The GM signs up, creates a 3d6 campaign and names a trait; the player joins, builds a
character (an overspent budget is refused first, naming the rule), tests a trait against a TD
and contests an NPC with every die shown, takes damage in place, and spends XP with the price
shown before confirming; the GM's dashboard shows the character's card and changes its health
in place. axe-core audits every page; the phone never scrolls sideways.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from characters.models import Character
from rolls.models import Roll
from tests.e2e.conftest import (
    audit,
    create_campaign,
    join_by_invite,
    no_horizontal_scroll,
    screenshot,
    sign_up,
    small_buttons,
)

pytestmark = [pytest.mark.django_db(transaction=True)]


def gm_creates_a_campaign_and_names_a_trait(gm: Page) -> str:
    sign_up(gm, "dana")
    invite = create_campaign(gm, name="Salt Roads", ruleset="three_d6", starting_xp=10)
    audit(gm, label="3d6 dashboard (GM)")

    # On the settings page (configuration, not play), the GM renames the first trait in
    # place: the panel answers without a reload.
    gm.click("main a:has-text('Settings')")
    gm.evaluate("window.stillThisPage = true")
    panel = gm.locator("#system-panel")
    expect(panel).to_contain_text("Power (Might, Endurance) · Agility (Dexterity, Speed)")
    panel.locator("summary:has-text('Rename traits and subtraits')").click()
    panel.locator("input[name=t0]").fill("Brawn")
    with gm.expect_response(lambda r: "/system/names/" in r.url) as answer:
        panel.locator("button:has-text('Save names')").click()
    assert "Trait and subtrait names saved." in answer.value.text()
    # (The live refresh may redraw the panel from the saved names right after.)
    expect(gm.locator("#system-panel input[name=t0]")).to_have_value("Brawn")
    assert gm.evaluate("window.stillThisPage") is True
    return invite


def player_joins_and_builds_a_character(player: Page, invite: str) -> Character:
    join_by_invite(player, invite, username="pip", campaign="Salt Roads")
    player.click("a:has-text('Create a character')")
    expect(player.locator("h1")).to_have_text("New 3d6 character")
    audit(player, label="3d6 creation (phone)")
    no_horizontal_scroll(player)
    assert small_buttons(player) == []

    player.fill("input[name=name]", "Wren")
    player.fill("input[name=concept]", "Salt trader")
    # The GM's name is on the form; overspending the trait budget is refused, input kept.
    expect(player.get_by_label("Brawn (trait)")).to_have_value("2")
    player.get_by_label("Brawn (trait)").fill("3")
    player.click("button:has-text('Create the character')")
    expect(player.locator("[role=alert]")).to_contain_text(
        "The trait modifiers add up to 7; spend exactly 6 points on traits (1 too many)")
    expect(player.locator("input[name=name]")).to_have_value("Wren")
    audit(player, label="3d6 creation refused")
    no_horizontal_scroll(player)

    player.get_by_label("Brawn (trait)").fill("2")
    player.click("button:has-text('Create the character')")
    expect(player.locator("h1")).to_have_text("Wren")
    return Character.objects.get(name="Wren")


def test_a_3d6_table_from_sign_up_to_spending_xp(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = new_page()
    player = new_page(phone=True)

    invite = gm_creates_a_campaign_and_names_a_trait(gm)
    wren = player_joins_and_builds_a_character(player, invite)
    audit(player, label="3d6 sheet (phone)")
    no_horizontal_scroll(player)
    assert small_buttons(player) == []
    expect(player.locator("#d6-traits")).to_contain_text("Brawn")

    # A test of Brawn (+2) against TD 11: the exact odds show before the roll.
    player.select_option("select[name=target]", "t0")
    player.fill("input[name=td]", "11")
    player.locator("input[name=favor]").fill("1")
    expect(player.locator("#roll-odds")).to_contain_text("Brawn test: 4d6 + 2 vs TD 11 (1 favor)")
    expect(player.locator("#roll-odds")).to_contain_text("Critical success 1.6 %")
    player.locator("#roll-button").click()
    expect(player.locator("#roll-result")).to_contain_text(re.compile(r"Success|Failure"))
    test_roll = Roll.objects.get(character=wren)
    assert len(test_roll.result["dice"]) == 4
    expect(player.locator("#roll-result svg.die")).to_have_count(4)
    audit(player, label="3d6 sheet after a test")
    no_horizontal_scroll(player)

    # A contest against an NPC who defends: both sides' dice, stored once.
    player.locator("input[name=favor]").fill("0")
    player.check("input[name=mode][value=contest]")
    player.select_option("select[name=opponent]", "npc")
    player.fill("input[name=npc_name]", "Toll keeper")
    player.fill("input[name=npc_modifier]", "1")
    player.select_option("select[name=defender]", "opponent")
    expect(player.locator("#roll-odds")).to_contain_text("A tie goes to Wren: a PC wins")
    player.locator("#roll-button").click()
    expect(player.locator("#roll-result")).to_contain_text(" wins ")
    expect(player.locator("#roll-result svg.die")).to_have_count(6)
    contest = Roll.objects.get(character=wren, kind="contest")
    assert contest.result["second"]["name"] == "Toll keeper"
    audit(player, label="3d6 sheet after a contest")
    no_horizontal_scroll(player)
    screenshot(player, "three_d6-sheet-phone")

    # The contest's own page and the roll log draw both sides' dice, on the phone too.
    player.goto(contest.get_absolute_url())
    expect(player.locator(".roll-result svg.die")).to_have_count(6)
    audit(player, label="3d6 contest page (phone)")
    no_horizontal_scroll(player)
    player.goto(f"/campaigns/{wren.campaign_id}/rolls/")
    expect(player.locator("#roll-log svg.die")).to_have_count(10)
    audit(player, label="3d6 roll log (phone)")
    no_horizontal_scroll(player)
    player.goto(f"/characters/{wren.pk}/")

    # Damage in place on the sheet.
    player.evaluate("window.stillThisPage = true")
    player.locator("#d6-damage").click()
    expect(player.locator("#sheet-tracks")).to_contain_text("Health 9/10")
    assert player.evaluate("window.stillThisPage") is True

    # Spend XP: Might +1 -> +2 costs 4 of the 10 starting XP; its line shows the price and buys.
    player.goto(f"/characters/{wren.pk}/xp/")
    audit(player, label="3d6 XP page (phone)")
    no_horizontal_scroll(player)
    assert small_buttons(player) == []
    player.get_by_role("button", name="Buy Might +1 → +2 for 4 XP").click()
    expect(player.locator("#xp-panel")).to_contain_text("Spent 4 XP: Might +1 → +2.")
    expect(player.locator("#xp-panel")).to_contain_text("6 XP available")
    wren.refresh_from_db()
    assert wren.sheet["modifiers"]["s0"] == 2 and wren.xp_available == 6

    # The GM's dashboard shows Wren's card; a damage from the card changes it in place.
    gm.goto(f"/campaigns/{wren.campaign_id}/")
    card = gm.locator(f"#card-{wren.pk}")
    expect(card).to_contain_text("Health 9/10")
    expect(card).to_contain_text("Brawn +2")
    audit(gm, label="3d6 dashboard with a card")
    screenshot(gm, "three_d6-dashboard-desktop")
    gm.evaluate("window.stillThisPage = true")
    card.locator("button[value=damage]").click()
    expect(gm.locator(f"#card-{wren.pk}")).to_contain_text("Health 8/10")
    assert gm.evaluate("window.stillThisPage") is True
    wren.refresh_from_db()
    assert wren.sheet["health"]["current"] == 8
