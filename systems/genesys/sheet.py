"""Reading Genesys's stored JSON: the rules' names and limits the sheet layer shares, the
campaign's skill list (``Campaign.system_data``) and the character's sheet
(``Character.sheet``), both laid out in :mod:`systems.genesys.system`.

The other modules of the package (actions, checks, XP, the system) read through these, so
this one imports none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets import genesys
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character

RULE_STEP4 = "Genesys Core Rulebook, Step 4: Invest Experience Points"
RULE_TRACKS = "Genesys Core Rulebook, Step 5: Determine Derived Attributes"
RULE_SKILLS = "Genesys dice pool, Skill and Characteristic"
SKILL_LIST_MAX = 80
"""Most skills a campaign's list holds (a layout guard; the core rulebook has 37)."""
ABBREVIATIONS = {"Brawn": "Br", "Agility": "Ag", "Intellect": "Int", "Cunning": "Cun",
                 "Willpower": "Will", "Presence": "Pr"}


# --- Reading the JSON ----------------------------------------------------------------------


def skills_of(campaign: Campaign) -> list[genesys.SkillInfo]:
    """The campaign's skill list (``system_data["skills"]``), or the default list when the
    campaign has none yet (a campaign made by a factory has ``{}``). No query."""
    stored = (campaign.system_data or {}).get("skills")
    if not isinstance(stored, list) or not stored:
        return list(genesys.default_skills())
    return [genesys.SkillInfo(str(s.get("name", "")), str(s.get("characteristic", "")),
                              str(s.get("group", "Custom")))
            for s in stored if isinstance(s, dict)]


def _skill(campaign: Campaign, name: str) -> genesys.SkillInfo:
    for skill in skills_of(campaign):
        if skill.name == name:
            return skill
    raise RuleError(f"{name!r} is not on this campaign's skill list", RULE_SKILLS)


def readings_of(character: Character) -> genesys.GenesysReadings:
    """The table readings of the character's campaign (loaded with the character, as every
    caller here has it: no query), as the engine takes them (docs/systems/genesys.md, Table
    readings); a reading no longer offered reads as the seed's."""
    return genesys.GenesysReadings.from_values(character.campaign.readings, strict=False)


def read_sheet(character: Character) -> dict[str, Any]:
    """The character's sheet with every key present (defaults for a missing one), as a new
    dict the caller may change and store back in ``character.sheet``."""
    sheet = dict(character.sheet or {})
    stored = sheet.get("characteristics") or {}
    sheet["characteristics"] = {
        name: int(stored.get(name, genesys.STARTING_CHARACTERISTIC))
        for name in genesys.CHARACTERISTICS}
    sheet["skills"] = {str(k): int(v) for k, v in (sheet.get("skills") or {}).items() if v}
    sheet["career_skills"] = [str(n) for n in sheet.get("career_skills") or []]
    sheet["career"] = str(sheet.get("career") or "")
    sheet["creation"] = bool(sheet.get("creation", False))
    chars = sheet["characteristics"]
    for track, threshold in (("wounds", genesys.wound_threshold(chars["Brawn"])),
                             ("strain", genesys.strain_threshold(chars["Willpower"]))):
        value = sheet.get(track) or {}
        sheet[track] = {"current": int(value.get("current", 0)),
                        "threshold": int(value.get("threshold", threshold))}
    return sheet


def _tracks(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """Wounds and strain of a :func:`read_sheet` sheet as the sheet and the GM's card show
    them: name, label, current, threshold, exceeded (incapacitated), left before it."""
    views = []
    for track in ("wounds", "strain"):
        current, threshold = sheet[track]["current"], sheet[track]["threshold"]
        views.append({"name": track, "label": track.capitalize(), "current": current,
                      "threshold": threshold, "exceeded": current > threshold,
                      "left": max(0, threshold - current)})
    return views


def _characteristics(sheet: dict[str, Any]) -> list[tuple[str, int, str]]:
    """``(name, rating, abbreviation)`` of the six characteristics, in the engine's order."""
    chars = sheet["characteristics"]
    return [(n, chars[n], ABBREVIATIONS[n]) for n in genesys.CHARACTERISTICS]


def _starting_pool(rating: int, ranks: int) -> genesys.DicePool:
    """The ability and proficiency dice a check starts with, before the difficulty: the
    higher of rating and ranks in dice, the lower of them upgraded (Genesys dice pool, Skill
    and Characteristic). :func:`rulesets.genesys.build_pool` applies the same rule to the
    roll; the sheet keeps these two lines because build_pool raises where the sheet should
    still draw a row (a stored skill tied to no known characteristic)."""
    higher, lower = max(rating, ranks), min(rating, ranks)
    return genesys.DicePool(ability=higher - lower, proficiency=lower)
