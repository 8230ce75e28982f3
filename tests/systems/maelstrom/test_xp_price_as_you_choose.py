"""Maelstrom's purchase form shows the price as the player chooses (issue 17, item 16): the
form asks for the price of the trait or specialty chosen at each change, and the answer is
the price with a button that buys at it; there is no "See the cost" button. Without
JavaScript, "Buy…" shows the price with its confirmation, and confirming buys.
"""

from __future__ import annotations

import re

import pytest

from characters.models import Character, XpEntry
from systems.maelstrom import sheet
from tests.factories import CharacterFactory
from tests.helpers import fresh, spend_url, text_of, xp_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]


def live_price(client_for, user, character: Character, **choice: str):  # type: ignore[no-untyped-def]
    """What the form's #spend-quote gets when the choice changes (an htmx GET aimed at it)."""
    client = client_for(user, htmx=True)
    return client.get(spend_url(character), choice, headers={"HX-Target": "spend-quote"})


def driving(character: Character) -> int:
    return sheet.trait_refs(fresh(character).sheet)["Driving"].dots


def spends(character: Character) -> int:
    return XpEntry.objects.filter(character=character, kind=XpEntry.Kind.SPEND).count()


def test_the_form_asks_for_the_price_whenever_the_choice_changes_without_a_see_the_cost_button(
    client_for, bob, bobs_character
):
    content = client_for(bob).get(xp_url(bobs_character)).content.decode()

    quote = re.search(r'<div id="spend-quote"[^>]*>', content)
    assert quote, "the purchase form has a live price"
    assert f'hx-get="{spend_url(bobs_character)}"' in quote.group(0)
    trigger = re.search(r'hx-trigger="([^"]*)"', quote.group(0))
    assert trigger
    for event in ("load", "change from:#id_trait", "change from:#id_ability",
                  "change from:#id_advanced", "from:#id_specialty_name"):
        assert event in trigger.group(1)
    assert "See the cost" not in text_of(client_for(bob).get(xp_url(bobs_character)))
    # Without JavaScript, one button names what it does; it is hidden from everyone else.
    assert re.search(r"<noscript>.*Buy….*</noscript>", content, re.S)


def test_the_live_price_is_the_cost_and_a_button_that_buys_at_it(client_for, bob,
                                                                  bobs_character):
    response = live_price(client_for, bob, bobs_character, trait="ability:Driving")

    content = response.content.decode()
    assert response.status_code == 200
    assert 'id="xp-panel"' not in content  # the price alone, not the page's panel
    assert "Driving 3 → 4 costs 8 XP" in text_of(response)
    assert 'name="expected_cost" value="8"' in content
    assert "Buy for 8 XP" in text_of(response)
    assert (driving(bobs_character), fresh(bobs_character).xp_available) == (3, 30)
    assert spends(bobs_character) == 0


def test_the_live_price_of_a_new_specialty_follows_the_name_and_the_advanced_box(
    client_for, bob, bobs_character
):
    general = live_price(client_for, bob, bobs_character, trait="specialty",
                         ability="Driving", specialty_name="Hovercraft")
    advanced = live_price(client_for, bob, bobs_character, trait="specialty",
                          ability="Driving", specialty_name="Hovercraft", advanced="on")

    assert "Driving: Hovercraft (general) 0 → 1 costs 2 XP" in text_of(general)
    assert "Driving: Hovercraft (advanced) 0 → 1 costs 3 XP" in text_of(advanced)


def test_the_live_price_says_what_is_missing_before_there_is_a_price(client_for, bob,
                                                                      bobs_character):
    response = live_price(client_for, bob, bobs_character, trait="specialty", ability="Driving")

    assert response.status_code == 200
    assert "Name the specialty." in text_of(response)
    assert "Buy for" not in text_of(response)


def test_the_live_price_the_balance_cannot_cover_says_so_and_offers_no_button(
    client_for, campaign, bob
):
    poor = CharacterFactory(campaign=campaign, owner=bob, starting_xp=5)

    response = live_price(client_for, bob, poor, trait="ability:Driving")

    assert "Driving 3 → 4 costs 8 XP; you have 5 XP available (3 short)." in text_of(response)
    assert "Buy for" not in text_of(response)


def test_the_live_price_button_buys_the_choice_at_that_price(client_for, bob, bobs_character):
    # The form posts its fields and the price the live answer put in it.
    response = client_for(bob, htmx=True).post(
        spend_url(bobs_character), {"trait": "ability:Driving", "expected_cost": "8"})

    assert "Spent 8 XP: Driving 3 → 4." in text_of(response)
    assert (driving(bobs_character), fresh(bobs_character).xp_available) == (4, 22)


def test_a_price_left_on_the_form_after_it_changed_is_refused_not_charged(
    client_for, bob, bobs_character
):
    client = client_for(bob, htmx=True)
    client.post(spend_url(bobs_character), {"trait": "ability:Driving", "expected_cost": "8"})

    # Another tab still shows Driving 3 -> 4 for 8 XP; Driving is 4 now, the next dot is 10.
    response = client.post(spend_url(bobs_character),
                           {"trait": "ability:Driving", "expected_cost": "8"})

    assert "The price changed to 10 XP" in text_of(response)
    assert (driving(bobs_character), fresh(bobs_character).xp_available) == (4, 22)
    assert spends(bobs_character) == 1


def test_without_javascript_buy_shows_the_price_with_its_confirmation_and_confirming_buys(
    client_for, bob, bobs_character
):
    client = client_for(bob)

    # "Buy…" posts the choice without a price: the page comes back with the price.
    shown = client.post(spend_url(bobs_character), {"trait": "ability:Driving"})

    assert shown.status_code == 200
    assert "Driving 3 → 4 costs 8 XP" in text_of(shown)
    assert "Confirm: spend 8 XP" in text_of(shown)
    assert spends(bobs_character) == 0

    bought = client.post(spend_url(bobs_character),
                         {"key": "ability:Driving", "expected_cost": "8"})

    assert bought.status_code == 302
    assert (driving(bobs_character), fresh(bobs_character).xp_available) == (4, 22)
