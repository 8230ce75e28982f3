"""Spending XP, whatever the system (``characters:character-xp-spend``, ``characters.
services.xp_spend``): the price shown first and nothing bought yet, the purchase confirmed at
that price as one spend entry with the sheet changed in the same transaction, a changed price
or a shortfall refused with nothing written, the same confirmation sent twice buying once, and
the answer with and without HTMX. What a system's XP buys and costs is in its tests
(Maelstrom's in tests/systems/maelstrom/test_xp.py and test_services.py).

Where the answer is the system's (its price, the rank it moves), a test runs over every
system of the registry: Bob's character in the system's demo campaign buys its fixtures'
``xp_buy``, or the cheapest purchase its XP page offers. The rest runs once, on the shared
cast's character (tests/conftest.py: Bob's Rook, a Maelstrom character with Driving 3,
Strength 2 and 30 XP).

After every test the ledger must balance: each character's available and total XP equal the
sums of its ledger entries, and no bank is overdrawn.
"""

from __future__ import annotations

from typing import Any

import pytest

import systems
from characters import services
from characters.ledger import banked_xp
from characters.models import Character
from rulesets.errors import RuleError
from tests.factories import CharacterFactory
from tests.helpers import fresh, rank, spend_url, spends, text_of, xp_url
from tests.system_fixtures import demo_character, fixtures_for, purchases, selectable_systems

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]

SYSTEMS = selectable_systems()


@pytest.fixture(params=SYSTEMS)
def purchase(request: pytest.FixtureRequest, alice: Any, bob: Any
             ) -> tuple[Character, str, systems.Advance]:
    """Bob's character in the system's demo campaign (Alice GMs), the key it buys (as the XP
    page posts it) and that key's quote: it has the XP for it, none of it banked."""
    character = demo_character(request.param, gm=alice, player=bob)
    key = fixtures_for(request.param).xp_buy or purchases(character)[0][0]
    quote = systems.for_campaign(character.campaign).quote(character, key)
    if character.xp_available < quote.cost:
        services.xp_award(character=character, amount=quote.cost, reason="To spend", by=alice)
    assert not banked_xp(character), "the balance checks assume nothing banked"
    return fresh(character), key, quote


# --- The service --------------------------------------------------------------------------


def test_a_spend_buys_the_next_rank_and_appends_one_spend_entry(purchase, bob):
    character, key, quote = purchase
    available, before = character.xp_available, len(spends(character))

    entry = services.xp_spend(character=character, key=key, by=bob,
                              expected_cost=quote.cost)

    assert rank(character, quote.key) == quote.rank_to
    assert (entry.kind, entry.trait_key, entry.rank_from, entry.rank_to) == (
        "spend", quote.key, quote.rank_from, quote.rank_to)
    assert (entry.available_delta, entry.total_delta, entry.created_by) == (-quote.cost, 0, bob)
    assert fresh(character).xp_available == available - quote.cost
    assert len(spends(character)) == before + 1


def test_a_spend_at_a_different_price_than_confirmed_writes_nothing(purchase, bob):
    character, key, quote = purchase
    available, before = character.xp_available, len(spends(character))

    with pytest.raises(RuleError, match=f"The price changed to {quote.cost} XP"):
        services.xp_spend(character=character, key=key, by=bob,
                          expected_cost=quote.cost + 1)

    assert rank(character, quote.key) == quote.rank_from
    assert fresh(character).xp_available == available
    assert len(spends(character)) == before


def test_a_spend_the_balance_cannot_cover_writes_nothing(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=14)

    with pytest.raises(RuleError, match="costs 15 XP; you have 14 XP available"):
        services.xp_spend(character=character, key="attribute:Strength", by=bob)

    assert rank(character, "attribute:Strength") == 2
    assert fresh(character).xp_available == 14


def test_a_spend_of_exactly_the_balance_leaves_zero(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=15)

    services.xp_spend(character=character, key="attribute:Strength", by=bob)

    assert fresh(character).xp_available == 0


