"""Shattered World's import schema (:mod:`systems.schema`): the sheet and the
campaign's die steps and custom buy-ins (:mod:`systems.shattered_world.system`), and the
stored pools and results of :mod:`rulesets.shattered_world`. A GM may set any die on the
campaign's chart (at least 2 sides, :func:`rulesets.shattered_world.check_die_steps`); the
schema takes dice up to :data:`DIE_MAX` sides, and a face must be one its die has."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import model_validator

from rulesets import shattered_world as sw
from systems import schema as sk
from systems.schema import (
    LIST_MAX,
    ImportSchema,
    Schema,
)

DIE_MAX = 1_000
"""The most sides of a die on a campaign's chart an import takes (the default chart ends at
the d20)."""

_DIE: TypeAlias = Annotated[int, sk.between(2, DIE_MAX)]
_STAT: TypeAlias = Annotated[int, sk.between(0, 99_999)]
StatisticCode: TypeAlias = Annotated[str, sk.one_of(sw.STATISTICS)]


class Pool(Schema):
    current: _STAT
    max: _STAT


class Achievements(Schema):
    total: _STAT = 0
    milestones: Annotated[list[sk.Line], sk.max_items(LIST_MAX)] = []
    feats: dict[sk.Name, _STAT] = {}


class Sheet(Schema):
    statistics: dict[StatisticCode, Pool]
    hit_points: Pool
    action_die_level: Annotated[int, sk.between(0, sw.MAX_DIE_STEPS)] = 0
    buy_ins: dict[sk.Name, Annotated[int, sk.between(0, 999)]] = {}
    buy_in_field_roles: dict[sk.Name, Annotated[str, sk.one_line(80)]] = {}
    proficiencies: Annotated[list[Annotated[str, sk.one_line(80)]], sk.max_items(50)] = []
    achievements: Achievements = Achievements()
    human: bool = False
    species: Annotated[str, sk.one_line(80)] = ""
    field_role: Annotated[str, sk.one_line(80)] = ""
    subrole: Annotated[str, sk.one_line(80)] = ""
    foible: sk.Line = ""
    additional_field_roles: Annotated[list[Annotated[str, sk.one_line(80)]],
                                      sk.max_items(20)] = []


class DieStep(Schema):
    action_die: _DIE
    field_role_die: _DIE
    cost: _STAT
    notes: sk.Line = ""


class CustomBuyIn(Schema):
    name: sk.Name
    cost: Annotated[str, sk.one_line(40)]
    effect: Annotated[str, sk.multiline(2_000)] = ""
    field_role: Annotated[str, sk.one_line(80)] = ""
    subrole: Annotated[str, sk.one_line(80)] = ""
    ability: Annotated[str, sk.one_line(8)] = ""
    hit_points: Annotated[int, sk.between(0, 999)] = 0
    min_achievements: _STAT = 0
    requires: sk.Line = ""


class SystemData(Schema):
    die_steps: Annotated[list[DieStep], sk.max_items(sw.MAX_DIE_STEPS)] = []
    custom_buy_ins: Annotated[list[CustomBuyIn], sk.max_items(LIST_MAX)] = []


class RollPool(Schema):
    """:meth:`rulesets.shattered_world.ActionPool.as_dict`."""

    system: Literal["shattered_world"]
    die: _DIE
    die_kind: Annotated[str, sk.one_of(sw.DIE_KINDS)]
    target: Annotated[int, sk.between(1, 99_999)]
    modifiers: Annotated[list[Annotated[int, sk.between(-99_999, 99_999)]], sk.max_items(50)]
    multipliers: Annotated[str, sk.one_line(100)]
    action: sk.Line
    notes: Annotated[list[sk.Line], sk.max_items(50)]
    # Stored only away from the seed's reading (a table reading:
    # docs/systems/shattered_world.md, Table readings).
    multiplier_order: Annotated[str, sk.one_of(sw.MULTIPLIER_ORDERS)] = sw.MULTIPLIER_ORDERS[0]
    zero_becomes_one: Annotated[str, sk.one_of(sw.ZERO_RULES)] = sw.ZERO_RULES[0]


class Result(Schema):
    """:meth:`rulesets.shattered_world.RollResult.as_dict`."""

    system: Literal["shattered_world"]
    pool: RollPool
    dice: Annotated[list[Annotated[int, sk.between(1, DIE_MAX)]], sk.max_items(1)]
    total: Annotated[int, sk.between(-10**7, 10**7)]
    outcome: Annotated[str, sk.one_of(sw.OUTCOMES)]
    success: bool
    degree: Annotated[int, sk.between(0, 10**6)]
    automatic: bool
    summary: sk.Line

    @model_validator(mode="after")
    def _face_on_die(self) -> Result:
        if any(face > self.pool.die for face in self.dice):
            raise ValueError(f"a d{self.pool.die} has no face {max(self.dice)}")
        return self


class RequestData(Schema):
    """The roll dialog's data of a GM's request (``ShatteredWorld.request_data``)."""

    die: Literal["ad", "frd"] = "ad"
    target: Annotated[int, sk.between(1, 99_999)] = 1
    modifiers: Annotated[str, sk.one_line(40)] = ""
    multipliers: Annotated[str, sk.one_line(40)] = ""
    use_uam: bool = False
    action: sk.Line = ""
    note: Annotated[str, sk.multiline(1_000)] = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"action": (RollPool, Result), "npc": (RollPool, Result)},
    request_data=RequestData,
)
