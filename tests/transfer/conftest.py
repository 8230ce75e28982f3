"""The demo of every system, loaded as ``make run`` loads it, and the same demo with every
kind of link the export must carry (tests/transfer/rich_demo.py) and every column written
(a description, a backstory, notes, GM notes, a retired character)."""

from __future__ import annotations

import datetime
import io
import random

import pytest
from django.core.management import call_command

import systems
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character
from rolls import services as roll_services
from rulesets import registry
from table.management.commands.load_demo import GM
from table.services import campaign_system_change, session_create
from tests.system_fixtures import fixtures_for
from tests.transfer.rich_demo import ask_for_rolls, follow_up, spend_cheapest

RECAP = "The heist goes *wrong*: Øyvind's ☂ is lost.\n\n- the vault\n- the bridge"
BACKSTORY = "# Before the drift\n\nBorn in Ny-Ålesund — «the cold years» 🎲\n\n> *Never again.*"
NOTES = "Owes **Vex** 200 ¥.\n\n| Who | What |\n|---|---|\n| Vex | ¥ |"
GM_NOTES = "Secretly the heir to the Ōtsuki line ✦ reveal in act three."
"""What the rich demo's first character of each campaign has written (Markdown, unicode); the
GM notes are a text no player's file may hold."""


@pytest.fixture
def demo(db) -> list[Campaign]:  # type: ignore[no-untyped-def]
    """Every demo campaign, as ``manage.py load_demo`` makes them."""
    call_command("load_demo", stdout=io.StringIO())
    return list(Campaign.objects.order_by("pk"))


@pytest.fixture
def rich_demo(demo: list[Campaign]) -> list[Campaign]:
    """The demo with every link the document carries, in every campaign."""
    rng = random.Random(11)
    for campaign in demo:
        gm = campaign.created_by
        assert gm.username == GM
        character = campaign.characters.order_by("pk").first()
        assert character is not None
        session = session_create(campaign=campaign, date=datetime.date(2025, 3, 14),
                                 title="Night one", recap=RECAP)
        character_services.xp_award(character=character, amount=3, reason="Session award",
                                    by=gm, session=session)
        spend = spend_cheapest(character, by=character.owner)
        character_services.xp_undo(entry=spend, by=gm, as_gm=True)
        module = registry.get(campaign.ruleset).module
        roll_services.npc_roll_create(campaign=campaign, text=module.QUICK_ROLL_EXAMPLES[0],
                                      gm_only=True, by=gm, rng=rng)
        follow_up(campaign, rng)
        ask_for_rolls(character, gm, rng)
        # The system's own (tests/systems/<slug>/fixtures.py): Shahquest's general danger,
        # whose roll system_data keeps.
        for name, data in fixtures_for(campaign.ruleset).rich_demo_campaign:
            system = systems.for_campaign(campaign)
            assert system is not None
            campaign, _, _ = campaign_system_change(
                campaign=campaign, action=system.campaign_actions[name], data=dict(data),
                by=gm, rng=rng)
        # What people write, and a character out of the party (the campaign's second, where
        # it has one), as their pages would store them.
        Campaign.objects.filter(pk=campaign.pk).update(
            description=f"{campaign.name}, season two — «the long night».")
        Character.objects.filter(pk=character.pk).update(backstory=BACKSTORY, notes=NOTES,
                                                         gm_notes=GM_NOTES)
        Character.objects.filter(campaign=campaign).exclude(pk=character.pk).update(
            status=Character.Status.RETIRED)
    return list(Campaign.objects.order_by("pk"))
