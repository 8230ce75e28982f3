"""A stored 3d6 roll's luck (systems/three_d6/luck.py): rolled through the real roll service,
its measured total is the one the roll log shows, against the totals the test could make
(docs/systems/three_d6.md, "Luck")."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

import systems
from characters.models import Character
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import three_d6
from rulesets.three_d6.luck import total_chances
from rulesets.three_d6.readings import ThreeD6Readings
from systems.three_d6.forms import NPC
from systems.three_d6.system import SYSTEM
from tests import three_d6_cast as cast
from tests.conftest import ScriptedRng

pytestmark = pytest.mark.django_db

table, mara = cast.table, cast.mara


def roll(character: Character, faces: list[int], by: Any, **fields: object) -> Roll:
    data = {"mode": "test", "target": "t0", "td": "12", "situational": "0", "favor": "0",
            "disfavor": "0", **fields}
    form = SYSTEM.roll_form(character, data)
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data, by=by,
                                     rng=ScriptedRng(faces))


def test_a_tests_luck_is_the_total_the_log_shows(mara, bob) -> None:  # type: ignore[no-untyped-def]
    made = roll(mara, [6, 6, 6, 2], bob, favor="1", situational="-1")  # a critical: 40 + 2

    luck = systems.for_ruleset("three_d6").roll_luck(made)

    assert luck is not None
    assert (luck.measure, luck.actual) == ("points", made.net) == ("points", 42)
    assert (luck.low, luck.chances) == total_chances(
        three_d6.build_test(modifier=2, favor=1))


def test_the_campaigns_reading_of_favor_and_disfavor_is_in_the_odds(table, mara, bob) -> None:  # type: ignore[no-untyped-def]
    table.readings = {"favor_disfavor": "counted_apart"}
    table.save(update_fields=["readings"])
    mara = Character.objects.select_related("campaign").get(pk=mara.pk)

    made = roll(mara, [6, 2, 3, 4], bob, favor="1", disfavor="1")  # the 6 is dropped
    luck = SYSTEM.roll_luck(made)

    assert luck is not None
    assert luck.actual == made.net == 12
    assert (luck.low, luck.chances) == total_chances(three_d6.build_test(
        modifier=3, favor=1, disfavor=1, readings=ThreeD6Readings(favor_disfavor="counted_apart")))


def test_a_contest_counts_the_characters_own_test(mara, bob) -> None:  # type: ignore[no-untyped-def]
    made = roll(mara, [5, 5, 5, 1, 1, 2], bob, mode="contest", td="", opponent=NPC,
                npc_name="Dock guard", npc_modifier="2", npc_rating="2", defender="opponent",
                opponent_favor="0", opponent_disfavor="0")

    luck = SYSTEM.roll_luck(made)

    assert luck is not None
    assert luck.actual == 18  # 15 + 3; the guard's 4 + 2 is the guard's luck
    assert (luck.low, luck.chances) == total_chances(three_d6.build_test(modifier=3))


def test_the_gms_npc_quick_roll_counts(table, alice) -> None:  # type: ignore[no-untyped-def]
    made = roll_services.npc_roll_create(campaign=table, text="3d6+2 vs 10", gm_only=False,
                                         by=alice, rng=ScriptedRng([1, 1, 1]))

    luck = SYSTEM.roll_luck(made)

    assert luck is not None
    assert luck.actual == made.result["total"] == 0  # a critical failure ignores the +2
    assert luck.chances[luck.actual - luck.low] == Fraction(1, 216)


def test_a_test_of_no_dice_rolls_nothing_to_be_lucky_with(mara, bob) -> None:  # type: ignore[no-untyped-def]
    made = roll(mara, [], bob, disfavor="3")

    assert made.result["automatic_failure"] is True
    assert SYSTEM.roll_luck(made) is None
