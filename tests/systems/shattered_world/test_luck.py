"""A stored Shattered World roll's luck (systems/shattered_world/luck.py): rolls made through
the roll service, an action and the GM's NPC quick roll, measured in the degree of success
the roll log shows, against the exact odds of the die they rolled, read from the roll
alone."""

from __future__ import annotations

import random

import pytest

import systems
from characters.models import Character
from rolls.models import Roll
from rolls.services import npc_roll_create, roll_create
from rulesets import shattered_world as sw
from tests.system_fixtures import demo_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def kaelin(alice, bob) -> Character:  # type: ignore[no-untyped-def]
    """The demo's Kaelin (action die d4, field role die d8, UAM +1), Bob's, in Alice's
    campaign."""
    return demo_character("shattered_world", gm=alice, player=bob)


def test_an_action_measures_the_degree_it_shows(kaelin, bob, django_assert_num_queries
                                                ) -> None:
    system = systems.for_campaign(kaelin.campaign)
    form = system.roll_form(kaelin, {"die": "frd", "target": "7", "modifiers": "+1",
                                     "multipliers": "", "use_uam": "on", "action": "Parry"})
    assert form.is_valid(), form.errors
    made = [roll_create(character=kaelin, data=form.cleaned_data, by=bob,
                        rng=random.Random(seed)) for seed in range(8)]

    for roll in Roll.objects.filter(pk__in=[r.pk for r in made]):
        with django_assert_num_queries(0):
            luck = system.roll_luck(roll)

        assert luck is not None
        assert luck.actual == roll.result["degree"]
        # d8 +2 against 7: faces 5 to 8 succeed by 1, 1, 2, 3.
        assert luck.chances == sw.pool_luck(
            sw.build_pool(target=7, action_die=8, modifiers=(2,)), 0).chances
        assert system.luck_measure == luck.measure == "degrees of success"


def test_the_gms_npc_quick_roll_counts_too(kaelin, alice) -> None:
    roll = npc_roll_create(campaign=kaelin.campaign, text="d20 +3 x2 vs 15", gm_only=True,
                           by=alice, rng=random.Random(5))

    luck = systems.for_campaign(kaelin.campaign).roll_luck(Roll.objects.get(pk=roll.pk))

    assert luck is not None
    assert luck.actual == roll.result["degree"]
    assert len(luck.chances) == 32  # (20 + 3) × 2 - 15 = 31, the best degree


def test_a_roll_under_a_reading_is_measured_under_it(kaelin, bob) -> None:
    campaign = kaelin.campaign
    campaign.readings = {"multiplier_order": "as_written"}
    campaign.save(update_fields=["readings"])
    character = Character.objects.select_related("campaign").get(pk=kaelin.pk)
    system = systems.for_campaign(campaign)
    form = system.roll_form(character, {"die": "ad", "target": "5", "modifiers": "+3",
                                        "multipliers": "/2 x3", "action": ""})
    assert form.is_valid(), form.errors

    roll = roll_create(character=character, data=form.cleaned_data, by=bob,
                       rng=random.Random(2))

    luck = system.roll_luck(Roll.objects.get(pk=roll.pk))
    assert luck is not None
    # d4 +3 ×5/2 as written (the ladder's ×2 would give 8, 10, 12, 14): 10, 13, 15, 18.
    assert luck.chances == sw.pool_luck(sw.build_pool(
        target=5, action_die=4, modifiers=(3,), multipliers="/2 x3",
        readings=sw.ShatteredWorldReadings(multiplier_order="as_written")), 0).chances
    assert len(luck.chances) == 14
    assert luck.actual == roll.result["degree"]


def test_the_demos_rolls_each_count(kaelin) -> None:
    system = systems.for_campaign(kaelin.campaign)

    lucks = [system.roll_luck(roll) for roll in kaelin.campaign.rolls.all()]

    assert len(lucks) == 2
    assert all(luck is not None and 0 <= luck.actual < len(luck.chances) for luck in lucks)
