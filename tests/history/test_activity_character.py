"""The activity log hears every change of a character made through the generic services:
who, what in the system's words, and the facts it moved, written in the change's own
transaction (docs/history.md, "Activity log")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters import services
from core.appendonly import AppendOnlyError
from equipment import services as equipment
from history.models import Activity
from rolls.models import Roll
from rulesets.errors import RuleError
from tests.factories import CharacterFactory
from tests.helpers import action_url, roll_url

pytestmark = pytest.mark.django_db

POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
        "threshold": "0"}


def _changes(entry: Activity) -> dict[str, tuple[str, str]]:
    return {label: (before, after) for label, before, after in entry.changes}


def test_a_sheet_action_names_who_did_what_and_what_it_moved(
        client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).post(action_url(bobs_character, "damage"),
                                      {"kind": "lethal", "levels": "2"})
    assert response.status_code == 302

    entry = Activity.objects.get(kind=Activity.Kind.SHEET)
    assert (entry.actor, entry.character, entry.action) == (alice, bobs_character, "damage")
    assert entry.text and not entry.gm_only
    assert entry.changes, "marking damage moves a fact of the sheet"
    assert all(before != after for _, before, after in entry.changes)


def test_a_refused_change_writes_no_entry(bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError):
        services.xp_spend(character=bobs_character, key="ability:Firearms", by=bob,
                          expected_cost=1)  # the price the player saw is not the price
    assert not Activity.objects.exists()


def test_awards_spends_and_undo_carry_their_xp(alice, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.xp_award(character=bobs_character, amount=5, reason="Saved the ferry", by=alice)
    spend = services.xp_spend(character=bobs_character, key="ability:Firearms", by=bob)
    services.xp_undo(entry=spend, by=alice, as_gm=True)

    award, bought, undone = Activity.objects.filter(kind=Activity.Kind.XP).order_by("id")
    assert (award.action, award.actor) == ("award", alice)
    assert award.text == "Awarded 5 XP: Saved the ferry"
    assert _changes(award)["XP available"] == ("30", "35")
    assert _changes(award)["XP earned"][1] == str(bobs_character.xp_total + 5)
    assert bought.action == "spend" and f"Spent {spend.cost} XP" in bought.text
    assert _changes(bought)["XP available"] == ("35", str(35 - spend.cost))
    assert undone.action == "undo" and _changes(undone)["XP available"] == (
        str(35 - spend.cost), "35")
    # The rank the spend bought and the undo took back is a fact both entries moved.
    assert set(_changes(bought)) - {"XP available"} == set(_changes(undone)) - {"XP available"}


def test_a_roll_is_logged_with_its_roll_and_a_hidden_npc_s_is_the_gm_s(
        client_for, alice, bob, bobs_character, campaign, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    client_for(bob, htmx=True).post(roll_url(bobs_character), POOL)
    goon = CharacterFactory(campaign=campaign, owner=alice, name="Goon", is_npc=True)
    client_for(alice, htmx=True).post(roll_url(goon), POOL)

    players, npcs = Activity.objects.filter(kind=Activity.Kind.ROLL).order_by("id")
    roll = Roll.objects.get(character=bobs_character)
    assert (players.roll, players.actor, players.gm_only) == (roll, bob, False)
    assert roll.summary in players.text
    assert npcs.gm_only and npcs.character == goon


def test_the_gm_notes_leave_a_gm_only_entry_without_their_words(
        alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.character_update(character=bobs_character, by=alice, gm_notes="Kestrel lied",
                              name="Rook the Bold")
    public, private = Activity.objects.order_by("id")
    assert not public.gm_only and _changes(public)["Name"] == ("Rook", "Rook the Bold")
    assert private.gm_only and private.text == "Edited the GM's notes."
    assert not any("Kestrel" in str(entry.changes) + entry.text
                   for entry in Activity.objects.all())


def test_the_inventory_is_a_fact_of_the_character(bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    item = equipment.item_add(character=bobs_character, name="Rope", quantity=2, note="",
                              details={}, by=bob)
    equipment.item_remove(item=item, by=bob)
    added, removed = Activity.objects.filter(kind=Activity.Kind.ITEM).order_by("id")
    assert _changes(added) == {"Inventory · Rope": ("", "2")}
    assert _changes(removed) == {"Inventory · Rope": ("2", "")}


def test_an_entry_is_never_edited_or_deleted(alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.xp_award(character=bobs_character, amount=1, reason="Here", by=alice)
    entry = Activity.objects.get()
    entry.text = "Nothing happened"
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        Activity.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        Activity.objects.update(text="Nothing")


def test_an_item_s_system_details_are_part_of_its_fact(bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    # A weapon's rounds live in its details (Maelstrom's firing and reloading change them):
    # the log must see them move, or an earlier sheet could not be rebuilt with them.
    item = equipment.item_add(character=bobs_character, name="Pistol", quantity=1, note="",
                              details={"rounds": 3}, by=bob)
    equipment.item_change(item=item, name="Pistol", quantity=1, note="", details={"rounds": 2},
                          by=bob)
    changed = Activity.objects.filter(kind=Activity.Kind.ITEM).order_by("id").last()
    assert changed is not None
    assert _changes(changed) == {"Inventory · Pistol": ("1; Rounds: 3", "1; Rounds: 2")}


def test_a_request_for_a_roll_is_logged_for_each_character_asked(
        client_for, alice, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).post(
        reverse("rolls:requested-roll-create", args=[campaign.pk]),
        {"character": str(bobs_character.pk), "kind": "action",
         "traits": "Precision + Driving", "difficulty": "6", "threshold": "0",
         "note": "Chase"})
    assert response.status_code == 302
    entry = Activity.objects.get(kind=Activity.Kind.REQUEST)
    assert (entry.actor, entry.character, entry.action) == (alice, bobs_character, "ask")
    assert entry.text.startswith("Asked Rook for a roll: ") and entry.text.endswith("(Chase)")


def test_what_a_roll_takes_from_the_sheet_is_logged_beside_it(
        client_for, bob, bobs_character, scripted_dice) -> None:  # type: ignore[no-untyped-def]
    # A roll that changes nothing writes its own entry alone; a Willpower roll botched with
    # three 1s takes a current dot per botch (Maelstrom rules.md, Rolling Willpower), logged
    # beside the roll with the facts it moved.
    willpower = {"kind": "willpower", "difficulty": "8", "threshold": "0"}
    scripted_dice([9, 9, 9])
    client_for(bob, htmx=True).post(roll_url(bobs_character), willpower)
    assert not Activity.objects.filter(kind=Activity.Kind.SHEET).exists()
    scripted_dice([1, 1, 1])
    client_for(bob, htmx=True).post(roll_url(bobs_character), willpower)
    spent = Activity.objects.get(kind=Activity.Kind.SHEET)
    botched = Roll.objects.filter(character=bobs_character).latest("pk")
    assert (spent.action, spent.roll, spent.actor) == ("roll", botched, bob)
    assert _changes(spent) == {"Willpower": ("3 of 3", "0 of 3, incapacitated")}
