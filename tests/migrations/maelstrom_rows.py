"""Maelstrom's data as the old storage held it before the upgrade (characters 0005, rolls
0009), as plain rows: the fixtures of tests/migrations/test_legacy.py and
test_maelstrom_upgrade.py, and of tests/systems/maelstrom/test_legacy.py and
test_legacy_frozen.py, which run the live conversions on the same rows.

A row is what ``values()`` of the old models reads back: a ``Trait`` row ``{"kind", "name",
"group", "ability", "advanced", "dots", "position"}``, a ``MeritFlaw`` row ``{"kind", "name",
"points", "detail"}``, a character's seven track columns (:data:`COLUMNS`), a roll's pool and
dice columns (:func:`roll_columns`), a request's pool columns (:data:`DEMO_REQUESTS`).

The small cases are written out whole. The demo campaign's characters and rolls (:data:`ANA`,
:data:`BEN`, :data:`GHOST`, :func:`demo_results`, :func:`long_campaign_results`) are built
with the rules engine (rulesets.maelstrom) from chosen faces (:class:`Faces`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from rulesets import maelstrom

# --- Small cases, written out whole ------------------------------------------------------------

ATTRIBUTES = ("Strength", "Precision", "Reflexes", "Perception", "Intelligence", "Wits")
"""The six attributes, in the catalogue's order."""

COLUMNS = {"willpower_permanent": 5, "willpower_current": 2, "health_bashing": 1,
           "health_lethal": 2, "health_aggravated": 1, "dead": False, "huge_size": True}
"""A character's old track columns: Willpower 2 of 5, four levels of damage, Huge Size."""


def trait(kind: str, name: str, dots: int, ability: str = "",
          advanced: bool = False) -> dict[str, object]:
    """One old ``Trait`` row (no group, position 0)."""
    return {"kind": kind, "name": name, "group": "", "ability": ability, "advanced": advanced,
            "dots": dots, "position": 0}


TRAITS = [
    *(trait("attribute", name, 2) for name in ATTRIBUTES),
    trait("ability", "Driving", 3), trait("ability", "Firearms", 1),
    trait("specialty", "Motorcycles", 1, "Driving", True),
    trait("specialty", "Lost Art", 0, "Driving"),
    trait("specialty", "Cars", 1, "Driving"),
]
"""Every attribute at 2, two abilities, two specialties owned and one refunded (0 dots), in
id order."""

MERITS_FLAWS = [{"kind": "merit", "name": "Huge Size", "points": 4, "detail": ""},
                {"kind": "flaw", "name": "Addiction", "points": 2, "detail": "stims"},
                {"kind": "flaw", "name": "Hunted", "points": 4, "detail": None}]
"""A merit and two flaws, out of (kind, name) order, one detail NULL."""

TRAITS_OFF_CATALOGUE = [trait("attribute", "Strength", 2), trait("attribute", "Charm", 3),
                        trait("ability", "Basket Weaving", 2)]
"""An attribute and an ability the catalogue does not have."""

WILLPOWER_POOL: dict[str, object] = {
    "kind": "willpower", "dice": 4, "difficulty": 7, "threshold": 1, "exploding": False,
    "wound_penalty": 0, "traits": ["Willpower"], "specialties": [], "automatic_successes": 0,
    "experience_die_allowed": True,
    "notes": ["Willpower is rolled alone and ignores wound penalties"],
}
"""The stored pool of a Willpower roll of 4 dice against 7, threshold 1
(``maelstrom.build_willpower_pool(current=4, difficulty=7, threshold=1).as_dict()``)."""

ROLL = {"pool": WILLPOWER_POOL, "dice": [7, 8, 1, 3], "bonus_dice": [], "experience_die": [9]}
"""An old roll row of :data:`WILLPOWER_POOL` with its experience die: 1 success."""

DAMAGED_ROLL = {"pool": {"kind": "action"}, "dice": [11], "bonus_dice": [],
                "experience_die": [], "net": 0, "botches": 0, "outcome": "failure",
                "summary": "Failure"}
"""An old roll row the engine cannot read (a pool without its fields, a face of 11)."""

REQUESTS: list[tuple[dict[str, object], dict[str, object], str]] = [
    ({"kind": "action", "traits": ["Precision", "Driving"], "difficulty": 7, "threshold": 1},
     {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "7", "threshold": "1"},
     "Precision + Driving, difficulty 7, threshold 1"),
    ({"kind": "action", "traits": ["Wits"], "difficulty": 6, "threshold": 0},
     {"kind": "action", "trait": ["Wits"], "difficulty": "6", "threshold": "0"},
     "Wits, difficulty 6"),
    ({"kind": "willpower", "traits": [], "difficulty": 8, "threshold": 0},
     {"kind": "willpower", "trait": [], "difficulty": "8", "threshold": "0"},
     "Willpower, difficulty 8"),
    ({"kind": "action", "traits": [], "difficulty": 6, "threshold": 0,
      "data": {"skill": "Athletics"}, "description": "Athletics (Brawn), Average"},
     {"skill": "Athletics"}, "Athletics (Brawn), Average"),
]
"""Old request rows, each with the dialog's data and the words it becomes: an action with a
threshold, one trait alone, a Willpower roll, and a described system's request (kept)."""


