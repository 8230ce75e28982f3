"""Maelstrom's import schema (:mod:`systems.schema`).

Maelstrom keeps its sheet in ``Trait`` and ``MeritFlaw`` rows and track columns (checked by
the document's row schema, :mod:`transfer.schema`), so its ``Character.sheet`` and
``Campaign.system_data`` are empty objects. Its rolls keep their d10 faces in the roll's
``dice``, ``bonus_dice`` and ``experience_die`` columns; a character's roll keeps an empty
result, an NPC's quick roll the whole :meth:`rulesets.maelstrom.RollResult.as_dict`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from rulesets import maelstrom
from systems import schema as sk
from systems.schema import (
    NO_DATA,
    ImportSchema,
    Schema,
)

_Face: TypeAlias = Annotated[int, sk.between(1, 10)]  # the d10, the only die Maelstrom rolls
_DICE_MAX = maelstrom.MAX_BONUS_DICE  # exploding tens add bonus dice; the engine's cap
_Trait: TypeAlias = Annotated[str, sk.name_line(80)]


class Pool(Schema):
    """:meth:`rulesets.maelstrom.ActionPool.as_dict`."""

    kind: Annotated[str, sk.one_of(maelstrom.POOL_KINDS)]
    dice: Annotated[int, sk.between(0, 100)]
    difficulty: Annotated[int, sk.between(2, 10)]
    threshold: Annotated[int, sk.between(0, 100)]
    exploding: bool
    wound_penalty: Annotated[int, sk.between(-100, 100)]
    traits: Annotated[list[_Trait], sk.max_items(50)]
    specialties: Annotated[list[_Trait], sk.max_items(50)]
    automatic_successes: Annotated[int, sk.between(0, 100)]
    experience_die_allowed: bool
    notes: Annotated[list[sk.Line], sk.max_items(50)]


class Resolution(Schema):
    successes: Annotated[int, sk.between(0, _DICE_MAX * 2)]
    removed_by_threshold: Annotated[int, sk.between(0, _DICE_MAX * 2)]
    botches: Annotated[int, sk.between(0, _DICE_MAX)]
    net: Annotated[int, sk.between(-_DICE_MAX, _DICE_MAX * 2)]
    outcome: Annotated[str, sk.one_of(maelstrom.OUTCOMES)]


class Result(Schema):
    """:meth:`rulesets.maelstrom.RollResult.as_dict` (an NPC's quick roll)."""

    system: Literal["maelstrom"]
    pool: Pool
    dice: Annotated[list[_Face], sk.max_items(100)]
    bonus_dice: Annotated[list[_Face], sk.max_items(_DICE_MAX)]
    experience_die: Annotated[list[_Face], sk.max_items(_DICE_MAX)]
    resolution: Resolution
    summary: sk.Line


_ROLL: tuple[Any, Any] = (Pool, NO_DATA | Result)

IMPORT_SCHEMA = ImportSchema(
    sheet=NO_DATA,
    system_data=NO_DATA,
    rolls=dict.fromkeys(("action", "willpower", "soak", "experience_die", "willpower_spend",
                         "npc"), _ROLL),
    dice=Annotated[list[_Face], sk.max_items(_DICE_MAX)],
    request_traits=Annotated[list[_Trait], sk.max_items(20)],
    request_data=NO_DATA,
)
