"""A stored Maelstrom roll's luck (systems/maelstrom/luck.py): rolled through the real roll
service, its measured successes are the ones the roll log shows, against the odds of the pool
as it was rolled (docs/systems/maelstrom.md, "Luck")."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

import systems
from characters.models import Character
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import maelstrom
from rulesets.maelstrom.luck import net_distribution
from rulesets.maelstrom.readings import MaelstromReadings
from systems.maelstrom.system import SYSTEM
from tests.conftest import ScriptedRng
from tests.factories import CharacterFactory
from tests.systems.maelstrom.sheets import set_tracks

pytestmark = pytest.mark.django_db


@pytest.fixture
def rider(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Precision 3, Driving 2 (five dice), the Cars specialty, willpower 3, 30 XP."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rider",
                            attributes={"Precision": 3}, abilities={"Driving": 2},
                            specialties=[("Driving", "Cars", False)])


def roll(character: Character, faces: list[int], by: Any, **fields: object) -> Roll:
    data = {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
            "threshold": "0", **fields}
    form = SYSTEM.roll_form(Character.objects.get(pk=character.pk), data)
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data, by=by,
                                     rng=ScriptedRng(faces))


def test_a_rolls_luck_is_the_successes_the_log_shows(rider, bob) -> None:  # type: ignore[no-untyped-def]
    made = roll(rider, [6, 7, 1, 3, 9], bob, threshold="1")  # 3 successes - 1 - a 1

    luck = systems.for_ruleset("maelstrom").roll_luck(made)

    assert luck is not None
    assert (luck.measure, luck.actual) == ("successes", made.net) == ("successes", 1)
    assert (luck.low, luck.chances) == net_distribution(dice=5, difficulty=6, threshold=1)


def test_a_specialtys_exploding_tens_and_their_chain_are_counted(rider, bob) -> None:  # type: ignore[no-untyped-def]
    # Two 10s call four bonus dice; their 10 calls two more.
    made = roll(rider, [10, 10, 1, 4, 6, 10, 3, 7, 2, 8, 9], bob,
                specialty=["Driving: Cars"])

    luck = SYSTEM.roll_luck(made)

    assert luck is not None
    assert luck.actual == made.net == 6  # 3 + 3 + 2 successes, less the 1
    assert (luck.low, luck.chances) == net_distribution(dice=5, difficulty=6, exploding=True)


def test_the_wound_penalty_is_in_the_odds(rider, bob) -> None:  # type: ignore[no-untyped-def]
    set_tracks(rider, health_lethal=2)  # Scratched: -1 die

    luck = SYSTEM.roll_luck(roll(rider, [6, 6, 2, 2], bob))

    assert luck is not None
    assert (luck.low, luck.chances) == net_distribution(dice=4, difficulty=6)


def test_strong_bond_read_the_campaigns_way_is_in_the_odds(campaign, bob) -> None:  # type: ignore[no-untyped-def]
    campaign.readings = {"strong_bond": "kept"}
    campaign.save(update_fields=["readings"])
    bonded = CharacterFactory(campaign=campaign, owner=bob, name="Bonded",
                              merits_flaws=[{"kind": "merit", "name": "Strong Bond",
                                             "points": 3}])

    made = roll(bonded, [1, 1, 3], bob, kind="willpower", trait=[], difficulty="8")
    luck = SYSTEM.roll_luck(made)

    assert luck is not None
    assert luck.actual == made.net == 1  # kept beyond the two 1s' reach
    pool = maelstrom.build_willpower_pool(current=3, difficulty=8, automatic_successes=1,
                                          readings=MaelstromReadings(strong_bond="kept"))
    assert (luck.low, luck.chances) == net_distribution(
        dice=3, difficulty=8, automatic_successes=1, automatic_at=pool.automatic_at)
    assert luck.low == 1


def test_the_experience_die_counts_what_it_added_and_the_willpower_dot_nothing(rider, bob
                                                                             ) -> None:  # type: ignore[no-untyped-def]
    willpower = roll(rider, [5, 6, 2], bob, kind="willpower", trait=[], difficulty="6")
    die = roll_services.roll_act(roll=willpower, action=SYSTEM.roll_actions["experience-die"],
                                 data={"key": "willpower"}, by=bob, rng=ScriptedRng([9]))
    other = roll(rider, [5, 5, 2], bob, kind="willpower", trait=[], difficulty="8")
    spent = roll_services.roll_act(roll=other, action=SYSTEM.roll_actions["willpower-spend"],
                                   data={}, by=bob, rng=random.Random(1))

    added = SYSTEM.roll_luck(die)

    assert added is not None
    assert willpower.net + added.actual == die.net == 2
    assert added.low == 0 and added.chances == (Fraction(1, 2), Fraction(1, 2))
    assert SYSTEM.roll_luck(spent) is None


def test_the_gms_npc_quick_roll_counts(campaign, alice) -> None:  # type: ignore[no-untyped-def]
    made = roll_services.npc_roll_create(campaign=campaign, text="4 dice diff 7 threshold 1",
                                         gm_only=True, by=alice, rng=ScriptedRng([7, 8, 9, 2]))

    luck = SYSTEM.roll_luck(made)

    assert luck is not None
    assert luck.actual == made.net == 2
    assert (luck.low, luck.chances) == net_distribution(dice=4, difficulty=7, threshold=1)


def test_a_soak_of_no_dice_rolls_nothing_to_be_lucky_with(rider, bob) -> None:  # type: ignore[no-untyped-def]
    made = roll(rider, [], bob, kind="soak", trait=[], damage_kind="lethal", armor="0")

    assert made.pool["dice"] == 0
    assert SYSTEM.roll_luck(made) is None