# --- The demo campaign, built with the rules engine --------------------------------------------


class Faces:
    """An RNG that rolls the faces given, in order (then 5s): the old rows get chosen dice."""

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = iter(faces)

    def randint(self, a: int, b: int) -> int:
        return next(self._faces, 5)


ANA = {
    "name": "Ana Reyes", "concept": "Smuggler pilot who owes the wrong people",
    "attributes": {"Strength": 2, "Precision": 4, "Reflexes": 3,
                   "Perception": 3, "Intelligence": 2, "Wits": 2},
    "abilities": {"Piloting": 4, "Driving": 3, "Firearms": 2, "Alertness": 2,
                  "Streetwise": 2, "Athletics": 2, "Stealth": 1, "Technology": 1,
                  "Engineering": 1, "Navigation": 1, "Melee": 1, "Tradecraft": 1},
    "specialties": [("Piloting", "Close Quarters", True), ("Driving", "Motorcycles", True),
                    ("Firearms", "Pistols", False)],
    "merits_flaws": [("merit", "Ambidexterous", 1, ""), ("flaw", "Hunted", 4, "the cartel"),
                     ("flaw", "Addiction", 2, "stims")],
    "columns": {"willpower_permanent": 4, "willpower_current": 2, "health_bashing": 0,
                "health_lethal": 0, "health_aggravated": 0, "dead": False,
                "huge_size": False},
}
BEN = {
    "name": "Ben Okafor", "concept": "Ship's medic with a steady hand",
    "attributes": {"Strength": 2, "Precision": 3, "Reflexes": 2,
                   "Perception": 3, "Intelligence": 4, "Wits": 2},
    "abilities": {"Medicine": 3, "Science": 3, "Investigation": 2, "Alertness": 2,
                  "Technology": 2, "Humanities": 2, "Athletics": 1, "Melee": 1,
                  "Survival": 1, "Statecraft": 1, "Engineering": 1, "Performance": 1},
    "specialties": [("Medicine", "Battlefield Medicine", True), ("Medicine", "First Aid", False),
                    ("Science", "Chemistry", False)],
    "merits_flaws": [("merit", "Huge Size", 4, ""), ("flaw", "Soft-Hearted", 1, "")],
    "columns": {"willpower_permanent": 5, "willpower_current": 5, "health_bashing": 2,
                "health_lethal": 1, "health_aggravated": 1, "dead": False,
                "huge_size": True},
}
GHOST = {
    "name": "Ghost", "concept": "Died in the reactor room",
    "attributes": {"Strength": 3, "Precision": 2, "Reflexes": 2,
                   "Perception": 2, "Intelligence": 2, "Wits": 3},
    "abilities": {"Athletics": 3, "Survival": 2},
    "specialties": [],
    "merits_flaws": [],
    "columns": {"willpower_permanent": 3, "willpower_current": 0, "health_bashing": 0,
                "health_lethal": 6, "health_aggravated": 2, "dead": True,
                "huge_size": False},
}
DEMO_CHARACTERS = (ANA, BEN, GHOST)
"""The demo's two characters (specialties, merits and flaws, spent Willpower, damage, Huge
Size) and a dead one."""


