"""Shahquest's demo campaign (``manage.py load_demo``, found by :mod:`systems.demos`):
Demetri of the seed's Dice Pools example, a roll, a stress hit and an award.

It composes the services the pages call, so it sits above them (and above the rest of the
package): nothing in the package imports it. :data:`DEMO_DATA` is also the tests' Demetri.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from characters.services import character_create_from_data, sheet_change, xp_award
from rolls.services import roll_create
from systems.shahquest.actions import ACTIONS
from systems.shahquest.system import SYSTEM

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng

CAMPAIGN_NAME = "The Heist (Shahquest demo)"
"""The demo campaign's name."""

DEMO_DATA: dict[str, str] = {
    "name": "Demetri", "concept": "Chandelier-swinging thief",
    "solo": "4", "solo_count": "1", "partner": "6", "gang": "8",
    "attribute_1_name": "Coordination", "attribute_1_die": "10",
    "attribute_2_name": "Wits", "attribute_2_die": "8",
    "attribute_3_name": "Brawn", "attribute_3_die": "6",
    "skill_1_name": "Physical", "skill_1_die": "8",
    "skill_1_spec_1_name": "Athletics", "skill_1_spec_1_use": "spread",
    "skill_2_name": "Combat", "skill_2_die": "6",
    "quirk_1_name": "I've got your back",
    "resource_1_name": "Grappling hook", "resource_1_die": "6",
    "power_1_set": "Thief's luck", "power_1_name": "Shadow step", "power_1_die": "6",
    "extra_1_set": "Thief's luck", "extra_1_kind": "sfx", "extra_1_name": "Vanish",
    "extra_1_text": "Spend a plot point to step out of sight after a success.",
    "extra_2_set": "Thief's luck", "extra_2_kind": "limit", "extra_2_name": "Bright light",
    "extra_2_text": "Earn a plot point when bright light shuts the power down.",
}
"""Demetri of the seed's example (Coordination d10, Partner d6, I've got your back d8,
Physical d8 with Athletics spread), as creation-form data."""


def build(*, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng) -> None:
    """Demetri from the seed's Dice Pools example, a roll, a stress hit and an award."""
    player = players[0]
    character = character_create_from_data(campaign=campaign, owner=player, data=DEMO_DATA)
    xp_award(character=character, amount=10, reason="Demo award", by=gm)
    form = SYSTEM.roll_form(character, {"feature": ["1", "3", "8"],
                                        "specialization": ["6:0"], "setting_die": "6"})
    assert form.is_valid(), form.errors
    roll_create(character=character, data=form.cleaned_data, by=player, rng=rng)
    sheet_change(character=character, action=ACTIONS["stress-take"],
                 data={"kind": "physical", "die": 8}, by=gm)
