"""At the table with a Maelstrom sheet: by keyboard alone, with a thumb on a phone, and
with the things people do by accident (two tabs, a form left open)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

import systems
from characters.models import Character, XpEntry
from characters.services import sheet_change
from rolls.models import Roll
from tests.e2e.conftest import PASSWORD, audit, no_horizontal_scroll, small_touch_targets
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):  # type: ignore[no-untyped-def]
    """Gwen the GM, Pax her player, and Pax's character Vex (Precision 4, Driving 3)."""
    gwen = UserFactory(username="gwen", password=PASSWORD)
    pax = UserFactory(username="pax", password=PASSWORD)
    campaign = CampaignFactory(name="Rust and Static", created_by=gwen)
    MembershipFactory(campaign=campaign, user=pax)
    vex = CharacterFactory(campaign=campaign, owner=pax, name="Vex",
                           attributes={"Precision": 4}, abilities={"Driving": 3, "Stealth": 2,
                                                                  "Alertness": 2})
    return {"gm": gwen, "player": pax, "character": vex}


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def tab_to(page: Page, selector: str, limit: int = 250) -> None:
    """Press Tab until the element matching ``selector`` has the focus, and check the focus
    is visible on it."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            visible = page.evaluate(
                """() => { const s = getComputedStyle(document.activeElement);
                           return s.outlineStyle !== 'none' && s.outlineWidth !== '0px'
                                  || s.boxShadow !== 'none'; }"""
            )
            assert visible, f"focus on {selector} is not visible"
            return
    raise AssertionError(f"{limit} presses of Tab never reached {selector}")


def test_a_roll_by_keyboard_alone_is_announced(new_page, table) -> None:  # type: ignore[no-untyped-def]
    player = new_page()
    log_in(player, "pax")
    vex: Character = table["character"]
    player.goto(vex.get_absolute_url())

    tab_to(player, "input[name=trait][value=Precision]")
    player.keyboard.press("Space")
    tab_to(player, "input[name=trait][value=Driving]")
    player.keyboard.press("Space")
    expect(player.locator("#roll-odds")).to_contain_text("Precision + Driving: 7 dice")

    # Shift+Tab back up to the dialog's Roll button, then Enter.
    for _ in range(250):
        player.keyboard.press("Shift+Tab")
        if player.evaluate("document.activeElement.matches('#roll-form .actions button')"):
            break
    else:
        raise AssertionError("Shift+Tab never reached the Roll button")
    player.keyboard.press("Enter")
    live = player.locator("#roll-result")
    expect(live).to_contain_text(re.compile(r"success|failure|botch", re.I))
    assert live.get_attribute("aria-live") == "polite"
    assert Roll.objects.filter(character=vex).count() == 1


def test_the_gm_marks_damage_by_keyboard_and_keeps_the_place(new_page, table) -> None:  # type: ignore[no-untyped-def]
    gm = new_page()
    log_in(gm, "gwen")
    vex: Character = table["character"]
    gm.goto(vex.get_absolute_url())

    tab_to(gm, "#damage-kind")
    gm.keyboard.press("ArrowDown")  # Bashing -> Lethal
    tab_to(gm, "#damage-levels")
    gm.keyboard.press("Control+A")
    gm.keyboard.type("2")
    tab_to(gm, "#health-track button[value=damage]")
    gm.keyboard.press("Enter")
    expect(gm.locator("#wound-penalty-note")).to_contain_text("−1 die (Scratched)")
    # Every health box has a name; a mark is said in words, not by colour alone.
    boxes = gm.locator("#health-track .health-row").get_by_role("img")
    expect(boxes.nth(0)).to_have_accessible_name("Bruised: lethal")
    expect(boxes.nth(1)).to_have_accessible_name("Scratched: lethal")
    # The focus stays in the health track, so the next key press carries on from there.
    assert gm.evaluate("!!document.activeElement.closest('#health-track')")
    vex.refresh_from_db()
    assert vex.sheet["health"]["lethal"] == 2


def test_the_sheet_fits_a_phone_with_thumb_sized_controls(new_page, table) -> None:  # type: ignore[no-untyped-def]
    player = new_page(phone=True)
    log_in(player, "pax")
    vex: Character = table["character"]
    player.goto(vex.get_absolute_url())
    no_horizontal_scroll(player)
    assert small_touch_targets(player, "main") == []
    assert small_touch_targets(player, ".roll-bar") == []
    player.check("input[name=trait][value=Precision]")
    expect(player.locator("#roll-odds")).to_contain_text("Precision: 4 dice")
    player.locator(".roll-bar button").click()
    expect(player.locator("#roll-result")).to_contain_text(re.compile(r"success|failure|botch",
                                                                      re.I))
    no_horizontal_scroll(player)
    assert small_touch_targets(player, "main") == []
    audit(player, label="sheet after a roll (phone)")

    player.goto(f"/characters/{vex.pk}/xp/")
    no_horizontal_scroll(player)
    assert small_touch_targets(player, "main") == []


def quote(page: Page, character: Character, trait: str) -> None:
    """Open the XP page and choose ``trait``: its price shows with the button that buys it."""
    page.goto(f"/characters/{character.pk}/xp/")
    page.select_option("select[name=trait]", trait)
    expect(page.locator("#spend-quote")).to_contain_text(f"{trait.partition(':')[2]} ")
    expect(page.locator("#spend-quote button")).to_be_visible()


def test_a_second_tab_spending_the_same_xp_is_refused_clearly(new_page, table) -> None:  # type: ignore[no-untyped-def]
    vex: Character = table["character"]
    first = new_page()
    log_in(first, "pax")
    second = first.context.new_page()  # the same player, another tab
    # Leave 9 XP available: enough for one of the two 6-XP dots, not both.
    bank = systems.for_campaign(vex.campaign).actions["bank"]
    sheet_change(character=vex, action=bank, by=table["player"],
                 data={"trait": "ability:Driving", "amount": vex.xp_available - 9})

    quote(first, vex, "ability:Stealth")
    quote(second, vex, "ability:Alertness")
    first.click("#spend-quote button:has-text('Buy for 6 XP')")
    expect(first.locator("#xp-panel")).to_contain_text("3 XP available")

    second.click("#spend-quote button:has-text('Buy for 6 XP')")
    refusal = second.locator("#xp-panel")
    expect(refusal).to_contain_text(re.compile(r"costs 6 XP.*3", re.S))
    vex.refresh_from_db()
    assert vex.xp_available == 3
    assert vex.xp_entries.filter(kind=XpEntry.Kind.SPEND).count() == 1
    assert vex.sheet["abilities"]["Alertness"] == 2


def test_a_quote_left_open_after_the_dot_was_bought_is_not_charged(new_page, table) -> None:  # type: ignore[no-untyped-def]
    vex: Character = table["character"]
    first = new_page()
    log_in(first, "pax")
    second = first.context.new_page()
    quote(first, vex, "ability:Stealth")  # Stealth 2 -> 3: 6 XP
    quote(second, vex, "ability:Stealth")
    first.click("#spend-quote button:has-text('Buy for 6 XP')")
    expect(first.locator("#xp-panel")).to_contain_text("24 XP available")

    # The second tab still offers 2 -> 3 for 6 XP; Stealth is now 3, so the next dot costs 8.
    second.click("#spend-quote button:has-text('Buy for 6 XP')")
    expect(second.locator("#xp-panel")).to_contain_text("The price changed to 8 XP")
    vex.refresh_from_db()
    assert vex.sheet["abilities"]["Stealth"] == 3
    assert vex.xp_available == 24
