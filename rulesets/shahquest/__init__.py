"""Rules engine for Shahquest, a Cortex Plus derivative (the main page of the Shahquest wiki).

The seed text (seed 000, ``000_f80b8c0f83e34825.txt``, cited below as "Shahquest wiki,
<section>") is the authority; docs/systems/shahquest.md summarises it and settles its
gaps with **Decision** lines. Where both are silent, the decision taken is written in the
docstring of the function concerned.

Units: dice are given by their number of sides as ints (8 for a d8), on the step-dice ladder
d4, d6, d8, d10, d12 (:data:`rulesets.dice.STEP_DICE`); plot points are whole numbers.

What lives here, one module per concern, every public name re-exported from this package
(``from rulesets import shahquest; shahquest.roll(...)``):

- :mod:`~rulesets.shahquest.catalogue`: the feature types, affiliations, quirk and push dice,
  stress types and the rule citations;
- :mod:`~rulesets.shahquest.pools`: pool building from features (:class:`Feature`,
  :func:`build_pool`, :func:`pool_from_dice`) and the affiliation dice
  (:func:`validate_affiliations`);
- :mod:`~rulesets.shahquest.rolling`: rolling (:func:`roll`), the preselected best effort
  total and effect die (:func:`best_selection`), the player's own choice after the roll with
  the plot-point options (:func:`check_selection`, :func:`choose_dice`);
- :mod:`~rulesets.shahquest.stress`: stress and trauma (:class:`StressTrack`,
  :func:`take_stress`, :func:`recover_stress`, :func:`recover_trauma`,
  :func:`downtime_recovery`, :func:`trauma_recovery_time`, the wait between attempts
  :func:`next_trauma_recovery` and :func:`check_trauma_recovery`, the change of type of the
  stress just taken :func:`change_stress_type`);
- :mod:`~rulesets.shahquest.tension`: the tension pool (:class:`TensionPool`,
  :func:`roll_general_danger`);
- :mod:`~rulesets.shahquest.odds`: exact odds of the effort total and of opportunities
  (:func:`odds`, :func:`odds_query`, :func:`effort_distribution`);
- :mod:`~rulesets.shahquest.luck`: a stored roll's effort total against its exact odds
  (:func:`effort_luck`);
- :mod:`~rulesets.shahquest.quick`: the GM's NPC quick roll (:func:`quick_roll`);
- :mod:`~rulesets.shahquest.costs`: the advancement house rule (:func:`step_up_cost`,
  :data:`NEW_FEATURE_COST`);
- :mod:`~rulesets.shahquest.readings`: the rules a campaign may read another way
  (:class:`ShahquestReadings`).

Everything is pure Python with an injected RNG (:class:`rulesets.dice.Rng`). Every rule
violation raises :class:`RuleError`, whose message a player can read and whose ``rule`` names
the seed section.
"""

from __future__ import annotations

