"""The Shahquest cast the Shahquest sheet, roll and request tests share: alice GMs "The
Heist", bob plays Demetri of the seed's Dice Pools example in it (made through the creation
form, exactly as the page makes him), carol is a stranger. ``text_of``, ``fresh``,
``plot_points`` and ``action_url`` read the pages and the rows.

Feature indices of Demetri's sheet (DEMO_DATA): 0 Solo d4, 1 Partner d6, 2 Gang d8,
3 Coordination d10, 4 Wits d8, 5 Brawn d6, 6 Physical d8 (Athletics spreads), 7 Combat d6,
8 I've got your back (quirk d8), 9 Grappling hook d6, 10 Shadow step d6.
"""

from __future__ import annotations

import pytest

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services import character_create_from_data
from systems.shahquest.demo import DEMO_DATA
from tests.factories import CampaignFactory
from tests.helpers import action_url as action_url
from tests.helpers import fresh as fresh
from tests.helpers import text_with_spans

text_of = text_with_spans
"""The page as a reader sees it, ``<span>`` read inline too (:func:`tests.helpers.text_of`)."""


@pytest.fixture
def sq_campaign(alice, bob) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice GMs a Shahquest campaign; Bob plays in it; Carol is a stranger."""
    campaign = CampaignFactory(name="The Heist", ruleset="shahquest", created_by=alice)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def demetri(sq_campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's Demetri of the seed's Dice Pools example, made as the creation page makes him."""
    return character_create_from_data(campaign=sq_campaign, owner=bob, data=DEMO_DATA)


def plot_points(character: Character) -> int:
    """The character's plot points as stored now."""
    return int(fresh(character).sheet["plot_points"])
