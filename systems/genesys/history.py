"""A Genesys character's sheet as facts in the system's words (``GenesysSystem.sheet_facts``),
which the activity log compares before and after each change and the between-sessions page
across sessions (docs/history.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesets import genesys

SKILL = "Skill · "
"""The label of a skill's fact begins so ("Skill · Ranged"): a skill's name is the GM's
text, and the prefix keeps it from taking a characteristic's or a track's label."""


def _track(value: Any, threshold: int) -> str:
    """"3 of 12"; "13 of 12, incapacitated" past the threshold (Genesys Core Rulebook,
    Step 5: exceeding a threshold incapacitates)."""
    value = value if isinstance(value, Mapping) else {}
    current = int(value.get("current", 0))
    limit = int(value.get("threshold", threshold))
    return f"{current} of {limit}" + (", incapacitated" if current > limit else "")


def sheet_facts(sheet: Mapping[str, Any], skill_order: Sequence[str] = ()
                ) -> dict[str, str]:
    """A Genesys sheet (``Character.sheet``, shape in :mod:`systems.genesys.system`) as
    facts, label -> value, in the order the sheet shows them:

    - "Career" -> "Soldier";
    - "Wounds" and "Strain" -> "3 of 12" (current of threshold; ", incapacitated" past it);
    - the six characteristics, "Brawn" -> "3";
    - "Creation" -> "open" or "finished" (characteristics for sale or not);
    - "Career skills" -> their names, comma-separated;
    - one fact per skill with ranks, "Skill · Ranged" -> "2", in ``skill_order`` (the
      campaign's list) and then, by name, the ranked skills off it. A skill at 0 ranks has
      no fact (its label is absent: the log reads it as "").

    Every value a track action or an XP purchase moves is here: wounds and strain (the
    track actions), creation (finishing and reopening it), characteristics, skills and the
    thresholds Brawn and Willpower carry (XP). Missing keys read as a new sheet's.
    """
    characteristics = sheet.get("characteristics") or {}
    ratings = {name: int(characteristics.get(name, genesys.STARTING_CHARACTERISTIC))
               for name in genesys.CHARACTERISTICS}
    facts = {
        "Career": str(sheet.get("career") or ""),
        "Wounds": _track(sheet.get("wounds"), genesys.wound_threshold(ratings["Brawn"])),
        "Strain": _track(sheet.get("strain"),
                         genesys.strain_threshold(ratings["Willpower"])),
    }
    facts.update((name, str(rating)) for name, rating in ratings.items())
    facts["Creation"] = "open" if sheet.get("creation") else "finished"
    facts["Career skills"] = ", ".join(str(name) for name in sheet.get("career_skills") or [])
    skills = {str(name): int(rank) for name, rank in (sheet.get("skills") or {}).items()
              if rank}
    listed = [name for name in skill_order if name in skills]
    for name in [*listed, *sorted(set(skills) - set(listed))]:
        facts[f"{SKILL}{name}"] = str(skills[name])
    return facts
