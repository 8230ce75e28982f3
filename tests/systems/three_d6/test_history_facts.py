"""A 3d6 character's facts (systems/three_d6/history.py): each trait and subtrait's modifier
under the campaign's names, health and level, in the sheet's order, so that the activity log
can say what a change did ("Health: 10 of 10 -> 7 of 10") and the between-sessions page can
rebuild an earlier sheet from those changes (docs/history.md)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from characters.models import Character
from history.facts import character_facts
from systems.three_d6.history import sheet_facts
from systems.three_d6.sheet import SLOTS, default_names
from systems.three_d6.system import SYSTEM
from tests import three_d6_cast as cast
from tests.system_fixtures import fixtures_for, form_data, sheet_change

FIXTURES = fixtures_for("three_d6")
NAMES = dict(zip(SLOTS, default_names()["traits"] + default_names()["subtraits"], strict=True))
SHEET: dict[str, Any] = {"modifiers": {"t0": 3, "t1": 1, "s0": 0, "s1": 1, "s2": 2},
                         "level": 2, "health": {"current": 7, "max": 12}}

table, mara = cast.table, cast.mara


def test_the_facts_read_as_the_sheet_does_in_its_order() -> None:
    facts = sheet_facts(SHEET, NAMES)

    assert list(facts)[:7] == ["Power", "Might", "Endurance", "Agility", "Dexterity", "Speed",
                               "Awareness"]
    assert facts["Power"] == "+3" and facts["Endurance"] == "+1" and facts["Might"] == "0"
    assert facts["Resolve"] == "0"  # a slot the sheet does not hold reads 0, as on the sheet
    assert list(facts)[-2:] == ["Health", "Level"]
    assert (facts["Health"], facts["Level"]) == ("7 of 12", "2")


def test_the_campaigns_names_label_the_facts_and_never_hide_one() -> None:
    names = {**NAMES, "t0": "Brawn", "s0": "Brawn", "t1": "Health"}

    facts = sheet_facts(SHEET, names)

    assert facts["Brawn"] == "+3" and facts["Brawn (2)"] == "0"
    assert facts["Health (2)"] == "+1" and facts["Health"] == "7 of 12"
    assert len(facts) == len(SLOTS) + 2


def _changed(sheet: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    changes = []
    for slot in SLOTS:
        other = copy.deepcopy(sheet)
        other["modifiers"][slot] = other["modifiers"].get(slot, 0) + 1
        changes.append((slot, other))
    for part, key in (("health", "current"), ("health", "max")):
        other = copy.deepcopy(sheet)
        other[part][key] += 1
        changes.append((f"{part} {key}", other))
    other = copy.deepcopy(sheet)
    other["level"] += 1
    changes.append(("level", other))
    return changes


def test_two_different_sheets_never_give_the_same_facts() -> None:
    facts = sheet_facts(SHEET, NAMES)

    assert [what for what, other in _changed(SHEET) if sheet_facts(other, NAMES) == facts] == []


@pytest.mark.django_db
def test_every_sheet_action_changes_a_fact(mara, alice) -> None:  # type: ignore[no-untyped-def]
    assert set(FIXTURES.sheet_actions) == set(SYSTEM.actions)  # no action left out
    for name, data in FIXTURES.sheet_actions.items():
        character = Character.objects.select_related("campaign").get(pk=mara.pk)
        before = character_facts(character)

        changed = sheet_change(character, name, form_data(data, character), by=alice)

        assert character_facts(changed) != before, name


@pytest.mark.django_db
def test_the_system_gives_the_facts_of_the_sheet_asked_for(mara) -> None:  # type: ignore[no-untyped-def]
    assert SYSTEM.sheet_facts(mara) == sheet_facts(mara.sheet, NAMES)
    assert SYSTEM.sheet_facts(mara, SHEET)["Health"] == "7 of 12"
