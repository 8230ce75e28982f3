"""Maelstrom's data for the shared suites (tests/system_fixtures.py). Its sheet actions are
damage, heal, willpower (spend, recover, or resolve the incapacitation), bank (on the XP
page) and the GM's merit-flaw-grant and merit-flaw-remove; its roll follow-ups the
experience die and the willpower dot; its creation is a wizard of five steps
(``maelstrom:character-create``, where the generic creation page sends a Maelstrom campaign)."""

from __future__ import annotations

import random

import systems
from campaigns.models import Campaign
from rolls import services as roll_services
from rolls.models import Roll
from rulesets import maelstrom
from rulesets.maelstrom.storage import RollKind
from systems.maelstrom.creation_forms import field_slug
from tests.factories import DEFAULT_ABILITIES, DEFAULT_ATTRIBUTES
from tests.system_fixtures import SystemFixtures, SystemPage

NEW_CHARACTER = {"step": "concept", "name": "Matrix newcomer", "concept": "Drifter"}
"""The wizard's first step: its draft is kept in the session, so no row is written."""

WILLPOWER_ROLL = {"kind": "willpower", "difficulty": "8", "threshold": "0"}
"""A Willpower roll against 8: with every die a 5 it fails without botching, so both
follow-ups stay open on it (an experience die banked in Willpower, the willpower dot)."""


def _willpower_spent(campaign: Campaign, rng: random.Random) -> None:
    """A willpower roll that did not botch, cancelled with a dot."""
    roll = campaign.rolls.filter(kind=RollKind.WILLPOWER).exclude(
        outcome=Roll.Outcome.BOTCH).first()
    assert roll is not None
    action = systems.for_campaign(campaign).roll_actions["willpower-spend"]
    form = action.form({})
    assert form.is_valid(), form.errors
    roll_services.roll_act(roll=roll, action=action, data=form.cleaned_data,
                           by=roll.rolled_by, rng=rng)


FIXTURES = SystemFixtures(
    new_character=NEW_CHARACTER,
    roll_pool={"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
               "threshold": "0"},
    request={"kind": "action", "traits": "Precision + Driving", "difficulty": "7",
             "threshold": "0"},
    sheet_actions={
        "damage": {"kind": "bashing", "levels": "1"},
        "heal": {"kind": ""},
        "willpower": {"action": "spend"},
        "bank": {"trait": "ability:Melee", "amount": "1"},
        "merit-flaw-grant": {"choice": "Short|1", "detail": ""},
        "merit-flaw-remove": {"which": "flaw:Short", "confirm": "on"},
    },
    roll_actions={
        "experience-die": {"key": "willpower"},
        "willpower-spend": {},
    },
    matrix_roll=(WILLPOWER_ROLL, (5,) * 10),
    # A level of damage to heal; a flaw to remove.
    matrix_before={"heal": (("damage", {"kind": "bashing", "levels": "1"}),),
                   "merit-flaw-remove": (("merit-flaw-grant", {"choice": "Short|1"}),)},
    fuzz_request={"kind": "action", "traits": "Perception + Alertness", "difficulty": "6",
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
    # Any member may create a character (the GM too); the wizard keeps its draft in the
    # session until the last step, so a step's POST writes no row.
    pages={"character-create": SystemPage(get="login 404 200 200 200 404",
                                          post="login 404 302 302 302 404",
                                          data=NEW_CHARACTER)},
    rich_demo_follow_up=_willpower_spent,
    impossible_face=("rolls.0.result.dice.0", 11, "rolls[0].result.dice[0]",
                     "less than or equal to 10"),
    # A heavy pistol with 3 of its 8 rounds: it can be fired and reloaded.
    matrix_item={"weapon": "pistol-heavy", "loaded": 3},
)
