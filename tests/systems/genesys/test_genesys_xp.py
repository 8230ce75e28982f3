"""Spending XP on a Genesys sheet (Genesys Core Rulebook, Step 4: Invest Experience Points):
characteristics at 10 x the new rating, only during creation, up to 5; skills at 5 x the new
rank, 5 more for a non-career skill, up to rank 2 during creation and 5 after. The price is
shown before confirming; an undo is a reversing entry; Brawn and Willpower move the wound
and strain thresholds (10 + Brawn, 10 + Willpower)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import XpEntry
from characters.services import xp_spend, xp_undo
from rulesets.errors import RuleError
from systems.genesys.system import SYSTEM
from tests.helpers import action_url, fresh, spend_url, xp_url
from tests.systems.genesys import test_genesys_cast as cast
from tests.systems.genesys.test_genesys_cast import (
    set_sheet,
    sheet_of,
    text_of,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]

# The shared cast's fixtures (tests/systems/genesys/test_genesys_cast.py).
gx_campaign, kes = cast.gx_campaign, cast.kes


# --- Prices --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "label", "cost"),
    [
        ("characteristic:Agility", "Agility 2 → 3", 30),  # 10 x 3
        ("skill:Ranged", "Ranged 1 → 2", 10),             # career: 5 x 2
        ("skill:Perception", "Perception 0 → 1", 5),      # career: 5 x 1
        ("skill:Athletics", "Athletics 1 → 2", 15),       # non-career: 5 x 2 + 5
        ("skill:Medicine", "Medicine 0 → 1", 10),         # non-career: 5 x 1 + 5
    ],
)
def test_the_price_follows_the_core_rulebook(kes, key, label, cost) -> None:
    advance = SYSTEM.quote(kes, key)

    assert (advance.label, advance.cost) == (label, cost)
    assert advance.rank_to == advance.rank_from + 1


def test_a_characteristic_at_4_costs_50_to_raise_to_5_and_no_further(kes) -> None:
    kes = set_sheet(kes, characteristics={**sheet_of(kes)["characteristics"], "Brawn": 4})
    assert SYSTEM.quote(kes, "characteristic:Brawn").cost == 50

    kes = set_sheet(kes, characteristics={**sheet_of(kes)["characteristics"], "Brawn": 5})
    with pytest.raises(RuleError, match="Brawn is 5, the most a characteristic can be"):
        SYSTEM.quote(kes, "characteristic:Brawn")


def test_during_creation_no_skill_goes_above_rank_2(kes) -> None:
    kes = set_sheet(kes, skills={"Ranged": 2})

    with pytest.raises(RuleError, match="Ranged is at rank 2, the most during character creation"):
        SYSTEM.quote(kes, "skill:Ranged")
    assert "skill:Ranged" not in {a.key for a in SYSTEM.advances(kes)}


def test_after_creation_characteristics_are_not_for_sale_and_skills_go_to_rank_5(kes) -> None:
    kes = set_sheet(kes, creation=False, skills={"Ranged": 2, "Stealth": 5})

    with pytest.raises(RuleError, match="only during character creation"):
        SYSTEM.quote(kes, "characteristic:Agility")
    assert SYSTEM.quote(kes, "skill:Ranged").cost == 15  # career: 5 x 3
    with pytest.raises(RuleError, match="Stealth is at rank 5, the most a skill can be"):
        SYSTEM.quote(kes, "skill:Stealth")
    keys = {a.key for a in SYSTEM.advances(kes)}
    assert not any(k.startswith("characteristic:") for k in keys)
    assert "skill:Ranged" in keys and "skill:Stealth" not in keys


@pytest.mark.parametrize("key", ["skill:Sorcery", "characteristic:Luck", "talent:Grit", ""])
def test_an_unknown_key_is_refused_with_its_name(kes, key) -> None:
    with pytest.raises(RuleError):
        SYSTEM.quote(kes, key)


# --- The XP page ---------------------------------------------------------------------------


def test_the_xp_page_lists_what_xp_buys_with_prices_and_how_they_are_made(
    client_for, bob, kes
) -> None:
    text = text_of(client_for(bob).get(xp_url(kes)))

    assert "Agility 2 → 3: 30 XP" in text
    assert "Athletics 1 → 2: 15 XP" in text
    assert "How XP is priced" in text
    assert "only until creation is finished" in text


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_price_is_shown_before_confirming_and_nothing_is_bought_yet(
    client_for, bob, kes, htmx
) -> None:
    response = client_for(bob, htmx=htmx).get(spend_url(kes), {"key": "characteristic:Agility"})

    text = text_of(response)
    assert "Agility 2 → 3 costs 30 XP. 10 × the new rating 3, during creation only" in text
    assert "Confirm: spend 30 XP" in text
    assert fresh(kes).xp_available == 110
    assert sheet_of(kes)["characteristics"]["Agility"] == 2


def test_confirming_buys_the_rank_as_one_ledger_entry(client_for, bob, kes) -> None:
    response = client_for(bob).post(spend_url(kes), {"key": "characteristic:Agility",
                                                     "expected_cost": "30"})

    assert response.status_code == 302
    assert sheet_of(kes)["characteristics"]["Agility"] == 3
    entry = XpEntry.objects.get(kind=XpEntry.Kind.SPEND)
    assert (entry.available_delta, entry.trait_key, entry.rank_from, entry.rank_to) == (
        -30, "characteristic:Agility", 2, 3)
    assert fresh(kes).xp_available == 80


def test_an_htmx_confirm_answers_with_the_xp_panel(client_for, bob, kes) -> None:
    response = client_for(bob, htmx=True).post(spend_url(kes), {"key": "skill:Ranged",
                                                                "expected_cost": "10"})

    assert response.content.decode().lstrip().startswith('<div id="xp-panel">')
    assert "Spent 10 XP: Ranged 1 → 2." in text_of(response)
    assert sheet_of(kes)["skills"]["Ranged"] == 2


def test_a_changed_price_is_refused(client_for, bob, kes) -> None:
    response = client_for(bob).post(spend_url(kes), {"key": "skill:Ranged",
                                                     "expected_cost": "5"})

    assert response.status_code == 400
    assert "The price changed to 10 XP since you looked" in text_of(response)
    assert sheet_of(kes)["skills"]["Ranged"] == 1


def test_too_little_xp_is_refused_with_the_shortfall(client_for, bob, kes) -> None:
    for name in ("Agility", "Brawn", "Cunning"):  # 3 x 30 of the 110
        xp_spend(character=fresh(kes), key=f"characteristic:{name}", by=bob)

    response = client_for(bob).post(spend_url(kes), {"key": "characteristic:Willpower",
                                                     "expected_cost": "30"})

    assert response.status_code == 400
    assert "Willpower 2 → 3 costs 30 XP; you have 20 XP available (10 short)." in text_of(response)
    assert sheet_of(kes)["characteristics"]["Willpower"] == 2
    assert fresh(kes).xp_available == 20


def test_a_characteristic_bought_after_creation_is_refused_at_the_counter(
    client_for, bob, kes
) -> None:
    set_sheet(kes, creation=False)

    response = client_for(bob).post(spend_url(kes), {"key": "characteristic:Agility",
                                                     "expected_cost": "30"})

    assert response.status_code == 400
    assert ("Agility can be raised with XP only during character creation, and Kestrel's is "
            "finished.") in text_of(response)
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.SPEND).exists()


def test_a_stranger_cannot_see_or_spend(client_for, carol, kes) -> None:
    assert client_for(carol).get(xp_url(kes)).status_code == 404
    response = client_for(carol).post(spend_url(kes), {"key": "skill:Ranged",
                                                       "expected_cost": "10"})
    assert response.status_code == 404
    assert sheet_of(kes)["skills"]["Ranged"] == 1


# --- Thresholds and undo -------------------------------------------------------------------


def test_raising_brawn_and_willpower_raises_the_thresholds(kes) -> None:
    xp_spend(character=kes, key="characteristic:Brawn", by=kes.owner)
    xp_spend(character=fresh(kes), key="characteristic:Willpower", by=kes.owner)

    sheet = sheet_of(kes)
    assert sheet["wounds"]["threshold"] == 13  # 10 + Brawn 3
    assert sheet["strain"]["threshold"] == 13  # 10 + Willpower 3
    assert fresh(kes).xp_available == 110 - 30 - 30


def test_undo_is_a_reversing_entry_that_puts_the_rank_and_the_threshold_back(
    client_for, bob, kes
) -> None:
    entry = xp_spend(character=kes, key="characteristic:Brawn", by=bob)

    response = client_for(bob).post(
        reverse("characters:character-xp-undo", args=[kes.pk, entry.pk]))

    assert response.status_code == 302
    sheet = sheet_of(kes)
    assert sheet["characteristics"]["Brawn"] == 2
    assert sheet["wounds"]["threshold"] == 12
    reversal = XpEntry.objects.get(kind=XpEntry.Kind.REVERSAL)
    assert (reversal.available_delta, reversal.reverses_id) == (30, entry.pk)
    assert fresh(kes).xp_available == 110
    assert XpEntry.objects.count() == 3  # starting, spend, reversal: nothing deleted


def test_the_undo_page_says_what_goes_back_with_the_threshold(client_for, bob, kes) -> None:
    entry = xp_spend(character=kes, key="characteristic:Brawn", by=bob)

    text = text_of(client_for(bob).get(
        reverse("characters:character-xp-undo", args=[kes.pk, entry.pk])))

    assert ("Brawn goes back from 3 to 2, and the wound threshold from 13 to 12. "
            "The XP comes back.") in text
    assert SYSTEM.undo_description(kes, XpEntry(
        trait_key="skill:Medicine", rank_from=0, rank_to=1)) == (
        "Medicine goes back from rank 1 to untrained.")


def test_undoing_a_first_rank_leaves_the_skill_untrained(kes) -> None:
    entry = xp_spend(character=kes, key="skill:Medicine", by=kes.owner)
    assert sheet_of(kes)["skills"]["Medicine"] == 1

    xp_undo(entry=entry, by=kes.owner, as_gm=False)

    assert "Medicine" not in sheet_of(kes)["skills"]
    assert SYSTEM.rank(fresh(kes), "skill:Medicine") == 0


def test_the_gm_sees_the_prices_and_may_buy_for_the_player(client_for, alice, kes) -> None:
    client = client_for(alice)

    page = text_of(client.get(xp_url(kes)))
    response = client.post(spend_url(kes), {"key": "skill:Stealth", "expected_cost": "10"})

    assert "Award XP (GM)" in page and "Stealth 1 → 2: 10 XP" in page
    assert response.status_code == 302
    assert sheet_of(kes)["skills"]["Stealth"] == 2
    assert XpEntry.objects.get(kind=XpEntry.Kind.SPEND).created_by == alice


def test_the_character_is_in_creation_until_it_is_finished_and_again_when_reopened(kes) -> None:
    assert SYSTEM.in_creation(kes)

    assert not SYSTEM.in_creation(set_sheet(kes, creation=False))
    assert SYSTEM.in_creation(set_sheet(kes, creation=True))


def test_purchases_and_undos_during_creation_are_the_creations_and_later_ones_are_not(
        client_for, kes) -> None:
    bob = kes.owner
    during = xp_spend(character=kes, key="characteristic:Agility", by=bob)
    undone = xp_undo(entry=during, by=bob, as_gm=False)
    client_for(bob).post(action_url(kes, "finish-creation"))
    assert not sheet_of(kes)["creation"]

    after = xp_spend(character=kes, key="skill:Stealth", by=bob)

    assert (during.at_creation, undone.at_creation, after.at_creation) == (True, True, False)
