"""The sheet layer of every system: one package per system (``systems/<slug>/``), all the same
shape, found through :mod:`systems.registry`.

The shared contract is :mod:`systems.base` (:class:`SheetSystem` and its parts); shared code
imports it from here (``import systems``; ``systems.for_campaign(campaign)``) and never names a
system.
"""

from __future__ import annotations

from systems.base import (
    Advance,
    CampaignAction,
    RollAction,
    RolledResult,
    RollHeader,
    SheetSystem,
    SpendForm,
    TrackAction,
)
from systems.registry import for_campaign, for_ruleset
from systems.stored import (
    RULE_STORED,
    is_whole_number,
    require,
    stored_int,
    stored_names,
    stored_object,
)
from systems.text import errors_text, percent_text

__all__ = [
    "RULE_STORED",
    "Advance",
    "CampaignAction",
    "RollAction",
    "RolledResult",
    "RollHeader",
    "SheetSystem",
    "SpendForm",
    "TrackAction",
    "errors_text",
    "for_campaign",
    "for_ruleset",
    "is_whole_number",
    "percent_text",
    "require",
    "stored_int",
    "stored_names",
    "stored_object",
]
