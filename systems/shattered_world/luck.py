"""A stored Shattered World roll's luck (``ShatteredWorld.roll_luck``): its degree of
success against its exact odds, read from the roll alone (:mod:`rulesets.shattered_world.
luck`; docs/systems/shattered_world.md, "Luck").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rolls.models import Roll
from rulesets import shattered_world as sw
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from rulesets.luck import RollLuck

COUNTED = frozenset({Roll.Kind.ACTION.value, Roll.Kind.NPC.value})
"""The kinds of roll whose luck counts: a character's action and the GM's NPC quick roll
(``Roll.Kind.ACTION``, ``Roll.Kind.NPC``), both one die against a target number; imported
rolls of those kinds count too, as they hold the same stored pool and face. Initiative rolls
are not stored as rolls and so are not counted."""


def roll_luck(roll: Roll) -> RollLuck | None:
    """The luck of ``roll`` (its stored ``result``: pool, with the table readings it was
    built under, and face; no query), measured in degrees of success
    (:data:`rulesets.shattered_world.LUCK_MEASURE`), or ``None`` for a kind not counted
    (:data:`COUNTED`) or a stored result the engine cannot read (a damaged import the checks
    let through: no figure rather than a wrong one)."""
    if roll.kind not in COUNTED:
        return None
    try:
        return sw.result_luck(roll.result)
    except RuleError:
        return None