# --- The XP page: quote, then confirm -----------------------------------------------------


def test_the_quote_shows_the_cost_and_changes_nothing(client_for, bob, bobs_character):
    response = client_for(bob).get(spend_url(bobs_character), {"trait": "ability:Driving"})

    text = text_of(response)
    assert "Driving 3 → 4 costs 8 XP" in text
    assert "Confirm: spend 8 XP" in text
    assert 'name="expected_cost" value="8"' in response.content.decode()
    assert rank(bobs_character, "ability:Driving") == 3
    assert fresh(bobs_character).xp_available == 30
    assert spends(bobs_character) == []


def test_an_htmx_quote_answers_with_the_xp_panel(client_for, bob, bobs_character):
    response = client_for(bob, htmx=True).get(spend_url(bobs_character),
                                              {"trait": "ability:Driving"})

    assert "<html" not in response.content.decode()
    assert "Driving 3 → 4 costs 8 XP" in text_of(response)


def test_confirming_the_quote_buys_the_dot_and_writes_a_spend_entry(
    client_for, bob, bobs_character
):
    client = client_for(bob)

    response = client.post(spend_url(bobs_character),
                           {"trait": "ability:Driving", "expected_cost": "8"})

    assert response.status_code == 302
    assert response.url == xp_url(bobs_character)
    assert "Spent 8 XP: Driving 3 → 4." in text_of(client.get(response.url))
    assert rank(bobs_character, "ability:Driving") == 4
    assert fresh(bobs_character).xp_available == 22
    [entry] = spends(bobs_character)
    assert (entry.trait_key, entry.rank_from, entry.rank_to) == ("ability:Driving", 3, 4)
    assert (entry.available_delta, entry.total_delta, entry.cost) == (-8, 0, 8)


def test_an_htmx_spend_answers_with_the_xp_panel_and_its_message(client_for, bob, bobs_character):
    response = client_for(bob, htmx=True).post(spend_url(bobs_character),
                                               {"trait": "ability:Driving", "expected_cost": "8"})

    content = response.content.decode()
    assert "<html" not in content
    assert 'id="xp-panel"' in content
    assert "Spent 8 XP: Driving 3 → 4." in text_of(response)
    assert "22 XP available" in text_of(response)


def test_a_spend_the_balance_cannot_cover_is_refused_showing_cost_and_balance(
    client_for, campaign, bob
):
    poor = CharacterFactory(campaign=campaign, owner=bob, starting_xp=5)
    client = client_for(bob)

    quote = client.get(spend_url(poor), {"trait": "ability:Driving"})
    response = client.post(spend_url(poor), {"trait": "ability:Driving", "expected_cost": "8"})

    assert "Driving 3 → 4 costs 8 XP; you have 5 XP available (3 short)." in text_of(quote)
    assert "Confirm: spend" not in text_of(quote)
    assert response.status_code == 400
    assert "Driving 3 → 4 costs 8 XP; you have 5 XP available (3 short)." in text_of(response)
    assert rank(poor, "ability:Driving") == 3
    assert fresh(poor).xp_available == 5
    assert spends(poor) == []


def test_a_stale_expected_cost_is_refused_and_nothing_is_bought(client_for, bob, bobs_character):
    response = client_for(bob).post(spend_url(bobs_character),
                                    {"trait": "ability:Driving", "expected_cost": "6"})

    assert "The price changed to 8 XP since you looked (you confirmed 6 XP)" in text_of(response)
    assert rank(bobs_character, "ability:Driving") == 3
    assert fresh(bobs_character).xp_available == 30


def test_confirming_the_same_quote_twice_buys_only_one_dot(client_for, bob, bobs_character):
    client = client_for(bob)
    data = {"trait": "ability:Driving", "expected_cost": "8"}

    client.post(spend_url(bobs_character), data)
    second = client.post(spend_url(bobs_character), data)

    assert "The price changed to 10 XP" in text_of(second)
    assert rank(bobs_character, "ability:Driving") == 4
    assert fresh(bobs_character).xp_available == 22
