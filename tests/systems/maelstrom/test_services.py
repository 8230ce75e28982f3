"""Maelstrom's changes through the shared services: its sheet actions (damage, healing,
willpower), its session awards, its price table and what its purchases write on the sheet,
banking, and undoing what a bank paid for (Maelstrom rules.md, Marking Damage, Willpower,
Earning, Spending and Banking Experience): each checks its rule first and writes nothing when
refused. The shared services' own rules (awards, a spend at the confirmed price, undo, the
append-only ledger) are in tests/characters/test_xp_spend.py and test_xp_ledger.py.

After every test the ledger must balance: available and total XP equal the sums of the
ledger's entries, and no bank is overdrawn.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from characters import services
from characters.ledger import banked_xp
from characters.models import Character, XpEntry
from rolls import services as roll_services
from rulesets import maelstrom
from rulesets.errors import RuleError
from rulesets.maelstrom.storage import LedgerKind
from systems.maelstrom import sheet
from systems.maelstrom.system import SYSTEM
from tests.factories import CharacterFactory
from tests.helpers import fresh, rank

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]


def change(character: Character, slug: str, by: Any, **data: Any) -> Character:
    """One of the sheet's actions, as characters:character-action makes it."""
    changed, _ = services.sheet_change(character=character, action=SYSTEM.actions[slug],
                                       data=data, by=by)
    return changed


def bank(character: Character, key: str, amount: int, by: Any) -> XpEntry:
    change(character, "bank", by, trait=key, amount=amount)
    return XpEntry.objects.filter(character=character, kind=LedgerKind.BANK).first()


def spend(character: Character, key: str, by: Any) -> XpEntry:
    return services.xp_spend(character=character, key=key, by=by)


def store(character: Character, **tracks: Any) -> None:
    """Write ``health`` and ``willpower`` values into the stored sheet."""
    stored = fresh(character).sheet
    for track, values in tracks.items():
        stored[track].update(values)
    Character.objects.filter(pk=character.pk).update(sheet=stored)


# --- Health and willpower -----------------------------------------------------------------


def test_damage_mark_saves_the_new_chart_and_returns_it(bobs_character, bob):
    returned = change(bobs_character, "damage", bob, kind="lethal", levels=2)

    chart = sheet.health(returned.sheet)
    assert (chart.lethal, chart.level_name) == (2, "Scratched")
    assert sheet.health(fresh(bobs_character).sheet).lethal == 2


def test_damage_mark_on_a_dead_character_raises_and_writes_nothing(bobs_character, bob):
    store(bobs_character, health={"lethal": 8, "dead": True})

    with pytest.raises(RuleError, match="dead and cannot take more damage"):
        change(bobs_character, "damage", bob, kind="bashing", levels=1)

    chart = sheet.health(fresh(bobs_character).sheet)
    assert (chart.bashing, chart.lethal) == (0, 8)


def test_healing_without_a_kind_heals_bashing_before_lethal(bobs_character, bob):
    store(bobs_character, health={"bashing": 1, "lethal": 2})

    change(bobs_character, "heal", bob, kind="")
    change(bobs_character, "heal", bob, kind="")

    chart = sheet.health(fresh(bobs_character).sheet)
    assert (chart.bashing, chart.lethal) == (0, 1)


def test_willpower_spend_at_zero_raises_and_writes_nothing(bobs_character, bob):
    store(bobs_character, willpower={"current": 0})

    with pytest.raises(RuleError, match="No willpower dot is left to spend"):
        change(bobs_character, "willpower", bob, action="spend")

    assert sheet.willpower(fresh(bobs_character).sheet) == (3, 0)


def test_willpower_recover_stops_at_the_permanent_rank(bobs_character, bob):
    store(bobs_character, willpower={"current": 2})

    change(bobs_character, "willpower", bob, action="recover")
    with pytest.raises(RuleError, match="already at its permanent rank"):
        change(bobs_character, "willpower", bob, action="recover")

    assert sheet.willpower(fresh(bobs_character).sheet) == (3, 3)


