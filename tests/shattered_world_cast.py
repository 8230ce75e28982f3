"""The Shattered World cast the sheet, roll, XP, session, dashboard and concurrency tests share:
alice GMs "The Shattered Coast" (made by the factory, so its system data is ``{}``), bob plays
Kaelin in it (made from :data:`KAELIN`, the creation form's data), carol is a stranger."""

from __future__ import annotations

import pytest

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services import character_create_from_data
from tests.factories import CampaignFactory

KAELIN = {
    "name": "Kaelin", "concept": "Knight errant", "species": "Elf", "field_role": "Warrior",
    "subrole": "Knight", "hit_points": "24", "proficiencies": ["PF", "EN"], "foible": "",
    "stat_PF": "18", "stat_MA": "12", "stat_EN": "16", "stat_PR": "14", "stat_SP": "10",
    "stat_EM": "11",
}


@pytest.fixture
def sw_campaign(alice, bob) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice GMs a Shattered World campaign (made by the factory: its system data is {});
    Bob plays in it."""
    campaign = CampaignFactory(name="The Shattered Coast", ruleset="shattered_world",
                               created_by=alice, starting_xp=0)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def kaelin(sw_campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's Kaelin, an elven Warrior (Knight): PF 18, EN 16, 24 hit points, no XP."""
    return character_create_from_data(campaign=sw_campaign, owner=bob, data=KAELIN)
