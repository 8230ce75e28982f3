"""Tally's import schema (:mod:`systems.schema`): the sheet's one number, the campaign's
tally, a sheet roll's face (its reroll's too) and the NPC quick roll of
:mod:`tests.tally.rules`."""

from __future__ import annotations

from typing import Annotated, TypeAlias

from systems import schema as sk
from systems.schema import NO_DATA, ImportSchema, Schema
from tests.tally import rules
from tests.tally.actions import CAMPAIGN_TALLY_MAX

_Face: TypeAlias = Annotated[int, sk.between(1, 6)]


class Sheet(Schema):
    # XP raises the tally past what an action adds: a wide bound, the rules decide the rest.
    tally: Annotated[int, sk.between(0, 1_000)]


class SystemData(Schema):
    tally: Annotated[int, sk.between(0, CAMPAIGN_TALLY_MAX)] = 0


class SheetRoll(Schema):
    """:meth:`tests.tally.actions.TallyResult.as_dict`."""

    face: _Face


class Pool(Schema):
    """:meth:`tests.tally.rules.Pool.as_dict`."""

    bonus: Annotated[int, sk.between(0, rules.BONUS_MAX)]


class QuickRoll(Schema):
    """:meth:`tests.tally.rules.Result.as_dict`."""

    pool: Pool
    face: _Face
    total: Annotated[int, sk.between(1, 6 + rules.BONUS_MAX)]
    summary: sk.Line


class RequestData(Schema):
    """A GM's request (``Tally.request_data``)."""

    spend: bool = False
    note: Annotated[str, sk.multiline(1_000)] = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    rolls={"action": (NO_DATA, SheetRoll), "npc": (Pool, QuickRoll)},
    request_data=RequestData,
)
