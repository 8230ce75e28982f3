"""The two sides of a 3d6 test or contest, read from the sheet and the roll dialog, and how
they are written (:meth:`ThreeD6System.roll <systems.three_d6.system.ThreeD6System.roll>` and
its ``odds``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from characters.models import Character
from rulesets import three_d6
from rulesets.errors import RuleError
from systems.three_d6.forms import NPC
from systems.three_d6.sheet import RULE_CONTEST, level, modifier, names


def opponents(character: Character) -> list[tuple[int, str]]:
    """The campaign's other characters as (pk, name), by name, for the dialog (one query)."""
    return list(Character.objects.filter(campaign_id=character.campaign_id)
                .exclude(pk=character.pk).order_by("name").values_list("pk", "name"))


def readings_of(character: Character) -> three_d6.ThreeD6Readings:
    """The table readings of the character's campaign (loaded with the character, as every
    caller here has it: no query), as the engine takes them (docs/systems/three_d6.md, Table
    readings)."""
    return three_d6.ThreeD6Readings.from_values(character.campaign.readings, strict=False)


def own_pool(character: Character, data: Mapping[str, Any], *, td: int | None
             ) -> three_d6.TestPool:
    """The character's test from the dialog's ``data``: the target's modifier plus the
    situational one, with favor and disfavor, against ``td`` (``None`` in a contest), under
    its campaign's table readings (:func:`readings_of`)."""
    slot = data["target"]
    return three_d6.build_test(
        label=names(character.campaign)[slot],
        modifier=modifier(character, slot) + (data.get("situational") or 0),
        favor=data.get("favor") or 0, disfavor=data.get("disfavor") or 0, td=td,
        readings=readings_of(character))


@dataclass(frozen=True)
class Opponent:
    """The other side of a contest, from the roll form: a character or an NPC."""

    name: str
    pool: three_d6.TestPool
    is_pc: bool
    level: int


def opponent(character: Character, data: Mapping[str, Any]) -> Opponent:
    """The opponent's side, read from the form (an NPC) or the opponent's sheet (a character
    of the same campaign), under the campaign's table readings. Raises RuleError when the
    character is not in the campaign."""
    favor, disfavor = data.get("opponent_favor") or 0, data.get("opponent_disfavor") or 0
    readings = readings_of(character)
    if data["opponent"] == NPC:
        pool = three_d6.build_test(label="", modifier=data.get("npc_modifier") or 0,
                                   favor=favor, disfavor=disfavor, readings=readings)
        return Opponent(name=data.get("npc_name") or "NPC", pool=pool, is_pc=False,
                        level=data.get("npc_rating") or 0)
    other = (Character.objects
             .filter(campaign_id=character.campaign_id, pk=int(data["opponent"]))
             .exclude(pk=character.pk).first())
    if other is None:
        raise RuleError("That opponent is not a character of this campaign.", RULE_CONTEST)
    slot = data["opponent_target"]
    pool = three_d6.build_test(label=names(character.campaign)[slot],
                               modifier=modifier(other, slot), favor=favor, disfavor=disfavor,
                               readings=readings)
    return Opponent(name=other.name, pool=pool, is_pc=True, level=level(other))


def side_text(name: str, pool: three_d6.TestPool) -> str:
    """"Wren (Brawn test: 3d6 + 2)", "Toll keeper (3d6 + 1)" for an NPC's unlabelled test."""
    text = pool.describe().removeprefix("Test: ")
    return f"{name} ({text})"


def split_side(text: str) -> tuple[str, str] | None:
    """:func:`side_text` read back, ``(name, test)``: "Wren (Brawn test: 4d6 + 2 (1 favor))"
    gives ("Wren", "Brawn test: 4d6 + 2 (1 favor)"). The bracket matching the last one is
    the side's, so a name's own brackets ("Mara (the Quill)") and the test's notes stay where
    they belong; None when the text does not end in a bracketed test."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            if i == len(text) - 1 or not text[:i].endswith(" "):
                return None
            return text[:i - 1], text[i + 1:-1]
    return None


def tie_text(decided_by: str, winner: int | None, mine: str, theirs: str) -> str:
    """How a tie would be settled, in words, from :func:`rulesets.three_d6.tie_break`."""
    if winner is None:
        return "A tie is settled at random."
    who = mine if winner == 1 else theirs
    reason = {"pc_beats_npc": "a PC wins against an NPC", "defender": "the defender wins",
              "modifier": "the better modifier wins",
              "level": "the higher level or rating wins"}[decided_by]
    return f"A tie goes to {who}: {reason}."


def defends(data: Mapping[str, Any]) -> tuple[bool, bool]:
    """(I defend?, the opponent defends?) from the dialog's "defender" choice."""
    who = data.get("defender") or "neither"
    return who in ("me", "both"), who in ("opponent", "both")