def trait_rows(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``Trait`` rows the old wizard wrote for ``spec``, in id order: one per attribute
    and ability (positions in catalogue order, 0 dots included), one per specialty, then a
    specialty bought and refunded since (its row stayed at 0 dots, not owned)."""
    rows: list[dict[str, Any]] = []
    for group, names in maelstrom.ATTRIBUTE_GROUPS.items():
        rows += [{"kind": "attribute", "name": name, "group": group, "ability": "",
                  "advanced": False, "dots": spec["attributes"][name],
                  "position": len(rows) + i}
                 for i, name in enumerate(names)]
    for group, names in maelstrom.ABILITY_GROUPS.items():
        rows += [{"kind": "ability", "name": name, "group": group, "ability": "",
                  "advanced": False, "dots": spec["abilities"].get(name, 0),
                  "position": len(rows) + i}
                 for i, name in enumerate(names)]
    rows += [{"kind": "specialty", "name": name, "group": maelstrom.ABILITIES[ability].group,
              "ability": ability, "advanced": advanced, "dots": 1, "position": 0}
             for ability, name, advanced in spec["specialties"]]
    rows.append({"kind": "specialty", "name": "Lost Art", "group": "", "ability": "Athletics",
                 "advanced": False, "dots": 0, "position": 0})
    return rows


def merit_rows(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``MeritFlaw`` rows of ``spec``, in id order."""
    return [{"kind": kind, "name": name, "points": points, "detail": detail}
            for kind, name, points, detail in spec["merits_flaws"]]


def ref(spec: dict[str, Any], name: str) -> maelstrom.TraitRef:
    """``spec``'s attribute or ability ``name`` as the engine's pool reference."""
    if name in maelstrom.ATTRIBUTES:
        return maelstrom.TraitRef(name=name, kind="attribute", dots=spec["attributes"][name])
    return maelstrom.TraitRef(name=name, kind="ability", dots=spec["abilities"].get(name, 0))


def demo_results() -> dict[str, maelstrom.RollResult]:
    """The demo campaign's rolls, by name: Ana's action with a specialty (exploding tens) and
    that action with its experience die, her botch against a threshold and an imported roll;
    Ben's Willpower roll (which he cancels by spending a dot), a soak and an action with a
    wound penalty (the answer to a request); an NPC's quick roll."""
    action = maelstrom.roll(maelstrom.build_action_pool(
        traits=[ref(ANA, "Precision"), ref(ANA, "Driving")],
        specialties=[maelstrom.SpecialtyRef("Motorcycles", "Driving", True)]),
        Faces([10, 7, 3, 2, 1, 6, 10, 4, 9]))
    return {
        "ana_action": action,
        "ana_experience_die": maelstrom.add_experience_die(action, Faces([10, 8, 2])),
        "ana_botch": maelstrom.roll(maelstrom.build_action_pool(
            traits=[ref(ANA, "Reflexes"), ref(ANA, "Piloting")], difficulty=7, threshold=1),
            Faces([1, 1, 3, 7, 2, 4, 5])),
        "ben_willpower": maelstrom.roll(
            maelstrom.build_willpower_pool(current=5, difficulty=8), Faces([3, 4, 2, 7, 5])),
        "ben_soak": maelstrom.roll(
            maelstrom.build_soak_pool(damage_kind="bashing", strength=2, armor=1),
            Faces([6, 2, 9])),
        "ben_answer": maelstrom.roll(maelstrom.build_action_pool(
            traits=[ref(BEN, "Intelligence"), ref(BEN, "Medicine")],
            specialties=[maelstrom.SpecialtyRef("First Aid", "Medicine", False)],
            wound_penalty=1), Faces([2, 3, 4, 5, 5, 4])),
        "ana_imported": maelstrom.roll(maelstrom.build_action_pool(
            traits=[ref(ANA, "Wits")], difficulty=5), Faces([8, 9])),
        "npc": maelstrom.roll(maelstrom.quick_roll("5 dice diff 7 threshold 1"),
                              Faces([7, 8, 1, 10, 3])),
    }


WILLPOWER_SPENT = {"outcome": "success", "net": 4, "summary": "4 successes (willpower spent)"}
"""The verdict of Ben's willpower spend: its row holds its parent's faces and this verdict."""


def roll_columns(result: maelstrom.RollResult, **verdict: Any) -> dict[str, Any]:
    """The pool, dice and verdict columns of a character's roll as the old
    ``rolls.services._store`` wrote them (``verdict``: an ``outcome``, ``net`` or ``summary``
    that differs from the faces', as a willpower spend's)."""
    data = result.as_dict()
    return {"pool": data["pool"], "dice": data["dice"], "bonus_dice": data["bonus_dice"],
            "experience_die": data["experience_die"],
            "outcome": verdict.get("outcome", result.outcome),
            "net": verdict.get("net", result.net), "botches": result.resolution.botches,
            "summary": verdict.get("summary", result.summary())}


def long_campaign_results(count: int) -> Iterator[maelstrom.RollResult]:
    """``count`` rolls of one character, seeded: actions with a specialty, actions against a
    threshold, Willpower rolls and soaks in turn."""
    rng = random.Random(15)
    pools = [
        maelstrom.build_action_pool(traits=[ref(ANA, "Precision"), ref(ANA, "Driving")],
                                    specialties=[maelstrom.SpecialtyRef("Motorcycles",
                                                                        "Driving", True)]),
        maelstrom.build_action_pool(traits=[ref(ANA, "Wits"), ref(ANA, "Alertness")],
                                    difficulty=8, threshold=1),
        maelstrom.build_willpower_pool(current=2, difficulty=7),
        maelstrom.build_soak_pool(damage_kind="lethal", strength=2, armor=2),
    ]
    for n in range(count):
        yield maelstrom.roll(pools[n % len(pools)], rng)


DEMO_REQUESTS: dict[str, dict[str, Any]] = {
    "outrun": {"kind": "action", "traits": ["Precision", "Driving"], "difficulty": 7,
               "threshold": 1},
    "willpower": {"kind": "willpower", "traits": [], "difficulty": 8, "threshold": 0},
    "answered": {"kind": "action", "traits": ["Intelligence", "Medicine"], "difficulty": 6,
                 "threshold": 0},
}
"""The demo's roll requests' pool columns: an action with a threshold (Ana's), a Willpower
roll and an action already answered (Ben's)."""
