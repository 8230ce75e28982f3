"""Shahquest's import schema (:mod:`systems.schema`): the sheet's features, plot
points and stress track (:mod:`systems.shahquest.sheet`), the tension pool's campaign
data (:mod:`systems.shahquest.tension`), and the stored pools and results of
:mod:`rulesets.shahquest`: every die a step die (d4 to d12), every face one its die has."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import model_validator

from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE
from systems import schema as sk
from systems.schema import (
    LIST_MAX,
    ImportSchema,
    Schema,
)
from systems.shahquest.sheet import MAX_PLOT_POINTS, TEXT_TYPES
from systems.shahquest.tension import MAX_TENSION_DICE

StepDie: TypeAlias = Annotated[int, sk.one_of(STEP_DICE)]
StressType: TypeAlias = Annotated[str, sk.one_of(sq.STRESS_TYPES)]
_POOL_DICE = 100
_Index: TypeAlias = Annotated[int, sk.between(0, _POOL_DICE - 1)]
_PlotPoints: TypeAlias = Annotated[int, sk.between(0, MAX_PLOT_POINTS)]
_FeatureName: TypeAlias = Annotated[str, sk.name_line(80)]
_Line500: TypeAlias = Annotated[str, sk.one_line(500)]
_Tension: TypeAlias = Annotated[list[StepDie], sk.max_items(MAX_TENSION_DICE)]


class Specialization(Schema):
    name: _FeatureName
    use: Annotated[str, sk.one_of(("", *sq.SPECIALIZATION_USES))] = ""


class Feature(Schema):
    name: _FeatureName
    type: Annotated[str, sk.one_of((*sq.FEATURE_TYPES, *TEXT_TYPES))]
    die: StepDie | None = None
    count: Annotated[int, sk.between(0, 10)] = 1
    text: Annotated[str, sk.multiline(2_000)] = ""
    power_set: Annotated[str, sk.one_line(80)] = ""
    specializations: Annotated[list[Specialization], sk.max_items(20)] = []
    ledger_name: _FeatureName | None = None


class StressLine(Schema):
    stress: StepDie | None
    stressed_out: bool
    trauma: StepDie | None
    taken_out: bool


class StressTaken(Schema):
    kind: StressType
    die: StepDie
    before: dict[StressType, StressLine]


class NextRoll(Schema):
    push_die: bool = False
    step_up: bool = False


class Sheet(Schema):
    features: Annotated[list[Feature], sk.max_items(LIST_MAX)]
    plot_points: _PlotPoints = 0
    stress: dict[StressType, StressLine] = {}
    stress_taken: StressTaken | None = None
    next_roll: NextRoll | None = None
    trauma_recovery: dict[StressType, Annotated[str, sk.one_line(10)]] = {}


class PoolDie(Schema):
    size: StepDie
    source: Annotated[str, sk.one_of((*sq.FEATURE_TYPES, *sq.OTHER_DIE_SOURCES))]
    name: sk.Line


class Pool(Schema):
    """:meth:`rulesets.shahquest.DicePool.as_dict`."""

    dice: Annotated[list[PoolDie], sk.max_items(_POOL_DICE)]
    notation: _Line500
    plot_points_spent: _PlotPoints
    plot_points_earned: _PlotPoints
    stress_step_up: Annotated[list[StressType], sk.max_items(3)]
    notes: Annotated[list[sk.Line], sk.max_items(50)]
    # Stored only under the table reading of no effect die (docs/systems/shahquest.md).
    no_effect_die: Literal[4] | None = 4


class RolledDie(Schema):
    size: StepDie
    face: Annotated[int, sk.between(1, 12)]

    @model_validator(mode="after")
    def _face_on_die(self) -> RolledDie:
        if self.face > self.size:
            raise ValueError(f"a d{self.size} has no face {self.face}")
        return self


class Result(Schema):
    """:meth:`rulesets.shahquest.RollResult.as_dict`."""

    system: Literal["shahquest"]
    pool: Pool
    dice: Annotated[list[RolledDie], sk.max_items(_POOL_DICE)]
    effort_dice: Annotated[list[_Index], sk.max_items(_POOL_DICE)]  # more for plot points
    effect_dice: Annotated[list[_Index], sk.max_items(_POOL_DICE)]
    effort: Annotated[int, sk.between(0, 24)]
    effect_die: StepDie | None  # None: no effect die, under the table reading
    extra_effect_dice: Annotated[list[StepDie], sk.max_items(_POOL_DICE)]
    opportunities: Annotated[list[_Index], sk.max_items(_POOL_DICE)]
    opportunity_dice: Annotated[list[StepDie], sk.max_items(_POOL_DICE)]
    plot_points_after_roll: Annotated[int, sk.between(0, MAX_PLOT_POINTS * 2)]
    stress_step_up: Annotated[list[StressType], sk.max_items(3)]
    summary: sk.Line
    reaction_effect: bool = False


class TensionPool(Schema):
    system: Literal["shahquest"]
    tension_pool: _Tension


class Danger(Schema):
    roll_id: Annotated[int, sk.between(1, 10**9)]
    description: _Line500
    note: _Line500 = ""
    gm_only: bool = False
    result: Result


class SystemData(Schema):
    tension_pool: TensionPool
    starting_tension: _Tension
    tension_aside: _Tension = []
    last_danger: Danger | None = None


class RequestData(Schema):
    """The roll dialog's data of a GM's request (``shahquest.request_data``)."""

    feature: Annotated[list[_Index], sk.max_items(3)] = []
    specialization: Annotated[list[Annotated[str, sk.one_line(20)]], sk.max_items(3)] = []
    setting_die: StepDie | None = None
    note: Annotated[str, sk.multiline(1_000)] = ""
    # The sheet's features as the request named them (systems.shahquest.sheet.features_key).
    features_seen: Annotated[str, sk.one_line(64)] = ""


_ROLL = (Pool, Result)
IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"action": _ROLL, "choice": _ROLL, "general_danger": _ROLL, "npc": _ROLL},
    request_data=RequestData,
)
