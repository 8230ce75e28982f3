"""Maelstrom's data for the shared suites (tests/system_fixtures.py). Maelstrom keeps its own
views, so it has no sheet, campaign or roll actions; its creation is a wizard."""

from __future__ import annotations

import random

from campaigns.models import Campaign
from characters.creation import field_slug
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import maelstrom
from tests.factories import DEFAULT_ABILITIES, DEFAULT_ATTRIBUTES
from tests.system_fixtures import SystemFixtures


def _willpower_spent(campaign: Campaign, rng: random.Random) -> None:
    """A willpower roll that did not botch, cancelled with a dot."""
    roll = campaign.rolls.filter(kind=Roll.Kind.WILLPOWER).exclude(
        outcome=Roll.Outcome.BOTCH).first()
    assert roll is not None
    roll_services.roll_willpower_spend(roll=roll, by=roll.rolled_by)


FIXTURES = SystemFixtures(
    new_character={"step": "concept", "name": "Matrix newcomer", "concept": "Drifter"},
    roll_pool={"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
               "threshold": "0"},
    request={"kind": "action", "traits": "Precision + Driving", "difficulty": "7",
             "threshold": "0"},
    # The concept, attributes and abilities steps (the draft stays in the session), so the
    # wizard offers every step's form to the fuzz's crawl.
    creation_steps=(
        {"step": "concept", "name": "Vesna Kale", "concept": "Salvage pilot"},
        {"step": "attributes", "primary": "Physical",
         **{field_slug(n): DEFAULT_ATTRIBUTES[n] for n in maelstrom.ATTRIBUTES}},
        {"step": "abilities",
         **{field_slug(n): DEFAULT_ABILITIES.get(n, 0) for n in maelstrom.ABILITIES}},
    ),
    rich_demo_follow_up=_willpower_spent,
    impossible_face=("rolls.0.dice.0", 11, "rolls[0].dice[0]", "less than or equal to 10"),
)
