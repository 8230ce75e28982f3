"""The GM runs the table from the dashboard while the player plays on a phone, live: the
player's roll shows on the dashboard, the GM's damage mark on the phone, the GM asks for a
roll and gets the answer; a quick NPC roll; axe on the dashboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from characters.models import Character
from rolls.models import RequestedRoll, Roll
from tests.e2e.conftest import audit, no_horizontal_scroll
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_the_gm_runs_the_table_from_the_dashboard(new_page, table) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    vex: Character = table["character"]
    gm, player = new_page(), new_page(phone=True)
    log_in(gm, "gwen")
    log_in(player, "pax")
    gm.goto(vex.campaign.get_absolute_url())
    player.goto(vex.get_absolute_url())
    audit(gm, label="dashboard")
    gm.evaluate("window.stillThisPage = true")
    player.evaluate("window.stillThisPage = true")
    card = gm.locator(f"#card-{vex.pk}")
    expect(card).to_contain_text("Healthy")

    # The player's roll appears on the dashboard.
    player.check("input[name=trait][value=Precision]")
    player.locator("#roll-form .actions button").first.click()
    expect(player.locator("#roll-result")).to_contain_text(re.compile("success|failure|botch",
                                                                      re.I))
    expect(gm.locator("#campaign-rolls")).to_contain_text("Vex")
    # Play first: the roll that arrived is in the first screen, marked new for a moment.
    arrived = gm.locator("#campaign-rolls li.roll-new")
    expect(arrived).to_have_count(1)
    expect(arrived).to_contain_text("Vex")
    expect(arrived).to_contain_text("new")
    expect(arrived).to_be_in_viewport()
    expect(gm.locator("#roll-news")).to_contain_text("New roll: Vex")
    assert gm.evaluate("window.scrollY") == 0
    expect(gm.locator("#party")).to_be_in_viewport()
    expect(gm.locator("#request-form")).to_be_in_viewport()

    # The GM marks damage on the card: the card and the player's phone follow.
    gm.select_option(f"#card-{vex.pk}-kind", "lethal")
    gm.fill(f"#card-{vex.pk}-levels", "2")
    gm.click(f"#card-{vex.pk}-damage")
    expect(card).to_contain_text("Scratched · wound penalty −1 die")
    expect(player.locator("#wound-penalty-note")).to_contain_text("−1 die (Scratched)")

    # The GM asks Vex for Precision + Driving at difficulty 7; it appears on the phone.
    gm.select_option("#request-form select[name=character]", str(vex.pk))
    gm.fill("#request-form input[name=traits]", "Precision + Driving")
    gm.fill("#request-form input[name=difficulty]", "7")
    gm.fill("#request-form input[name=note]", "Outrun the patrol")
    gm.click("#request-form button[type=submit]")
    expect(gm.locator("#request-form")).to_contain_text("Asked Vex for Precision + Driving")
    requests = player.locator("#roll-requests")
    expect(requests).to_contain_text("Precision + Driving, difficulty 7")
    audit(player, label="sheet with a roll request (phone)")
    no_horizontal_scroll(player)

    # The player confirms; the answer lands on the dashboard and the request goes away.
    requests.locator("button:has-text('Roll it')").click()
    expect(requests).not_to_contain_text("Outrun the patrol")
    asked = RequestedRoll.objects.get()
    assert asked.answer is not None and asked.answer.pool["difficulty"] == 7
    expect(gm.locator("#campaign-rolls")).to_contain_text("Precision + Driving · 6 dice · diff 7")

    # A quick NPC roll, GM only.
    gm.fill("#npc-text", "6 dice diff 7 threshold 1")
    gm.check("input[name=gm_only]")
    gm.click("button:has-text('Roll for the NPC')")
    expect(gm.locator("#npc-roll-result")).to_contain_text("GM only")
    assert Roll.objects.filter(kind="npc", gm_only=True).count() == 1
    audit(gm, label="dashboard after play")

    assert gm.evaluate("window.stillThisPage") is True
    assert player.evaluate("window.stillThisPage") is True
