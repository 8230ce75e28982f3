"""Spending XP on a 3d6 sheet (decision, docs/systems/three_d6.md: the seed has no
advancement): +1 to a trait costs 4 x the new modifier, +1 to a subtrait 2 x, nothing above +5;
the price is shown before confirming, and an undo is a reversing entry."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import XpEntry
from characters.services import xp_award
from rulesets.errors import RuleError
from systems.three_d6.system import SYSTEM
from tests import three_d6_cast as cast
from tests.helpers import spend_url, xp_url
from tests.three_d6_cast import fresh, text_of

pytestmark = pytest.mark.django_db

# The shared cast's fixtures (tests/three_d6_cast.py): Mara has Power +3, Agility +1, Might 0,
# Dexterity +2 and 20 XP.
table, mara = cast.table, cast.mara


def test_the_xp_page_lists_every_next_plus_one_with_its_price(client_for, bob, mara):
    text = text_of(client_for(bob).get(xp_url(mara)))

    assert "Power +3 → +4: 16 XP" in text
    assert "Agility +1 → +2: 8 XP" in text
    assert "Might 0 → +1: 2 XP" in text
    assert "Dexterity +2 → +3: 6 XP" in text
    assert "a trait to +n costs 4 × n XP" in text


def test_the_price_is_shown_before_confirming_and_nothing_is_spent_yet(client_for, bob, mara):
    response = client_for(bob, htmx=True).get(spend_url(mara), {"key": "trait:t1"})

    text = text_of(response)
    assert "Agility +1 → +2 costs 8 XP. A trait costs 4 XP × the new modifier." in text
    assert "Confirm: spend 8 XP" in text
    assert fresh(mara).xp_available == 20


def test_confirming_raises_the_modifier_and_writes_one_ledger_entry(
    client_for, bob, mara, ledger_stays_balanced
):
    response = client_for(bob).post(spend_url(mara), {"key": "trait:t1", "expected_cost": "8"})

    assert response.status_code == 302
    character = fresh(mara)
    assert character.sheet["modifiers"]["t1"] == 2
    assert character.xp_available == 12
    entry = character.xp_entries.get(kind=XpEntry.Kind.SPEND)
    assert (entry.trait_key, entry.rank_from, entry.rank_to, entry.available_delta) == (
        "trait:t1", 1, 2, -8)


def test_the_htmx_confirm_answers_with_the_xp_panel(client_for, bob, mara):
    response = client_for(bob, htmx=True).post(spend_url(mara),
                                               {"key": "subtrait:s0", "expected_cost": "2"})

    assert 'id="xp-panel"' in response.content.decode()
    assert "18 XP available" in text_of(response)
    assert "Might +1 → +2: 4 XP" in text_of(response)


def test_a_price_changed_since_the_quote_is_refused(client_for, bob, mara):
    response = client_for(bob).post(spend_url(mara), {"key": "trait:t1", "expected_cost": "4"})

    assert response.status_code == 400
    assert "The price changed to 8 XP" in text_of(response)
    assert fresh(mara).sheet["modifiers"]["t1"] == 1


def test_too_little_xp_is_refused_naming_the_shortfall(client_for, bob, mara):
    client_for(bob).post(spend_url(mara), {"key": "trait:t0", "expected_cost": "16"})

    response = client_for(bob).post(spend_url(mara), {"key": "trait:t2", "expected_cost": "8"})

    assert "Awareness +1 → +2 costs 8 XP; you have 4 XP available (4 short)." in text_of(response)
    assert fresh(mara).sheet["modifiers"]["t2"] == 1


def test_nothing_goes_above_plus_five(mara, alice):
    xp_award(character=mara, amount=100, reason="Long campaign", by=alice)
    character = fresh(mara)
    SYSTEM.set_rank(character, "trait:t0", 5)

    with pytest.raises(RuleError, match=r"Power is at \+5, the most XP can buy"):
        SYSTEM.quote(character, "trait:t0")
    assert "trait:t0" not in [a.key for a in SYSTEM.advances(character)]


def test_an_unknown_key_is_refused(client_for, bob, mara):
    response = client_for(bob).get(spend_url(mara), {"key": "trait:t9"})

    assert "'trait:t9' is not a trait or subtrait XP can raise." in text_of(response)


def test_undo_is_a_reversing_entry_that_puts_the_modifier_back(
    client_for, bob, mara, ledger_stays_balanced
):
    client = client_for(bob)
    client.post(spend_url(mara), {"key": "subtrait:s2", "expected_cost": "6"})
    entry = fresh(mara).xp_entries.get(kind=XpEntry.Kind.SPEND)

    response = client.post(reverse("characters:character-xp-undo", args=[mara.pk, entry.pk]))

    assert response.status_code == 302
    character = fresh(mara)
    assert character.sheet["modifiers"]["s2"] == 2
    assert character.xp_available == 20
    assert character.xp_entries.filter(kind=XpEntry.Kind.REVERSAL).count() == 1
    assert character.xp_entries.count() == 3  # starting, spend, reversal: nothing deleted


def test_the_undo_page_names_the_trait_and_its_modifier(client_for, bob, mara):
    client = client_for(bob)
    client.post(spend_url(mara), {"key": "trait:t1", "expected_cost": "8"})
    entry = fresh(mara).xp_entries.get(kind=XpEntry.Kind.SPEND)

    text = text_of(client.get(reverse("characters:character-xp-undo", args=[mara.pk, entry.pk])))

    assert "Agility's modifier goes back from +2 to +1. The XP comes back." in text


def test_the_gm_awards_xp_from_the_page(client_for, alice, mara):
    client_for(alice).post(reverse("characters:character-xp-award", args=[mara.pk]),
                           {"amount": "5", "reason": "Crossed the strait"})

    assert fresh(mara).xp_available == 25


@pytest.mark.parametrize("who", ["anonymous", "carol"])
def test_outsiders_cannot_spend(client, client_for, carol, mara, who):
    poster = client if who == "anonymous" else client_for(carol)

    response = poster.post(spend_url(mara), {"key": "trait:t1", "expected_cost": "8"})

    assert response.status_code == (302 if who == "anonymous" else 404)
    assert fresh(mara).xp_available == 20
