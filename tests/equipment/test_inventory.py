"""The inventory every sheet has (docs/equipment.md): items added, changed and removed in place
on the sheet's Equipment card, by the character's owner and the GM only, each answer both
ways (htmx: the card; a plain POST: back to the sheet), a refusal shown with what was typed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from equipment.models import Item
from equipment.services import item_add

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def add_url(character: Character) -> str:
    return reverse("equipment:item-add", args=[character.pk])


def change_url(item: Item) -> str:
    return reverse("equipment:item-change", args=[item.character_id, item.pk])


def remove_url(item: Item) -> str:
    return reverse("equipment:item-remove", args=[item.character_id, item.pk])


def rope(character: Character, by) -> Item:  # type: ignore[no-untyped-def]
    return item_add(character=character, name="Rope", quantity=2, note="10 m each",
                    details={}, by=by)


def test_an_empty_inventory_says_so_and_offers_the_add_form(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    page = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert 'id="sheet-inventory"' in page
    assert "Nothing carried yet." in page
    assert f'hx-post="{add_url(bobs_character)}"' in page


def test_the_owner_adds_an_item_in_place(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=True).post(
        add_url(bobs_character), {"name": "Rope", "quantity": "2", "note": "10 m each"})

    assert response.status_code == 200
    card = response.content.decode()
    assert card.lstrip().startswith('<section class="card inventory" id="sheet-inventory"')
    assert "Rope" in card and "×2" in card and "10 m each" in card
    assert "Added Rope ×2 to the equipment." in card
    [item] = bobs_character.items.all()
    assert (item.name, item.quantity, item.note, item.details) == ("Rope", 2, "10 m each", {})


def test_a_plain_post_adds_and_goes_back_to_the_sheets_card(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    response = client_for(bob).post(add_url(bobs_character),
                                    {"name": "Lantern", "quantity": "1", "note": ""},
                                    follow=True)

    assert response.redirect_chain == [(f"{bobs_character.get_absolute_url()}#sheet-inventory",
                                        302)]
    assert "Added Lantern to the equipment." in response.content.decode()
    assert bobs_character.items.get().name == "Lantern"


def test_items_keep_the_order_they_were_added_in(bob, bobs_character):  # type: ignore[no-untyped-def]
    for name in ("Rope", "Lantern", "Crowbar"):
        item_add(character=bobs_character, name=name, quantity=1, note="", details={}, by=bob)

    assert list(bobs_character.items.values_list("name", "position")) == [
        ("Rope", 0), ("Lantern", 1), ("Crowbar", 2)]


def test_the_gm_adds_to_a_players_character(client_for, alice, bobs_character):  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(add_url(bobs_character),
                                                 {"name": "Medkit", "quantity": "1"})

    assert response.status_code == 200
    assert bobs_character.items.get().name == "Medkit"


@pytest.mark.parametrize(("data", "error"), [
    ({"name": "", "quantity": "1"}, "Name the item."),
    ({"name": "Rope", "quantity": "0"}, "greater than or equal to 1"),
    ({"name": "Rope\u202e", "quantity": "1"}, "one line of plain text"),
    ({"name": "R" * 81, "quantity": "1"}, "at most 80 characters"),
])
def test_a_refused_item_shows_again_with_what_was_typed(client_for, bob, bobs_character, data,  # type: ignore[no-untyped-def]
                                                        error):
    as_htmx = client_for(bob, htmx=True).post(add_url(bobs_character), data)
    plain = client_for(bob).post(add_url(bobs_character), data)

    assert as_htmx.status_code == 200 and plain.status_code == 400
    for answer in (as_htmx, plain):
        assert error in answer.content.decode()
        assert f'value="{data["quantity"]}"' in answer.content.decode()
        assert data["name"] in answer.content.decode()
    assert not bobs_character.items.exists()


def test_the_quick_change_sets_name_quantity_and_note(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    item = rope(bobs_character, bob)

    response = client_for(bob, htmx=True).post(
        change_url(item), {"name": "Climbing rope", "quantity": "1", "note": "frayed"})

    assert response.status_code == 200
    assert "Changed Climbing rope." in response.content.decode()
    item.refresh_from_db()
    assert (item.name, item.quantity, item.note) == ("Climbing rope", 1, "frayed")


def test_a_refused_change_opens_that_items_form_with_what_was_typed(client_for, bob,  # type: ignore[no-untyped-def]
                                                                    bobs_character):
    item = rope(bobs_character, bob)

    response = client_for(bob, htmx=True).post(change_url(item),
                                               {"name": "Rope", "quantity": "-3", "note": "x"})

    card = response.content.decode()
    assert response.status_code == 200
    assert '<details class="item-change" open>' in card
    assert 'value="-3"' in card and "Quantity: Ensure this value" in card
    item.refresh_from_db()
    assert item.quantity == 2


def test_remove_asks_first_then_removes(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    item = rope(bobs_character, bob)
    client = client_for(bob)

    asked = client.get(remove_url(item))
    assert asked.status_code == 200 and "Remove Rope?" in asked.content.decode()
    assert bobs_character.items.exists()

    removed = client.post(remove_url(item))
    assert removed.status_code == 302
    assert not bobs_character.items.exists()


def test_the_cards_remove_button_confirms_in_the_browser(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    item = rope(bobs_character, bob)

    page = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert f'href="{remove_url(item)}" hx-post="{remove_url(item)}"' in page
    assert 'hx-confirm="Remove Rope from the equipment?"' in page


def test_removing_in_place_answers_with_the_card(client_for, bob, bobs_character):  # type: ignore[no-untyped-def]
    item = rope(bobs_character, bob)

    response = client_for(bob, htmx=True).post(remove_url(item))

    assert response.status_code == 200
    assert "Removed Rope ×2 from the equipment." in response.content.decode()
    assert "Nothing carried yet." in response.content.decode()


@pytest.mark.parametrize("who", ["carol", "dave"])
def test_no_one_else_reaches_an_inventory(request, client_for, bob, bobs_character, who):  # type: ignore[no-untyped-def]
    item = rope(bobs_character, bob)
    client = client_for(request.getfixturevalue(who))

    answers = [client.get(add_url(bobs_character)), client.get(change_url(item)),
               client.post(add_url(bobs_character), {"name": "Bomb", "quantity": "1"}),
               client.post(change_url(item), {"name": "Mine", "quantity": "1"}),
               client.post(remove_url(item))]

    assert [a.status_code for a in answers] == [404] * 5
    assert list(bobs_character.items.values_list("name", flat=True)) == ["Rope"]


def test_an_item_is_reached_only_under_its_own_character(client_for, bob, dave,  # type: ignore[no-untyped-def]
                                                         bobs_character):
    wren = Character.objects.get(name="Wren")
    item = rope(wren, dave)
    url = reverse("equipment:item-change", args=[bobs_character.pk, item.pk])

    assert client_for(bob).post(url, {"name": "Mine", "quantity": "1"}).status_code == 404
    assert Item.objects.get(pk=item.pk).name == "Rope"


def test_a_character_out_of_play_keeps_its_equipment_as_it_was(client_for, bob, alice,  # type: ignore[no-untyped-def]
                                                               bobs_character):
    item = rope(bobs_character, bob)
    Character.objects.filter(pk=bobs_character.pk).update(status=Character.Status.RETIRED)

    added = client_for(alice, htmx=True).post(add_url(bobs_character),
                                             {"name": "Medkit", "quantity": "1"})
    removed = client_for(bob).post(remove_url(item), follow=True)
    page = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()

    assert "Rook is out of play: its equipment stays as it was" in added.content.decode()
    assert "its equipment stays as it was" in removed.content.decode()
    assert list(bobs_character.items.values_list("name", flat=True)) == ["Rope"]
    assert "Rope" in page and f'action="{add_url(bobs_character)}"' not in page


def test_an_archived_campaign_refuses_every_change_of_the_inventory(client_for, bob,  # type: ignore[no-untyped-def]
                                                                   bobs_character):
    from django.utils import timezone

    item = rope(bobs_character, bob)
    bobs_character.campaign.__class__.objects.filter(pk=bobs_character.campaign_id).update(
        archived_at=timezone.now())
    client = client_for(bob)

    answers = [client.post(add_url(bobs_character), {"name": "Bomb", "quantity": "1"}),
               client.post(change_url(item), {"name": "Mine", "quantity": "1"}),
               client.post(remove_url(item))]
    page = client.get(bobs_character.get_absolute_url()).content.decode()

    assert [a.status_code for a in answers] == [403] * 3
    assert list(bobs_character.items.values_list("name", flat=True)) == ["Rope"]
    assert "Rope" in page and "hx-post" not in page.split('id="sheet-inventory"')[1].split(
        "</section>")[0]
