"""XP on the shared sheet layer under concurrency (3d6, docs/systems/three_d6.md: +1 to a
subtrait costs 2 XP × the new modifier): Bob's two sessions buy Might and undo their latest
purchase while the GM undoes from the XP page, all at once. Each confirmed purchase raised
Might by one, each confirmed undo lowered it by one and refunded exactly that purchase, once;
the balance is what the purchases still standing cost, and the ledger says the same."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from characters.models import Character, XpEntry
from systems.three_d6.sheet import MODIFIER_CAP
from tests import three_d6_cast as cast
from tests.concurrency import storm
from tests.concurrency.storm import Attempt, made, refused
from tests.helpers import fresh

pytestmark = [*storm.POSTGRES_ONLY, pytest.mark.usefixtures("ledger_stays_balanced")]

# The 3d6 cast (tests/three_d6_cast.py): Bob's Mara has Might (subtrait s0) at 0 and 20 XP.
table, mara = cast.table, cast.mara

KEY = "subtrait:s0"
EXPECTED_COST = re.compile(r'name="expected_cost" value="(\d+)"')


def might(character: Character) -> int:
    return int(fresh(character).sheet["modifiers"]["s0"])


def buy_might(client: Client, character: Character, who: str) -> Attempt | None:
    """Ask the price of +1 Might (HTMX, as the XP page does) and confirm the price shown;
    None when the quote offered nothing to confirm (too little XP, or Might at the cap)."""
    url = reverse("characters:character-xp-spend", args=[character.pk])
    quote = client.get(url, {"key": KEY}, headers={"HX-Request": "true"})
    assert quote.status_code == 200
    seen = EXPECTED_COST.search(quote.content.decode())
    if seen is None:
        return None
    return storm.post(client, url, {"key": KEY, "expected_cost": seen[1]},
                      who=who, action="spend", cost=int(seen[1]))


def undo_latest(client: Client, character: Character, who: str) -> Attempt | None:
    """Open the XP page and press the first (newest) Undo it offers; None when it offers
    none (a player sees Undo only on their own latest spend, the GM on every spend)."""
    page = client.get(reverse("characters:character-xp", args=[character.pk]))
    assert page.status_code == 200
    links = re.findall(rf"/characters/{character.pk}/xp/(\d+)/undo/", page.content.decode())
    if not links:
        return None
    entry = int(links[0])
    return storm.post(client, reverse("characters:character-xp-undo", args=[character.pk, entry]),
                      {}, who=who, action="undo", entry=entry)


def test_purchases_and_undos_from_three_sessions_at_once_keep_rank_and_balance_in_step(
    mara, client_for, alice, bob
):
    sessions = {"bob-phone": client_for(bob), "bob-laptop": client_for(bob),
                "alice": client_for(alice)}

    def player(who: str, client: Client) -> Callable[[int], Attempt | None]:
        def act(n: int) -> Attempt | None:
            # Bob's sessions mostly buy; the GM mostly undoes; everyone does both.
            buys = n % 3 != 2 if who.startswith("bob") else n % 3 == 2
            if buys:
                return buy_might(client, mara, who)
            return undo_latest(client, mara, who)
        return act

    attempts = storm.storm({who: player(who, c) for who, c in sessions.items()}, rounds=24)

    bought, undone = made(attempts, "spend"), made(attempts, "undo")
    assert len(bought) > len(undone) > 0, "the storm should both buy and undo"
    rank = might(mara)
    # No lost update: the modifier moved once per confirmed purchase and undo.
    assert rank == len(bought) - len(undone)
    assert 0 <= rank <= MODIFIER_CAP
    # An undo takes back the newest purchase, so the ranks standing are 1..rank, each at its
    # price, and the balance is what is left of the 20.
    assert fresh(mara).xp_available == 20 - sum(2 * r for r in range(1, rank + 1)) >= 0
    # Each purchase was charged the price its session confirmed, and each undo refunded one
    # purchase, once.
    spends = XpEntry.objects.filter(character=mara, kind=XpEntry.Kind.SPEND)
    assert sorted(e.cost for e in spends) == sorted(a.detail["cost"] for a in bought)
    assert all(e.cost == 2 * e.rank_to for e in spends)
    reversals = XpEntry.objects.filter(character=mara, kind=XpEntry.Kind.REVERSAL)
    assert sorted(reversals.values_list("reverses_id", flat=True)) == sorted(
        a.detail["entry"] for a in undone)
    assert (reversals.aggregate(refunded=Sum("available_delta"))["refunded"] or 0) == -sum(
        XpEntry.objects.get(pk=a.detail["entry"]).available_delta for a in undone)
    for attempt in refused(attempts):
        assert any(reason in attempt.message for reason in (
            "The price changed", "already been undone", "only your own latest spend",
            "has been changed since this spend", "available", "the most XP can buy",
        )), attempt
