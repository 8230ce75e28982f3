"""Setting the order by the system's rule: Shattered World's priority initiative (seed 003,
Shattered World Core Engine, "Initiative Order"), and the default of the systems whose source
gives none (docs/encounters.md, "The order")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from characters.models import Character
from characters.services import character_create_from_data
from encounters import services
from encounters.models import Combatant, Encounter
from tests.encounters.helpers import npc, order, url
from tests.shattered_world_cast import KAELIN, sw_campaign  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


class Dice:
    """The server's dice, scripted: each roll gives the next face and records its die."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.dice: list[int] = []

    def randint(self, low: int, high: int) -> int:
        assert low == 1
        self.dice.append(high)
        face = self.faces.pop(0)
        assert 1 <= face <= high
        return face


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    def script(faces: Sequence[int]) -> Dice:
        scripted = Dice(faces)
        monkeypatch.setattr("core.dice.get_rng", lambda: scripted)
        return scripted
    return script


def code_of(encounter: Encounter, name: str) -> str:
    return str(Combatant.objects.get(encounter=encounter, name=name).code)


def order_form(encounter: Encounter, entries: dict[str, tuple[str, str]]) -> dict[str, str]:
    """The "Set the order" form as the GM fills it: name -> (choice, number typed)."""
    data = {}
    for name, (choice, roll) in entries.items():
        code = code_of(encounter, name)
        if choice:
            data[f"choice-{code}"] = choice
        data[f"roll-{code}"] = roll
    return data


def test_the_seeds_priority_initiative(sw_campaign, alice, bob, client_for, dice):  # noqa: F811
    """Shattered World Core Engine, Initiative Order: 1 PCs choosing fast, 2 NPCs choosing
    fast, 3 the rollers in order of their rolls, 4 PCs choosing slow, 5 NPCs choosing slow.
    Listed in no helpful order; Kaelin's roll was made at the table (7), Tam's (a human: the
    field role die, d8) and the Sniper's (the action die, d4) are left to the server."""
    for name, human in (("Ysolde", False), ("Kaelin", False), ("Tam", True),
                        ("Brannoc", False)):
        character_create_from_data(campaign=sw_campaign, owner=bob,
                                   data={**KAELIN, "name": name, "human": human or ""})
    sheet = Character.objects.get(name="Kaelin").sheet
    encounter = services.encounter_start(campaign=sw_campaign, by=alice)
    services.combatants_add(encounter=encounter, by=alice, characters=[
        npc(sw_campaign, alice, name, sheet=sheet) for name in ("Ogre", "Sniper", "Wolf")])
    assert order(encounter) == ["Brannoc", "Kaelin", "Tam", "Ysolde", "Ogre", "Sniper", "Wolf"]
    rolled = dice([5, 2])  # Tam's d8, then the Sniper's d4, in the order listed

    client_for(alice).post(url("initiative-set", encounter), order_form(encounter, {
        "Brannoc": ("slow", ""), "Kaelin": ("roll", "7"), "Tam": ("roll", ""),
        "Ysolde": ("fast", ""), "Ogre": ("slow", ""), "Sniper": ("roll", ""),
        "Wolf": ("fast", "")}))

    assert order(encounter) == ["Ysolde", "Wolf", "Kaelin", "Tam", "Sniper", "Brannoc", "Ogre"]
    assert rolled.dice == [8, 4]
    page = client_for(alice).get(sw_campaign.get_absolute_url()).content.decode()
    labels = re.findall(r'class="turn-name">([^<]*)<.*?<span class="muted">([^<]*)</span>',
                        page, re.S)
    assert labels == [("Ysolde", "Fast"), ("Wolf", "Fast"), ("Kaelin", "Rolled 7"),
                      ("Tam", "Rolled 5"), ("Sniper", "Rolled 2"), ("Brannoc", "Slow"),
                      ("Ogre", "Slow")]


def test_rollers_tied_keep_the_order_listed(sw_campaign, alice, bob, client_for):  # noqa: F811
    for name in ("Ada", "Bo"):
        character_create_from_data(campaign=sw_campaign, owner=bob, data={**KAELIN, "name": name})
    encounter = services.encounter_start(campaign=sw_campaign, by=alice)

    client_for(alice).post(url("initiative-set", encounter), order_form(
        encounter, {"Ada": ("roll", "3"), "Bo": ("roll", "3")}))

    assert order(encounter) == ["Ada", "Bo"]


def test_without_a_rule_the_highest_number_goes_first_and_a_blank_is_a_d20(
        fight, alice, grub, client_for, dice):
    """The default (a system whose source gives no initiative order): numbers typed, the
    blanks rolled by the server on a d20, highest first."""
    services.combatants_add(encounter=fight, characters=[grub], by=alice)
    rolled = dice([15])

    client_for(alice).post(url("initiative-set", fight), order_form(fight, {
        "Rook": ("", "12"), "Wren": ("", "18"), "Grub the Lurker": ("", "")}))

    assert order(fight) == ["Wren", "Grub the Lurker", "Rook"]
    assert rolled.dice == [20]


def test_setting_the_order_again_keeps_the_numbers_rolled(fight, alice, client_for, dice):
    dice([4, 9])
    client_for(alice).post(url("initiative-set", fight), order_form(fight, {
        "Rook": ("", ""), "Wren": ("", "")}))
    assert order(fight) == ["Wren", "Rook"]
    form = client_for(alice).get(fight.campaign.get_absolute_url()).content.decode()
    assert 'value="9"' in form and 'value="4"' in form  # the boxes show what was rolled

    client_for(alice).post(url("initiative-set", fight), order_form(fight, {
        "Rook": ("", "4"), "Wren": ("", "9")}))  # sent again as drawn: no die is rolled

    assert order(fight) == ["Wren", "Rook"]


def test_a_refused_number_names_the_rule_and_keeps_the_order(fight, alice, client_for):
    answer = client_for(alice, htmx=True).post(url("initiative-set", fight), order_form(
        fight, {"Rook": ("", "-3"), "Wren": ("", "x")}))

    body = answer.content.decode()
    assert "An initiative is 0 to 999." in body and 'role="alert"' in body
    assert 'value="-3"' in body  # the GM's input is shown again
    assert order(fight) == ["Rook", "Wren"]
    assert not any(c.initiative.get("roll") for c in fight.combatants.all())
