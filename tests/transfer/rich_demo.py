"""What the rich demo adds to each demo campaign, through the services a table uses: a spend
to undo, a follow-up roll, roll requests."""

from __future__ import annotations

import random
from typing import Any

import systems
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character, XpEntry
from rolls import services as roll_services
from rolls.models import RequestedRoll
from tests.system_fixtures import fixtures_for


def spend_cheapest(character: Character, *, by: Any) -> XpEntry:
    """Buy the cheapest thing XP buys on the character's sheet; returns the spend."""
    character = Character.objects.get(pk=character.pk)
    system = systems.for_campaign(character.campaign)
    if system is None:
        return character_services.xp_spend(character=character, kind="ability",
                                           name="Stealth", by=by)
    cheapest = min(system.advances(character), key=lambda advance: advance.cost)
    return character_services.xp_spend_advance(character=character, key=cheapest.key, by=by)


def follow_up(campaign: Campaign, rng: random.Random) -> None:
    """The system's follow-up roll, where it has one (its fixtures' ``rich_demo_follow_up``:
    a Maelstrom willpower roll cancelled with a dot, a Shahquest pick of dice, a tally
    reroll)."""
    made = fixtures_for(campaign.ruleset).rich_demo_follow_up
    if made is not None:
        made(campaign, rng)


def ask_for_rolls(character: Character, gm: Any, rng: random.Random) -> None:
    """Ask ``character`` for two rolls and answer one of them."""
    character = Character.objects.get(pk=character.pk)
    if character.campaign.ruleset == "maelstrom":
        asked = roll_services.requested_roll_create(
            characters=[character, character], kind="action", traits=("Perception", "Alertness"),
            difficulty=7, threshold=0, note="Spot the tail", by=gm)
        roll_services.roll_create(character=character, by=character.owner, rng=rng,
                                  request=roll_services.RollRequest(
                                      traits=("Perception", "Alertness"), difficulty=7),
                                  answers=asked[0].pk)
        return
    answer = character.rolls.filter(parent__isnull=True).order_by("pk").first()
    for answered in (answer, None):
        request = RequestedRoll.objects.create(
            campaign=character.campaign, character=character, requested_by=gm,
            data={"note": "as asked"}, description="A roll the GM asked for")
        if answered is not None:
            request.answer = answered
            request.save(update_fields=["answer"])
