"""A stored Genesys roll's luck (systems/genesys/luck.py): rolls made through the roll
service, a check and the GM's NPC quick roll, measured in the net successes the roll log
shows, against the exact odds of the pool they rolled, read from the roll alone."""

from __future__ import annotations

import random

import pytest

import systems
from characters.models import Character
from rolls.models import Roll
from rolls.services import npc_roll_create, roll_create
from rulesets import genesys
from tests.system_fixtures import demo_character

pytestmark = pytest.mark.django_db


@pytest.fixture
def kestrel(alice, bob) -> Character:  # type: ignore[no-untyped-def]
    """The demo's Kestrel (Agility 3, Ranged 2), Bob's, in Alice's campaign."""
    return demo_character("genesys", gm=alice, player=bob)


def test_a_check_measures_the_net_successes_it_shows(kestrel, bob,
                                                     django_assert_num_queries) -> None:
    system = systems.for_campaign(kestrel.campaign)
    form = system.roll_form(kestrel, {"skill": "Ranged", "difficulty": "Hard", "boost": "1",
                                      "setback": "2", "upgrade_difficulty": "1"})
    assert form.is_valid(), form.errors
    made = [roll_create(character=kestrel, data=form.cleaned_data, by=bob,
                        rng=random.Random(seed)) for seed in range(8)]

    for roll in Roll.objects.filter(pk__in=[r.pk for r in made]):
        with django_assert_num_queries(0):
            luck = system.roll_luck(roll)

        assert luck is not None
        assert luck.actual == roll.net == roll.result["outcome"]["net_successes"]
        assert luck.chances == genesys.pool_luck(
            genesys.parse_pool("1A 2P 2D 1C 1B 2S"), 0).chances
        assert system.luck_measure == luck.measure == "net successes"


def test_the_gms_npc_quick_roll_counts_too(kestrel, alice) -> None:
    roll = npc_roll_create(campaign=kestrel.campaign, text="2A 1P vs 3D 1C", gm_only=True,
                           by=alice, rng=random.Random(5))

    luck = systems.for_campaign(kestrel.campaign).roll_luck(Roll.objects.get(pk=roll.pk))

    assert luck is not None
    assert luck.actual == roll.result["outcome"]["net_successes"]
    assert luck.low == -8  # the worst faces: two failures on each of the four dice


def test_a_check_under_the_cancelling_reading_is_measured_as_rolled(kestrel, alice, bob
                                                                    ) -> None:
    campaign = kestrel.campaign
    campaign.readings = {"boost_setback": "cancel"}
    campaign.save(update_fields=["readings"])
    character = Character.objects.select_related("campaign").get(pk=kestrel.pk)
    system = systems.for_campaign(campaign)
    form = system.roll_form(character, {"skill": "Ranged", "difficulty": "Average",
                                        "boost": "1", "setback": "1"})
    assert form.is_valid(), form.errors

    roll = roll_create(character=character, data=form.cleaned_data, by=bob,
                       rng=random.Random(1))

    luck = system.roll_luck(Roll.objects.get(pk=roll.pk))
    assert roll.readings == {"boost_setback": "cancel"}
    assert luck is not None
    assert luck.chances == genesys.pool_luck(genesys.parse_pool("1A 2P 2D"), 0).chances


def test_the_demos_rolls_each_count(kestrel) -> None:
    system = systems.for_campaign(kestrel.campaign)

    lucks = [system.roll_luck(roll) for roll in kestrel.campaign.rolls.all()]

    assert len(lucks) == 2
    assert all(luck is not None and luck.low <= luck.actual < luck.low + len(luck.chances)
               for luck in lucks)


def test_a_kind_genesys_does_not_make_has_no_luck(kestrel) -> None:
    roll = kestrel.campaign.rolls.first()
    assert roll is not None
    roll.kind = Roll.Kind.ACTION  # in memory only: the log is append-only

    assert systems.for_campaign(kestrel.campaign).roll_luck(roll) is None
