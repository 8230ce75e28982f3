"""Rules engine for Shattered World, "Core Engine" (Alpha v6.0.0, Thorin Teague).

The seed text (seed 003, ``003_28cde41ac6ec4075.txt``, cited below as "Shattered World Core
Engine, <section>") is the authority; docs/systems/shattered_world.md summarises it and settles
its gaps with **Decision** lines (the die chart, the ``N/xM`` cost notation). Where both are
silent, the decision taken is written in the docstring of the function concerned.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: die sizes as ints (8 for a d8), target numbers and totals
as ints, XP (experience points; one achievement is one XP), statistic points. Every rule
violation raises :class:`RuleError`, whose message a player can read and whose ``rule`` names
the seed section.

What lives here, one module per concern, every public name re-exported from this package
(``from rulesets import shattered_world; shattered_world.roll(...)``):

- :mod:`~rulesets.shattered_world.catalogue`: the rule citations and the system's slug;
- :mod:`~rulesets.shattered_world.chart`: the die chart (:data:`DIE_CHART`, :func:`step_up`,
  :func:`action_die`, :func:`field_role_die`) and the die steps table (:class:`DieStep`,
  :func:`parse_die_steps`);
- :mod:`~rulesets.shattered_world.totals`: multipliers and totals (:func:`final_factor`,
  :func:`total`);
- :mod:`~rulesets.shattered_world.pools`: pool building (:class:`ActionPool`,
  :func:`build_pool`);
- :mod:`~rulesets.shattered_world.rolling`: resolving and rolling (:func:`resolve`,
  :func:`roll`, :func:`standard_success`);
- :mod:`~rulesets.shattered_world.odds`: exact odds (:func:`odds`, :func:`odds_query`);
- :mod:`~rulesets.shattered_world.luck`: a stored roll's degree of success against its exact
  odds (:func:`pool_luck`, :func:`result_luck`);
- :mod:`~rulesets.shattered_world.quick`: the GM's NPC quick roll (:func:`quick_roll`);
- :mod:`~rulesets.shattered_world.costs`: buy-in costs and the Universal Buy-Ins
  (:func:`parse_cost`, :func:`buy_in_cost`, :data:`UNIVERSAL_BUY_INS`);
- :mod:`~rulesets.shattered_world.achievements`: achievements and XP (:class:`Experience`);
- :mod:`~rulesets.shattered_world.statistics`: statistics as resource pools
  (:class:`Statistics`, :func:`new_statistics`);
- :mod:`~rulesets.shattered_world.initiative`: the order of action (:func:`initiative_key`);
- :mod:`~rulesets.shattered_world.readings`: the rules a campaign may read another way
  (:class:`ShatteredWorldReadings`, :data:`READINGS`).
"""

from __future__ import annotations

