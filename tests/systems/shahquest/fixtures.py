"""Shahquest's data for the shared suites (tests/system_fixtures.py)."""

from __future__ import annotations

from systems.shahquest.demo import DEMO_DATA
from tests.system_fixtures import SystemFixtures, roll_follow_up

SEED_POOL = {"feature": ["3", "8"], "specialization": ["6:0"], "setting_die": "6"}
"""tests/systems/shahquest/test_shahquest_rolls.py's seed pool: d10 3d8 d6; with faces
7 2 1 3 4 the player still has effort and effect to choose."""

FIXTURES = SystemFixtures(
    new_character={**DEMO_DATA, "name": "Matrix newcomer"},
    roll_pool=SEED_POOL,
    request={"attribute": "coordination", "skill": "physical",
             "specialization": "athletics", "setting_die": "6"},
    sheet_actions={
        "plot-points": {"change": "1"},
        "stress-take": {"kind": "mental", "die": "6"},
        "stress-recover": {"kind": "physical", "die": "8"},
        "trauma-recover": {"kind": "emotional", "die": "6"},
        "stress-change": {"to": "emotional"},
        "opportunity-push": {},
        "opportunity-step-up": {},
        "downtime": {"option": "stress:physical"},
        "specialization-learn": {"skill": "Combat", "name": "Knives", "use": "step_up",
                                 "expected_cost": "5"},
        "feature-learn": {"type": "skill", "name": "Stealth", "expected_cost": "4"},
        "feature-edit": {"which": "resource:Grappling hook", "name": "Climbing rope"},
        "feature-remove": {"which": "resource:Grappling hook", "confirm": "on"},
    },
    campaign_actions={
        "tension-start": {"dice": "d10 d4"},
        "tension-opportunity": lambda character: {"grow": "add",
                                                  "character": str(character.pk)},
        "tension-take": {"die": "8", "purpose": "npc"},
        # The world set a d6 aside for an NPC: it comes back (a plot point to the character),
        # or leaves play.
        "tension-return": lambda character: {"die": "6", "character": str(character.pk)},
        "tension-drop": {"die": "6"},
        "tension-danger": {"setting_die": "", "complications": ""},
    },
    roll_actions={"choose": {"effort": ["0", "4"], "effect": ["1"]}},
    # A tension pool with a die out for an NPC.
    matrix_campaign=(("tension-start", {"dice": "d8 2d6"}),
                     ("tension-take", {"die": "6", "purpose": "npc"})),
    matrix_roll=(SEED_POOL, (7, 2, 1, 3, 4)),
    # Stressed out at d12: d4 trauma, then d6.
    matrix_before={"trauma-recover": tuple(("stress-take", {"kind": "emotional", "die": die})
                                           for die in ("12", "4", "6")),
                   # The stress just taken, whose type a plot point changes.
                   "stress-change": (("stress-take", {"kind": "mental", "die": "6"}),)},
    fuzz_request={"attribute": "Coordination", "affiliation": "Solo"},
    fuzz_campaign=(("tension-take", {"die": "6", "purpose": "npc"}),),
    # Stress just taken, so the sheet offers to change its type.
    fuzz_other_character=(("stress-take", {"kind": "physical", "die": "6"}),),
    rich_demo_campaign=(("tension-danger", {"setting_die": None, "complications": "",
                                            "note": "The guards", "gm_only": False}),),
    # The demo roll is seeded: its first two dice are its best effort, its third its effect.
    rich_demo_follow_up=roll_follow_up("choose", {"effort": ["0", "1"], "effect": ["2"]}),
    impossible_face=("rolls.0.result.dice.0.face", 13, "rolls[0].result.dice[0].face", "12"),
)
