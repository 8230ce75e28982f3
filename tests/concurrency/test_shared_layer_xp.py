"""XP on the shared sheet layer under concurrency, for every system of the registry: the
player's two sessions buy the next rank of one key and undo their latest purchase while the
GM undoes from the XP page, all at once. Each confirmed purchase raised the rank by one, each
confirmed undo lowered it by one and refunded exactly that purchase, once; the ranks standing
are the ones just above where the storm began, each charged its price; the balance is what
the purchases still standing cost, and the ledger says the same.

Each system's table is its demo campaign (tests/system_fixtures.py's ``demo_campaign``); what
is bought is its fixtures' ``xp_buy``, or the cheapest purchase its XP page offers. The prices
of the key's ranks, and the refusal at its maximum, are found first by buying rank after rank
with plenty of XP in a transaction rolled back."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

import systems
from characters import services as character_services
from characters.ledger import banked_xp
from characters.models import Character, XpEntry
from rulesets.errors import RuleError
from tests.concurrency import storm
from tests.concurrency.storm import Attempt, made, refused
from tests.helpers import fresh, spend_url, xp_url
from tests.system_fixtures import demo_campaign, fixtures_for, purchases, selectable_systems

pytestmark = [*storm.POSTGRES_ONLY, pytest.mark.usefixtures("ledger_stays_balanced")]

SYSTEMS = selectable_systems()
"""Every system a campaign may choose (the tests' own tally too)."""

PROBED_RANKS = 12
"""At most this many ranks are bought in the probe (a key without a maximum stops there)."""

STORM_RANKS = 3
"""The storm's XP pays for this many ranks (fewer when the key's maximum comes first)."""

SHARED_REFUSALS = ("The price changed", "already been undone", "only your own latest spend",
                   "has been changed since this spend", "XP available")
"""What the generic ledger says when a race is lost (characters/services.py): a changed
price, an undo already made or no longer the player's to make, a rank changed since, and
the shortfall ("... costs N XP; you have A XP available ...")."""


@dataclass(frozen=True)
class Purchase:
    """What the storm buys: ``key`` as the XP page posts it, ``ledger_key`` as the ledger
    records it, ``prices`` (rank bought -> XP) and ``at_maximum`` (the system's refusal
    when no rank is left, "" when the probe found none)."""

    key: str
    ledger_key: str
    prices: dict[int, int]
    at_maximum: str


def probe(character: Character, key: str, by: Any) -> Purchase:
    """Buy ``key`` rank after rank with plenty of XP, as ``by``, in a transaction rolled back:
    the price of each rank, and what the system says at its maximum."""

    class RollBack(Exception):
        pass

    prices: dict[int, int] = {}
    refusal = ""
    ledger_key = systems.for_campaign(character.campaign).quote(character, key).key
    try:
        with transaction.atomic():
            for _ in range(5):
                character_services.xp_award(character=character, amount=100, reason="Probe",
                                            by=by)
            for _ in range(PROBED_RANKS):
                try:
                    with transaction.atomic():
                        entry = character_services.xp_spend(character=fresh(character),
                                                            key=key, by=by)
                except RuleError as exc:
                    refusal = exc.message
                    break
                prices[int(entry.rank_to or 0)] = entry.cost
            raise RollBack
    except RollBack:
        pass
    assert prices, f"{character.campaign.ruleset}: {key} cannot be bought ({refusal})"
    return Purchase(key=key, ledger_key=ledger_key, prices=prices, at_maximum=refusal)


@pytest.fixture(params=SYSTEMS)
def table(request: pytest.FixtureRequest, alice: Any, bob: Any
          ) -> tuple[Character, Purchase, int]:
    """Bob's character in the system's demo campaign (Alice GMs), what the storm buys, and
    its rank before: he has the XP for :data:`STORM_RANKS` more ranks, none banked."""
    campaign = demo_campaign(request.param, name="Storm table", gm=alice, players=[bob],
                             rng=random.Random(7))
    character = campaign.characters.get(owner=bob)
    key = fixtures_for(request.param).xp_buy or purchases(character)[0][0]
    purchase = probe(character, key, alice)
    budget = sum(purchase.prices[rank] for rank in sorted(purchase.prices)[:STORM_RANKS])
    character_services.xp_award(character=character, amount=budget, reason="Storm", by=alice)
    assert not banked_xp(fresh(character)), "the balance check assumes nothing banked"
    rank = systems.for_campaign(campaign).rank(fresh(character), purchase.ledger_key)
    return fresh(character), purchase, rank


def buy(client: Client, character: Character, key: str, who: str) -> Attempt | None:
    """Ask the price of the next rank and confirm the price shown; None when the quote
    offered nothing to confirm (too little XP, or at the maximum)."""
    return storm.buy_at_quoted_price(client, spend_url(character), {"key": key}, who=who,
                                     action="spend")


def undo_latest(client: Client, character: Character, ledger_key: str, who: str,
                leave: set[int]) -> Attempt | None:
    """Open the XP page and press the first (newest) Undo it offers on a purchase of the
    storm's key, other than the entries in ``leave`` (the demo's own purchases: Shattered
    World's demo buys a UAM level, the very key the storm buys, and the GM, who sees Undo on
    every spend, would take it back once the storm's were all undone); None when it offers
    none (a player sees Undo only on their own latest spend, the GM on every spend)."""
    page = client.get(xp_url(character))
    assert page.status_code == 200
    links = [int(pk) for pk in re.findall(rf"/characters/{character.pk}/xp/(\d+)/undo/",
                                          page.content.decode())]
    ours = set(XpEntry.objects.filter(pk__in=links, trait_key=ledger_key)
               .exclude(pk__in=leave).values_list("pk", flat=True))
    entry = next((pk for pk in links if pk in ours), None)
    if entry is None:
        return None
    return storm.post(client, reverse("characters:character-xp-undo", args=[character.pk, entry]),
                      {}, who=who, action="undo", entry=entry)


def test_purchases_and_undos_from_three_sessions_at_once_keep_rank_and_balance_in_step(
    table: tuple[Character, Purchase, int], client_for: Callable[..., Client], alice: Any,
    bob: Any,
) -> None:
    character, purchase, start_rank = table
    system = systems.for_campaign(character.campaign)
    start_available = character.xp_available
    before = set(XpEntry.objects.filter(character=character).values_list("pk", flat=True))
    sessions = {"bob-phone": client_for(bob), "bob-laptop": client_for(bob),
                "alice": client_for(alice)}

    def player(who: str, client: Client) -> Callable[[int], Attempt | None]:
        def act(n: int) -> Attempt | None:
            # Bob's sessions mostly buy; the GM mostly undoes; everyone does both.
            buys = n % 3 != 2 if who.startswith("bob") else n % 3 == 2
            if buys:
                return buy(client, character, purchase.key, who)
            return undo_latest(client, character, purchase.ledger_key, who, before)
        return act

    attempts = storm.storm({who: player(who, c) for who, c in sessions.items()}, rounds=24)

    bought, undone = made(attempts, "spend"), made(attempts, "undo")
    assert len(bought) > len(undone) > 0, "the storm should both buy and undo"
    rank = system.rank(fresh(character), purchase.ledger_key)
    ours = XpEntry.objects.filter(character=character).exclude(pk__in=before)
    spends = ours.filter(kind=XpEntry.Kind.SPEND)
    # No lost update: one purchase standing per confirmed purchase not undone, and since an
    # undo takes back the newest purchase, they climb from the start rank, one rank each (a
    # rank is the system's: a dot, a modifier, a die size), to the rank the sheet shows.
    standing = sorted(spends.filter(reversal__isnull=True), key=lambda e: e.rank_from or 0)
    assert len(standing) == len(bought) - len(undone)
    climb = [start_rank, *(e.rank_to for e in standing)]
    assert [e.rank_from for e in standing] == climb[:-1]
    assert rank == climb[-1]
    # Each rank charged its price, and the balance is what is left.
    assert all(e.cost == purchase.prices[int(e.rank_to or 0)] and e.banked_delta == 0
               for e in spends)
    assert fresh(character).xp_available == start_available - sum(e.cost for e in standing)
    # Each purchase was charged the price its session confirmed, and each undo refunded one
    # purchase, once.
    assert sorted(e.cost for e in spends) == sorted(a.detail["cost"] for a in bought)
    reversals = ours.filter(kind=XpEntry.Kind.REVERSAL)
    assert sorted(reversals.values_list("reverses_id", flat=True)) == sorted(
        a.detail["entry"] for a in undone)
    assert (reversals.aggregate(refunded=Sum("available_delta"))["refunded"] or 0) == -sum(
        XpEntry.objects.get(pk=a.detail["entry"]).available_delta for a in undone)
    allowed = (*SHARED_REFUSALS, *([purchase.at_maximum] if purchase.at_maximum else []))
    for attempt in refused(attempts):
        assert any(reason in attempt.message for reason in allowed), attempt
