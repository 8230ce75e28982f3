"""Experience costs of the Genesys sheet: characteristics (creation only) and skill ranks
(Genesys Core Rulebook, Step 4: Invest Experience Points)."""

from __future__ import annotations

from rulesets.errors import RuleError
from rulesets.genesys.catalogue import CHARACTERISTIC_MAX, SKILL_RANKS_MAX
from rulesets.genesys.sheet import CREATION_SKILL_MAX, STARTING_CHARACTERISTIC, _core

# --- Experience: Genesys Core Rulebook, Step 4: Invest Experience Points --------------------


def characteristic_cost(rating_to: int, *, in_creation: bool) -> int:
    """XP to raise a characteristic to ``rating_to``: 10 x the new rating, one rating at a
    time, only during character creation, at most 5 (Genesys Core Rulebook, Step 4: Invest
    Experience Points).

    Raises:
        RuleError: after creation, or a rating outside 2..5 (the Average Human starts at 2).
    """
    rule = _core("Step 4: Invest Experience Points")
    if not in_creation:
        raise RuleError(
            "characteristics are raised with XP only during character creation", rule
        )
    if not STARTING_CHARACTERISTIC < rating_to <= CHARACTERISTIC_MAX:
        raise RuleError(
            f"a characteristic is raised to at most {CHARACTERISTIC_MAX}", rule
        )
    return 10 * rating_to


def skill_cost(rank_to: int, *, career: bool, in_creation: bool = False) -> int:
    """XP to train a skill to ``rank_to``: 5 x the new rank for a career skill, 5 more for a
    non-career one, one rank at a time, at most rank 5, and at most rank 2 during creation
    (Genesys Core Rulebook, Step 4: Invest Experience Points).

    Raises:
        RuleError: a rank outside 1..5, or above 2 during creation.
    """
    rule = _core("Step 4: Invest Experience Points")
    if not 1 <= rank_to <= SKILL_RANKS_MAX:
        raise RuleError(f"a skill is trained to at most rank {SKILL_RANKS_MAX}", rule)
    if in_creation and rank_to > CREATION_SKILL_MAX:
        raise RuleError(
            f"no skill goes above rank {CREATION_SKILL_MAX} during character creation", rule
        )
    return 5 * rank_to + (0 if career else 5)
