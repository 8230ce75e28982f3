"""What a newcomer meets on a 390 px phone (issue 32), measured as they see it, on one page
load of the sheet and one of the XP page:

- the site header is one line (brand and a folded menu) that opens by touch and by keyboard;
- between the header and the sheet there is only the character's name and XP line: the
  managing links come after the sheet, the everyday ones on one row and Delete after them,
  drawn apart;
- the XP ledger reads as a block per entry, its labels shown and no word broken across lines.

The frame and the XP page are the same for every system, so one system's character stands
for all five (the sheets themselves fit a phone in test_the_look.py).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from characters import services
from tests.e2e.conftest import audit, no_horizontal_scroll
from tests.factories import PASSWORD, CampaignFactory, CharacterFactory, UserFactory
from tests.system_fixtures import first_purchase

pytestmark = [pytest.mark.django_db(transaction=True)]

HEADER_MAX = 64
"""The header's height on a phone, in CSS px: one 44 px line and its padding."""

BROKEN_WORDS = """(selector) => {
  // Every word shown in the element whose letters sit on more than one line.
  const broken = [];
  const range = document.createRange();
  const walker = document.createTreeWalker(document.querySelector(selector),
                                           NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // Text for screen readers only (the column headers on a phone) is not seen.
    if (node.parentElement.closest('thead, .visually-hidden')) continue;
    for (const word of node.textContent.matchAll(/\\S+/g)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(word[0]);
    }
  }
  return broken;
}"""


def log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def test_the_header_the_sheet_and_the_ledger_read_on_a_phone(new_page) -> None:  # type: ignore[no-untyped-def]
    gm = UserFactory(username="odile")
    player = UserFactory(username="tamsin")
    campaign = CampaignFactory(name="The Drift", created_by=gm)
    rook = CharacterFactory(campaign=campaign, owner=player, name="Rook")
    services.xp_award(character=rook, amount=5, reason="Participation award", by=gm)
    first_purchase(rook, by=player)  # the player's latest spend: it offers Undo

    page = new_page(phone=True)
    log_in(page, "tamsin")
    page.goto(rook.get_absolute_url())

    # The header: one line, its links folded into a menu that opens by touch.
    header = box(page, ".site-header")
    assert header["height"] <= HEADER_MAX, f"the header is {header['height']} px high"
    assert abs(box(page, ".brand")["y"] - box(page, ".site-menu > summary")["y"]) < 8
    campaigns = page.locator(".site-header").get_by_role("link", name="Campaigns")
    expect(campaigns).to_be_hidden()
    page.locator(".site-menu > summary").click()
    expect(campaigns).to_be_visible()
    audit(page, label="sheet with the menu open (phone)")
    page.locator(".site-menu > summary").click()
    expect(campaigns).to_be_hidden()
    # ... and by keyboard: the menu is the first stop after the brand.
    page.locator(".brand").focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(campaigns).to_be_visible()
    page.keyboard.press("Tab")
    expect(campaigns).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(campaigns).to_be_hidden()

    # Between the name and the sheet, no managing link; they come after the writing.
    expect(page.locator(".sheet-head a.button")).to_have_count(0)
    actions = page.locator("#character-actions a")
    expect(actions).to_have_text(["Export as JSON", "Edit", "Retire", "Delete"])
    assert box(page, "#character-actions")["y"] > box(page, "#character-writing")["y"]
    rows = [actions.nth(i).bounding_box() for i in range(4)]
    assert all(rows), "a managing link is not shown"
    export, edit, retire, delete = rows  # type: ignore[misc]
    assert export["y"] == edit["y"] == retire["y"], "the everyday actions take two rows"
    assert delete["y"] > retire["y"] or delete["x"] > retire["x"] + retire["width"]
    assert "danger" in (actions.nth(3).get_attribute("class") or "")
    no_horizontal_scroll(page)

    # The ledger: a block per entry, labelled, no word broken.
    page.goto(reverse("characters:character-xp", args=[rook.pk]))
    ledger = page.locator("table.ledger")
    expect(ledger.locator("tbody tr")).to_have_count(3)
    expect(ledger.locator("thead")).to_be_attached()
    first = ledger.locator("tbody tr").first
    expect(first.locator(".cell-label").first).to_be_visible()
    expect(first).to_contain_text("Available after")
    expect(first.get_by_role("link", name="Undo")).to_be_visible()
    assert page.evaluate(BROKEN_WORDS, "table.ledger") == []
    # A line each: the label beside its value, not above it.
    when_label, when_value = (first.locator("td").first.locator("span").nth(i).bounding_box()
                              for i in (0, 1))
    assert when_label and when_value and abs(when_label["y"] - when_value["y"]) < 4
    audit(page, label="XP page (phone)")
    no_horizontal_scroll(page)
