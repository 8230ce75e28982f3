"""Genesys's import schema (:mod:`characters.systems.schema`): the sheet
(:mod:`characters.systems.genesys`), the campaign's skill list, and the stored pools and
results of :mod:`rulesets.genesys` (each die one of the six Genesys dice, its face one the
die has)."""

from __future__ import annotations

from typing import Literal

from pydantic import model_validator

from characters.systems import schema as sk
from characters.systems.genesys import SKILL_LIST_MAX
from characters.systems.schema import (
    ImportSchema,
    Schema,
)
from rulesets import genesys

_COUNT = sk.whole(0, genesys.MAX_POOL_DICE)
_SKILL = sk.name(genesys.SKILL_NAME_MAX)
Characteristic = Literal[genesys.CHARACTERISTICS]


class Track(Schema):
    current: sk.whole(0, genesys.TRACK_MAX * 2)
    threshold: sk.whole(0, genesys.TRACK_MAX)


class Sheet(Schema):
    """The Genesys sheet (ranges are the rules' check, ``check_sheet``)."""

    characteristics: dict[Characteristic, sk.whole(0, 99)]
    skills: dict[_SKILL, sk.whole(0, 99)]
    wounds: Track
    strain: Track
    career: sk.line(80) = ""
    career_skills: sk.items(_SKILL, SKILL_LIST_MAX) = []
    creation: bool = False


class Skill(Schema):
    name: _SKILL
    characteristic: sk.line(40)
    group: sk.line(40) = ""


class SystemData(Schema):
    skills: sk.items(Skill, SKILL_LIST_MAX + 1) = []


class Pool(Schema):
    """:meth:`rulesets.genesys.DicePool.as_dict`."""

    ability: _COUNT
    proficiency: _COUNT
    difficulty: _COUNT
    challenge: _COUNT
    boost: _COUNT
    setback: _COUNT
    difficulty_level: Literal["", *genesys.DIFFICULTY_LEVELS]
    destiny_points: sk.whole(0, 10)
    traits: sk.items(sk.name(80), 20)
    notes: sk.items(sk.line(), 50)


class RolledDie(Schema):
    die: Literal[genesys.DIE_TYPES]
    face: sk.whole(1, 12)
    symbols: sk.items(Literal[genesys.SYMBOLS], 4)

    @model_validator(mode="after")
    def _face_on_die(self) -> RolledDie:
        sides = len(genesys.FACES[self.die])
        if self.face > sides:
            raise ValueError(f"a {self.die} die has {sides} faces, not a face {self.face}")
        return self


_TALLY = sk.whole(0, genesys.MAX_POOL_DICE * 4)
_NET = sk.whole(-genesys.MAX_POOL_DICE * 4, genesys.MAX_POOL_DICE * 4)


class Outcome(Schema):
    successes: _TALLY
    failures: _TALLY
    advantages: _TALLY
    threats: _TALLY
    triumphs: _TALLY
    despairs: _TALLY
    net_successes: _NET
    net_advantage: _NET
    success: bool


class Result(Schema):
    """:meth:`rulesets.genesys.RollResult.as_dict`."""

    system: Literal["genesys"]
    pool: Pool
    dice: sk.items(RolledDie, genesys.MAX_POOL_DICE)
    outcome: Outcome
    summary: sk.line()


class RequestData(Schema):
    """The check dialog's data of a GM's request (``GenesysSystem.request_data``)."""

    skill: _SKILL = ""
    difficulty: Literal[*genesys.DIFFICULTY_LEVELS] = "Average"
    upgrade_difficulty: sk.line(3) = ""
    boost: sk.line(3) = ""
    setback: sk.line(3) = ""
    destiny_point: Literal["on"] = "on"
    note: sk.text(1_000) = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"check": (Pool, Result), "npc": (Pool, Result)},
    request_data=RequestData,
)
