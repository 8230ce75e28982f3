"""What the rich demo adds to each demo campaign, through the services a table uses: a spend
to undo, a follow-up roll, roll requests."""

from __future__ import annotations

import random
from typing import Any

from campaigns.models import Campaign
from characters import services as character_services
from characters import systems
from characters.models import Character, XpEntry
from rolls import services as roll_services
from rolls.models import RequestedRoll, Roll


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
    """A Maelstrom willpower roll cancelled with a dot; a Shahquest pick of dice."""
    if campaign.ruleset == "maelstrom":
        roll = campaign.rolls.filter(kind=Roll.Kind.WILLPOWER).exclude(
            outcome=Roll.Outcome.BOTCH).first()
        assert roll is not None
        roll_services.roll_willpower_spend(roll=roll, by=roll.rolled_by)
    elif campaign.ruleset == "shahquest":
        roll = campaign.rolls.filter(character__isnull=False, parent__isnull=True).first()
        system = systems.for_campaign(campaign)
        action = system.roll_actions["choose"]
        # The demo roll is seeded: its first two dice are its best effort, its third its effect.
        form = action.form({"effort": ["0", "1"], "effect": ["2"]})
        assert form.is_valid(), form.errors
        roll_services.system_roll_act(roll=roll, action=action, data=form.cleaned_data,
                                      by=roll.rolled_by, rng=rng)


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
