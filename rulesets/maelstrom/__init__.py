"""Rules engine for the Maelstrom RPG (Tanndev/Maelstrom, ``documentation/rules.md``, MIT).

The seed text (seed 004, ``004_d17e38a7060ddbe0.txt``, cited below as "Maelstrom rules.md,
<section>") is the authority; docs/rules.md summarises it and fills the
health chart from the repository's character sheet. Where the seed is silent, the decision
taken is written in the docstring of the function concerned.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: dice (d10s in a dice pool), dots (trait ranks), XP
(experience points), levels (boxes of the health chart). Every rule violation raises
:class:`RuleError`, whose message a player can read and whose ``rule`` names the seed section.

The package splits the engine by concern; every public name is re-exported here, so
``from rulesets import maelstrom; maelstrom.build_action_pool(...)`` is the way callers use it:
:mod:`~rulesets.maelstrom.catalogue` (attributes, abilities, merits and flaws, shared
constants), :mod:`~rulesets.maelstrom.costs` (experience costs),
:mod:`~rulesets.maelstrom.creation` (creation allotments and what starting XP buys),
:mod:`~rulesets.maelstrom.health` (the health chart), :mod:`~rulesets.maelstrom.pools`
(building dice pools), :mod:`~rulesets.maelstrom.rolling` (rolling and resolving),
:mod:`~rulesets.maelstrom.odds` (exact odds and the odds query),
:mod:`~rulesets.maelstrom.quick` (the NPC quick roll) and :mod:`~rulesets.maelstrom.readings`
(the rules a campaign may read another way).
"""

from __future__ import annotations

from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.maelstrom.catalogue import (
    ABILITIES,
    ABILITY_GROUP_NAMES,
    ABILITY_GROUPS,
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    DEFAULT_DIFFICULTY,
    DEFAULT_STARTING_XP,
    DIE_SIDES,
    DIFFICULTY_MAX,
    DIFFICULTY_MIN,
    DOTS_MAX,
    FLAWS,
    MAX_BONUS_DICE,
    MERITS,
    REPEATABLE_WITH_DETAIL,
    SOURCE,
    STARTING_WILLPOWER,
    WILLPOWER_MAX,
    AbilityInfo,
    MeritFlaw,
    ability_named,
    suggested_specialty,
)
from rulesets.maelstrom.costs import TRAIT_KINDS, xp_cost, xp_cost_between
from rulesets.maelstrom.creation import (
    MeritFlawChoice,
    Specialty,
    check_balance,
    check_combinations,
    merit_flaw_entry,
    merit_flaw_price,
    rank_cost,
    validate_abilities,
    validate_attributes,
)
from rulesets.maelstrom.health import (
    DAMAGE_KINDS,
    DAMAGE_MARKS,
    EMPTY_MARK,
    HEALTH_LEVELS,
    HUGE_SIZE_LEVEL,
    HealthChart,
    heal,
    take_damage,
)

# The function odds() shadows the submodule rulesets.maelstrom.odds as a package attribute:
# the submodule is loaded (and the attribute set to it) by this very import, before the
# name is rebound, so ``maelstrom.odds`` stays the function callers and tests use.
from rulesets.maelstrom.odds import (
    ODDS_CUTOFF,
    ODDS_MAX_DICE,
    ODDS_PARAMETERS,
    MaelstromOdds,
    odds,
    odds_query,
    pool_odds,
)
from rulesets.maelstrom.pools import (
    AUTOMATIC_AT,
    POOL_KINDS,
    SOAK_DIFFICULTY,
    ActionPool,
    SpecialtyRef,
    TraitRef,
    build_action_pool,
    build_soak_pool,
    build_willpower_pool,
)
from rulesets.maelstrom.quick import (
    QUICK_ROLL_EXAMPLES,
    QUICK_ROLL_MAX_DICE,
    QUICK_ROLL_MAX_LENGTH,
    quick_roll,
)
from rulesets.maelstrom.readings import MaelstromReadings
from rulesets.maelstrom.rolling import (
    OUTCOMES,
    Resolution,
    RollResult,
    add_experience_die,
    check_dice,
    resolve,
    roll,
    soaked_levels,
    willpower_botch_loss,
    willpower_spend_successes,
)

READINGS = MaelstromReadings
"""The system's table readings (:class:`~rulesets.maelstrom.readings.MaelstromReadings`)."""

__all__ = [
    # catalogue
    "ABILITIES",
    "ABILITY_GROUP_NAMES",
    "ABILITY_GROUPS",
    "ATTRIBUTE_GROUPS",
    "ATTRIBUTES",
    "AbilityInfo",
    "DEFAULT_DIFFICULTY",
    "DEFAULT_STARTING_XP",
    "DIE_SIDES",
    "DIFFICULTY_MAX",
    "DIFFICULTY_MIN",
    "DOTS_MAX",
    "FLAWS",
    "MAX_BONUS_DICE",
    "MERITS",
    "MeritFlaw",
    "REPEATABLE_WITH_DETAIL",
    "SOURCE",
    "STARTING_WILLPOWER",
    "WILLPOWER_MAX",
    "ability_named",
    "suggested_specialty",
    # costs
    "TRAIT_KINDS",
    "xp_cost",
    "xp_cost_between",
    # creation
    "MeritFlawChoice",
    "Specialty",
    "check_balance",
    "check_combinations",
    "merit_flaw_entry",
    "merit_flaw_price",
    "rank_cost",
    "validate_abilities",
    "validate_attributes",
    # health
    "DAMAGE_KINDS",
    "DAMAGE_MARKS",
    "EMPTY_MARK",
    "HEALTH_LEVELS",
    "HUGE_SIZE_LEVEL",
    "HealthChart",
    "heal",
    "take_damage",
    # pools
    "AUTOMATIC_AT",
    "POOL_KINDS",
    "SOAK_DIFFICULTY",
    "ActionPool",
    "SpecialtyRef",
    "TraitRef",
    "build_action_pool",
    "build_soak_pool",
    "build_willpower_pool",
    # readings
    "READINGS",
    "MaelstromReadings",
    # rolling
    "OUTCOMES",
    "Resolution",
    "RollResult",
    "add_experience_die",
    "check_dice",
    "resolve",
    "roll",
    "soaked_levels",
    "willpower_botch_loss",
    "willpower_spend_successes",
    # odds
    "ODDS_CUTOFF",
    "ODDS_MAX_DICE",
    "ODDS_PARAMETERS",
    "MaelstromOdds",
    "odds",
    "odds_query",
    "pool_odds",
    # quick
    "QUICK_ROLL_EXAMPLES",
    "QUICK_ROLL_MAX_DICE",
    "QUICK_ROLL_MAX_LENGTH",
    "quick_roll",
    # errors
    "RuleError",
]
