"""3d6's import schema (:mod:`systems.schema`): the sheet's modifiers, level and
health and the campaign's trait names (:mod:`systems.three_d6.sheet`), and the stored
tests and contests of :mod:`rulesets.three_d6`: every die a d6, every face 1 to 6."""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

from rulesets import three_d6
from rulesets.three_d6.readings import DISFAVOR_CRITICAL, FAVOR_DISFAVOR
from systems import schema as sk
from systems.schema import (
    NO_DATA,
    ImportSchema,
    Schema,
)
from systems.three_d6.sheet import (
    HEALTH_LIMIT,
    LEVEL_MAX,
    NAME_MAX_LENGTH,
    SUBTRAIT_SLOTS,
    TRAIT_SLOTS,
)

Slot: TypeAlias = Annotated[str, sk.one_of((*TRAIT_SLOTS, *SUBTRAIT_SLOTS))]
_DICE_MAX = three_d6.BASE_DICE + 2 * three_d6.MAX_FAVOR
_Modifier: TypeAlias = Annotated[int, sk.between(-999, 999)]
_Favor: TypeAlias = Annotated[int, sk.between(0, three_d6.MAX_FAVOR)]
_Td: TypeAlias = Annotated[int, sk.between(three_d6.TD_MIN, 999)]
_TraitName: TypeAlias = Annotated[str, sk.name_line(NAME_MAX_LENGTH)]


class Health(Schema):
    current: Annotated[int, sk.between(0, HEALTH_LIMIT)]
    max: Annotated[int, sk.between(0, HEALTH_LIMIT)]


class Sheet(Schema):
    modifiers: dict[Slot, Annotated[int, sk.between(0, 99)]]
    level: Annotated[int, sk.between(0, LEVEL_MAX)] = 1
    health: Health


class SystemData(Schema):
    traits: Annotated[list[_TraitName], sk.max_items(len(TRAIT_SLOTS))] = []
    subtraits: Annotated[list[_TraitName], sk.max_items(len(SUBTRAIT_SLOTS))] = []


class Pool(Schema):
    """:meth:`rulesets.three_d6.TestPool.as_dict`."""

    label: sk.Line
    modifier: _Modifier
    favor: _Favor
    disfavor: _Favor
    td: _Td | None
    dice: Annotated[int, sk.between(0, _DICE_MAX)]
    # Stored only away from the seed's reading (a table reading: docs/systems/three_d6.md).
    favor_disfavor: Annotated[str, sk.one_of(c.value for c in FAVOR_DISFAVOR.choices)] = (
        FAVOR_DISFAVOR.default)
    disfavor_critical: Annotated[str, sk.one_of(c.value for c in DISFAVOR_CRITICAL.choices)] = (
        DISFAVOR_CRITICAL.default)


class Test(Schema):
    """:meth:`rulesets.three_d6.TestResult.as_dict`."""

    system: Literal["three_d6"]
    pool: Pool
    dice: Annotated[list[Annotated[int, sk.between(1, 6)]], sk.max_items(_DICE_MAX)]
    value: Annotated[int, sk.between(0, 6 * _DICE_MAX)]
    total: Annotated[int, sk.between(-9_999, 9_999)]
    critical_success: bool
    critical_failure: bool
    automatic_failure: bool
    outcome: Annotated[str, sk.one_of(three_d6.OUTCOMES)]
    summary: sk.Line
    # The dice disfavor counted apart removed, by position; stored only when it removed some.
    dropped: Annotated[list[Annotated[int, sk.between(0, _DICE_MAX - 1)]],
                       sk.max_items(_DICE_MAX)] = []


class Side(Schema):
    name: sk.Line
    result: Test
    is_pc: bool
    is_defender: bool
    level: Annotated[int, sk.between(0, 999)]
    modifier: _Modifier | None


class Contest(Schema):
    """:meth:`rulesets.three_d6.ContestResult.as_dict`."""

    system: Literal["three_d6"]
    kind: Literal["contest"]
    first: Side
    second: Side
    winner: Literal[1, 2]
    decided_by: Annotated[str, sk.one_of(three_d6.CONTEST_DECIDERS)]
    random_die: Literal[1, 2] | None
    summary: sk.Line


class RequestData(Schema):
    """The roll dialog's data of a GM's request (``ThreeD6System.request_data``)."""

    mode: Literal["test"] = "test"
    target: Slot = "t0"
    td: _Td | None = None
    situational: _Modifier = 0
    favor: _Favor = 0
    disfavor: _Favor = 0
    note: Annotated[str, sk.multiline(1_000)] = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    # A contest keeps both sides' pools in its result, and an empty pool.
    rolls={"test": (Pool, Test), "npc": (Pool, Test), "contest": (NO_DATA, Contest)},
    request_data=RequestData,
)
