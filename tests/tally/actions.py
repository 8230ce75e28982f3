"""Tally's changes: the sheet's (``add``, the GM's ``reset``), the roll's follow-up
(``reroll``) and the GM's campaign change (``bump``); and the result a sheet roll stores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import systems
from campaigns.models import Campaign
from characters.models import Character
from rolls.log import roll_store
from rolls.models import Roll
from rulesets.errors import RuleError
from tests.tally.rules import LIMITS

TALLY_MAX = 10
"""The highest a character's tally goes."""

CAMPAIGN_TALLY_MAX = 3
"""The highest the campaign's tally goes."""


@dataclass
class TallyResult:
    """A sheet roll's result: the die's ``face``, stored as ``{"face": 4}``."""

    face: int

    def as_dict(self) -> dict[str, object]:
        """``{"face": 4}``."""
        return {"face": self.face}

    def summary(self) -> str:
        """``"rolled 4"``."""
        return f"rolled {self.face}"

    def verdict(self) -> tuple[str, int]:
        """``("rolled", 4)``: no pass or fail, the face to sort by."""
        return "rolled", self.face


def add(character: Character, data: dict[str, Any], by: object) -> str:
    """Add ``data["amount"]`` to the tally, which stops at :data:`TALLY_MAX`."""
    if character.sheet["tally"] + data["amount"] > TALLY_MAX:
        raise RuleError(f"A tally stops at {TALLY_MAX}.", LIMITS)
    character.sheet["tally"] += data["amount"]
    return f"Tally now {character.sheet['tally']}."


def reset(character: Character, data: dict[str, Any], by: object) -> str:
    """Put the tally back to 0 (the GM's)."""
    character.sheet["tally"] = 0
    return "Tally reset."


def reroll(roll: Roll, character: Character, data: dict[str, Any], by: Any, rng: Any) -> Roll:
    """Roll the die again: a follow-up of ``roll``."""
    face = rng.randint(1, 6)
    rolled = systems.RolledResult(kind="action", description="reroll", result=TallyResult(face),
                                  outcome="rolled", summary=f"rerolled {face}")
    return roll_store(campaign_id=character.campaign_id, character=character, ruleset="tally",
                      rolled=rolled, by=by, parent=roll)


def bump(campaign: Campaign, data: dict[str, Any], by: Any, rng: Any) -> tuple[str, None]:
    """Add 1 to the campaign's tally, which stops at :data:`CAMPAIGN_TALLY_MAX`."""
    tally = campaign.system_data.get("tally", 0)
    if tally >= CAMPAIGN_TALLY_MAX:
        raise RuleError(f"The campaign tally stops at {CAMPAIGN_TALLY_MAX}.", LIMITS)
    campaign.system_data["tally"] = tally + 1
    return f"Campaign tally {tally + 1}.", None
