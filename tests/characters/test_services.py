"""characters.services: every state change of a character is atomic, checks its rule first
and keeps the XP ledger and the character's balances in step.

After every test the ledger must balance: available and total XP equal the sums of the
ledger's entries, and no bank is overdrawn.
"""

from __future__ import annotations

import pytest

from characters import services
from characters.models import Character, Trait, XpEntry
from core.appendonly import AppendOnlyError
from rulesets.maelstrom import RuleError
from tests.factories import CharacterFactory
from tests.helpers import fresh

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]



def dots(character: Character, name: str) -> int:
    return Trait.objects.get(character=character, name=name, kind__in=["attribute", "ability"]).dots


# --- Health and willpower -----------------------------------------------------------------


def test_damage_mark_saves_the_new_chart_and_returns_it(bobs_character):
    returned = services.damage_mark(character=bobs_character, kind="lethal", levels=2)

    assert (returned.health_lethal, returned.health.level_name) == (2, "Scratched")
    assert fresh(bobs_character).health_lethal == 2


def test_damage_mark_on_a_dead_character_raises_and_writes_nothing(bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(health_lethal=8, dead=True)

    with pytest.raises(RuleError, match="dead and cannot take more damage"):
        services.damage_mark(character=bobs_character, kind="bashing", levels=1)

    assert (fresh(bobs_character).health_bashing, fresh(bobs_character).health_lethal) == (0, 8)


def test_damage_heal_without_a_kind_heals_bashing_before_lethal(bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(health_bashing=1, health_lethal=2)

    services.damage_heal(character=bobs_character, levels=2)

    assert (fresh(bobs_character).health_bashing, fresh(bobs_character).health_lethal) == (0, 1)


def test_willpower_spend_at_zero_raises_and_writes_nothing(bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(willpower_current=0)

    with pytest.raises(RuleError, match="No willpower dot is left to spend"):
        services.willpower_spend(character=bobs_character)

    assert fresh(bobs_character).willpower_current == 0


def test_willpower_recover_stops_at_the_permanent_rank(bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(willpower_current=2)

    services.willpower_recover(character=bobs_character)
    with pytest.raises(RuleError, match="already at its permanent rank"):
        services.willpower_recover(character=bobs_character)

    assert fresh(bobs_character).willpower_current == 3


# --- Awards -------------------------------------------------------------------------------


def test_an_award_raises_available_and_total_xp_alike(bobs_character, alice):
    entry = services.xp_award(character=bobs_character, amount=4, reason="Heroism", by=alice)

    assert (entry.kind, entry.available_delta, entry.total_delta) == ("award", 4, 4)
    assert (fresh(bobs_character).xp_available, fresh(bobs_character).xp_total) == (34, 34)


@pytest.mark.parametrize(("amount", "reason", "message"), [
    (0, "Heroism", "between 1 and 100"),
    (101, "Heroism", "between 1 and 100"),
    (5, "   ", "Give the award a reason"),
])
def test_an_award_outside_1_to_100_xp_or_without_a_reason_is_refused(
    amount, reason, message, bobs_character, alice
):
    with pytest.raises(RuleError, match=message):
        services.xp_award(character=bobs_character, amount=amount, reason=reason, by=alice)

    assert not XpEntry.objects.filter(kind=XpEntry.Kind.AWARD).exists()


# --- Quotes: the seed's XP costs ----------------------------------------------------------


@pytest.mark.parametrize(("kind", "name", "ability", "advanced", "cost"), [
    ("attribute", "Strength", "", False, 15),
    ("attribute", "Precision", "", False, 15),
    ("ability", "Driving", "", False, 8),
    ("ability", "Science", "", False, 2),
    ("ability", "Melee", "", False, 4),
    ("willpower", "Willpower", "", False, 4),
    ("specialty", "Cars", "Driving", False, 2),
    ("specialty", "Motorcycles", "Driving", True, 3),
], ids=["attribute 2->3", "attribute 4->5", "ability 3->4", "ability 0->1", "ability 1->2",
        "willpower 3->4", "general specialty", "advanced specialty"])
def test_a_quote_prices_the_next_dot_as_the_seeds_table(
    kind, name, ability, advanced, cost, bobs_character
):
    quote = services.xp_quote(character=bobs_character, kind=kind, name=name, ability=ability,
                              advanced=advanced)

    assert quote.cost == cost
    assert (quote.from_bank, quote.from_available, quote.affordable) == (0, cost, True)


def test_a_quote_for_an_unknown_trait_is_refused(bobs_character):
    with pytest.raises(RuleError, match="Charisma is not a Maelstrom attribute"):
        services.xp_quote(character=bobs_character, kind="attribute", name="Charisma")


def test_a_specialty_of_an_unknown_ability_is_refused(bobs_character):
    with pytest.raises(RuleError, match="'Cooking' is not a Maelstrom ability"):
        services.xp_quote(character=bobs_character, kind="specialty", name="Soup",
                          ability="Cooking")


def test_willpower_cannot_be_bought_past_ten(bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(willpower_permanent=10,
                                                          willpower_current=10)

    with pytest.raises(RuleError, match="up to rank 10"):
        services.xp_quote(character=fresh(bobs_character), kind="willpower", name="Willpower")


def test_an_unaffordable_quote_names_cost_balance_and_bank(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=6)
    services.xp_bank(character=character, key="ability:Driving", amount=1, by=bob)

    quote = services.xp_quote(character=fresh(character), kind="ability", name="Driving")

    assert (quote.cost, quote.from_bank, quote.from_available) == (8, 1, 7)
    assert not quote.affordable
    assert quote.refusal() == "Driving 3 → 4 costs 8 XP; you have 5 XP available plus 1 banked."


# --- Spending -----------------------------------------------------------------------------


def test_a_spend_buys_the_dot_and_appends_one_spend_entry(bobs_character, bob):
    entry = services.xp_spend(character=bobs_character, kind="ability", name="Firearms",
                              expected_cost=8, by=bob)

    assert dots(bobs_character, "Firearms") == 4
    assert (entry.kind, entry.trait_key, entry.rank_from, entry.rank_to) == (
        "spend", "ability:Firearms", 3, 4)
    assert (entry.available_delta, entry.total_delta, entry.created_by) == (-8, 0, bob)
    assert fresh(bobs_character).xp_available == 22


def test_a_spend_at_a_different_price_than_confirmed_writes_nothing(bobs_character, bob):
    with pytest.raises(RuleError, match="The price changed to 8 XP"):
        services.xp_spend(character=bobs_character, kind="ability", name="Firearms",
                          expected_cost=6, by=bob)

    assert dots(bobs_character, "Firearms") == 3
    assert not XpEntry.objects.filter(kind=XpEntry.Kind.SPEND).exists()


def test_a_spend_the_balance_cannot_cover_writes_nothing(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=14)

    with pytest.raises(RuleError, match="costs 15 XP; you have 14 XP available"):
        services.xp_spend(character=character, kind="attribute", name="Strength", by=bob)

    assert dots(character, "Strength") == 2
    assert fresh(character).xp_available == 14


def test_a_spend_of_exactly_the_balance_leaves_zero(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=15)

    services.xp_spend(character=character, kind="attribute", name="Strength", by=bob)

    assert fresh(character).xp_available == 0


def test_a_new_specialty_is_stored_under_its_ability_with_its_group(bobs_character, bob):
    services.xp_spend(character=bobs_character, kind="specialty", name="  Extreme   Range ",
                      ability="Firearms", advanced=True, by=bob)

    specialty = Trait.objects.get(character=bobs_character, kind="specialty")
    assert (specialty.name, specialty.ability, specialty.advanced, specialty.group) == (
        "Extreme Range", "Firearms", True, "Skills")


def test_buying_willpower_raises_both_ranks(bobs_character, bob):
    services.xp_spend(character=bobs_character, kind="willpower", name="Willpower", by=bob)

    character = fresh(bobs_character)
    assert (character.willpower_permanent, character.willpower_current) == (4, 4)
    assert character.xp_available == 26


# --- Banking ------------------------------------------------------------------------------


def test_banking_into_willpower_pays_for_the_next_willpower_dot(bobs_character, bob):
    services.xp_bank(character=bobs_character, key="willpower", amount=4, by=bob)

    entry = services.xp_spend(character=fresh(bobs_character), kind="willpower",
                              name="Willpower", by=bob)

    assert (entry.available_delta, entry.banked_delta) == (0, -4)
    assert fresh(bobs_character).xp_available == 26
    assert services.banked_xp(bobs_character) == {}


def test_leftover_banked_xp_stays_in_the_bank(bobs_character, bob):
    services.xp_bank(character=bobs_character, key="ability:Driving", amount=10, by=bob)

    services.xp_spend(character=fresh(bobs_character), kind="ability", name="Driving", by=bob)

    assert services.banked_xp(bobs_character) == {"ability:Driving": 2}
    assert fresh(bobs_character).xp_available == 20


@pytest.mark.parametrize("key", ["specialty:Driving:Cars", "ability:Cooking", "skill:Driving"])
def test_xp_is_banked_only_into_an_attribute_an_ability_or_willpower(key, bobs_character, bob):
    with pytest.raises(RuleError, match="XP is banked into an attribute, an ability"):
        services.xp_bank(character=bobs_character, key=key, amount=1, by=bob)

    assert fresh(bobs_character).xp_available == 30


@pytest.mark.parametrize("amount", [0, -3])
def test_banking_less_than_one_xp_is_refused(amount, bobs_character, bob):
    with pytest.raises(RuleError, match="Bank at least 1 XP"):
        services.xp_bank(character=bobs_character, key="ability:Driving", amount=amount, by=bob)


def test_an_experience_die_cannot_bank_xp_the_character_does_not_have(campaign, bob):
    character = CharacterFactory(campaign=campaign, owner=bob, starting_xp=0)

    with pytest.raises(RuleError, match="needs 1 available XP"):
        services.xp_bank_for_experience_die(character=character, key="ability:Driving", by=bob,
                                            reason="Experience die")

    assert not XpEntry.objects.filter(kind=XpEntry.Kind.BANK).exists()


# --- Undo ---------------------------------------------------------------------------------


def test_undoing_a_willpower_purchase_lowers_both_ranks(bobs_character, bob):
    entry = services.xp_spend(character=bobs_character, kind="willpower", name="Willpower",
                              by=bob)

    services.xp_undo(entry=entry, by=bob, as_gm=False)

    character = fresh(bobs_character)
    assert (character.willpower_permanent, character.willpower_current) == (3, 3)
    assert character.xp_available == 30


def test_an_undo_reverses_every_delta_of_the_spend(bobs_character, bob):
    services.xp_bank(character=bobs_character, key="ability:Driving", amount=3, by=bob)
    entry = services.xp_spend(character=fresh(bobs_character), kind="ability", name="Driving",
                              by=bob)

    reversal = services.xp_undo(entry=entry, by=bob, as_gm=False)

    assert (reversal.kind, reversal.reverses) == ("reversal", entry)
    assert (reversal.available_delta, reversal.banked_delta, reversal.bank_key) == (
        5, 3, "ability:Driving")
    assert (reversal.rank_from, reversal.rank_to) == (4, 3)
    assert services.banked_xp(bobs_character) == {"ability:Driving": 3}


def test_a_player_undoes_once_and_leaves_older_spends_to_the_gm(bobs_character, bob, alice):
    first = services.xp_spend(character=bobs_character, kind="ability", name="Driving", by=bob)
    second = services.xp_spend(character=bobs_character, kind="ability", name="Firearms", by=bob)
    services.xp_undo(entry=second, by=bob, as_gm=False)

    with pytest.raises(RuleError, match="only your own latest spend, once"):
        services.xp_undo(entry=first, by=bob, as_gm=False)
    services.xp_undo(entry=first, by=alice, as_gm=True)

    assert (dots(bobs_character, "Driving"), dots(bobs_character, "Firearms")) == (3, 3)
    assert fresh(bobs_character).xp_available == 30


def test_a_new_spend_after_an_undo_can_be_undone_by_the_player(bobs_character, bob):
    mistaken = services.xp_spend(character=bobs_character, kind="ability", name="Driving",
                                 by=bob)
    services.xp_undo(entry=mistaken, by=bob, as_gm=False)
    meant = services.xp_spend(character=bobs_character, kind="ability", name="Firearms", by=bob)

    services.xp_undo(entry=meant, by=bob, as_gm=False)

    assert fresh(bobs_character).xp_available == 30


def test_a_bank_entry_cannot_be_undone(bobs_character, bob, alice):
    entry = services.xp_bank(character=bobs_character, key="ability:Driving", amount=3, by=bob)

    with pytest.raises(RuleError, match="Only a spend can be undone"):
        services.xp_undo(entry=entry, by=alice, as_gm=True)


def test_the_gm_may_undo_a_spend_after_the_later_one_on_the_same_trait_is_undone(
    bobs_character, bob, alice
):
    first = services.xp_spend(character=bobs_character, kind="ability", name="Driving", by=bob)
    second = services.xp_spend(character=bobs_character, kind="ability", name="Driving", by=bob)
    with pytest.raises(RuleError, match="undo the later purchase first"):
        services.xp_undo(entry=first, by=alice, as_gm=True)

    services.xp_undo(entry=second, by=alice, as_gm=True)
    services.xp_undo(entry=first, by=alice, as_gm=True)

    assert dots(bobs_character, "Driving") == 3
    assert fresh(bobs_character).xp_available == 30


def test_an_undone_specialty_spend_stays_undone_after_the_specialty_is_bought_again(
    bobs_character, bob, alice
):
    first = services.xp_spend(character=bobs_character, kind="specialty", name="Cars",
                              ability="Driving", by=bob)
    services.xp_undo(entry=first, by=alice, as_gm=True)
    services.xp_spend(character=bobs_character, kind="specialty", name="Cars", ability="Driving",
                      by=bob)

    with pytest.raises(RuleError, match="already been undone"):
        services.xp_undo(entry=first, by=alice, as_gm=True)

    assert Trait.objects.filter(character=bobs_character, name="Cars").count() == 1


# --- The ledger is append-only ------------------------------------------------------------


def test_a_ledger_entry_cannot_be_edited(bobs_character):
    entry = XpEntry.objects.get(character=bobs_character)
    entry.available_delta = 1000

    with pytest.raises(AppendOnlyError):
        entry.save()

    assert XpEntry.objects.get(pk=entry.pk).available_delta == 30


def test_a_ledger_entry_cannot_be_deleted(bobs_character):
    entry = XpEntry.objects.get(character=bobs_character)

    with pytest.raises(AppendOnlyError):
        entry.delete()

    assert XpEntry.objects.filter(pk=entry.pk).exists()


def test_the_ledger_cannot_be_bulk_updated_or_bulk_deleted(bobs_character):
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.filter(character=bobs_character).update(available_delta=0)
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.update(available_delta=0)
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.filter(character=bobs_character).delete()
    with pytest.raises(AppendOnlyError):
        XpEntry.objects.all().delete()

    assert XpEntry.objects.get(character=bobs_character).available_delta == 30


def test_an_award_of_several_amounts_is_all_or_nothing(bobs_character, alice):
    with pytest.raises(RuleError, match="between 1 and 100"):
        services.xp_award_many(character=bobs_character, by=alice,
                               awards=[(1, "Participation award"), (500, "Typo")])

    assert fresh(bobs_character).xp_total == 30
    assert not bobs_character.xp_entries.filter(kind="award").exists()
