"""The Genesys demo campaign (``manage.py load_demo``, found by :mod:`systems.demos`).

It plays through the services the pages call, so it sits above them: nothing in the package
imports this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from characters.services import (
    character_create_from_data,
    sheet_change,
    xp_award,
    xp_spend,
)
from rolls.services import roll_create
from systems.genesys.system import SYSTEM
from table.services import campaign_system_change

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng

CAMPAIGN_NAME = "The Long Night (Genesys demo)"
"""The demo campaign's name."""


def build(*, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng) -> None:
    """Kestrel, a Scoundrel: created through the form, given 100 XP, two
    characteristics and a skill bought, creation finished, some wounds and strain, two
    checks rolled, and the session's Destiny pool rolled by the GM (two Force dice)."""
    player = players[0]
    career = ["Cool", "Coordination", "Deception", "Perception", "Ranged", "Skulduggery",
              "Stealth", "Streetwise"]
    character = character_create_from_data(campaign=campaign, owner=player, data={
        "name": "Kestrel", "concept": "A smuggler who owes everyone", "career": "Scoundrel",
        "career_skills": career,
        "free_ranks": ["Cool", "Ranged", "Skulduggery", "Stealth", "Athletics", "Charm"],
    })
    xp_award(character=character, amount=100, by=gm,
             reason="Demo starting XP (the core rules' Average Human has 110)")
    for key in ("characteristic:Agility", "characteristic:Cunning", "skill:Ranged"):
        xp_spend(character=character, key=key, by=player)
        character.refresh_from_db()
    sheet_change(character=character, action=SYSTEM.actions["finish-creation"], data={},
                 by=player)
    sheet_change(character=character, action=SYSTEM.actions["wounds"],
                 data={"amount": 4, "direction": "suffer"}, by=gm)
    sheet_change(character=character, action=SYSTEM.actions["strain"],
                 data={"amount": 2, "direction": "suffer"}, by=player)
    character.refresh_from_db()
    for data in ({"skill": "Ranged", "difficulty": "Average", "boost": "1"},
                 {"skill": "Deception", "difficulty": "Hard", "upgrade_difficulty": "1"}):
        form = SYSTEM.roll_form(character, data)
        if not form.is_valid():
            raise ValueError(form.errors.as_text())
        roll_create(character=character, data=form.cleaned_data, by=player, rng=rng)
    # Last, so the checks above roll the dice they always did.
    campaign_system_change(campaign=campaign, action=SYSTEM.campaign_actions["destiny-roll"],
                           data={"dice": 2}, by=gm, rng=rng)
