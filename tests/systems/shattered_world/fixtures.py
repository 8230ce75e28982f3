"""Shattered World's data for the shared suites (tests/system_fixtures.py)."""

from __future__ import annotations

from typing import Any

from characters.models import Character, XpEntry
from tests.system_fixtures import SystemFixtures


def _latest_feat(character: Character) -> dict[str, Any]:
    """The undo of the character's latest feat award."""
    entry = (XpEntry.objects.filter(character=character, kind=XpEntry.Kind.AWARD,
                                    trait_key__startswith="feat:")
             .order_by("-pk").first())
    assert entry is not None
    return {"entry": str(entry.pk)}


FIXTURES = SystemFixtures(
    new_character={
        "name": "Matrix newcomer", "concept": "Knight errant", "species": "Elf",
        "field_role": "Warrior", "subrole": "Knight", "hit_points": "24",
        "proficiencies": ["PF", "EN"], "foible": "", "stat_PF": "18", "stat_MA": "12",
        "stat_EN": "16", "stat_PR": "14", "stat_SP": "10", "stat_EM": "11"},
    roll_pool={"die": "ad", "target": "5", "modifiers": "", "multipliers": "", "action": ""},
    request={"die": "usual", "target": "6", "modifier": "", "use_uam": "yes"},
    sheet_actions={
        "pool": {"pool": "PF", "amount": "1", "direction": "lose"},
        "rest": {},
        "foible": {"foible": "Stubborn pride"},
        "achievement": {"kind": "feat", "category": "universal", "name": "Defeat any enemy"},
        "achievement_undo": _latest_feat,
    },
    campaign_actions={
        "die_steps": {"steps": "d4 d8 0 start\nd6 d10 5\nd8 d12 15 knighted"},
        "buy_in_add": {
            "name": "Lance Charge", "cost": "2/x", "effect": "", "field_role": "Warrior",
            "subrole": "Cavalier", "ability": "PF", "hit_points": "0", "min_achievements": "0",
            "requires": ""},
        "buy_in_remove": {"name": "Fireball"},
    },
    # A buy-in to remove.
    matrix_campaign=(("buy_in_add", {
        "name": "Fireball", "cost": "3/E", "effect": "A ball of fire", "field_role": "Mage",
        "subrole": "", "ability": "MA", "hit_points": "0", "min_achievements": "0",
        "requires": ""}),),
    fuzz_request={"die": "usual", "target": "5", "use_uam": "yes"},
    # A custom buy-in (its remove form).
    fuzz_campaign=(("buy_in_add", {"name": "Lucky charm", "cost": "3"}),),
    impossible_face=("rolls.0.result.dice.0", 1_001, "rolls[0].result.dice[0]", "1000"),
)
