"""The inventory travels with its character (docs/backup.md, docs/equipment.md): an export
carries each character's items in order, an import writes them back as they were, a file
made before the inventory existed imports with an empty one, and every item of a file is
checked first, a bad one refused with what is wrong and nothing written."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from campaigns.models import Membership
from characters.models import Character
from equipment.models import Item
from equipment.services import item_add
from rulesets.errors import RuleError
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.transfer.conftest import refused
from transfer import checks
from transfer.export import document_json, export_campaign, export_character
from transfer.imports import import_campaign, import_character
from transfer.validate import read_document

pytestmark = pytest.mark.django_db

V2 = Path(__file__).parents[1] / "transfer" / "v2"


def through_a_file(document: dict[str, Any]) -> Any:
    return read_document(document_json(document).encode())


@pytest.fixture
def nothing_written(db):  # type: ignore[no-untyped-def]
    """Whatever the test tries, no character and no item is added."""
    before = (Character.all_objects.count(), Item.objects.count())
    yield
    assert (Character.all_objects.count(), Item.objects.count()) == before


@pytest.fixture
def kitted(bob, bobs_character) -> Character:  # type: ignore[no-untyped-def]
    """Rook carries a heavy pistol with 3 rounds, a flak vest and two ropes."""
    item_add(character=bobs_character, name="Sidearm", quantity=1, note="holster",
             details={"weapon": "pistol-heavy", "loaded": 3}, by=bob)
    item_add(character=bobs_character, name="Flak vest", quantity=1, note="",
             details={"armor": 3}, by=bob)
    item_add(character=bobs_character, name="Rope", quantity=2, note="10 m", details={},
             by=bob)
    return bobs_character


@pytest.fixture
def elsewhere(db) -> tuple[Any, Any]:  # type: ignore[no-untyped-def]
    """Another Maelstrom table, which erin GMs and frank plays in."""
    erin, frank = UserFactory(username="erin"), UserFactory(username="frank")
    campaign = CampaignFactory(name="Elsewhere", created_by=erin)
    Membership.objects.create(campaign=campaign, user=frank)
    return campaign, frank


def inventory(character: Character) -> list[tuple[Any, ...]]:
    return list(Item.objects.filter(character=character)
                .values_list("name", "quantity", "note", "details", "position"))


def test_a_characters_export_carries_its_items_in_order(kitted: Character) -> None:
    document = export_character(kitted)

    assert [(i["name"], i["quantity"], i["note"], i["details"])
            for i in document["character"]["items"]] == [
        ("Sidearm", 1, "holster", {"weapon": "pistol-heavy", "loaded": 3}),
        ("Flak vest", 1, "", {"armor": 3}),
        ("Rope", 2, "10 m", {})]
    assert set(document["character"]["items"][0]) == {"name", "quantity", "note", "details",
                                                      "created_at", "updated_at"}


def test_an_imported_character_carries_the_same_inventory(kitted: Character, elsewhere) -> None:  # type: ignore[no-untyped-def]
    campaign, frank = elsewhere

    imported = import_character(through_a_file(export_character(kitted)), campaign, frank)

    assert inventory(imported) == inventory(kitted)
    again = export_character(imported, for_gm=False)["character"]["items"]
    assert again == export_character(kitted)["character"]["items"]


def test_a_campaigns_export_and_import_keep_every_inventory(kitted: Character, alice,  # type: ignore[no-untyped-def]
                                                            dave) -> None:
    wren = Character.objects.get(name="Wren")
    item_add(character=wren, name="Knife", quantity=1, note="", details={"weapon": "knife"},
             by=dave)

    campaign = import_campaign(through_a_file(export_campaign(kitted.campaign)), alice)

    copies = {c.name: c for c in Character.objects.filter(campaign=campaign)}
    assert inventory(copies["Rook"]) == inventory(kitted)
    assert inventory(copies["Wren"]) == inventory(wren)


def test_a_file_without_an_inventory_imports_with_an_empty_one(kitted: Character,  # type: ignore[no-untyped-def]
                                                              elsewhere) -> None:
    campaign, frank = elsewhere
    document = export_character(kitted)
    del document["character"]["items"]

    imported = import_character(through_a_file(document), campaign, frank)

    assert inventory(imported) == []


def test_a_version_2_file_imports_with_an_empty_inventory(elsewhere) -> None:  # type: ignore[no-untyped-def]
    campaign, frank = elsewhere
    document = read_document((V2 / "maelstrom-character.sheetkeeper.json").read_bytes())
    assert document["version"] == 2 and "items" not in document["character"]

    imported = import_character(document, campaign, frank)

    assert inventory(imported) == []


def _with_item(kitted: Character, **changes: Any) -> Any:
    document = copy.deepcopy(export_character(kitted))
    document["character"]["items"][0].update(changes)
    return through_a_file(document)


@pytest.mark.parametrize(("changes", "words"), [
    ({"quantity": 0}, ("at character.items[0].quantity", "greater than or equal to 1")),
    ({"quantity": 10_000}, ("at character.items[0].quantity", "less than or equal to 9999")),
    ({"name": ""}, ("at character.items[0].name", "a name may not be empty")),
    ({"details": []}, ("Character 1 (Rook)'s item 1", "'details' must be an object")),
    ({"colour": "black"}, ("Character 1 (Rook)'s item 1 has 'colour'",
                           "format version 3 does not have")),
    ({"details": {"weapon": "pistol-heavy", "loaded": 9}},
     ("Character 1 (Rook)'s item 1 (Sidearm) is refused by the Maelstrom rules",
      "Pistol, Heavy holds 0 to 8 rounds (7+1), not 9")),
    ({"details": {"weapon": "laser-sword"}},
     ("item 1 (Sidearm)", "'laser-sword' is not a weapon of the seed's tables")),
    ({"details": {"weapon": "knife", "loaded": 2}},
     ("item 1 (Sidearm)", "only a ranged weapon holds rounds")),
    ({"details": {"armor": 21}}, ("item 1 (Sidearm)", "armor dice must be a whole number "
                                                     "from 1 to 20, not 21")),
    ({"details": {"armor": 2, "weapon": "axe"}}, ("item 1 (Sidearm)", "one thing at most")),
])
def test_a_bad_item_is_refused_with_what_is_wrong(kitted: Character, elsewhere, changes,  # type: ignore[no-untyped-def]
                                                  words, nothing_written) -> None:
    campaign, frank = elsewhere
    document = _with_item(kitted, **changes)

    refused(lambda: import_character(document, campaign, frank), *words)


def test_an_inventory_that_is_not_a_list_is_refused(kitted: Character, elsewhere,  # type: ignore[no-untyped-def]
                                                    nothing_written) -> None:
    campaign, frank = elsewhere
    document = export_character(kitted)
    document["character"]["items"] = {"Rope": 2}

    refused(lambda: import_character(through_a_file(document), campaign, frank),
            "Character 1 (Rook)'s equipment is not a list.")


def test_a_system_that_keeps_nothing_in_an_item_refuses_details(alice, bob) -> None:  # type: ignore[no-untyped-def]
    campaign = CampaignFactory(ruleset="three_d6", created_by=alice, name="Tests")
    character = CharacterFactory.build(campaign=campaign, owner=bob, name="Mara")

    checks.check_item(Item(name="Sling", details={}), character)
    with pytest.raises(RuleError, match="holds nothing but its name, quantity and note"):
        checks.check_item(Item(name="Sling", details={"weapon": "sap"}), character)
