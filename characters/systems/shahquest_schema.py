"""Shahquest's import schema (:mod:`characters.systems.schema`): the sheet's features, plot
points and stress track (:mod:`characters.systems.shahquest`), the tension pool's campaign
data (:mod:`characters.systems.shahquest_tension`), and the stored pools and results of
:mod:`rulesets.shahquest`: every die a step die (d4 to d12), every face one its die has."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from characters.systems import schema as sk
from characters.systems.schema import (
    LIST_MAX,
    ImportSchema,
    Schema,
)
from characters.systems.shahquest import MAX_PLOT_POINTS, TEXT_TYPES
from characters.systems.shahquest_tension import MAX_TENSION_DICE
from rulesets import shahquest as sq
from rulesets.dice import STEP_DICE

StepDie = Literal[STEP_DICE]
StressType = Literal[sq.STRESS_TYPES]
_POOL_DICE = 100
_INDEX = sk.whole(0, _POOL_DICE - 1)


class Specialization(Schema):
    name: sk.name(80)
    use: Literal["", *sq.SPECIALIZATION_USES] = ""


class Feature(Schema):
    name: sk.name(80)
    type: Literal[(*sq.FEATURE_TYPES, *TEXT_TYPES)]
    die: StepDie | None = None
    count: sk.whole(0, 10) = 1
    text: sk.text(2_000) = ""
    power_set: sk.line(80) = ""
    specializations: sk.items(Specialization, 20) = []


class StressLine(Schema):
    stress: StepDie | None
    stressed_out: bool
    trauma: StepDie | None
    taken_out: bool


class Sheet(Schema):
    features: sk.items(Feature, LIST_MAX)
    plot_points: sk.whole(0, MAX_PLOT_POINTS) = 0
    stress: dict[StressType, StressLine] = {}


class PoolDie(Schema):
    size: StepDie
    source: Literal[(*sq.FEATURE_TYPES, *sq.OTHER_DIE_SOURCES)]
    name: sk.line()


class Pool(Schema):
    """:meth:`rulesets.shahquest.DicePool.as_dict`."""

    dice: sk.items(PoolDie, _POOL_DICE)
    notation: sk.line(500)
    plot_points_spent: sk.whole(0, MAX_PLOT_POINTS)
    plot_points_earned: sk.whole(0, MAX_PLOT_POINTS)
    stress_step_up: sk.items(StressType, 3)
    notes: sk.items(sk.line(), 50)


class RolledDie(Schema):
    size: StepDie
    face: sk.whole(1, 12)

    @model_validator(mode="after")
    def _face_on_die(self) -> RolledDie:
        if self.face > self.size:
            raise ValueError(f"a d{self.size} has no face {self.face}")
        return self


class Result(Schema):
    """:meth:`rulesets.shahquest.RollResult.as_dict`."""

    system: Literal["shahquest"]
    pool: Pool
    dice: sk.items(RolledDie, _POOL_DICE)
    effort_dice: sk.items(_INDEX, 2)
    effect_dice: sk.items(_INDEX, _POOL_DICE)
    effort: sk.whole(0, 24)
    effect_die: StepDie
    extra_effect_dice: sk.items(StepDie, _POOL_DICE)
    opportunities: sk.items(_INDEX, _POOL_DICE)
    opportunity_dice: sk.items(StepDie, _POOL_DICE)
    plot_points_after_roll: sk.whole(0, MAX_PLOT_POINTS * 2)
    stress_step_up: sk.items(StressType, 3)
    summary: sk.line()


class TensionPool(Schema):
    system: Literal["shahquest"]
    tension_pool: sk.items(StepDie, MAX_TENSION_DICE)


class Danger(Schema):
    roll_id: sk.whole(1, 10**9)
    description: sk.line(500)
    note: sk.line(500) = ""
    gm_only: bool = False
    result: Result


class SystemData(Schema):
    tension_pool: TensionPool
    starting_tension: sk.items(StepDie, MAX_TENSION_DICE)
    tension_aside: sk.items(StepDie, MAX_TENSION_DICE) = []
    last_danger: Danger | None = None


class RequestData(Schema):
    """The roll dialog's data of a GM's request (``shahquest.request_data``)."""

    feature: sk.items(_INDEX, 3) = []
    specialization: sk.items(sk.line(20), 3) = []
    setting_die: StepDie | None = None
    note: sk.text(1_000) = ""


_ROLL = (Pool, Result)
IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"action": _ROLL, "choice": _ROLL, "general_danger": _ROLL, "npc": _ROLL},
    request_data=RequestData,
)
