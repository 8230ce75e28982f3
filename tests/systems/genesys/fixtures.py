"""Genesys's data for the shared suites (tests/system_fixtures.py)."""

from __future__ import annotations

from tests.system_fixtures import SystemFixtures

FIXTURES = SystemFixtures(
    new_character={"name": "Matrix newcomer", "concept": "Smuggler", "career": "Scoundrel",
                   "career_skills": ["Cool", "Coordination", "Deception", "Perception",
                                     "Ranged", "Skulduggery", "Stealth", "Streetwise"],
                   "free_ranks": ["Cool", "Ranged", "Skulduggery", "Stealth", "Athletics",
                                  "Charm"]},
    roll_pool={"skill": "Ranged", "difficulty": "Average"},
    request={"skill": "Ranged", "difficulty": "Hard", "boost": "1"},
    sheet_actions={
        "wounds": {"amount": "1", "direction": "suffer"},
        "strain": {"amount": "1", "direction": "suffer"},
        "finish-creation": {},
        "reopen-creation": {},
    },
    campaign_actions={
        "skill-set": {"name": "Piloting (Space)", "characteristic": "Agility"},
        "skill-remove": {"name": "Hacking"},
        "skills-reset": {},
        "destiny-set": {"light": "3", "dark": "1"},
        "destiny-roll": {"dice": "2"},
        "destiny-flip": {"side": "light"},
    },
    # A changed skill list (so the reset changes something, and Hacking can be removed), and
    # a Destiny pool with a point of each side to flip.
    matrix_campaign=(("skill-set", {"name": "Hacking", "characteristic": "Intellect"}),
                     ("destiny-set", {"light": "2", "dark": "2"})),
    matrix_before={"finish-creation": (("reopen-creation", {}),)},
    fuzz_request={"skill": "Athletics", "difficulty": "Average", "upgrade_difficulty": "0",
                  "boost": "0", "setback": "0"},
    # The second character still in creation: the GM's "finish" form.
    fuzz_other_character=(("reopen-creation", {}),),
    # A Destiny pool with points of both sides: both flip buttons are offered.
    fuzz_campaign=(("destiny-set", {"light": "2", "dark": "2"}),),
    # A rolled Destiny pool (its Force dice kept in system_data) goes through the file too.
    rich_demo_campaign=(("destiny-roll", {"dice": 3}),),
    impossible_face=("rolls.0.result.dice.0.face", 13, "rolls[0].result.dice[0].face", "12"),
)
