"""Maelstrom XP under concurrency: Bob's two browser sessions and the GM spend and bank the
same character's XP from the XP page at the same moment (Maelstrom rules.md, Spending
Experience; Banking Experience). Nothing is bought twice, nothing is overdrawn, every
confirmed change is one ledger entry, and the balances equal the ledger."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db.models import Sum
from django.test import Client

from characters.ledger import banked_xp
from characters.models import Character, XpEntry
from rulesets.maelstrom.storage import LedgerKind
from tests.concurrency import storm
from tests.concurrency.storm import Attempt, made, refused, tried
from tests.helpers import action_url, fresh, rank, spend_url

pytestmark = [*storm.POSTGRES_ONLY, pytest.mark.usefixtures("ledger_stays_balanced")]


def bank_url(character: Character) -> str:
    return action_url(character, "bank")


def driving_specialties(character: Character) -> set[str]:
    return {s["name"] for s in fresh(character).sheet["specialties"]
            if s["ability"] == "Driving"}


def ledger_count(character: Character, kind: str) -> int:
    return XpEntry.objects.filter(character=character, kind=kind).count()


def buy_specialty(client: Client, character: Character, who: str, name: str) -> Attempt:
    """Confirm a new general Driving specialty at the 2 XP the page quoted earlier."""
    return storm.post(client, spend_url(character),
                      {"trait": "specialty", "ability": "Driving", "specialty_name": name,
                       "expected_cost": "2"},
                      who=who, action="specialty", name=name)


def buy_driving(client: Client, character: Character, who: str) -> Attempt | None:
    """Ask the price of the next Driving dot and confirm the price shown; None when the quote
    offered no confirm button (Driving at 5, or too little XP)."""
    return storm.buy_at_quoted_price(client, spend_url(character),
                                     {"trait": "ability:Driving"}, who=who, action="driving")


def bank_one(client: Client, character: Character, who: str) -> Attempt:
    return storm.post(client, bank_url(character), {"trait": "ability:Driving", "amount": "1"},
                      who=who, action="bank")


@pytest.fixture
def sessions(client_for, alice, bob) -> dict[str, Client]:  # type: ignore[no-untyped-def]
    """Bob's phone and laptop (two sessions of the owner) and the GM's dashboard."""
    return {"bob-phone": client_for(bob), "bob-laptop": client_for(bob),
            "alice": client_for(alice)}


def test_specialties_bought_from_three_sessions_at_once_stop_at_the_budget(
    bobs_character, sessions
):
    """30 XP buys exactly fifteen 2-XP specialties, however the purchases interleave; the
    rest are refused naming the balance, and nothing goes below 0."""

    def player(who: str, client: Client) -> Callable[[int], Attempt]:
        return lambda n: buy_specialty(client, bobs_character, who, f"Stunt {who} {n}")

    attempts = storm.storm({who: player(who, c) for who, c in sessions.items()}, rounds=10)

    bought = made(attempts)
    assert len(attempts) == 30
    assert len(bought) == 15
    character = fresh(bobs_character)
    assert character.xp_available == 0
    assert driving_specialties(character) == {a.detail["name"] for a in bought}
    assert ledger_count(character, XpEntry.Kind.SPEND) == 15
    assert all("you have 0 XP available" in a.message for a in refused(attempts)), [
        a.message for a in refused(attempts)]


def test_banking_and_buying_the_same_ability_at_once_keeps_every_xp_accounted_for(
    bobs_character, sessions
):
    """Each round one session banks 1 XP in Driving, one buys the next Driving dot at the
    price it was quoted, one buys a Driving specialty (paid from that bank first): every
    dot bought raised Driving by exactly one, every XP spent matches the seed's prices, and
    available plus banked XP is what is left of the 30."""
    names = list(sessions)

    def player(index: int) -> Callable[[int], Attempt | None]:
        who, client = names[index], sessions[names[index]]

        def act(n: int) -> Attempt | None:
            move = (index + n) % 3
            if move == 0:
                return bank_one(client, bobs_character, who)
            if move == 1:
                return buy_driving(client, bobs_character, who)
            return buy_specialty(client, bobs_character, who, f"Jump {who} {n}")
        return act

    attempts = storm.storm({names[i]: player(i) for i in range(3)}, rounds=16)

    character = fresh(bobs_character)
    dots_bought = made(attempts, "driving")
    specialties = made(attempts, "specialty")
    banked = made(attempts, "bank")
    assert len(tried(attempts, "bank")) + len(tried(attempts, "specialty")) == 32
    # No lost update: each confirmed dot is one more dot, at the price quoted for that dot.
    assert rank(character, "ability:Driving") == 3 + len(dots_bought) <= 5
    assert sorted(a.detail["cost"] for a in dots_bought) == [
        2 * rank for rank in range(4, 4 + len(dots_bought))]
    assert driving_specialties(character) == {a.detail["name"] for a in specialties}
    # One ledger entry per confirmed change, no more, no less.
    assert ledger_count(character, XpEntry.Kind.SPEND) == len(dots_bought) + len(specialties)
    assert ledger_count(character, LedgerKind.BANK) == len(banked)
    # XP is conserved: what was spent at the seed's prices plus what is left is the 30.
    spent = sum(2 * rank for rank in range(4, 4 + len(dots_bought))) + 2 * len(specialties)
    in_bank = banked_xp(character).get("ability:Driving", 0)
    assert character.xp_available >= 0 and in_bank >= 0
    assert character.xp_available + in_bank == 30 - spent
    # Every bank the sessions were told of is there: banked, then drawn on by the spends.
    assert in_bank == len(banked) - _from_bank(character)
    assert character.xp_available == 30 - len(banked) - (spent - _from_bank(character))
    for attempt in refused(attempts):
        assert any(reason in attempt.message for reason in (
            "you have", "The price changed", "up to rank 5")), attempt


def _from_bank(character: Character) -> int:
    """XP the spends drew from the Driving bank, as the ledger says."""
    return -(XpEntry.objects.filter(character=character, kind=XpEntry.Kind.SPEND)
             .aggregate(total=Sum("banked_delta"))["total"] or 0)


def test_the_same_dot_confirmed_in_three_sessions_at_once_is_bought_once(
    bobs_character, sessions
):
    """All three sessions saw "Driving 3 → 4 costs 8 XP" and confirm together, round after
    round: each price is paid once, the others are told the price changed."""

    def player(who: str, client: Client) -> Callable[[int], Attempt]:
        def act(n: int) -> Attempt:
            cost = 8 if n == 0 else 10  # the price each dot had when they all looked
            return storm.post(client, spend_url(bobs_character),
                              {"trait": "ability:Driving", "expected_cost": str(cost)},
                              who=who, action="driving", cost=cost)
        return act

    attempts = storm.storm({who: player(who, c) for who, c in sessions.items()}, rounds=2)

    assert sorted(a.detail["cost"] for a in made(attempts)) == [8, 10]
    assert rank(bobs_character, "ability:Driving") == 5
    assert fresh(bobs_character).xp_available == 12
    for attempt in refused(attempts):
        assert "The price changed" in attempt.message or "up to rank 5" in attempt.message, (
            attempt)
