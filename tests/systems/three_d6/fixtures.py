"""3d6's data for the shared suites (tests/system_fixtures.py)."""

from __future__ import annotations

from tests.system_fixtures import SystemFixtures

FIXTURES = SystemFixtures(
    new_character={"name": "Matrix newcomer", "concept": "Ferry pilot",
                   "t0": "3", "t1": "1", "t2": "1", "t3": "1", "t4": "0", "t5": "0",
                   "s0": "0", "s1": "1", "s2": "2", "s3": "0", "s4": "1", "s5": "0",
                   "s6": "1", "s7": "0", "s8": "1", "s9": "0", "s10": "0", "s11": "0"},
    roll_pool={"mode": "test", "target": "t0", "td": "12", "situational": "0", "favor": "0",
               "disfavor": "0"},
    request={"target": "t1", "td": "11", "favor": "1", "disfavor": "0"},
    sheet_actions={
        "health": {"change": "damage", "amount": "1"},
        "level": {"level": "2", "health_max": "12"},
    },
    campaign_actions={
        "names": {**{f"t{i}": f"Renamed{i}" for i in range(6)},
                  **{f"s{i}": f"Resub{i}" for i in range(12)}},
        "names-reset": {},
    },
    # Changed trait names, so the reset changes something.
    matrix_campaign=(("names", {**{f"t{i}": f"Trait{i}" for i in range(6)},
                                **{f"s{i}": f"Sub{i}" for i in range(12)}}),),
    fuzz_request={"target": "t0", "td": "10", "favor": "0", "disfavor": "0"},
    impossible_face=("rolls.0.result.dice.0", 7, "rolls[0].result.dice[0]",
                     "less than or equal to 6"),
)