# Every name below is re-exported (``X as X``): callers use ``shahquest.<name>``, not the
# submodules, so the split stays an internal matter.
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.shahquest.catalogue import AFFILIATION_DICE as AFFILIATION_DICE
from rulesets.shahquest.catalogue import AFFILIATIONS as AFFILIATIONS
from rulesets.shahquest.catalogue import FEATURE_TYPES as FEATURE_TYPES
from rulesets.shahquest.catalogue import NEGATIVE_QUIRK_DIE as NEGATIVE_QUIRK_DIE
from rulesets.shahquest.catalogue import NO_EFFECT_DIE as NO_EFFECT_DIE
from rulesets.shahquest.catalogue import OTHER_DIE_SOURCES as OTHER_DIE_SOURCES
from rulesets.shahquest.catalogue import PUSH_DIE as PUSH_DIE
from rulesets.shahquest.catalogue import QUIRK_DIE as QUIRK_DIE
from rulesets.shahquest.catalogue import SOURCE as SOURCE
from rulesets.shahquest.catalogue import SPECIALIZATION_USES as SPECIALIZATION_USES
from rulesets.shahquest.catalogue import STRESS_TYPES as STRESS_TYPES
from rulesets.shahquest.catalogue import SYSTEM as SYSTEM
from rulesets.shahquest.costs import ADVANCEABLE_TYPES as ADVANCEABLE_TYPES
from rulesets.shahquest.costs import ADVANCEMENT_RULE as ADVANCEMENT_RULE
from rulesets.shahquest.costs import NEW_FEATURE_COST as NEW_FEATURE_COST
from rulesets.shahquest.costs import NEW_FEATURE_DIE as NEW_FEATURE_DIE
from rulesets.shahquest.costs import SPECIALIZATION_COST as SPECIALIZATION_COST
from rulesets.shahquest.costs import step_up_cost as step_up_cost
from rulesets.shahquest.luck import LUCK_MEASURE as LUCK_MEASURE
from rulesets.shahquest.luck import effort_luck as effort_luck
from rulesets.shahquest.odds import MAX_ODDS_DICE as MAX_ODDS_DICE
from rulesets.shahquest.odds import ODDS_PARAMETERS as ODDS_PARAMETERS
from rulesets.shahquest.odds import Odds as Odds
from rulesets.shahquest.odds import effort_distribution as effort_distribution
from rulesets.shahquest.odds import odds as odds
from rulesets.shahquest.odds import odds_query as odds_query
from rulesets.shahquest.pools import DicePool as DicePool
from rulesets.shahquest.pools import Feature as Feature
from rulesets.shahquest.pools import PoolDie as PoolDie
from rulesets.shahquest.pools import build_pool as build_pool
from rulesets.shahquest.pools import check_feature as check_feature
from rulesets.shahquest.pools import pool_from_dice as pool_from_dice
from rulesets.shahquest.pools import quirk as quirk
from rulesets.shahquest.pools import validate_affiliations as validate_affiliations
from rulesets.shahquest.quick import QUICK_ROLL_EXAMPLES as QUICK_ROLL_EXAMPLES
from rulesets.shahquest.quick import QUICK_ROLL_MAX_DICE as QUICK_ROLL_MAX_DICE
from rulesets.shahquest.quick import QUICK_ROLL_MAX_LENGTH as QUICK_ROLL_MAX_LENGTH
from rulesets.shahquest.quick import quick_roll as quick_roll
from rulesets.shahquest.readings import ShahquestReadings as ShahquestReadings
from rulesets.shahquest.rolling import RollResult as RollResult
from rulesets.shahquest.rolling import Selection as Selection
from rulesets.shahquest.rolling import best_selection as best_selection
from rulesets.shahquest.rolling import check_selection as check_selection
from rulesets.shahquest.rolling import choose_dice as choose_dice
from rulesets.shahquest.rolling import roll as roll
from rulesets.shahquest.stress import TRAUMA_RECOVERY_TIME as TRAUMA_RECOVERY_TIME
from rulesets.shahquest.stress import TRAUMA_RECOVERY_WAIT as TRAUMA_RECOVERY_WAIT
from rulesets.shahquest.stress import StressLine as StressLine
from rulesets.shahquest.stress import StressTrack as StressTrack
from rulesets.shahquest.stress import change_stress_type as change_stress_type
from rulesets.shahquest.stress import check_trauma_recovery as check_trauma_recovery
from rulesets.shahquest.stress import day_text as day_text
from rulesets.shahquest.stress import downtime_recovery as downtime_recovery
from rulesets.shahquest.stress import next_trauma_recovery as next_trauma_recovery
from rulesets.shahquest.stress import recover_stress as recover_stress
from rulesets.shahquest.stress import recover_trauma as recover_trauma
from rulesets.shahquest.stress import step_up_stress as step_up_stress
from rulesets.shahquest.stress import take_stress as take_stress
from rulesets.shahquest.stress import trauma_recovery_time as trauma_recovery_time
from rulesets.shahquest.tension import STARTING_TENSION as STARTING_TENSION
from rulesets.shahquest.tension import TensionPool as TensionPool
from rulesets.shahquest.tension import roll_general_danger as roll_general_danger

READINGS = ShahquestReadings
"""The system's table readings (:class:`~rulesets.shahquest.readings.ShahquestReadings`)."""
