"""In a browser: each press of Roll on the sheet is one roll, and the same form sent twice is
still one (docs/security.md, "Double submits"). The htmx answer hands the dialog its next
token (an out-of-band swap), which only a browser running htmx can show."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from rolls.models import Roll
from tests.e2e.test_maelstrom_at_the_table import log_in, table  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_two_presses_of_roll_are_two_rolls_and_a_resent_form_is_not_a_third(
    new_page, table  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    player = new_page()
    log_in(player, "pax")
    vex = table["character"]
    player.goto(vex.get_absolute_url())
    player.locator("input[name=trait][value=Precision]").check()
    token = player.locator("#roll-submission")
    first_token = token.get_attribute("value")

    player.locator("#roll-form .actions button").click()
    expect(player.locator("#roll-result")).to_contain_text(re.compile(r"success|failure|botch",
                                                                      re.I))
    expect(token).not_to_have_attribute("value", first_token or "")
    first = Roll.objects.get(character=vex)
    player.locator("#roll-form .actions button").click()
    expect(player.locator("#roll-result")).not_to_contain_text(f"#{first.label}")
    assert Roll.objects.filter(character=vex).count() == 2

    # The first form sent again, as a browser resending it would: the first roll, not a third.
    answer = player.request.post(
        f"/characters/{vex.pk}/roll/",
        form={"csrfmiddlewaretoken": player.locator("#roll-form input[name=csrfmiddlewaretoken]")
              .get_attribute("value") or "", "submission": first_token or "",
              "kind": "action", "trait": "Precision", "difficulty": "6", "threshold": "0"},
        headers={"Referer": player.url}, max_redirects=0)
    assert answer.status == 302
    assert answer.headers["location"] == first.get_absolute_url()
    assert Roll.objects.filter(character=vex).count() == 2
