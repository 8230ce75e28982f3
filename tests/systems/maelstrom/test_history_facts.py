"""A Maelstrom character's facts (systems/maelstrom/history.py): its whole sheet in the
sheet's words, in the sheet's order, so that the activity log can say what a change did
("Health: Bruised (1 bashing) -> Hurt (1 lethal, 2 bashing), wound penalty -1") and the
between-sessions page can rebuild an earlier sheet from those changes (docs/history.md)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from characters.models import Character
from history.facts import character_facts
from rulesets import maelstrom
from systems.maelstrom.history import sheet_facts
from systems.maelstrom.system import SYSTEM
from tests.factories import CharacterFactory, maelstrom_sheet_for
from tests.helpers import fresh
from tests.system_fixtures import fixtures_for, form_data, sheet_change

FIXTURES = fixtures_for("maelstrom")


def test_the_facts_read_as_the_sheet_does_in_its_order() -> None:
    sheet = maelstrom_sheet_for(
        attributes={"Precision": 4}, abilities={"Driving": 3, "Medicine": 0},
        specialties=[("Driving", "Motorcycles", True), ("Driving", "Cars", False)],
        merits_flaws=[{"kind": "flaw", "name": "Addict", "points": 1, "detail": "nicotine"},
                      {"kind": "merit", "name": "Huge Size", "points": 4}],
        willpower_permanent=5, willpower_current=2, health_lethal=1, health_bashing=2,
        huge_size=True)

    facts = sheet_facts(sheet)

    labels = list(facts)
    assert labels[:6] == list(maelstrom.ATTRIBUTES)
    assert facts["Precision"] == "4" and facts["Medicine"] == "0"
    # An ability's specialties follow it, by name, as the sheet lists them.
    driving = labels.index("Driving")
    assert labels[driving:driving + 3] == ["Driving", "Driving: Cars", "Driving: Motorcycles"]
    assert facts["Driving: Cars"] == "general specialty"
    assert facts["Driving: Motorcycles"] == "advanced specialty"
    assert labels[-4:] == ["Willpower", "Health", "Merit: Huge Size", "Flaw: Addict (nicotine)"]
    assert facts["Willpower"] == "2 of 5"
    # Huge Size adds a box on top: three levels reach Scratched.
    assert facts["Health"] == "Scratched (1 lethal, 2 bashing), wound penalty -1, 9 boxes"
    assert facts["Merit: Huge Size"] == "4 XP"
    assert facts["Flaw: Addict (nicotine)"] == "+1 XP"


@pytest.mark.parametrize(
    ("knobs", "health"),
    [
        ({}, "Healthy"),
        ({"health_bashing": 1}, "Bruised (1 bashing)"),
        ({"health_aggravated": 1, "health_lethal": 2, "health_bashing": 1},
         "Injured (1 aggravated, 2 lethal, 1 bashing), wound penalty -2"),
        ({"health_bashing": 8}, "Incapacitated (8 bashing), unconscious"),
        ({"health_lethal": 8, "dead": True}, "Dead (8 lethal)"),
    ],
    ids=["healthy", "bruised", "injured", "incapacitated", "dead"],
)
def test_health_names_the_level_the_marks_and_the_penalty(knobs: dict[str, Any], health: str
                                                           ) -> None:
    assert sheet_facts(maelstrom_sheet_for(**knobs))["Health"] == health


@pytest.mark.parametrize(
    ("knobs", "willpower"),
    [({"willpower_current": 3}, "3 of 3"), ({"willpower_current": 0}, "0 of 3, incapacitated")],
)
def test_willpower_is_current_of_permanent(knobs: dict[str, Any], willpower: str) -> None:
    assert sheet_facts(maelstrom_sheet_for(**knobs))["Willpower"] == willpower


def _changed(sheet: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """One change of each kind a sheet can take, each a new sheet."""
    changes = []
    for group in ("attributes", "abilities"):
        for name, dots in sheet[group].items():
            other = copy.deepcopy(sheet)
            other[group][name] = dots + 1 if dots < 5 else dots - 1
            changes.append((f"{name} dots", other))
    edits = {
        "a specialty": lambda s: s["specialties"].append(
            {"ability": "Melee", "name": "Knives", "advanced": False}),
        "a specialty made advanced": lambda s: s["specialties"][0].update(advanced=True),
        "current willpower": lambda s: s["willpower"].update(current=2),
        "permanent willpower": lambda s: s["willpower"].update(permanent=4),
        "the incapacitation resolved": lambda s: s["willpower"].update(
            current=0, incapacitation_resolved=True),
        "bashing": lambda s: s["health"].update(bashing=2),
        "lethal": lambda s: s["health"].update(lethal=1),
        "aggravated": lambda s: s["health"].update(aggravated=1),
        "bashing turned lethal": lambda s: s["health"].update(bashing=0, lethal=2),
        "dead": lambda s: s["health"].update(dead=True),
        "huge size": lambda s: s["health"].update(huge_size=True),
        "a merit": lambda s: s["merits_flaws"].append(
            {"kind": "merit", "name": "Strong Bond", "points": 3, "detail": ""}),
        "a merit's detail": lambda s: s["merits_flaws"][0].update(detail="the other one"),
        "a flaw's points": lambda s: s["merits_flaws"][0].update(points=3),
    }
    for what, edit in edits.items():
        other = copy.deepcopy(sheet)
        edit(other)
        changes.append((what, other))
    return changes


def test_two_different_sheets_never_give_the_same_facts() -> None:
    sheet = maelstrom_sheet_for(specialties=[("Driving", "Cars", False)], health_bashing=1,
                                merits_flaws=[{"kind": "flaw", "name": "Addict",
                                               "points": 1, "detail": "nicotine"}])
    facts = sheet_facts(sheet)

    unchanged = [what for what, other in _changed(sheet) if sheet_facts(other) == facts]

    assert unchanged == []


@pytest.mark.django_db
def test_every_sheet_action_changes_a_fact(campaign, alice, bob) -> None:  # type: ignore[no-untyped-def]
    assert set(FIXTURES.sheet_actions) == set(SYSTEM.actions)  # no action left out
    for name, data in FIXTURES.sheet_actions.items():
        character = CharacterFactory(campaign=campaign, owner=bob, name=f"Rook for {name}")
        for before_name, before_data in FIXTURES.matrix_before.get(name, ()):
            sheet_change(fresh(character), before_name, before_data, by=alice)
        character = fresh(character)
        before = character_facts(character)

        changed = sheet_change(character, name, form_data(data, character), by=alice)

        after = character_facts(Character.objects.get(pk=changed.pk))
        assert after != before, name


@pytest.mark.django_db
def test_the_system_gives_the_facts_of_the_sheet_asked_for(bobs_character) -> None:  # type: ignore[no-untyped-def]
    earlier = maelstrom_sheet_for(health_lethal=2)

    assert SYSTEM.sheet_facts(bobs_character) == sheet_facts(bobs_character.sheet)
    assert SYSTEM.sheet_facts(bobs_character, earlier)["Health"] == (
        "Scratched (2 lethal), wound penalty -1")
