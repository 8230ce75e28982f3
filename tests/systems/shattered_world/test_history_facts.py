"""A Shattered World sheet as facts (systems/shattered_world/history.py): what the activity
log compares before and after each change, so every change a sheet can take must move at
least one of them, in the sheet's own words."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import systems
from characters.models import Character
from rulesets import shattered_world as sw
from systems.shattered_world.history import sheet_facts
from tests.system_fixtures import (
    demo_character,
    first_purchase,
    fixtures_for,
    form_data,
    sheet_change,
)

FIXTURES = fixtures_for("shattered_world")

SHEET: dict[str, Any] = {
    "species": "Elf", "human": False, "field_role": "Warrior", "subrole": "Knight",
    "statistics": {"PF": {"current": 15, "max": 18}, "MA": {"current": 12, "max": 12},
                   "EN": {"current": 16, "max": 16}, "PR": {"current": 14, "max": 14},
                   "SP": {"current": 10, "max": 10}, "EM": {"current": 11, "max": 11}},
    "hit_points": {"current": 20, "max": 24},
    "proficiencies": ["PF", "EN"], "foible": "Reckless honour",
    "action_die_level": 1,
    "buy_ins": {"Increase UAM": 1, "Exceptional Ability, Each:PF": 1, "Fireball": 2},
    "buy_in_field_roles": {"Fireball": "Mage"},
    "additional_field_roles": ["Mage"],
    "achievements": {"total": 3, "milestones": ["Surrender"],
                     "feats": {"Defeat any enemy": 2}},
}


def test_a_sheet_reads_in_the_order_and_words_the_sheet_shows() -> None:
    facts = sheet_facts(SHEET)

    assert list(facts.items()) == [
        ("Action die", "d6"), ("Field role die", "d10"), ("Die step", "2"), ("UAM", "+1"),
        ("Hit Points", "20 of 24"), ("Physical Fitness", "15 of 18"),
        ("Mental Acuity", "12 of 12"), ("Endurance", "16 of 16"), ("Perception", "14 of 14"),
        ("Spirit", "10 of 10"), ("Empathy", "11 of 11"),
        ("Species", "Elf"), ("Field role", "Warrior"), ("Subrole", "Knight"),
        ("Additional field roles", "Mage"), ("Proficient in", "Physical Fitness, Endurance"),
        ("Foible", "Reckless honour"), ("Total achievements", "3"),
        ("Milestone · Surrender", "earned"), ("Feat · Defeat any enemy", "2"),
        ("Buy-in · Exceptional Ability, Each (Physical Fitness)", "level 1"),
        ("Buy-in · Fireball", "level 2 (from Mage)"), ("Buy-in · Increase UAM", "level 1")]


def test_the_dice_are_read_on_the_campaigns_die_steps_table() -> None:
    steps = (sw.DieStep(4, 8, 0), sw.DieStep(8, 12, 10))

    facts = sheet_facts(SHEET, steps)

    assert (facts["Action die"], facts["Field role die"]) == ("d8", "d12")


def test_a_human_reads_as_the_sheet_shows_one() -> None:
    assert sheet_facts({**SHEET, "species": "Human", "human": True})["Species"] == (
        "Human (human)")


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(sheet: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        for key in parents:
            sheet = sheet[key]
        sheet[last] = value
    return change


CHANGES = {
    "species": _set("species", "Dwarf"), "human": _set("human", True),
    "field role": _set("field_role", "Mage"), "subrole": _set("subrole", "Paladin"),
    "statistic": _set("statistics.MA.current", 11),
    "statistic maximum": _set("statistics.MA.max", 14),
    "hit points": _set("hit_points.current", 19), "hit points maximum": _set("hit_points.max", 26),
    "proficiencies": _set("proficiencies", ["PF"]), "foible": _set("foible", ""),
    "die step": _set("action_die_level", 2), "buy-in": _set("buy_ins.Increase UAM", 2),
    "buy-in bought": _set("buy_ins.Toughness", 1),
    "buy-in's field role": _set("buy_in_field_roles.Fireball", "Necromancer"),
    "additional field roles": _set("additional_field_roles", ["Mage", "Rogue"]),
    "total achievements": _set("achievements.total", 4),
    "milestone": _set("achievements.milestones", ["Surrender", "Die"]),
    "feat": _set("achievements.feats.Defeat any enemy", 3),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_two_different_sheets_give_different_facts(change: Callable[[dict[str, Any]], None]
                                                   ) -> None:
    other = copy.deepcopy(SHEET)
    change(other)

    assert sheet_facts(other) != sheet_facts(SHEET)


# --- On a played character ------------------------------------------------------------------


@pytest.fixture
def kaelin(alice, bob) -> Character:  # type: ignore[no-untyped-def]
    """The demo's Kaelin (three achievements, a UAM level, 3 Physical Fitness lost), Bob's,
    in Alice's campaign."""
    return demo_character("shattered_world", gm=alice, player=bob)


def facts_of(character: Character) -> dict[str, str]:
    character = Character.objects.select_related("campaign").get(pk=character.pk)
    return systems.for_campaign(character.campaign).sheet_facts(character)


@pytest.mark.django_db
def test_the_demo_character_reads_as_its_sheet_shows_it(kaelin) -> None:
    facts = facts_of(kaelin)

    assert (facts["Physical Fitness"], facts["UAM"], facts["Total achievements"],
            facts["Feat · Defeat any enemy"], facts["Action die"]) == (
        "15 of 18", "+1", "3", "1", "d4")


@pytest.mark.django_db
@pytest.mark.parametrize("action", sorted(FIXTURES.sheet_actions))
def test_each_track_action_changes_a_fact(kaelin, alice, action: str) -> None:
    character = Character.objects.get(pk=kaelin.pk)
    before = facts_of(character)

    sheet_change(character, action, form_data(FIXTURES.sheet_actions[action], character),
                 by=alice)

    assert facts_of(kaelin) != before


@pytest.mark.django_db
def test_an_xp_purchase_changes_a_fact(kaelin, bob) -> None:
    before = facts_of(kaelin)

    key, _, _ = first_purchase(kaelin, by=bob)

    assert facts_of(kaelin) != before, key
