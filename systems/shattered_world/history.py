"""A Shattered World character's sheet as facts in the system's words
(``ShatteredWorld.sheet_facts``), which the activity log compares before and after each
change and the between-sessions page across sessions (docs/history.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesets import shattered_world as sw
from systems.shattered_world.sheet import UAM

BUY_IN = "Buy-in · "
"""The label of a buy-in's fact begins so ("Buy-in · Increase UAM")."""
MILESTONE = "Milestone · "
"""The label of a milestone earned begins so ("Milestone · Surrender" -> "earned")."""
FEAT = "Feat · "
"""The label of a feat's count begins so ("Feat · Defeat any enemy" -> "2")."""


def _pool(value: Any) -> str:
    """A pool as the sheet writes it, current of maximum: "15 of 20"."""
    value = value if isinstance(value, Mapping) else {}
    return f"{int(value.get('current', 0))} of {int(value.get('max', 0))}"


def sheet_facts(sheet: Mapping[str, Any], steps: Sequence[sw.DieStep] | None = None
                ) -> dict[str, str]:
    """A Shattered World sheet (``Character.sheet``, shape in
    :mod:`systems.shattered_world.system`) as facts, label -> value, in the order the sheet
    shows them:

    - the dice: "Action die" -> "d6", "Field role die" -> "d10" (the row of ``steps``, the
      campaign's die steps table, that the sheet's ``action_die_level`` names; the default
      table without one), "Die step" -> "2" (the row, counted from 1, so that a step
      bought is a change even between two rows of the same dice), "UAM" -> "+1";
    - "Hit Points" -> "20 of 24", then each statistic, "Physical Fitness" -> "15 of 20"
      (current of maximum);
    - "Species" -> "Elf" ("Human (human)" for a human, as the sheet shows it), "Field
      role", "Subrole", "Additional field roles" (comma-separated), "Proficient in" (the
      statistics' names), "Foible" ("" when none is accepted);
    - "Total achievements" -> "3", then "Milestone · <name>" -> "earned" for each
      milestone and "Feat · <name>" -> "2" for each feat, in the order logged;
    - "Buy-in · <name>" -> "level 2" for each buy-in owned ("Buy-in · Exceptional Ability,
      Each (Physical Fitness)" for one bought per statistic), "level 1 (from Mage)" for
      one bought from another field role.

    Every value a track action (a pool lost or regained, the full rest, the foible, an
    achievement and its undo) or an XP purchase (a buy-in, its statistic's or hit points'
    growth, the die step, an additional field role) moves is here. Missing keys read as a
    new sheet's.
    """
    table = tuple(steps) if steps else sw.default_die_steps()
    level = min(max(int(sheet.get("action_die_level", 0)), 0), len(table) - 1)
    step = table[level]
    buy_ins = sheet.get("buy_ins") or {}
    facts = {
        "Action die": f"d{step.action_die}",
        "Field role die": f"d{step.field_role_die}",
        "Die step": str(level + 1),
        "UAM": f"+{int(buy_ins.get(UAM, 0))}",
        "Hit Points": _pool(sheet.get("hit_points")),
    }
    statistics = sheet.get("statistics") or {}
    facts.update((name, _pool(statistics.get(code))) for code, name in sw.STATISTICS.items())
    species = str(sheet.get("species") or "")
    proficient = set(sheet.get("proficiencies") or [])
    facts.update({
        "Species": f"{species} (human)" if sheet.get("human") else species,
        "Field role": str(sheet.get("field_role") or ""),
        "Subrole": str(sheet.get("subrole") or ""),
        "Additional field roles": ", ".join(
            str(role) for role in sheet.get("additional_field_roles") or []),
        "Proficient in": ", ".join(name for code, name in sw.STATISTICS.items()
                                   if code in proficient),
        "Foible": str(sheet.get("foible") or ""),
    })
    achievements = sheet.get("achievements") or {}
    facts["Total achievements"] = str(int(achievements.get("total", 0)))
    for name in achievements.get("milestones") or []:
        facts[f"{MILESTONE}{name}"] = "earned"
    for name, count in (achievements.get("feats") or {}).items():
        facts[f"{FEAT}{name}"] = str(count)
    roles = sheet.get("buy_in_field_roles") or {}
    for key, owned in sorted(buy_ins.items()):
        if not owned:
            continue
        name, _, code = str(key).rpartition(":")
        label = (f"{name} ({sw.STATISTICS[code]})" if name and code in sw.STATISTICS
                 else str(key))
        role = roles.get(key)
        facts[f"{BUY_IN}{label}"] = f"level {owned}" + (f" (from {role})" if role else "")
    return facts
