"""The Genesys cast the other Genesys tests import: alice GMs a Genesys campaign, bob plays
Kestrel in it (built through the creation form, exactly as the page builds her), carol is a
stranger. ``sheet_of``, ``set_sheet`` and ``text_of`` read and arrange the state."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from campaigns.models import Campaign, Membership
from characters.models import Character
from characters.services import character_create_from_data
from tests.factories import CampaignFactory
from tests.helpers import sheet_of as sheet_of

CAREER = ["Cool", "Coordination", "Deception", "Perception", "Ranged", "Skulduggery",
          "Stealth", "Streetwise"]
FREE_RANKS = ["Cool", "Ranged", "Skulduggery", "Stealth", "Athletics", "Charm"]
VALID = {"name": "Kestrel", "concept": "A smuggler who owes everyone", "career": "Scoundrel",
         "career_skills": CAREER, "free_ranks": FREE_RANKS}


@pytest.fixture
def gx_campaign(alice, bob) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice GMs "The Long Night", a Genesys campaign with 110 starting XP (the core rules'
    Average Human); Bob plays in it. Made by the factory, so its system data is ``{}``."""
    campaign = CampaignFactory(name="The Long Night", ruleset="genesys", created_by=alice,
                               starting_xp=110)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def kes(gx_campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's Kestrel, fresh from the creation form: all characteristics 2, rank 1 in Cool,
    Ranged, Skulduggery, Stealth (career) and Athletics, Charm (not), 110 XP, in creation."""
    return character_create_from_data(campaign=gx_campaign, owner=bob, data=VALID)


def set_sheet(character: Character, **changes: Any) -> Character:
    """Store ``changes`` over the sheet's top-level keys; returns the fresh row."""
    sheet = {**sheet_of(character), **changes}
    Character.objects.filter(pk=character.pk).update(sheet=sheet)
    return Character.objects.get(pk=character.pk)


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    """The page as a reader sees it: SVG dice by their names, tags dropped, entities
    decoded, whitespace collapsed."""
    content = response.content.decode()
    content = re.sub(r'<svg[^>]*aria-label="([^"]*)".*?</svg>', r" [\1] ", content, flags=re.S)
    content = re.sub(r"</?(?:strong|em|b|a|small|abbr|span)\b[^>]*>", "", content)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", content)).split())


def test_kestrel_is_an_average_human_with_her_free_ranks_and_110_xp(kes) -> None:  # type: ignore[no-untyped-def]
    sheet = sheet_of(kes)

    assert sheet["characteristics"] == dict.fromkeys(
        ["Brawn", "Agility", "Intellect", "Cunning", "Willpower", "Presence"], 2)
    assert sheet["skills"] == dict.fromkeys(FREE_RANKS, 1)
    assert sheet["wounds"] == {"current": 0, "threshold": 12}
    assert sheet["strain"] == {"current": 0, "threshold": 12}
    assert sheet["creation"] is True
    assert (kes.xp_available, kes.xp_total) == (110, 110)
