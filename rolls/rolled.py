"""What a roll hands the roll log (:func:`rolls.log.roll_store`) to append.

Plain data with no model import: the systems' modules import it, and Django imports them while
it loads the apps, before a model may be imported.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.base import RulesResult

NPC_PREFIX = "NPC: "
"""What the GM's NPC quick roll puts before its pool in words (``RolledResult.description``);
a roll's header drops it, as the header already names the kind."""


@dataclass(frozen=True)
class RolledResult:
    """A roll made and resolved, ready for :func:`rolls.log.roll_store` to append.

    ``result`` is the engine's result (``as_dict()``, ``summary()``, ``verdict()``);
    ``outcome`` one of ``Roll.Outcome`` values; ``description`` the pool in words (at most
    2,000 characters kept); ``kind`` one of ``Roll.KINDS`` (shared or the system's own);
    ``net`` a number the log can sort by (net successes, an effort total); ``summary``
    overrides the result's own (at most 200 characters kept).
    """

    kind: str
    description: str
    result: RulesResult
    outcome: str
    net: int = 0
    summary: str = ""
