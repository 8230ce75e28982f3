"""Rules engine for the Genesys / FFG Star Wars narrative dice pool.

The seed text (seed 001, ``001_c7136ddaeb237e8d.txt``, cited below as "Genesys dice pool,
<section>") is the authority. The seed's pictures of the faces did not survive: the face of
every die is the project's rules digest's (``catalogue.FACES``), and the open points are
settled in docs/systems/genesys.md. Where both are silent, the decision taken is written in
the docstring of the function concerned.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: dice (counts of each die type), ranks (skill ranks 0-5),
ratings (characteristics 1-5), Destiny points. Every rule violation raises
:class:`RuleError`, whose message a player can read and whose ``rule`` names the seed section.

Die types, in the order a pool lists and rolls them: ability (d8), proficiency (d12),
difficulty (d8), challenge (d12), boost (d6), setback (d6). Symbols: success, advantage,
triumph (also one success), failure, threat, despair (also one failure).

The package splits the engine by concern; every public name is re-exported here, so
``from rulesets import genesys; genesys.build_pool(...)`` is the way callers use it:
:mod:`~rulesets.genesys.catalogue` (dice, faces, symbols, characteristics, difficulty levels),
:mod:`~rulesets.genesys.pools` (the pool, its notation, building and modifying it),
:mod:`~rulesets.genesys.rolling` (rolling and interpreting), :mod:`~rulesets.genesys.odds`
(exact odds and the odds query), :mod:`~rulesets.genesys.luck` (a stored roll's net successes
against their exact odds), :mod:`~rulesets.genesys.quick` (the NPC quick roll),
:mod:`~rulesets.genesys.destiny` (the Destiny pool: light and dark points, their flips, the
Force dice that roll it), :mod:`~rulesets.genesys.sheet` (skills, creation, thresholds),
:mod:`~rulesets.genesys.costs` (experience costs) and :mod:`~rulesets.genesys.readings` (the
table readings a campaign may choose, which pool building and the odds query take).
"""

from __future__ import annotations

from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.genesys.catalogue import (
    CHARACTERISTIC_MAX,
    CHARACTERISTIC_MIN,
    CHARACTERISTICS,
    DIE_LETTERS,
    DIE_SIDES,
    DIE_TYPES,
    DIFFICULTY_LEVELS,
    FACES,
    IMPOSSIBLE,
    MAX_POOL_DICE,
    SKILL_RANKS_MAX,
    SOURCE,
    SYMBOLS,
)
from rulesets.genesys.costs import characteristic_cost, skill_cost
from rulesets.genesys.destiny import (
    DARK,
    DESTINY_MAX,
    DESTINY_SIDES,
    FORCE_DICE_MAX,
    FORCE_DIE_FACES,
    LIGHT,
    RULE_DESTINY,
    DestinyPool,
    force_pips,
    roll_destiny,
    set_destiny,
)

# The function odds() shadows the submodule rulesets.genesys.odds as a package attribute: the
# submodule is loaded (and the attribute set to it) by this very import, before the name is
# rebound, so ``genesys.odds`` stays the function callers and tests patch.
from rulesets.genesys.luck import LUCK_MEASURE, pool_luck, result_luck
from rulesets.genesys.odds import ODDS_PARAMETERS, Odds, odds, odds_query
from rulesets.genesys.pools import (
    DARK_FLIP_NOTE,
    IMPOSSIBLE_FLIP_NOTE,
    LIGHT_FLIP_NOTE,
    DicePool,
    build_pool,
    difficulty_dice,
    format_pool,
    modify_pool,
    parse_pool,
)
from rulesets.genesys.quick import QUICK_ROLL_EXAMPLES, QUICK_ROLL_MAX_LENGTH, quick_roll
from rulesets.genesys.readings import GenesysReadings
from rulesets.genesys.rolling import RolledDie, RollResult, Tally, roll, tally
from rulesets.genesys.sheet import (
    AVERAGE_HUMAN_STARTING_XP,
    CAREER_SKILLS,
    CORE_RULEBOOK,
    CORE_SKILLS,
    CREATION_SKILL_MAX,
    DEFAULT_SKILL_NAMES,
    FREE_CAREER_RANKS,
    FREE_NON_CAREER_RANKS,
    SKILL_NAME_MAX,
    STARTING_CHARACTERISTIC,
    STRAIN_BASE,
    TRACK_MAX,
    WOUND_BASE,
    SkillInfo,
    check_career,
    check_skill,
    default_skills,
    strain_threshold,
    wound_threshold,
)

READINGS = GenesysReadings
"""The system's table readings (:class:`~rulesets.genesys.readings.GenesysReadings`)."""

__all__ = [
    "READINGS",
    "GenesysReadings",
    # catalogue
    "CHARACTERISTICS",
    "CHARACTERISTIC_MAX",
    "CHARACTERISTIC_MIN",
    "DIE_LETTERS",
    "DIE_SIDES",
    "DIE_TYPES",
    "DIFFICULTY_LEVELS",
    "FACES",
    "IMPOSSIBLE",
    "MAX_POOL_DICE",
    "SKILL_RANKS_MAX",
    "SOURCE",
    "SYMBOLS",
    # pools
    "DARK_FLIP_NOTE",
    "DicePool",
    "IMPOSSIBLE_FLIP_NOTE",
    "LIGHT_FLIP_NOTE",
    "build_pool",
    "difficulty_dice",
    "format_pool",
    "modify_pool",
    "parse_pool",
    # rolling
    "RollResult",
    "RolledDie",
    "Tally",
    "roll",
    "tally",
    # odds
    "ODDS_PARAMETERS",
    "Odds",
    "odds",
    "odds_query",
    # luck
    "LUCK_MEASURE",
    "pool_luck",
    "result_luck",
    # quick
    "QUICK_ROLL_EXAMPLES",
    "QUICK_ROLL_MAX_LENGTH",
    "quick_roll",
    # sheet
    "AVERAGE_HUMAN_STARTING_XP",
    "CAREER_SKILLS",
    "CORE_RULEBOOK",
    "CORE_SKILLS",
    "CREATION_SKILL_MAX",
    "DEFAULT_SKILL_NAMES",
    "FREE_CAREER_RANKS",
    "FREE_NON_CAREER_RANKS",
    "SKILL_NAME_MAX",
    "STARTING_CHARACTERISTIC",
    "STRAIN_BASE",
    "SkillInfo",
    "TRACK_MAX",
    "WOUND_BASE",
    "check_career",
    "check_skill",
    "default_skills",
    "strain_threshold",
    "wound_threshold",
    # destiny
    "DARK",
    "DESTINY_MAX",
    "DESTINY_SIDES",
    "FORCE_DICE_MAX",
    "FORCE_DIE_FACES",
    "LIGHT",
    "RULE_DESTINY",
    "DestinyPool",
    "force_pips",
    "roll_destiny",
    "set_destiny",
    # costs
    "characteristic_cost",
    "skill_cost",
    # errors
    "RuleError",
]
