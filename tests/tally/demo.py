"""Tally's demo campaign (found by :func:`systems.demos.demo_for`, loaded by ``manage.py
load_demo`` in the tests): Tam, a tally of 2, a roll, a change, and XP to spend. Like a real
system's demo it composes the services the pages call."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from characters.services import character_create_from_data, sheet_change, xp_award
from rolls.services import roll_create
from tests.tally.system import SYSTEM

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from rulesets.dice import Rng

CAMPAIGN_NAME = "The Counting House (Tally demo)"
"""The demo campaign's name."""


def build(*, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng) -> None:
    """Tam with a tally of 2, one roll, a point added, and 10 XP to spend."""
    player = players[0]
    character = character_create_from_data(
        campaign=campaign, owner=player, data={"name": "Tam", "concept": "counts", "tally": 2})
    roll_create(character=character, by=player, rng=rng, data={"spend": False})
    character, _ = sheet_change(character=character, action=SYSTEM.actions["add"],
                                data={"amount": 1}, by=player)
    xp_award(character=character, amount=10, reason="Counted the coins", by=gm)
