"""An encounter at a live table (docs/encounters.md), in a real browser: the GM's dashboard at
a desk and the player's sheet on a phone. The GM starts an encounter, adds a hidden NPC and
begins; the phone shows "Your turn" near the top without a reload; the player presses Done;
the GM's card shows the NPC's turn, and the phone "The GM's turn", neither reloaded. axe on
both pages as they stand then."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from characters.models import Character
from tests.e2e.conftest import audit
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_the_turn_goes_round_the_table_live(new_page, table) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    vex: Character = table["character"]
    campaign = vex.campaign
    Character.all_objects.create(campaign=campaign, owner=table["gm"], name="Masked Courier",
                                 is_npc=True, sheet=vex.sheet)
    gm, phone = new_page(), new_page(phone=True)
    log_in(gm, "gwen")
    log_in(phone, "pax")
    gm.goto(campaign.get_absolute_url())
    phone.goto(vex.get_absolute_url())

    gm.fill("#encounter-name", "Ambush on the overpass")
    gm.click("#encounter-start")
    expect(gm.locator("#turn-order h2")).to_contain_text("Ambush on the overpass")
    # Before the first turn the card stands open on "Set the order" and "Add to the fight".
    gm.get_by_label("Masked Courier (NPC)").check()
    gm.click("#combatant-add")
    expect(gm.locator("#turn-order .turn-list")).to_contain_text("Masked Courier")
    gm.click("#turn-next")  # Begin round 1: Vex first, the party before the NPC

    your_turn = phone.locator("#turn-order h2")
    expect(your_turn).to_contain_text("Your turn")
    assert phone.locator("#turn-order").bounding_box()["y"] < 844  # type: ignore[index]  # shown: it has a box
    audit(phone, label="sheet on a phone, your turn")
    phone.click("#turn-done")

    expect(gm.locator("#turn-order .turn-now")).to_contain_text("Masked Courier's turn")
    expect(your_turn).to_contain_text("The GM's turn")
    assert "Masked Courier" not in phone.content()
    audit(gm, label="dashboard with an encounter")
