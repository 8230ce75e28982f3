"""The luck of stored Shahquest rolls (systems/shahquest/luck.py): each roll made through the
real roll services, read back from the roll log, measures the effort total the roll shows
against the engine's exact odds of its dice. The engine's side is tests/rulesets/shahquest/
test_luck.py.

Feature indices of Demetri's sheet (DEMO_DATA): 3 Coordination d10, 6 Physical d8 (Athletics
spreads), 8 I've got your back (quirk d8).
"""

from __future__ import annotations

import random

import pytest

import systems
from campaigns.services import readings_update
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import shahquest as sq
from tests import shahquest_cast as cast
from tests.conftest import ScriptedRng
from tests.system_fixtures import campaign_change

pytestmark = pytest.mark.django_db

sq_campaign, demetri = cast.sq_campaign, cast.demetri

SEED_POOL = {"feature": ["3", "8"], "specialization": ["6:0"], "setting_die": "6"}
"""The seed's example: d10 3d8 d6 (Shahquest wiki, Dice Pools)."""

SYSTEM = systems.for_ruleset("shahquest")


def _roll(character, faces, data=SEED_POOL, by=None):  # type: ignore[no-untyped-def]
    form = SYSTEM.roll_form(character, data)
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data,
                                     by=by or character.owner, rng=ScriptedRng(faces))


def test_a_sheets_roll_measures_the_effort_it_shows_against_its_dice(demetri):
    """7, 2, 1, 3, 4 on d10 3d8 d6: effort 11, the odds those of d10 3d8 d6."""
    roll = Roll.objects.get(pk=_roll(demetri, [7, 2, 1, 3, 4]).pk)  # as the log reads it

    luck = SYSTEM.roll_luck(roll)

    assert luck is not None and SYSTEM.luck_measure == luck.measure == "effort"
    assert luck.actual == roll.result["effort"] == 11
    assert "Effort 11" in roll.summary
    assert {luck.low + i: p for i, p in enumerate(luck.chances) if p} == dict(
        sq.effort_distribution((10, 8, 8, 8, 6)))


def test_the_players_choice_of_dice_rolls_no_die_and_is_not_counted(demetri):
    roll = _roll(demetri, [7, 2, 1, 3, 4])
    action = SYSTEM.roll_actions["choose"]
    form = action.form({"effort": ["0", "1"], "effect": ["3"]})
    assert form.is_valid(), form.errors

    choice = roll_services.roll_act(roll=roll, action=action, data=form.cleaned_data,
                                    by=demetri.owner, rng=random.Random(0))

    assert choice.kind == "choice" and choice.result["effort"] == 9
    assert SYSTEM.roll_luck(choice) is None
    luck = SYSTEM.roll_luck(roll)
    assert luck is not None and luck.actual == 11  # the dice's luck, whatever was chosen


def test_an_npcs_quick_roll_counts(sq_campaign, alice):
    roll = roll_services.npc_roll_create(campaign=sq_campaign, text="d12 2d8", gm_only=True,
                                         by=alice, rng=ScriptedRng([9, 1, 6]))

    luck = SYSTEM.roll_luck(roll)

    assert luck is not None and luck.actual == roll.result["effort"] == 15
    assert len(luck.chances) == 12 + 8 + 1


def test_the_tension_pools_general_danger_counts_under_the_gms_table_reading(
        sq_campaign, demetri, alice):
    """The reading of no effect die changes the effect, never the effort or its odds."""
    readings_update(campaign=sq_campaign, values={"effect_die_default": "no_effect"}, by=alice)
    campaign_change(sq_campaign, "tension-danger", {"setting_die": "", "complications": ""},
                    by=alice, rng=ScriptedRng([1, 4, 5]))
    danger = Roll.objects.get(kind="general_danger")
    sheet_roll = _roll(demetri, [7, 5], data={"feature": ["3", "8"]})

    danger_luck, sheet_luck = SYSTEM.roll_luck(danger), SYSTEM.roll_luck(sheet_roll)

    assert danger.readings == sheet_roll.readings == {"effect_die_default": "no_effect"}
    assert danger_luck is not None and danger_luck.actual == danger.result["effort"] == 9
    assert danger_luck.chances == sq.effort_luck(
        sq.roll(sq.pool_from_dice("3d6"), ScriptedRng([1, 4, 5]))).chances
    assert sheet_luck is not None and sheet_luck.actual == 12
    assert sheet_roll.result["effect_die"] is None
