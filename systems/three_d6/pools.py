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


def own_pool(character: Character, data: Mapping[str, Any], *, td: int | None
             ) -> three_d6.TestPool:
    """The character's test from the dialog's ``data``: the target's modifier plus the
    situational one, with favor and disfavor, against ``td`` (``None`` in a contest)."""
    slot = data["target"]
    return three_d6.build_test(
        label=names(character.campaign)[slot],
        modifier=modifier(character, slot) + (data.get("situational") or 0),
        favor=data.get("favor") or 0, disfavor=data.get("disfavor") or 0, td=td)


@dataclass(frozen=True)
class Opponent:
    """The other side of a contest, from the roll form: a character or an NPC."""

    name: str
    pool: three_d6.TestPool
    is_pc: bool
    level: int


def opponent(character: Character, data: Mapping[str, Any]) -> Opponent:
    """The opponent's side, read from the form (an NPC) or the opponent's sheet (a character
    of the same campaign). Raises RuleError when the character is not in the campaign."""
    favor, disfavor = data.get("opponent_favor") or 0, data.get("opponent_disfavor") or 0
    if data["opponent"] == NPC:
        pool = three_d6.build_test(label="", modifier=data.get("npc_modifier") or 0,
                                   favor=favor, disfavor=disfavor)
        return Opponent(name=data.get("npc_name") or "NPC", pool=pool, is_pc=False,
                        level=data.get("npc_rating") or 0)
    other = (Character.objects
             .filter(campaign_id=character.campaign_id, pk=int(data["opponent"]))
             .exclude(pk=character.pk).first())
    if other is None:
        raise RuleError("That opponent is not a character of this campaign.", RULE_CONTEST)
    slot = data["opponent_target"]
    pool = three_d6.build_test(label=names(character.campaign)[slot],
                               modifier=modifier(other, slot), favor=favor, disfavor=disfavor)
    return Opponent(name=other.name, pool=pool, is_pc=True, level=level(other))


def side_text(name: str, pool: three_d6.TestPool) -> str:
    """"Wren (Brawn test: 3d6 + 2)", "Toll keeper (3d6 + 1)" for an NPC's unlabelled test."""
    text = pool.describe().removeprefix("Test: ")
    return f"{name} ({text})"


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
