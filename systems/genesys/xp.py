"""What XP buys on a Genesys sheet and at what price (Genesys Core Rulebook, Step 4):
:meth:`GenesysSystem.quote <systems.genesys.system.GenesysSystem.quote>` and its
neighbours read through these.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from rulesets import genesys
from rulesets.errors import RuleError
from systems import Advance
from systems.genesys.sheet import RULE_SKILLS, RULE_STEP4

if TYPE_CHECKING:
    from characters.models import Character


# --- XP: Genesys Core Rulebook, Step 4 ------------------------------------------------------


def _xp_key(key: str) -> tuple[str, str]:
    """``characteristic:<one of the six>`` or ``skill:<name>`` split into (kind, name).
    Raises RuleError for anything else."""
    kind, _, name = key.partition(":")
    if (kind == "characteristic" and name in genesys.CHARACTERISTICS) or (
            kind == "skill" and name):
        return kind, name
    raise RuleError(f"{key!r} is not something XP buys on a Genesys sheet.", RULE_STEP4)


def _quote(character: Character, sheet: dict[str, Any], skills: Collection[str], key: str
           ) -> Advance:
    """:meth:`GenesysSystem.quote` on a sheet already read (:func:`read_sheet`) and the
    campaign's skill names. Raises RuleError naming the reason."""
    kind, _, name = key.partition(":")
    if kind == "characteristic" and name in genesys.CHARACTERISTICS:
        rating = sheet["characteristics"][name]
        if rating >= genesys.CHARACTERISTIC_MAX:
            raise RuleError(f"{name} is {rating}, the most a characteristic can be.",
                            RULE_STEP4)
        if not sheet["creation"]:
            raise RuleError(f"{name} can be raised with XP only during character "
                            f"creation, and {character.name}'s is finished.", RULE_STEP4)
        cost = genesys.characteristic_cost(rating + 1, in_creation=True)
        return Advance(key=key, label=f"{name} {rating} → {rating + 1}",
                       rank_from=rating, rank_to=rating + 1, cost=cost,
                       # The rule is cited once, on the XP page's "How XP is priced".
                       notes=(f"10 × the new rating {rating + 1}, during creation only.",))
    if kind == "skill":
        if name not in skills:
            raise RuleError(f"{name!r} is not on this campaign's skill list", RULE_SKILLS)
        rank = sheet["skills"].get(name, 0)
        career = name in sheet["career_skills"]
        cap = (genesys.CREATION_SKILL_MAX if sheet["creation"]
               else genesys.SKILL_RANKS_MAX)
        if rank >= cap:
            raise RuleError(
                f"{name} is at rank {rank}"
                + (", the most during character creation." if sheet["creation"]
                   and cap < genesys.SKILL_RANKS_MAX else ", the most a skill can be."),
                RULE_STEP4)
        cost = genesys.skill_cost(rank + 1, career=career, in_creation=sheet["creation"])
        how = (f"Career skill: 5 × the new rank {rank + 1}." if career else
               f"Non-career skill: 5 × the new rank {rank + 1}, + 5.")
        return Advance(key=key, label=f"{name} {rank} → {rank + 1}", rank_from=rank,
                       rank_to=rank + 1, cost=cost, notes=(how,))
    raise RuleError(f"{key!r} is not something XP buys on a Genesys sheet.", RULE_STEP4)


def undone_in_words(key: str, rank_to: int, rank_from: int) -> str | None:
    """What undoing a purchase of ``key`` from ``rank_from`` to ``rank_to`` takes back, in
    the rulebook's words (Genesys Core Rulebook, Step 4; Brawn and Willpower's thresholds,
    Step 5): "Brawn goes back from 3 to 2, and the wound threshold from 13 to 12.",
    "Medicine goes back from rank 1 to untrained."; None for a key XP does not buy here."""
    kind, _, name = key.partition(":")
    if kind == "characteristic" and name in genesys.CHARACTERISTICS:
        moved = ""
        if name == "Brawn":
            moved = (f", and the wound threshold from {genesys.wound_threshold(rank_to)} to "
                     f"{genesys.wound_threshold(rank_from)}")
        elif name == "Willpower":
            moved = (f", and the strain threshold from {genesys.strain_threshold(rank_to)} to "
                     f"{genesys.strain_threshold(rank_from)}")
        return f"{name} goes back from {rank_to} to {rank_from}{moved}."
    if kind == "skill" and name:
        after = f"rank {rank_from}" if rank_from else "untrained"
        return f"{name} goes back from rank {rank_to} to {after}."
    return None
