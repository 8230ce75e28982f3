"""Maelstrom's equipment on the sheet (docs/systems/maelstrom.md, "Equipment"): weapons of the
seed's tables show their figures, a ranged weapon tracks the rounds it holds (fire one, reload
to its capacity, "Out of rounds: reload" when empty), armor's dice are offered to the soak
roll; nothing rolls an attack or damage (the seed's Attacking and Armor are unwritten)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.models import Character
from equipment.models import Item
from equipment.services import item_add
from rolls.models import Roll
from tests.factories import CampaignFactory, CharacterFactory
from tests.helpers import roll_url
from tests.systems.maelstrom.sheets import set_tracks

pytestmark = pytest.mark.django_db


def add(client, character: Character, **data: str):  # type: ignore[no-untyped-def]
    return client.post(reverse("equipment:item-add", args=[character.pk]),
                       {"quantity": "1", **data})


def act(client, item: Item, action: str):  # type: ignore[no-untyped-def]
    return client.post(reverse("equipment:item-act", args=[item.character_id, item.pk, action]))


def text(response) -> str:  # type: ignore[no-untyped-def]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def heavy_pistol(character: Character, by, loaded: int = 8) -> Item:  # type: ignore[no-untyped-def]
    return item_add(character=character, name="Pistol, Heavy", quantity=1, note="",
                    details={"weapon": "pistol-heavy", "loaded": loaded}, by=by)


def test_a_heavy_pistol_of_the_seeds_table_is_named_loaded_and_shows_its_figures(
        client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    response = add(client_for(bob, htmx=True), bobs_character, name="", what="weapon:pistol-heavy")

    item = bobs_character.items.get()
    assert (item.name, item.details) == ("Pistol, Heavy", {"weapon": "pistol-heavy",
                                                           "loaded": 8})
    card = text(response)
    assert "Damage 5 · Range 30 · Rate 3 · Capacity 7+1" in card
    assert "8 of 8 rounds loaded" in card


def test_a_maelstrom_character_fires_a_heavy_pistol_until_it_needs_a_reload(
        client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    """The issue's journey: eight shots, then "Out of rounds: reload", then a reload."""
    client = client_for(bob, htmx=True)
    add(client, bobs_character, name="", what="weapon:pistol-heavy")
    pistol = bobs_character.items.get()

    shots = [text(act(client, pistol, "fire")) for _ in range(8)]
    assert "Fired the Pistol, Heavy: 7 of 8 rounds left." in shots[0]
    assert "Fired the Pistol, Heavy: 0 of 8 rounds left." in shots[-1]
    assert "Out of rounds: reload." in shots[-1]
    empty = act(client, pistol, "fire")
    assert "Out of rounds: reload. (Maelstrom rules, Ranged Weapons)" in text(empty)
    assert re.search(rf'id="item-{pistol.pk}-fire" disabled', empty.content.decode())
    pistol.refresh_from_db()
    assert pistol.details["loaded"] == 0

    reloaded = act(client, pistol, "reload")
    assert "Reloaded the Pistol, Heavy: 8 rounds." in text(reloaded)
    pistol.refresh_from_db()
    assert pistol.details["loaded"] == 8