# --- Awards -------------------------------------------------------------------------------


def test_a_session_award_is_one_xp_with_the_seeds_reason(bobs_character, alice):
    entry = SYSTEM.session_award(bobs_character, "Heroism", by=alice, session=None)

    assert (entry.kind, entry.available_delta, entry.total_delta, entry.reason) == (
        "award", 1, 1, "Heroism award")
    with pytest.raises(RuleError, match="'Bravery' is not one of the chapter or story awards"):
        SYSTEM.session_award(bobs_character, "Bravery", by=alice, session=None)


# --- Quotes: the seed's XP costs ----------------------------------------------------------


@pytest.mark.parametrize(("key", "cost"), [
    ("attribute:Strength", 15),
    ("attribute:Precision", 15),
    ("ability:Driving", 8),
    ("ability:Science", 2),
    ("ability:Melee", 4),
    ("willpower", 4),
    ("specialty:Driving:Cars", 2),
    ("advanced-specialty:Driving:Motorcycles", 3),
], ids=["attribute 2->3", "attribute 4->5", "ability 3->4", "ability 0->1", "ability 1->2",
        "willpower 3->4", "general specialty", "advanced specialty"])
def test_a_quote_prices_the_next_dot_as_the_seeds_table(key, cost, bobs_character):
    quote, from_bank = services.xp_quote(bobs_character, key)

    assert quote.cost == cost
    assert (from_bank, quote.cost - from_bank) == (0, cost)
    assert quote.cost <= bobs_character.xp_available


def test_a_quote_for_an_unknown_trait_is_refused(bobs_character):
    with pytest.raises(RuleError, match="Charisma is not a Maelstrom attribute"):
        SYSTEM.quote(bobs_character, "attribute:Charisma")


def test_a_specialty_of_an_unknown_ability_is_refused(bobs_character):
    with pytest.raises(RuleError, match="'Cooking' is not a Maelstrom ability"):
        SYSTEM.quote(bobs_character, "specialty:Cooking:Soup")


def test_willpower_cannot_be_bought_past_ten(bobs_character):
    store(bobs_character, willpower={"permanent": 10, "current": 10})

    with pytest.raises(RuleError, match="up to rank 10"):
        SYSTEM.quote(fresh(bobs_character), "willpower")


def test_an_unaffordable_purchase_names_cost_balance_and_bank(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=6)
    bank(character, "ability:Driving", 1, bob)

    quote, from_bank = services.xp_quote(fresh(character), "ability:Driving")
    with pytest.raises(RuleError) as refused:
        spend(fresh(character), "ability:Driving", bob)

    assert (quote.cost, from_bank, quote.cost - from_bank) == (8, 1, 7)
    assert quote.cost - from_bank > fresh(character).xp_available
    assert refused.value.message == (
        "Driving 3 → 4 costs 8 XP; you have 5 XP available plus 1 banked (2 short).")
    assert rank(character, "ability:Driving") == 3


# --- Spending -----------------------------------------------------------------------------


def test_a_new_specialty_is_stored_under_its_ability_as_the_seed_spells_it(bobs_character, bob):
    entry = spend(bobs_character, "advanced-specialty:Firearms:  Extreme   Range ", bob)

    assert fresh(bobs_character).sheet["specialties"] == [
        {"ability": "Firearms", "name": "Extreme Range", "advanced": True}]
    assert sheet.specialty_refs(fresh(bobs_character).sheet)["Firearms: Extreme Range"] == (
        maelstrom.SpecialtyRef(name="Extreme Range", ability="Firearms", advanced=True))
    assert (entry.trait_key, entry.rank_from, entry.rank_to) == (
        "specialty:Firearms:Extreme Range", 0, 1)


def test_buying_willpower_raises_both_ranks(bobs_character, bob):
    spend(bobs_character, "willpower", bob)

    character = fresh(bobs_character)
    assert sheet.willpower(character.sheet) == (4, 4)
    assert character.xp_available == 26


# --- Banking ------------------------------------------------------------------------------


