"""Shattered World's import schema (:mod:`characters.systems.schema`): the sheet and the
campaign's die steps and custom buy-ins (:mod:`characters.systems.shattered_world`), and the
stored pools and results of :mod:`rulesets.shattered_world`. A GM may set any die on the
campaign's chart (at least 2 sides, :func:`rulesets.shattered_world.check_die_steps`); the
schema takes dice up to :data:`DIE_MAX` sides, and a face must be one its die has."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from characters.systems import schema as sk
from characters.systems.schema import (
    LIST_MAX,
    ImportSchema,
    Schema,
)
from rulesets import shattered_world as sw

DIE_MAX = 1_000
"""The most sides of a die on a campaign's chart an import takes (the default chart ends at
the d20)."""

_DIE = sk.whole(2, DIE_MAX)
_STAT = sk.whole(0, 99_999)
StatisticCode = Literal[tuple(sw.STATISTICS)]


class Pool(Schema):
    current: _STAT
    max: _STAT


class Achievements(Schema):
    total: sk.whole(0, 99_999) = 0
    milestones: sk.items(sk.line(), LIST_MAX) = []
    feats: dict[sk.name(), sk.whole(0, 99_999)] = {}


class Sheet(Schema):
    statistics: dict[StatisticCode, Pool]
    hit_points: Pool
    action_die_level: sk.whole(0, sw.MAX_DIE_STEPS) = 0
    buy_ins: dict[sk.name(), sk.whole(0, 999)] = {}
    buy_in_field_roles: dict[sk.name(), sk.line(80)] = {}
    proficiencies: sk.items(sk.line(80), 50) = []
    achievements: Achievements = Achievements()
    human: bool = False
    species: sk.line(80) = ""
    field_role: sk.line(80) = ""
    subrole: sk.line(80) = ""
    foible: sk.line() = ""
    additional_field_roles: sk.items(sk.line(80), 20) = []


class DieStep(Schema):
    action_die: _DIE
    field_role_die: _DIE
    cost: sk.whole(0, 99_999)
    notes: sk.line() = ""


class CustomBuyIn(Schema):
    name: sk.name()
    cost: sk.line(40)
    effect: sk.text(2_000) = ""
    field_role: sk.line(80) = ""
    subrole: sk.line(80) = ""
    ability: sk.line(8) = ""
    hit_points: sk.whole(0, 999) = 0
    min_achievements: sk.whole(0, 99_999) = 0
    requires: sk.line() = ""


class SystemData(Schema):
    die_steps: sk.items(DieStep, sw.MAX_DIE_STEPS) = []
    custom_buy_ins: sk.items(CustomBuyIn, LIST_MAX) = []


class RollPool(Schema):
    """:meth:`rulesets.shattered_world.ActionPool.as_dict`."""

    system: Literal["shattered_world"]
    die: _DIE
    die_kind: Literal[sw.DIE_KINDS]
    target: sk.whole(1, 99_999)
    modifiers: sk.items(sk.whole(-99_999, 99_999), 50)
    multipliers: sk.line(100)
    action: sk.line()
    notes: sk.items(sk.line(), 50)


class Result(Schema):
    """:meth:`rulesets.shattered_world.RollResult.as_dict`."""

    system: Literal["shattered_world"]
    pool: RollPool
    dice: sk.items(sk.whole(1, DIE_MAX), 1)
    total: sk.whole(-10**7, 10**7)
    outcome: Literal[sw.OUTCOMES]
    success: bool
    degree: sk.whole(0, 10**6)
    automatic: bool
    summary: sk.line()

    @model_validator(mode="after")
    def _face_on_die(self) -> Result:
        if any(face > self.pool.die for face in self.dice):
            raise ValueError(f"a d{self.pool.die} has no face {max(self.dice)}")
        return self


class RequestData(Schema):
    """The roll dialog's data of a GM's request (``ShatteredWorld.request_data``)."""

    die: Literal["ad", "frd"] = "ad"
    target: sk.whole(1, 99_999) = 1
    modifiers: sk.line(40) = ""
    multipliers: sk.line(40) = ""
    use_uam: bool = False
    action: sk.line() = ""
    note: sk.text(1_000) = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"action": (RollPool, Result), "npc": (RollPool, Result)},
    request_data=RequestData,
)
