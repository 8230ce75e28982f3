"""Shattered World's demo campaign (``manage.py load_demo``, :mod:`systems.demos`): a character
made through the creation form's data, then played a little through the services the pages
call (which is why this module, unlike the rest of the package, sits above the services)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from characters.models import Character
from characters.services import character_create_from_data, sheet_change, xp_spend
from rolls.services import roll_create
from systems.shattered_world.actions import ACTIONS
from systems.shattered_world.sheet import KEY_PREFIX, UAM
from systems.shattered_world.system import SYSTEM

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng

CAMPAIGN_NAME = "The Shattered Coast (Shattered World demo)"
"""The demo campaign's name."""


def build(*, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng) -> None:
    """Kaelin, an elven Warrior (Knight) with a few achievements, a UAM level and two
    rolls."""
    player = players[0]
    campaign.system_data = SYSTEM.default_system_data()
    campaign.save(update_fields=["system_data"])
    character = character_create_from_data(campaign=campaign, owner=player, data={
        "name": "Kaelin", "concept": "A knight errant of the broken coast",
        "species": "Elf", "field_role": "Warrior", "subrole": "Knight",
        "hit_points": 24, "proficiencies": ["PF", "EN"], "foible": "Reckless honour",
        "stat_PF": 18, "stat_MA": 12, "stat_EN": 16, "stat_PR": 14, "stat_SP": 10,
        "stat_EM": 11,
    })
    for kind, name in (("milestone", "Talk to strangers at the inn"),
                       ("feat", "Defeat any enemy"), ("feat", "Accept a quest")):
        character, _ = sheet_change(character=character, action=ACTIONS["achievement"],
                                    data={"kind": kind, "name": name,
                                          "category": "universal"}, by=gm)
    xp_spend(character=character, key=f"{KEY_PREFIX}{UAM}", by=player)
    character = Character.objects.get(pk=character.pk)
    sheet_change(character=character, action=ACTIONS["pool"],
                 data={"pool": "PF", "amount": 3, "direction": "lose"}, by=player)
    for data in ({"die": "frd", "target": 6, "modifiers": (1,), "multipliers": "",
                  "use_uam": True, "action": "Sword strike"},
                 {"die": "ad", "target": 4, "modifiers": (), "multipliers": "",
                  "use_uam": True, "action": "Spot the ambush"}):
        roll_create(character=character, data=data, by=player, rng=rng)