def test_fire_and_reload_work_without_javascript(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    pistol = heavy_pistol(bobs_character, bob, loaded=1)
    client = client_for(bob)

    fired = act(client, pistol, "fire")
    refused = client.post(reverse("equipment:item-act", args=[bobs_character.pk, pistol.pk,
                                                             "fire"]), follow=True)

    assert fired.status_code == 302
    assert fired["Location"] == f"{bobs_character.get_absolute_url()}#sheet-inventory"
    assert "Out of rounds: reload." in text(refused)
    pistol.refresh_from_db()
    assert pistol.details["loaded"] == 0


def test_a_full_weapon_offers_no_reload_and_refuses_one(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    pistol = heavy_pistol(bobs_character, bob)

    page = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()
    refused = act(client_for(bob, htmx=True), pistol, "reload")

    assert re.search(rf'id="item-{pistol.pk}-reload" disabled', page)
    assert "Pistol, Heavy is already full: 8 rounds (7+1)." in text(refused)


def test_a_ranged_weapon_of_your_own_shows_its_figures_and_capacity(client_for, bob,  # type: ignore[no-untyped-def]
                                                                    bobs_character):
    response = add(client_for(bob, htmx=True), bobs_character, name="Flechette carbine",
                   what="ranged", damage="6", range="100", rate="2", magazine="20",
                   chambered="on")

    carbine = bobs_character.items.get()
    assert carbine.details == {"ranged": {"damage": 6, "range": 100, "rate": 2,
                                          "magazine": 20, "chambered": True}, "loaded": 21}
    assert "Damage 6 · Range 100 · Rate 2 · Capacity 20+1" in text(response)
    assert "21 of 21 rounds loaded" in text(response)


def test_a_kind_of_weapon_asks_for_its_own_figures(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    response = add(client_for(bob, htmx=True), bobs_character, name="Odd gun", what="ranged",
                   damage="6")

    # Range, rate and magazine, each under its field, the fold they are in opened.
    assert text(response).count("Needed for a ranged weapon of your own.") == 3
    assert "<details open>" in response.content.decode()
    assert 'value="Odd gun"' in response.content.decode()
    assert not bobs_character.items.exists()


def test_a_knife_shows_strength_plus_its_bonus_and_nothing_to_fire(client_for, bob,  # type: ignore[no-untyped-def]
                                                                   bobs_character):
    response = add(client_for(bob, htmx=True), bobs_character, name="", what="weapon:knife")

    knife = bobs_character.items.get()
    assert "Damage Strength + 1 (3) · Lethal" in text(response)  # Rook's Strength is 2
    assert f"item-{knife.pk}-fire" not in response.content.decode()
    refused = act(client_for(bob, htmx=True), knife, "fire")
    assert "Knife is not a ranged weapon: it holds no rounds." in text(refused)


def test_changing_a_weapon_keeps_its_rounds_within_the_new_capacity(client_for, bob,  # type: ignore[no-untyped-def]
                                                                   bobs_character):
    pistol = heavy_pistol(bobs_character, bob, loaded=8)
    url = reverse("equipment:item-change", args=[bobs_character.pk, pistol.pk])

    client_for(bob).post(url, {"name": "Old revolver", "quantity": "1",
                               "what": "weapon:revolver-light"})

    pistol.refresh_from_db()
    assert pistol.details == {"weapon": "revolver-light", "loaded": 6}


def test_the_cards_quick_change_leaves_what_the_item_is(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    pistol = heavy_pistol(bobs_character, bob, loaded=3)
    url = reverse("equipment:item-change", args=[bobs_character.pk, pistol.pk])

    client_for(bob, htmx=True).post(url, {"name": "Sidearm", "quantity": "1", "note": "left"})

    pistol.refresh_from_db()
    assert (pistol.name, pistol.note, pistol.details) == (
        "Sidearm", "left", {"weapon": "pistol-heavy", "loaded": 3})


def test_the_items_page_shows_what_it_is(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    pistol = heavy_pistol(bobs_character, bob)

    page = client_for(bob).get(reverse("equipment:item-change",
                                       args=[bobs_character.pk, pistol.pk])).content.decode()

    assert '<option value="weapon:pistol-heavy" selected>Pistol, Heavy</option>' in page


def test_recorded_armor_is_offered_as_the_soak_rolls_armor_dice(client_for, bob,  # type: ignore[no-untyped-def]
                                                                bobs_character,
                                                                scripted_dice):
    client = client_for(bob)
    add(client, bobs_character, name="Flak vest", what="armor", armor="3")
    add(client, bobs_character, name="Riot shield", what="armor", armor="1")

    page = client.get(bobs_character.get_absolute_url()).content.decode()
    offered = re.search(r'<input type="number" name="armor" value="(\d+)" list="soak-armor"',
                        page)
    assert offered is not None and offered[1] == "3"
    assert ('<datalist id="soak-armor"><option value="3" label="Flak vest"></option>'
            '<option value="1" label="Riot shield"></option></datalist>') in page

    scripted_dice([6, 7, 1, 9, 2])
    client_for(bob, htmx=True).post(roll_url(bobs_character), {
        "kind": "soak", "damage_kind": "bashing", "armor": offered[1], "difficulty": "6",
        "threshold": "0"})
    roll = Roll.objects.get()
    assert (roll.kind, roll.result["dice"], roll.pool["traits"]) == (
        "soak", [6, 7, 1, 9, 2], ["Strength", "Armor"])  # Strength 2 + armor 3


def test_a_dead_character_fires_no_weapon(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    pistol = heavy_pistol(bobs_character, bob)
    set_tracks(bobs_character, dead=True)

    refused = act(client_for(bob, htmx=True), pistol, "fire")

    assert "Rook is out of the story: it does nothing in play." in text(refused)
    pistol.refresh_from_db()
    assert pistol.details["loaded"] == 8


def test_a_system_without_item_actions_has_no_fire(client_for, alice):  # type: ignore[no-untyped-def]
    campaign = CampaignFactory(ruleset="three_d6", created_by=alice)
    character = CharacterFactory(campaign=campaign, owner=alice, name="Mara", sheet={})
    item = item_add(character=character, name="Sling", quantity=1, note="", details={},
                    by=alice)

    assert act(client_for(alice), item, "fire").status_code == 404
    assert Membership.objects.filter(campaign=campaign, user=alice).exists()
