"""Genesys's import schema (:mod:`systems.schema`): the sheet
(:mod:`systems.genesys.system`), the campaign's skill list, and the stored pools and
results of :mod:`rulesets.genesys` (each die one of the six Genesys dice, its face one the
die has)."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from pydantic import model_validator

from rulesets import genesys
from systems import schema as sk
from systems.genesys.sheet import SKILL_LIST_MAX
from systems.schema import (
    ImportSchema,
    Schema,
)

_COUNT: TypeAlias = Annotated[int, sk.between(0, genesys.MAX_POOL_DICE)]
_SKILL: TypeAlias = Annotated[str, sk.name_line(genesys.SKILL_NAME_MAX)]
_RANK: TypeAlias = Annotated[int, sk.between(0, 99)]
_POSTED_COUNT: TypeAlias = Annotated[str, sk.one_line(3)]  # a dice count as the dialog posts it
Characteristic: TypeAlias = Annotated[str, sk.one_of(genesys.CHARACTERISTICS)]


class Track(Schema):
    current: Annotated[int, sk.between(0, genesys.TRACK_MAX * 2)]
    threshold: Annotated[int, sk.between(0, genesys.TRACK_MAX)]


class Sheet(Schema):
    """The Genesys sheet (ranges are the rules' check, ``check_sheet``)."""

    characteristics: dict[Characteristic, _RANK]
    skills: dict[_SKILL, _RANK]
    wounds: Track
    strain: Track
    career: Annotated[str, sk.one_line(80)] = ""
    career_skills: Annotated[list[_SKILL], sk.max_items(SKILL_LIST_MAX)] = []
    creation: bool = False


class Skill(Schema):
    name: _SKILL
    characteristic: Annotated[str, sk.one_line(40)]
    group: Annotated[str, sk.one_line(40)] = ""


class Destiny(Schema):
    """The Destiny pool (:meth:`rulesets.genesys.DestinyPool.as_dict`; the rules' check,
    ``check_system_data``, holds the sizes to the faces rolled)."""

    light: Annotated[int, sk.between(0, genesys.DESTINY_MAX)]
    dark: Annotated[int, sk.between(0, genesys.DESTINY_MAX)]
    rolled: Annotated[list[Annotated[int, sk.between(1, len(genesys.FORCE_DIE_FACES))]],
                      sk.max_items(genesys.FORCE_DICE_MAX)] = []


class SystemData(Schema):
    skills: Annotated[list[Skill], sk.max_items(SKILL_LIST_MAX + 1)] = []
    destiny: Destiny | None = None


class Pool(Schema):
    """:meth:`rulesets.genesys.DicePool.as_dict`."""

    ability: _COUNT
    proficiency: _COUNT
    difficulty: _COUNT
    challenge: _COUNT
    boost: _COUNT
    setback: _COUNT
    difficulty_level: Annotated[str, sk.one_of(("", *genesys.DIFFICULTY_LEVELS))]
    destiny_points: Annotated[int, sk.between(0, 10)]
    # Absent from a pool stored before Destiny flips were recorded: none were made.
    destiny_flips: Annotated[list[Annotated[str, sk.one_of(genesys.DESTINY_SIDES)]],
                             sk.max_items(2)] = []
    traits: Annotated[list[Annotated[str, sk.name_line(80)]], sk.max_items(20)]
    notes: Annotated[list[sk.Line], sk.max_items(50)]


class RolledDie(Schema):
    die: Annotated[str, sk.one_of(genesys.DIE_TYPES)]
    face: Annotated[int, sk.between(1, 12)]
    symbols: Annotated[list[Annotated[str, sk.one_of(genesys.SYMBOLS)]], sk.max_items(4)]

    @model_validator(mode="after")
    def _face_on_die(self) -> RolledDie:
        sides = len(genesys.FACES[self.die])
        if self.face > sides:
            raise ValueError(f"a {self.die} die has {sides} faces, not a face {self.face}")
        return self


_TALLY: TypeAlias = Annotated[int, sk.between(0, genesys.MAX_POOL_DICE * 4)]
_NET: TypeAlias = Annotated[int, sk.between(-genesys.MAX_POOL_DICE * 4,
                                            genesys.MAX_POOL_DICE * 4)]


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
    dice: Annotated[list[RolledDie], sk.max_items(genesys.MAX_POOL_DICE)]
    outcome: Outcome
    summary: sk.Line


class RequestData(Schema):
    """The check dialog's data of a GM's request (``GenesysSystem.request_data``)."""

    skill: _SKILL = ""
    difficulty: Annotated[str, sk.one_of(genesys.DIFFICULTY_LEVELS)] = "Average"
    upgrade_difficulty: _POSTED_COUNT = ""
    boost: _POSTED_COUNT = ""
    setback: _POSTED_COUNT = ""
    destiny_point: Literal["on"] = "on"
    destiny_dark: Literal["on"] = "on"
    note: Annotated[str, sk.multiline(1_000)] = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"check": (Pool, Result), "npc": (Pool, Result)},
    request_data=RequestData,
)
