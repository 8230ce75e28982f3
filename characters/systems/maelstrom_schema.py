"""Maelstrom's import schema (:mod:`characters.systems.schema`).

Maelstrom keeps its sheet in ``Trait`` and ``MeritFlaw`` rows and track columns (checked by
the document's row schema, :mod:`transfer.schema`), so its ``Character.sheet`` and
``Campaign.system_data`` are empty objects. Its rolls keep their d10 faces in the roll's
``dice``, ``bonus_dice`` and ``experience_die`` columns; a character's roll keeps an empty
result, an NPC's quick roll the whole :meth:`rulesets.maelstrom.RollResult.as_dict`.
"""

from __future__ import annotations

from typing import Any, Literal

from characters.systems import schema as sk
from characters.systems.schema import (
    NO_DATA,
    ImportSchema,
    Schema,
)
from rulesets import maelstrom

_FACE = sk.whole(1, 10)  # the d10, the only die Maelstrom rolls
_DICE_MAX = maelstrom.MAX_BONUS_DICE  # exploding tens add bonus dice; the engine's cap


class Pool(Schema):
    """:meth:`rulesets.maelstrom.ActionPool.as_dict`."""

    kind: Literal[maelstrom.POOL_KINDS]
    dice: sk.whole(0, 100)
    difficulty: sk.whole(2, 10)
    threshold: sk.whole(0, 100)
    exploding: bool
    wound_penalty: sk.whole(-100, 100)
    traits: sk.items(sk.name(80), 50)
    specialties: sk.items(sk.name(80), 50)
    automatic_successes: sk.whole(0, 100)
    experience_die_allowed: bool
    notes: sk.items(sk.line(), 50)


class Resolution(Schema):
    successes: sk.whole(0, _DICE_MAX * 2)
    removed_by_threshold: sk.whole(0, _DICE_MAX * 2)
    botches: sk.whole(0, _DICE_MAX)
    net: sk.whole(-_DICE_MAX, _DICE_MAX * 2)
    outcome: Literal[maelstrom.OUTCOMES]


class Result(Schema):
    """:meth:`rulesets.maelstrom.RollResult.as_dict` (an NPC's quick roll)."""

    system: Literal["maelstrom"]
    pool: Pool
    dice: sk.items(_FACE, 100)
    bonus_dice: sk.items(_FACE, _DICE_MAX)
    experience_die: sk.items(_FACE, _DICE_MAX)
    resolution: Resolution
    summary: sk.line()


_ROLL: tuple[Any, Any] = (Pool, NO_DATA | Result)

IMPORT_SCHEMA = ImportSchema(
    sheet=NO_DATA,
    system_data=NO_DATA,
    rolls=dict.fromkeys(("action", "willpower", "soak", "experience_die", "willpower_spend",
                         "npc"), _ROLL),
    dice=sk.items(_FACE, _DICE_MAX),
    request_traits=sk.items(sk.name(80), 20),
    request_data=NO_DATA,
)
