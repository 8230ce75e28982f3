"""Soaking damage at the table (Maelstrom rules.md, Soaking Damage): "After rolling your soak
dice, subtract your successes from the incoming damage. If you failed, botched, or couldn't
roll any dice, then you take the full damage." A soak roll given its incoming damage marks what
gets through with the roll, in one step; one against damage already marked takes the soaked
levels off the chart."""

from __future__ import annotations

import random

import pytest

from rolls.models import Roll
from rulesets import maelstrom
from rulesets.errors import RuleError
from tests.helpers import action_url, roll_url, sheet_of, text_of

pytestmark = pytest.mark.django_db

# Rook (tests/factories.py) has Strength 2: bashing soaks with two dice.
SOAK = {"kind": "soak", "difficulty": "6", "threshold": "0", "damage_kind": "bashing",
        "armor": "0"}


def _chart(character) -> maelstrom.HealthChart:  # type: ignore[no-untyped-def]
    from systems.maelstrom.sheet import health

    return health(sheet_of(character))


def test_the_soaks_successes_come_off_the_incoming_damage_and_the_rest_is_marked(
    client_for, bob, bobs_character, scripted_dice
):
    scripted_dice([6, 7])

    answer = client_for(bob, htmx=True).post(roll_url(bobs_character),
                                             {**SOAK, "incoming": "3"})

    assert "3 bashing incoming: 2 soaked, 1 marked (Bruised)" in text_of(answer)
    assert (_chart(bobs_character).bashing, Roll.objects.get().summary) == (1, "2 successes")


@pytest.mark.parametrize("faces", [[1, 3], [3, 4]], ids=["botched", "failed"])
def test_a_failed_or_botched_soak_takes_the_full_damage_and_nothing_more(
    client_for, bob, bobs_character, scripted_dice, faces
):
    scripted_dice(faces)

    client_for(bob).post(roll_url(bobs_character), {**SOAK, "incoming": "2"})

    assert _chart(bobs_character).bashing == 2
    note = Roll.objects.get().result["pool"]["notes"][-1]
    assert note.startswith("2 bashing incoming: 0 soaked, 2 marked")


def test_a_soak_against_damage_already_marked_takes_the_soaked_levels_off(
    client_for, bob, bobs_character, scripted_dice
):
    player = client_for(bob)
    player.post(action_url(bobs_character, "damage"), {"kind": "lethal", "levels": "3"})
    scripted_dice([6, 2, 9])  # armor 3 against lethal: two successes

    player.post(roll_url(bobs_character), {**SOAK, "damage_kind": "lethal", "armor": "3",
                                           "incoming": "3", "incoming_marked": "on"})

    assert _chart(bobs_character).lethal == 1
    note = Roll.objects.get().result["pool"]["notes"][-1]
    assert note == "3 lethal already marked: 2 taken off the chart (Bruised)"


def test_soaking_more_marked_damage_than_the_chart_holds_rolls_nothing(
    client_for, bob, bobs_character, scripted_dice
):
    client_for(bob).post(action_url(bobs_character, "damage"), {"kind": "lethal", "levels": "1"})
    scripted_dice([])  # no die may be rolled

    answer = client_for(bob, htmx=True).post(
        roll_url(bobs_character), {**SOAK, "damage_kind": "lethal", "armor": "2",
                                   "incoming": "2", "incoming_marked": "on"})

    assert "the health chart holds 1 lethal" in text_of(answer)
    assert not Roll.objects.exists() and _chart(bobs_character).lethal == 1


def test_only_a_soak_roll_soaks() -> None:
    pool = maelstrom.build_action_pool(traits=[maelstrom.TraitRef("Strength", "attribute", 2)])
    with pytest.raises(RuleError, match="only a soak roll takes levels off the damage"):
        maelstrom.soaked_levels(maelstrom.roll(pool, random.Random(1)), 2)
