"""A Genesys sheet as facts (systems/genesys/history.py): what the activity log compares
before and after each change, so every change a sheet can take must move at least one of
them, in the sheet's own words."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import systems
from characters.models import Character
from systems.genesys.history import sheet_facts
from tests.system_fixtures import (
    demo_character,
    first_purchase,
    fixtures_for,
    form_data,
    sheet_change,
)

FIXTURES = fixtures_for("genesys")

SHEET: dict[str, Any] = {
    "career": "Soldier",
    "characteristics": {"Brawn": 3, "Agility": 3, "Intellect": 2, "Cunning": 2,
                        "Willpower": 2, "Presence": 2},
    "skills": {"Ranged": 2, "Athletics": 1, "Piloting (Space)": 1},
    "career_skills": ["Athletics", "Ranged"],
    "wounds": {"current": 4, "threshold": 13},
    "strain": {"current": 0, "threshold": 12},
    "creation": False,
}


def test_a_sheet_reads_in_the_order_and_words_the_sheet_shows() -> None:
    facts = sheet_facts(SHEET, ["Athletics", "Ranged"])

    assert list(facts.items()) == [
        ("Career", "Soldier"), ("Wounds", "4 of 13"), ("Strain", "0 of 12"),
        ("Brawn", "3"), ("Agility", "3"), ("Intellect", "2"), ("Cunning", "2"),
        ("Willpower", "2"), ("Presence", "2"), ("Creation", "finished"),
        ("Career skills", "Athletics, Ranged"),
        # the campaign's list first, in its order; a skill off the list after it
        ("Skill · Athletics", "1"), ("Skill · Ranged", "2"), ("Skill · Piloting (Space)", "1")]


def test_wounds_past_the_threshold_say_incapacitated() -> None:
    sheet = {**SHEET, "wounds": {"current": 14, "threshold": 13}}

    assert sheet_facts(sheet)["Wounds"] == "14 of 13, incapacitated"


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(sheet: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            sheet = sheet[key]
        sheet[last] = value
    return change


@pytest.mark.parametrize("change", [
    _set("career", "Scoundrel"), _set("characteristics.Presence", 3),
    _set("skills.Cool", 1), _set("skills.Ranged", 3), _set("career_skills", ["Ranged"]),
    _set("wounds.current", 5), _set("wounds.threshold", 14), _set("strain.current", 1),
    _set("strain.threshold", 13), _set("creation", True),
], ids=["career", "characteristic", "new skill", "skill rank", "career skills",
        "wounds", "wound threshold", "strain", "strain threshold", "creation"])
def test_two_different_sheets_give_different_facts(change: Callable[[dict[str, Any]], None]
                                                   ) -> None:
    other = copy.deepcopy(SHEET)
    change(other)

    assert sheet_facts(other, ["Ranged"]) != sheet_facts(SHEET, ["Ranged"])


# --- On a played character ------------------------------------------------------------------


@pytest.fixture
def kestrel(alice, bob) -> Character:  # type: ignore[no-untyped-def]
    """The demo's Kestrel (Agility and Cunning 3, Ranged 2, 4 wounds, 2 strain), Bob's,
    in Alice's campaign."""
    return demo_character("genesys", gm=alice, player=bob)


def facts_of(character: Character) -> dict[str, str]:
    character = Character.objects.select_related("campaign").get(pk=character.pk)
    return systems.for_campaign(character.campaign).sheet_facts(character)


@pytest.mark.django_db
def test_the_demo_character_reads_as_its_sheet_shows_it(kestrel) -> None:
    facts = facts_of(kestrel)

    assert (facts["Wounds"], facts["Strain"], facts["Agility"], facts["Cunning"],
            facts["Skill · Ranged"], facts["Creation"]) == (
        "4 of 12", "2 of 12", "3", "3", "2", "finished")


@pytest.mark.django_db
def test_a_sheet_handed_in_is_read_instead_of_the_stored_one(kestrel) -> None:
    character = Character.objects.select_related("campaign").get(pk=kestrel.pk)
    earlier = {**character.sheet, "wounds": {"current": 0, "threshold": 12}}

    assert systems.for_campaign(character.campaign).sheet_facts(
        character, earlier)["Wounds"] == "0 of 12"


@pytest.mark.django_db
@pytest.mark.parametrize("action", sorted(FIXTURES.sheet_actions))
def test_each_track_action_changes_a_fact(kestrel, alice, action: str) -> None:
    for name, data in FIXTURES.matrix_before.get(action, ()):
        sheet_change(kestrel, name, data, by=alice)
    before = facts_of(kestrel)

    character = Character.objects.get(pk=kestrel.pk)
    sheet_change(character, action, form_data(FIXTURES.sheet_actions[action], character),
                 by=alice)

    assert facts_of(kestrel) != before


@pytest.mark.django_db
def test_an_xp_purchase_changes_a_fact(kestrel, bob) -> None:
    before = facts_of(kestrel)

    key, _, _ = first_purchase(kestrel, by=bob)

    after = facts_of(kestrel)
    moved = {label for label in before.keys() | after.keys()
             if before.get(label) != after.get(label)}
    assert moved, key
