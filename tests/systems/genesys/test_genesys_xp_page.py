"""The Genesys XP page as the player uses it (issue 17, items 4 and 16): every line of what XP
buys shows its price and buys at it with one button (no "See the cost"); creation, whose
Step 4 is investing that XP, ends on this page, which says how much is left to invest; the
sheet says it too and points there.
"""

from __future__ import annotations

import re

import pytest

from characters.services import xp_spend
from tests.helpers import action_url, fresh, spend_url, xp_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import set_sheet, sheet_of, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]

gx_campaign, kes = cast.gx_campaign, cast.kes


def line_form(content: str, key: str) -> str:
    """The form of the XP page's line that buys ``key``."""
    for form in re.findall(r"<form\b.*?</form>", content, re.S):
        if f'name="key" value="{key}"' in form:
            return form
    raise AssertionError(f"no line buys {key}")


# --- Each line buys at the price it shows --------------------------------------------------


def test_each_line_shows_its_price_and_buys_at_it_without_a_see_the_cost_step(
        client_for, bob, kes) -> None:
    response = client_for(bob).get(xp_url(kes))

    form = line_form(response.content.decode(), "characteristic:Agility")
    assert 'method="post"' in form
    assert f'action="{spend_url(kes)}"' in form
    assert 'name="expected_cost" value="30"' in form
    assert "Buy Agility 2 → 3 for 30 XP" in text_of(response)
    assert "See the cost" not in text_of(response)


def test_a_line_bought_is_one_spend_at_the_price_shown(client_for, bob, kes) -> None:
    response = client_for(bob, htmx=True).post(
        spend_url(kes), {"key": "characteristic:Agility", "expected_cost": "30"})

    assert "Spent 30 XP: Agility 2 → 3." in text_of(response)
    assert sheet_of(kes)["characteristics"]["Agility"] == 3
    assert fresh(kes).xp_available == 80
    # The page drawn after it offers the next step at its own price.
    assert 'name="expected_cost" value="40"' in line_form(response.content.decode(),
                                                           "characteristic:Agility")


def test_a_line_the_balance_cannot_cover_says_so_and_its_button_is_off(client_for, bob,
                                                                       kes) -> None:
    for key in ("characteristic:Brawn", "characteristic:Brawn", "skill:Stealth", "skill:Cool"):
        xp_spend(character=fresh(kes), key=key, by=bob)  # 30 + 40 + 10 + 10: 20 XP left

    response = client_for(bob).get(xp_url(kes))

    form = line_form(response.content.decode(), "characteristic:Agility")  # 30 XP
    assert re.search(r"<button[^>]*\bdisabled\b", form)
    assert "Agility 2 → 3: 30 XP (more than the 20 XP available)" in text_of(response)
    cheap = line_form(response.content.decode(), "skill:Perception")  # 5 XP
    assert not re.search(r"<button[^>]*\bdisabled\b", cheap)


# --- Creation ends where its XP is invested ------------------------------------------------


def test_the_xp_page_says_how_much_is_left_to_invest_and_finishes_creation(client_for, bob,
                                                                         kes) -> None:
    response = client_for(bob).get(xp_url(kes))

    assert "In creation: 110 XP left to invest." in text_of(response)
    finish = action_url(kes, "finish-creation")
    assert re.search(rf'<form method="post" action="{finish}"[^>]*>.*?Finish creation',
                     response.content.decode(), re.S)


def test_finishing_creation_on_the_xp_page_lands_on_the_sheet_ready_to_play(client_for, bob,
                                                                           kes) -> None:
    client = client_for(bob)

    response = client.post(action_url(kes, "finish-creation"), follow=True)

    assert response.redirect_chain[-1][0] == kes.get_absolute_url()
    assert sheet_of(kes)["creation"] is False
    after = text_of(client.get(xp_url(kes)))
    assert "Finish creation" not in after
    assert "left to invest" not in after


def test_the_sheet_says_how_much_is_left_to_invest_and_points_to_the_xp_page(client_for, bob,
                                                                           kes) -> None:
    response = client_for(bob).get(kes.get_absolute_url())

    creation = re.search(r'<div id="sheet-creation">.*?</form>', response.content.decode(),
                         re.S)
    assert creation
    assert "In creation: 110 XP left to invest." in text_of(response)
    assert f'href="{xp_url(kes)}"' in creation.group(0)


def test_a_finished_character_is_told_nothing_about_creation(client_for, bob, kes) -> None:
    set_sheet(kes, creation=False)

    assert "left to invest" not in text_of(client_for(bob).get(kes.get_absolute_url()))
    assert "left to invest" not in text_of(client_for(bob).get(xp_url(kes)))
