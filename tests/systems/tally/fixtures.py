"""Tally's data for the shared suites (tests/system_fixtures.py): the test-only system of
tests/tally/, run through the matrix, the fuzz and the round trips like any other."""

from __future__ import annotations

from tests.system_fixtures import SystemFixtures, roll_follow_up

FIXTURES = SystemFixtures(
    new_character={"name": "Matrix newcomer", "tally": "2"},
    roll_pool={},
    request={},
    sheet_actions={"add": {"amount": "1"}, "reset": {}},
    campaign_actions={"bump": {}},
    roll_actions={"reroll": {}},
    rich_demo_follow_up=roll_follow_up("reroll", {}),
    impossible_face=("rolls.0.result.face", 7, "rolls[0].result.face",
                     "less than or equal to 6"),
)