# Every name below is re-exported (``X as X``): callers use ``shattered_world.<name>``, not the
# submodules, so the split stays an internal matter.
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.shattered_world.achievements import ACHIEVEMENT_CATEGORIES as ACHIEVEMENT_CATEGORIES
from rulesets.shattered_world.achievements import ACHIEVEMENT_KINDS as ACHIEVEMENT_KINDS
from rulesets.shattered_world.achievements import UNIVERSAL_FEATS as UNIVERSAL_FEATS
from rulesets.shattered_world.achievements import UNIVERSAL_MILESTONES as UNIVERSAL_MILESTONES
from rulesets.shattered_world.achievements import XP_PER_ACHIEVEMENT as XP_PER_ACHIEVEMENT
from rulesets.shattered_world.achievements import Achievement as Achievement
from rulesets.shattered_world.achievements import Experience as Experience
from rulesets.shattered_world.catalogue import SOURCE as SOURCE
from rulesets.shattered_world.catalogue import SYSTEM as SYSTEM
from rulesets.shattered_world.chart import ACTION_DIE_START as ACTION_DIE_START
from rulesets.shattered_world.chart import DEFAULT_STEP_COST as DEFAULT_STEP_COST
from rulesets.shattered_world.chart import DIE_CHART as DIE_CHART
from rulesets.shattered_world.chart import FIELD_ROLE_DIE_START as FIELD_ROLE_DIE_START
from rulesets.shattered_world.chart import FIELD_ROLE_OFFSET as FIELD_ROLE_OFFSET
from rulesets.shattered_world.chart import MAX_DIE_STEPS as MAX_DIE_STEPS
from rulesets.shattered_world.chart import DieStep as DieStep
from rulesets.shattered_world.chart import action_die as action_die
from rulesets.shattered_world.chart import check_chart as check_chart
from rulesets.shattered_world.chart import check_die_steps as check_die_steps
from rulesets.shattered_world.chart import default_die_steps as default_die_steps
from rulesets.shattered_world.chart import die_steps_chart as die_steps_chart
from rulesets.shattered_world.chart import field_role_die as field_role_die
from rulesets.shattered_world.chart import parse_die_steps as parse_die_steps
from rulesets.shattered_world.chart import step_down as step_down
from rulesets.shattered_world.chart import step_up as step_up
from rulesets.shattered_world.costs import COST_KINDS as COST_KINDS
from rulesets.shattered_world.costs import PURCHASE_SOURCES as PURCHASE_SOURCES
from rulesets.shattered_world.costs import UNIVERSAL_BUY_INS as UNIVERSAL_BUY_INS
from rulesets.shattered_world.costs import BuyIn as BuyIn
from rulesets.shattered_world.costs import BuyInCost as BuyInCost
from rulesets.shattered_world.costs import buy_in_cost as buy_in_cost
from rulesets.shattered_world.costs import check_prerequisites as check_prerequisites
from rulesets.shattered_world.costs import cost_multiplier as cost_multiplier
from rulesets.shattered_world.costs import cumulative_cost as cumulative_cost
from rulesets.shattered_world.costs import next_cost as next_cost
from rulesets.shattered_world.costs import parse_cost as parse_cost
from rulesets.shattered_world.costs import unmet_prerequisites as unmet_prerequisites
from rulesets.shattered_world.initiative import INITIATIVE_CHOICES as INITIATIVE_CHOICES
from rulesets.shattered_world.initiative import initiative_key as initiative_key
from rulesets.shattered_world.luck import LUCK_MEASURE as LUCK_MEASURE
from rulesets.shattered_world.luck import pool_luck as pool_luck
from rulesets.shattered_world.luck import result_luck as result_luck
from rulesets.shattered_world.odds import ODDS_PARAMETERS as ODDS_PARAMETERS
from rulesets.shattered_world.odds import Odds as Odds
from rulesets.shattered_world.odds import odds as odds
from rulesets.shattered_world.odds import odds_query as odds_query
from rulesets.shattered_world.odds import pool_odds as pool_odds
from rulesets.shattered_world.pools import DIE_KINDS as DIE_KINDS
from rulesets.shattered_world.pools import ActionPool as ActionPool
from rulesets.shattered_world.pools import build_pool as build_pool
from rulesets.shattered_world.quick import QUICK_ROLL_EXAMPLES as QUICK_ROLL_EXAMPLES
from rulesets.shattered_world.quick import QUICK_ROLL_MAX_LENGTH as QUICK_ROLL_MAX_LENGTH
from rulesets.shattered_world.quick import QUICK_ROLL_MAX_NUMBER as QUICK_ROLL_MAX_NUMBER
from rulesets.shattered_world.quick import quick_roll as quick_roll
from rulesets.shattered_world.readings import MULTIPLIER_ORDERS as MULTIPLIER_ORDERS
from rulesets.shattered_world.readings import ZERO_RULES as ZERO_RULES
from rulesets.shattered_world.readings import ShatteredWorldReadings as ShatteredWorldReadings
from rulesets.shattered_world.rolling import OUTCOMES as OUTCOMES
from rulesets.shattered_world.rolling import Resolution as Resolution
from rulesets.shattered_world.rolling import RollResult as RollResult
from rulesets.shattered_world.rolling import resolve as resolve
from rulesets.shattered_world.rolling import roll as roll
from rulesets.shattered_world.rolling import standard_success as standard_success
from rulesets.shattered_world.statistics import HIT_POINTS as HIT_POINTS
from rulesets.shattered_world.statistics import STATISTICS as STATISTICS
from rulesets.shattered_world.statistics import Statistic as Statistic
from rulesets.shattered_world.statistics import Statistics as Statistics
from rulesets.shattered_world.statistics import new_statistics as new_statistics
from rulesets.shattered_world.totals import final_factor as final_factor
from rulesets.shattered_world.totals import format_multipliers as format_multipliers
from rulesets.shattered_world.totals import parse_multipliers as parse_multipliers
from rulesets.shattered_world.totals import round_half_up as round_half_up
from rulesets.shattered_world.totals import total as total

READINGS = ShatteredWorldReadings
"""The system's table readings
(:class:`~rulesets.shattered_world.readings.ShatteredWorldReadings`)."""
