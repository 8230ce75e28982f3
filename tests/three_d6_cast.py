"""The 3d6 cast the 3d6 sheet, XP, roll and names tests share: alice GMs "The Crossing" (made
by the factory, so its system data is ``{}`` and the default names apply; 20 starting XP), bob
plays Mara in it (made through the creation form, exactly as the page makes her), carol is a
stranger. ``text_of`` and ``fresh`` read the pages and the rows.
"""

from __future__ import annotations

import pytest

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services import character_create_from_data
from tests.factories import CampaignFactory
from tests.helpers import fresh as fresh
from tests.helpers import text_with_spans

SPREAD = {
    # traits: 6 points, 0 to +3 each
    "t0": "3", "t1": "1", "t2": "1", "t3": "1", "t4": "0", "t5": "0",
    # subtraits: 6 points, 0 to +2 each
    "s0": "0", "s1": "1", "s2": "2", "s3": "0", "s4": "1", "s5": "0",
    "s6": "1", "s7": "0", "s8": "1", "s9": "0", "s10": "0", "s11": "0",
}
"""A valid creation spread: Power +3, Agility +1, Might 0, Endurance +1, Dexterity +2."""

text_of = text_with_spans
"""The page as a reader sees it, ``<span>`` read inline too (:func:`tests.helpers.text_of`)."""


@pytest.fixture
def table(alice, bob) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice GMs "The Crossing", a 3d6 campaign with 20 starting XP made by the factory (its
    system data is empty: the default names apply); Bob plays in it."""
    campaign = CampaignFactory(name="The Crossing", ruleset="three_d6", created_by=alice,
                               starting_xp=20)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def mara(table, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's Mara (:data:`SPREAD`): Power +3, Agility +1, Might 0, Dexterity +2; level 1,
    10 health, 20 XP."""
    return character_create_from_data(campaign=table, owner=bob,
                                      data={"name": "Mara", **SPREAD})
