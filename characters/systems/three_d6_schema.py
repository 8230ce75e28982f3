"""3d6's import schema (:mod:`characters.systems.schema`): the sheet's modifiers, level and
health and the campaign's trait names (:mod:`characters.systems.three_d6`), and the stored
tests and contests of :mod:`rulesets.three_d6`: every die a d6, every face 1 to 6."""

from __future__ import annotations

from typing import Literal

from characters.systems import schema as sk
from characters.systems.schema import (
    NO_DATA,
    ImportSchema,
    Schema,
)
from characters.systems.three_d6 import (
    HEALTH_LIMIT,
    LEVEL_MAX,
    NAME_MAX_LENGTH,
    SUBTRAIT_SLOTS,
    TRAIT_SLOTS,
)
from rulesets import three_d6

Slot = Literal[(*TRAIT_SLOTS, *SUBTRAIT_SLOTS)]
_DICE_MAX = three_d6.BASE_DICE + 2 * three_d6.MAX_FAVOR
_MODIFIER = sk.whole(-999, 999)


class Health(Schema):
    current: sk.whole(0, HEALTH_LIMIT)
    max: sk.whole(0, HEALTH_LIMIT)


class Sheet(Schema):
    modifiers: dict[Slot, sk.whole(0, 99)]
    level: sk.whole(0, LEVEL_MAX) = 1
    health: Health


class SystemData(Schema):
    traits: sk.items(sk.name(NAME_MAX_LENGTH), len(TRAIT_SLOTS)) = []
    subtraits: sk.items(sk.name(NAME_MAX_LENGTH),
                     len(SUBTRAIT_SLOTS)) = []


class Pool(Schema):
    """:meth:`rulesets.three_d6.TestPool.as_dict`."""

    label: sk.line()
    modifier: _MODIFIER
    favor: sk.whole(0, three_d6.MAX_FAVOR)
    disfavor: sk.whole(0, three_d6.MAX_FAVOR)
    td: sk.whole(three_d6.TD_MIN, 999) | None
    dice: sk.whole(0, _DICE_MAX)


class Test(Schema):
    """:meth:`rulesets.three_d6.TestResult.as_dict`."""

    system: Literal["three_d6"]
    pool: Pool
    dice: sk.items(sk.whole(1, 6), _DICE_MAX)
    value: sk.whole(0, 6 * _DICE_MAX)
    total: sk.whole(-9_999, 9_999)
    critical_success: bool
    critical_failure: bool
    automatic_failure: bool
    outcome: Literal[three_d6.OUTCOMES]
    summary: sk.line()


class Side(Schema):
    name: sk.line()
    result: Test
    is_pc: bool
    is_defender: bool
    level: sk.whole(0, 999)
    modifier: _MODIFIER | None


class Contest(Schema):
    """:meth:`rulesets.three_d6.ContestResult.as_dict`."""

    system: Literal["three_d6"]
    kind: Literal["contest"]
    first: Side
    second: Side
    winner: Literal[1, 2]
    decided_by: Literal[three_d6.CONTEST_DECIDERS]
    random_die: Literal[1, 2] | None
    summary: sk.line()


class RequestData(Schema):
    """The roll dialog's data of a GM's request (``ThreeD6System.request_data``)."""

    mode: Literal["test"] = "test"
    target: Slot = "t0"
    td: sk.whole(three_d6.TD_MIN, 999) | None = None
    situational: _MODIFIER = 0
    favor: sk.whole(0, three_d6.MAX_FAVOR) = 0
    disfavor: sk.whole(0, three_d6.MAX_FAVOR) = 0
    note: sk.text(1_000) = ""


IMPORT_SCHEMA = ImportSchema(
    sheet=Sheet,
    system_data=SystemData,
    # A contest keeps both sides' pools in its result, and an empty pool.
    rolls={"test": (Pool, Test), "npc": (Pool, Test), "contest": (NO_DATA, Contest)},
    request_data=RequestData,
)
