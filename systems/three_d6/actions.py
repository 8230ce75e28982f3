"""3d6's actions: health and level changed in place on the sheet (track actions) and the
GM's trait and subtrait names (campaign actions), with the tables :mod:`systems.three_d6.system`
hands the shared views."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.errors import RuleError
from systems import CampaignAction, TrackAction
from systems.three_d6.forms import EmptyForm, HealthForm, LevelForm, NamesForm
from systems.three_d6.sheet import (
    RULE_HEALTH,
    SUBTRAIT_SLOTS,
    TRAIT_SLOTS,
    default_names,
    health,
    system_data,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng


# --- Track actions --------------------------------------------------------------------------


def health_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """Take ``data["amount"]`` health points of damage or heal them (``data["change"]``);
    returns the message (decision: a plain health track, 0 to its maximum, that no roll
    reads). Raises RuleError for a change that would do nothing. Runs with the character
    locked."""
    current, maximum = health(character)
    amount = data["amount"]
    if data["change"] == "damage":
        if current == 0:
            raise RuleError(f"{character.name} is already at 0 health.", RULE_HEALTH)
        after = max(0, current - amount)
        message = f"{character.name} took {current - after} damage: {after}/{maximum} health."
    else:
        if current >= maximum:
            raise RuleError(f"{character.name} is already at full health ({maximum}).",
                            RULE_HEALTH)
        after = min(maximum, current + amount)
        message = f"{character.name} healed {after - current}: {after}/{maximum} health."
    character.sheet = {**character.sheet, "health": {"current": after, "max": maximum}}
    return message


def level_apply(character: Character, data: dict[str, Any], by: User) -> str:
    """Set the level (the tie-breakers' "level or DR", 3d6 Rolls and Tests, Tie Breakers) and
    the maximum health; current health is kept, cut down to a lower maximum. GM only."""
    maximum = data["health_max"]
    current = min(health(character)[0], maximum)
    character.sheet = {**character.sheet, "level": data["level"],
                       "health": {"current": current, "max": maximum}}
    return f"{character.name} is level {data['level']}, {current}/{maximum} health."


# --- Campaign actions -----------------------------------------------------------------------


def names_apply(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                ) -> tuple[str, Roll | None]:
    """Rename the campaign's traits and subtraits (decision: the GM names them, 3d6 Rolls and
    Tests names none). Sheets keep their modifiers: they are keyed by slot."""
    campaign.system_data = {
        **system_data(campaign),
        "traits": [data[slot].strip() for slot in TRAIT_SLOTS],
        "subtraits": [data[slot].strip() for slot in SUBTRAIT_SLOTS],
    }
    return "Trait and subtrait names saved.", None


def names_reset_apply(campaign: Campaign, data: dict[str, Any], by: User,
                      rng: Rng) -> tuple[str, Roll | None]:
    """Put the default names back (:func:`default_names`); sheets keep their modifiers."""
    campaign.system_data = {**system_data(campaign), **default_names()}
    return "The default names are back.", None


# --- The tables -----------------------------------------------------------------------------


ACTIONS: dict[str, TrackAction] = {
    "health": TrackAction(form=HealthForm, apply=health_apply, partial="sheet-tracks"),
    "level": TrackAction(form=LevelForm, apply=level_apply, partial="sheet-tracks",
                         gm_only=True),
}
"""The sheet's track actions by name (``SheetSystem.actions``)."""

CAMPAIGN_ACTIONS: dict[str, CampaignAction] = {
    "names": CampaignAction(form=NamesForm, apply=names_apply, partial="system-panel"),
    "names-reset": CampaignAction(form=EmptyForm, apply=names_reset_apply,
                                  partial="system-panel"),
}
"""The GM's campaign actions by name (``SheetSystem.campaign_actions``)."""