def test_banking_into_willpower_pays_for_the_next_willpower_dot(bobs_character, bob):
    bank(bobs_character, "willpower", 4, bob)

    entry = spend(fresh(bobs_character), "willpower", bob)

    assert (entry.available_delta, entry.banked_delta) == (0, -4)
    assert fresh(bobs_character).xp_available == 26
    assert banked_xp(bobs_character) == {}


def test_leftover_banked_xp_stays_in_the_bank(bobs_character, bob):
    bank(bobs_character, "ability:Driving", 10, bob)

    spend(fresh(bobs_character), "ability:Driving", bob)

    assert banked_xp(bobs_character) == {"ability:Driving": 2}
    assert fresh(bobs_character).xp_available == 20


@pytest.mark.parametrize("key", ["specialty:Driving:Cars", "ability:Cooking", "skill:Driving"])
def test_xp_is_banked_only_into_an_attribute_an_ability_or_willpower(key, bobs_character, bob):
    with pytest.raises(RuleError, match="XP is banked into an attribute, an ability"):
        bank(bobs_character, key, 1, bob)

    assert fresh(bobs_character).xp_available == 30


@pytest.mark.parametrize("amount", [0, -3])
def test_banking_less_than_one_xp_is_refused(amount, bobs_character, bob):
    with pytest.raises(RuleError, match="Bank at least 1 XP"):
        bank(bobs_character, "ability:Driving", amount, bob)


def test_an_experience_die_cannot_bank_xp_the_character_does_not_have(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=0)
    form = SYSTEM.roll_form(character, {"kind": "action", "trait": ["Precision", "Driving"],
                                        "difficulty": "2", "threshold": "0"})
    assert form.is_valid(), form.errors
    roll = roll_services.roll_create(character=character, data=form.cleaned_data, by=bob,
                                     rng=random.Random(3))

    with pytest.raises(RuleError, match="needs 1 available XP"):
        roll_services.roll_act(roll=roll, action=SYSTEM.roll_actions["experience-die"],
                               data={"key": "ability:Driving"}, by=bob, rng=random.Random(4))

    assert not XpEntry.objects.filter(kind=LedgerKind.BANK).exists()


# --- Undo ---------------------------------------------------------------------------------


def test_undoing_a_willpower_purchase_lowers_both_ranks(bobs_character, bob):
    entry = spend(bobs_character, "willpower", bob)

    services.xp_undo(entry=entry, by=bob, as_gm=False)

    character = fresh(bobs_character)
    assert sheet.willpower(character.sheet) == (3, 3)
    assert character.xp_available == 30


def test_an_undo_reverses_every_delta_of_the_spend(bobs_character, bob):
    bank(bobs_character, "ability:Driving", 3, bob)
    entry = spend(fresh(bobs_character), "ability:Driving", bob)

    reversal = services.xp_undo(entry=entry, by=bob, as_gm=False)

    assert (reversal.kind, reversal.reverses) == ("reversal", entry)
    assert (reversal.available_delta, reversal.banked_delta, reversal.bank_key) == (
        5, 3, "ability:Driving")
    assert (reversal.rank_from, reversal.rank_to) == (4, 3)
    assert banked_xp(bobs_character) == {"ability:Driving": 3}


def test_a_bank_entry_cannot_be_undone(bobs_character, bob, alice):
    entry = bank(bobs_character, "ability:Driving", 3, bob)

    with pytest.raises(RuleError, match="Only a spend can be undone"):
        services.xp_undo(entry=entry, by=alice, as_gm=True)


def test_an_undone_specialty_spend_stays_undone_after_the_specialty_is_bought_again(
    bobs_character, bob, alice
):
    first = spend(bobs_character, "specialty:Driving:Cars", bob)
    services.xp_undo(entry=first, by=alice, as_gm=True)
    spend(bobs_character, "specialty:Driving:Cars", bob)

    with pytest.raises(RuleError, match="already been undone"):
        services.xp_undo(entry=first, by=alice, as_gm=True)

    owned = [s for s in fresh(bobs_character).sheet["specialties"] if s["name"] == "Cars"]
    assert len(owned) == 1
