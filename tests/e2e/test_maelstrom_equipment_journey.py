"""Equipment at the table, on a phone (issue 33, "Equipment"): Pax adds a heavy pistol from the
seed's table on Vex's sheet, fires it until it needs a reload, and reloads it, each in place;
the card fits the phone, its controls take a thumb, and axe finds nothing serious."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from equipment.models import Item
from tests.e2e.conftest import PASSWORD, audit, no_horizontal_scroll, small_touch_targets
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_a_maelstrom_character_fires_a_heavy_pistol_until_it_needs_a_reload(new_page) -> None:  # type: ignore[no-untyped-def]
    gwen = UserFactory(username="gwen", password=PASSWORD)
    pax = UserFactory(username="pax", password=PASSWORD)
    campaign = CampaignFactory(name="Rust and Static", created_by=gwen)
    MembershipFactory(campaign=campaign, user=pax)
    vex = CharacterFactory(campaign=campaign, owner=pax, name="Vex")
    page = new_page(phone=True)
    page.goto("/login/")
    page.fill("input[name=username]", "pax")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    page.goto(vex.get_absolute_url())

    card = page.locator("#sheet-inventory")
    expect(card).to_contain_text("Nothing carried yet.")
    card.get_by_label("What it is").select_option(label="Pistol, Heavy")
    card.locator("#item-add").click()
    expect(card).to_contain_text("Damage 5 · Range 30 · Rate 3 · Capacity 7+1")
    expect(card).to_contain_text("8 of 8 rounds loaded")
    no_horizontal_scroll(page)
    assert small_touch_targets(page, "#sheet-inventory") == []

    fire = card.get_by_role("button", name="Fire the Pistol, Heavy")
    for left in range(7, -1, -1):
        fire.click()
        expect(card).to_contain_text(f"{left} of 8 rounds loaded")
    expect(card).to_contain_text("Out of rounds: reload.")
    expect(fire).to_be_disabled()
    audit(page, label="the Equipment card with an empty pistol (phone)")

    card.get_by_role("button", name="Reload the Pistol, Heavy").click()
    expect(card).to_contain_text("Reloaded the Pistol, Heavy: 8 rounds.")
    expect(fire).to_be_enabled()
    assert Item.objects.get(character=vex).details == {"weapon": "pistol-heavy", "loaded": 8}
