"""The changes a Genesys sheet and campaign take: wounds and strain, finishing and reopening
creation (:class:`~systems.TrackAction`), and the GM's skill list and Destiny pool
(:class:`~systems.CampaignAction`; the pool's moves are in :mod:`systems.genesys.destiny`),
with their tables :data:`ACTIONS` and :data:`CAMPAIGN_ACTIONS` (the ``SYSTEM``'s ``actions``
and ``campaign_actions``).

Each ``apply`` runs with its row locked by the generic service that calls it
(:mod:`systems.base`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulesets import genesys
from rulesets.errors import RuleError
from systems import CampaignAction, TrackAction
from systems.genesys.destiny import destiny_flip, destiny_roll, destiny_set
from systems.genesys.forms import (
    DestinyFlipForm,
    DestinyRollForm,
    DestinySetForm,
    NoFieldsForm,
    SkillRemoveForm,
    SkillSetForm,
    TrackForm,
)
from systems.genesys.sheet import (
    RULE_SKILLS,
    RULE_STEP4,
    RULE_TRACKS,
    SKILL_LIST_MAX,
    read_sheet,
    skills_of,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character
    from rolls.models import Roll
    from rulesets.dice import Rng


# --- Track actions -------------------------------------------------------------------------


def _track_apply(track: str) -> Callable[[Character, dict[str, Any], User], str]:
    """The :class:`TrackAction` ``apply`` of ``track`` ("wounds" or "strain")."""

    def apply(character: Character, data: dict[str, Any], by: User) -> str:
        """Suffer or heal wounds or strain (Genesys Core Rulebook, Step 5: wound and strain
        thresholds; exceeding one incapacitates). Raises RuleError to heal more than there
        is or to pass :data:`rulesets.genesys.TRACK_MAX`."""
        sheet = read_sheet(character)
        current, amount = sheet[track]["current"], data["amount"]
        if data["direction"] == "heal":
            if amount > current:
                raise RuleError(
                    f"{character.name} has {current} {track} to heal, not {amount}.",
                    RULE_TRACKS)
            current -= amount
            verb = "Healed"
        else:
            if current + amount > genesys.TRACK_MAX:
                raise RuleError(f"A sheet records at most {genesys.TRACK_MAX} {track}.",
                                RULE_TRACKS)
            current += amount
            verb = "Suffered"
        sheet[track]["current"] = current
        character.sheet = sheet
        threshold = sheet[track]["threshold"]
        noun = "wound" if track == "wounds" and amount == 1 else track
        message = f"{verb} {amount} {noun}: {current}/{threshold}."
        if current > threshold:
            message += (" Wounds exceed" if track == "wounds" else " Strain exceeds") + (
                " the threshold: incapacitated.")
        return message

    return apply


def _finish_creation(character: Character, data: dict[str, Any], by: User
                     ) -> str:
    """End character creation: characteristics are no longer for sale and skills may rise
    above rank 2 (Genesys Core Rulebook, Step 4). Raises RuleError if already ended."""
    sheet = read_sheet(character)
    if not sheet["creation"]:
        raise RuleError(f"{character.name}'s creation is already finished.", RULE_STEP4)
    sheet["creation"] = False
    character.sheet = sheet
    return "Creation finished: characteristics are now fixed; skills train up to rank 5."


def _reopen_creation(character: Character, data: dict[str, Any], by: User
                     ) -> str:
    """The GM reopens creation (a rebuild). Raises RuleError if it is still open."""
    sheet = read_sheet(character)
    if sheet["creation"]:
        raise RuleError(f"{character.name} is still in creation.", RULE_STEP4)
    sheet["creation"] = True
    character.sheet = sheet
    return "Creation reopened: characteristics can be bought again."


# --- Campaign actions (the GM's skill list) -------------------------------------------------


def _store_skills(campaign: Campaign, skills: list[genesys.SkillInfo]) -> None:
    data = dict(campaign.system_data or {})
    data["skills"] = [s.as_dict() for s in skills]
    campaign.system_data = data


def _skill_set(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
               ) -> tuple[str, Roll | None]:
    """Add a skill to the campaign's list, or link an existing one (same name, any case) to
    another characteristic. Raises RuleError for a bad name or a full list."""
    new = genesys.check_skill(data["name"], data["characteristic"])
    skills = skills_of(campaign)
    for index, skill in enumerate(skills):
        if skill.name.casefold() == new.name.casefold():
            if skill.characteristic == new.characteristic:
                raise RuleError(f"{skill.name} already uses {skill.characteristic}.",
                                RULE_SKILLS)
            skills[index] = genesys.SkillInfo(skill.name, new.characteristic, skill.group)
            _store_skills(campaign, skills)
            return f"{skill.name} now uses {new.characteristic}.", None
    if len(skills) >= SKILL_LIST_MAX:
        raise RuleError(f"The list holds at most {SKILL_LIST_MAX} skills.", RULE_SKILLS)
    skills.append(new)
    _store_skills(campaign, skills)
    return f"Added {new.name} ({new.characteristic}).", None


def _skill_remove(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                  ) -> tuple[str, Roll | None]:
    """Remove a skill from the campaign's list. Ranks on sheets stay (shown as off the list,
    not rolled) and come back if the skill is added again. Raises RuleError for an unknown
    skill or the last one."""
    skills = skills_of(campaign)
    kept = [s for s in skills if s.name != data["name"]]
    if len(kept) == len(skills):
        raise RuleError(f"{data['name']!r} is not on this campaign's skill list.",
                        RULE_SKILLS)
    if not kept:
        raise RuleError("The list needs at least one skill.", RULE_SKILLS)
    _store_skills(campaign, kept)
    return f"Removed {data['name']}.", None


def _skills_reset(campaign: Campaign, data: dict[str, Any], by: User, rng: Rng
                  ) -> tuple[str, Roll | None]:
    """Put the default skill list back (:data:`rulesets.genesys.DEFAULT_SKILL_NAMES`)."""
    _store_skills(campaign, list(genesys.default_skills()))
    return "The skill list is back to the default.", None


# --- The tables (the SYSTEM's actions and campaign_actions) --------------------------------

SKILLS = "gx-skills-panel"
"""The partial of dashboard.html (and DOM id) the skill list's changes answer with."""
DESTINY = "gx-destiny"
"""The partial of dashboard.html (and DOM id) the Destiny pool's moves answer with."""


