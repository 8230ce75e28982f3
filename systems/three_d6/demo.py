"""3d6's demo campaign (``manage.py load_demo``, found by :func:`systems.demos.demo_for`):
Mara, a finished character with a test, a contest against an NPC, a wound and 10 XP to spend.

It composes the services the pages call (creation, rolling, sheet changes, XP), so it sits
above them; nothing in the package imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from characters.services import character_create_from_data, sheet_change, xp_award
from rolls.services import roll_create
from systems.three_d6.forms import NPC
from systems.three_d6.sheet import SUBTRAIT_SLOTS, TRAIT_SLOTS
from systems.three_d6.system import SYSTEM

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng

CAMPAIGN_NAME = "The Crossing (3d6 demo)"
"""The demo campaign's name."""


def build(*, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng) -> None:
    """Mara, a finished character with a test, a contest against an NPC, a wound and 10
    XP to spend."""
    player = players[0]
    data: dict[str, Any] = {"name": "Mara Quill", "concept": "Ferry pilot with debts"}
    data.update({slot: str(v) for slot, v in zip(TRAIT_SLOTS, (3, 1, 1, 1, 0, 0),
                                                  strict=True)})
    data.update({slot: str(v) for slot, v in
                 zip(SUBTRAIT_SLOTS, (0, 1, 2, 0, 1, 0, 1, 0, 1, 0, 0, 0), strict=True)})
    character = character_create_from_data(campaign=campaign, owner=player, data=data)
    roll_create(character=character, by=player, rng=rng, data={
        "mode": "test", "target": "t1", "td": 10, "situational": 0, "favor": 1,
        "disfavor": 0})
    roll_create(character=character, by=player, rng=rng, data={
        "mode": "contest", "target": "t0", "td": None, "situational": 0, "favor": 0,
        "disfavor": 0, "opponent": NPC, "npc_name": "Dock guard", "npc_modifier": 2,
        "npc_rating": 2, "opponent_favor": 0, "opponent_disfavor": 0,
        "defender": "opponent", "opponent_target": ""})
    sheet_change(character=character, action=SYSTEM.actions["health"],
                 data={"change": "damage", "amount": 3}, by=gm)
    xp_award(character=character, amount=10, reason="Crossed the strait", by=gm)
