"""Shattered World's rule citations: the source named by every :class:`RuleError` and the
slug stored in every serialised pool and roll.
"""

from __future__ import annotations

SOURCE = "Shattered World Core Engine"
"""Prefix of every rule citation."""

SYSTEM = "shattered_world"
"""The slug stored in every serialised pool and roll."""


# The citations below (underscored) are shared by the package's modules only; callers
# outside use the public names re-exported from rulesets.shattered_world.
def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_CORE = _rule("The Core Mechanic")
_DICE = _rule("Action Dice and Field Role Dice")
_STANDARD = _rule("Standard Success")
_BUY_INS = _rule("Achievements and Buy-Ins")
_UNIVERSAL_BUY_INS = _rule("Universal Buy-Ins")
_ACHIEVEMENTS = _rule("Universal Achievements")
_INITIATIVE = _rule("Initiative Order")
_STATISTICS = _rule("Mechanical (Non-Roleplay) Actions")
