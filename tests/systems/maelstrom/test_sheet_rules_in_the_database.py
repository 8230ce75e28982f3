"""What the database itself refuses of a Maelstrom sheet, whatever code writes it (docs/
architecture.md, "What the database still guards when a rule lives in JSON"): current
Willpower outside 0..permanent (Maelstrom rules.md, Willpower) and a negative count of
damage (Marking Damage), as the old columns' check and unsigned types did; and what an
import's check refuses that no constraint can say (a specialty listed twice)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from characters.models import Character
from rulesets.errors import RuleError
from systems.maelstrom.checks import check_sheet

pytestmark = pytest.mark.django_db


def _write(character: Character, **parts: Any) -> None:
    sheet = {**Character.objects.get(pk=character.pk).sheet, **parts}
    with transaction.atomic():
        Character.objects.filter(pk=character.pk).update(sheet=sheet)


@pytest.mark.parametrize("parts", [
    {"willpower": {"permanent": 4, "current": 5}},
    {"willpower": {"permanent": 4, "current": -1}},
    {"health": {"bashing": -1, "lethal": 0, "aggravated": 0, "dead": False,
                "huge_size": False}},
    {"health": {"bashing": 0, "lethal": 0, "aggravated": -2, "dead": False,
                "huge_size": False}},
], ids=["current above permanent", "current below zero", "negative bashing",
        "negative aggravated"])
def test_the_database_refuses_a_sheet_the_rules_never_make(bobs_character, parts):
    before = Character.objects.get(pk=bobs_character.pk).sheet
    with pytest.raises(IntegrityError):
        _write(bobs_character, **parts)
    assert Character.objects.get(pk=bobs_character.pk).sheet == before


def test_the_edges_the_rules_allow_are_stored(bobs_character):
    _write(bobs_character, willpower={"permanent": 4, "current": 0})
    _write(bobs_character, willpower={"permanent": 4, "current": 4})
    assert Character.objects.get(pk=bobs_character.pk).sheet["willpower"] == {
        "permanent": 4, "current": 4}


def test_another_systems_sheet_has_no_willpower_or_health_to_check(campaign, bob):
    other = Character.objects.create(campaign=campaign, owner=bob, name="Tam",
                                     sheet={"tally": 2})
    assert Character.objects.get(pk=other.pk).sheet == {"tally": 2}


def test_a_specialty_listed_twice_is_refused_by_the_sheets_check(bobs_character):
    sheet = Character.objects.get(pk=bobs_character.pk).sheet
    sheet["specialties"] = [{"ability": "Driving", "name": "Cars", "advanced": False},
                            {"ability": "Driving", "name": "cars", "advanced": False}]
    with pytest.raises(RuleError) as caught:
        check_sheet(sheet, bobs_character.campaign)
    assert caught.value.message == "the sheet lists the specialty Driving: cars twice"
    assert caught.value.rule == "Maelstrom rules.md, Specialties"


@pytest.mark.parametrize(("flaws", "refusal"), [
    ([{"kind": "flaw", "name": "Inept", "points": 2, "detail": "Science"}],
     "Inept is taken in an ability with at least one dot; Science has none"),
    ([{"kind": "flaw", "name": "Defective Sense", "points": 2, "detail": "sight"},
      {"kind": "flaw", "name": "Visually Impaired", "points": 4, "detail": ""}],
     "Visually Impaired is taken instead of Defective Sense for sight, not with it: drop "
     "Defective Sense (sight) or Visually Impaired"),
], ids=["inept without dots", "impaired and defective sight"])
def test_an_imported_sheet_is_held_to_the_flaws_conditions(bobs_character, flaws, refusal):
    sheet = Character.objects.get(pk=bobs_character.pk).sheet
    sheet["merits_flaws"] = flaws
    with pytest.raises(RuleError) as caught:
        check_sheet(sheet, bobs_character.campaign)
    assert caught.value.message == refusal
    assert caught.value.rule == "Maelstrom rules.md, Flaws"


def test_an_imported_sheet_marks_the_incapacitation_resolved_only_at_zero_willpower(
    bobs_character
):
    sheet = Character.objects.get(pk=bobs_character.pk).sheet
    sheet["willpower"] = {"permanent": 3, "current": 0, "incapacitation_resolved": True}
    check_sheet(sheet, bobs_character.campaign)
    sheet["willpower"]["current"] = 1
    with pytest.raises(RuleError) as caught:
        check_sheet(sheet, bobs_character.campaign)
    assert caught.value.rule == "Maelstrom rules.md, Zero Willpower"
