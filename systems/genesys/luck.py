"""A stored Genesys roll's luck (``GenesysSystem.roll_luck``): its net successes against
their exact odds, read from the roll alone (:mod:`rulesets.genesys.luck`; docs/systems/
genesys.md, "Luck").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rolls.models import Roll
from rulesets import genesys
from rulesets.errors import RuleError
from rulesets.genesys.storage import RollKind

if TYPE_CHECKING:
    from rulesets.luck import RollLuck

COUNTED = frozenset({RollKind.CHECK, Roll.Kind.NPC.value})
"""The kinds of roll whose luck counts: a character's check and the GM's NPC quick roll
(``Roll.Kind.NPC``), both a dice pool whose net successes decide it; imported rolls of
those kinds count too, as they hold the same stored pool and dice."""


def roll_luck(roll: Roll) -> RollLuck | None:
    """The luck of ``roll`` (its stored ``result``: pool and dice; no query), measured in
    net successes (:data:`rulesets.genesys.LUCK_MEASURE`), or ``None`` for a kind not
    counted (:data:`COUNTED`) or a stored result the engine cannot read (a damaged import
    the checks let through: no figure rather than a wrong one)."""
    if roll.kind not in COUNTED:
        return None
    try:
        return genesys.result_luck(roll.result)
    except RuleError:
        return None