ACTIONS: dict[str, TrackAction] = {
    "wounds": TrackAction(form=TrackForm, apply=_track_apply("wounds"),
                          partial="sheet-tracks"),
    "strain": TrackAction(form=TrackForm, apply=_track_apply("strain"),
                          partial="sheet-tracks"),
    "finish-creation": TrackAction(form=NoFieldsForm, apply=_finish_creation,
                                   partial="sheet-creation"),
    "reopen-creation": TrackAction(form=NoFieldsForm, apply=_reopen_creation,
                                   partial="sheet-creation", gm_only=True),
}
"""The sheet's in-place changes, by the name their URL carries."""

CAMPAIGN_ACTIONS: dict[str, CampaignAction] = {
    "skill-set": CampaignAction(form=SkillSetForm, apply=_skill_set,
                                partial=SKILLS),
    "skill-remove": CampaignAction(form=SkillRemoveForm, apply=_skill_remove,
                                   partial=SKILLS),
    "skills-reset": CampaignAction(form=NoFieldsForm, apply=_skills_reset,
                                   partial=SKILLS),
    # The Destiny pool (systems.genesys.destiny): its own part of the panel answers.
    "destiny-set": CampaignAction(form=DestinySetForm, apply=destiny_set, partial=DESTINY),
    "destiny-roll": CampaignAction(form=DestinyRollForm, apply=destiny_roll, partial=DESTINY),
    "destiny-flip": CampaignAction(form=DestinyFlipForm, apply=destiny_flip, partial=DESTINY),
}
"""The GM's changes of the campaign's skill list and Destiny pool, by the name their URL
carries."""
