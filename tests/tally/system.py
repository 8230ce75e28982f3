"""Tally's sheet layer: :class:`Tally` and ``SYSTEM`` (:class:`systems.SheetSystem`).

A sheet holds one number, the tally (``{"tally": 2}``); XP raises it; a roll is one die and
may spend one off the tally; the GM asks for rolls and awards two session awards, one of
them once only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

import systems
from campaigns.models import Campaign
from characters.ledger import ledger_append
from characters.models import Character, XpEntry
from rulesets.errors import RuleError
from tests.tally.actions import TallyResult, add, bump, reroll, reset
from tests.tally.forms import AddForm, CreateForm, EmptyForm, RollForm
from tests.tally.rules import LIMITS


@dataclass
class Tally(systems.SheetSystem):
    """The tests' made-up system (tests/tally/__init__.py)."""

    uses_starting_xp = True
    # Its panel's "bump" is played with at the table: the dashboard shows it (the other
    # path, configuration on the settings page only, is the four real systems').
    panel_in_play = True

    def creation_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                      ) -> forms.Form:
        return CreateForm(data)

    def new_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return {"tally": cleaned_data["tally"]}

    def creation_xp(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> int:
        return campaign.starting_xp

    def advances(self, character: Character) -> list[systems.Advance]:
        return [self.quote(character, "tally")]

    def quote(self, character: Character, key: str) -> systems.Advance:
        if key != "tally":
            raise RuleError(f"{key!r} is not for sale.", LIMITS)
        now = character.sheet["tally"]
        return systems.Advance(key="tally", label=f"Tally {now} -> {now + 1}",
                               rank_from=now, rank_to=now + 1, cost=2 * (now + 1))

    def rank(self, character: Character, key: str) -> int:
        return int(character.sheet["tally"])

    def set_rank(self, character: Character, key: str, rank: int) -> None:
        character.sheet["tally"] = rank

    def roll_form(self, character: Character, data: Mapping[str, Any] | None = None
                  ) -> forms.Form:
        return RollForm(data)

    def roll(self, character: Character, cleaned_data: dict[str, Any], rng: Any
             ) -> systems.RolledResult:
        if cleaned_data["spend"]:
            if character.sheet["tally"] < 1:
                raise RuleError("Nothing left on the tally to spend.", LIMITS)
            character.sheet["tally"] -= 1
        face = rng.randint(1, 6)
        return systems.RolledResult(kind="action", description="one die",
                                    result=TallyResult(face), outcome="rolled", net=face)

    def request_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                     ) -> forms.Form:
        return RollForm(data)

    def request_data(self, character: Character, cleaned_data: dict[str, Any]
                     ) -> tuple[dict[str, Any], str]:
        if cleaned_data["spend"] and character.sheet["tally"] < 1:
            raise RuleError("Nothing left on the tally to spend.", LIMITS)
        return {"spend": cleaned_data["spend"]}, "One die" + (
            ", spending one" if cleaned_data["spend"] else "")

    def session_awards(self, campaign: Campaign) -> tuple[str, ...]:
        return ("First count", "Counted again")

    def session_award(self, character: Character, name: str, *, by: Any, session: Any
                      ) -> XpEntry:
        if name == "First count" and character.xp_entries.filter(trait_key=name).exists():
            raise RuleError("The first count comes once.", LIMITS)
        return ledger_append(character, kind=XpEntry.Kind.AWARD, available_delta=1,
                             total_delta=1, trait_key=name, reason=name, created_by=by,
                             session=session)

    def odds(self, character: Character, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return {"odds": True, "pool_text": "one die",
                "odds_rows": [("Six", 1 / 6, "16.7 %", True)], "odds_headline": "Six 16.7 %"}


SYSTEM = Tally(
    slug="tally",
    actions={"add": systems.TrackAction(form=AddForm, apply=add, partial="sheet-tracks"),
             "reset": systems.TrackAction(form=EmptyForm, apply=reset, partial="sheet-tracks",
                                          gm_only=True)},
    campaign_actions={"bump": systems.CampaignAction(form=EmptyForm, apply=bump,
                                                     partial="system-panel")},
    roll_actions={"reroll": systems.RollAction(form=EmptyForm, apply=reroll)},
)
"""The tally system, as ``systems.for_ruleset("tally")`` finds it."""
