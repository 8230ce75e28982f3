"""Genesys's checks of stored data it did not make itself (an import writes rows as they
were): :func:`check_sheet` and :func:`check_system_data`, behind the ``SheetSystem`` methods
of the same names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets import genesys
from systems import require, stored_int, stored_names, stored_object
from systems.genesys.sheet import RULE_SKILLS, SKILL_LIST_MAX

# --- Stored data's checks (SheetSystem.check_sheet, check_system_data) ---------------------


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """:meth:`GenesysSystem.check_sheet`: exactly the six characteristics, each
    :data:`~rulesets.genesys.CHARACTERISTIC_MIN` to ``CHARACTERISTIC_MAX``, and skills of 0
    to :data:`~rulesets.genesys.SKILL_RANKS_MAX` ranks (Genesys dice pool, Skill and
    Characteristic); career skills a list of names, the career a name, ``creation`` true or
    false; wounds and strain each a current value 0 to :data:`~rulesets.genesys.TRACK_MAX`
    and a threshold 1 to it (the track actions' guard).

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    characteristics = stored_object(sheet, "characteristics", "The characteristics")
    require(set(characteristics) == set(genesys.CHARACTERISTICS),
            f"the characteristics must be exactly {', '.join(genesys.CHARACTERISTICS)}",
            RULE_SKILLS)
    for name, rating in characteristics.items():
        stored_int(rating, name, genesys.CHARACTERISTIC_MIN, genesys.CHARACTERISTIC_MAX,
                   RULE_SKILLS)
    for name, rank in stored_object(sheet, "skills", "The skills").items():
        stored_int(rank, f"The skill {name}", 0, genesys.SKILL_RANKS_MAX, RULE_SKILLS)
    stored_names(sheet.get("career_skills", []), "The career skills")
    require(isinstance(sheet.get("career", ""), str), "the career must be a name")
    require(isinstance(sheet.get("creation", False), bool),
            "'creation' must be true or false")
    for track in ("wounds", "strain"):
        values = stored_object(sheet, track, f"The {track}")
        stored_int(values.get("current"), f"Current {track}", 0, genesys.TRACK_MAX)
        stored_int(values.get("threshold"), f"The {track} threshold", 1, genesys.TRACK_MAX)


def check_system_data(data: Mapping[str, Any]) -> None:
    """:meth:`GenesysSystem.check_system_data`: the skill list is a list of at most
    :data:`SKILL_LIST_MAX` objects, each a skill the GM could have added
    (:func:`rulesets.genesys.check_skill`, as the ``skill-set`` action checks it), no name
    twice (ignoring case).

    Raises:
        RuleError: the first skill refused (Genesys dice pool, Skill and Characteristic).
    """
    skills = data.get("skills", [])
    require(isinstance(skills, list), "the campaign's skill list must be a list")
    require(len(skills) <= SKILL_LIST_MAX,
            f"The list holds at most {SKILL_LIST_MAX} skills, not {len(skills)}.", RULE_SKILLS)
    seen: set[str] = set()
    for skill in skills:
        require(isinstance(skill, dict), f"a skill of the list is not an object: {skill!r}")
        checked = genesys.check_skill(str(skill.get("name", "")),
                                      str(skill.get("characteristic", "")))
        # The skill-add action links a second entry of the same name instead of listing it.
        require(checked.name.casefold() not in seen,
                f"{checked.name} is on the skill list twice.", RULE_SKILLS)
        seen.add(checked.name.casefold())
