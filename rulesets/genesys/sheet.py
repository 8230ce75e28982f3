"""The Genesys character sheet in the engine: the skill list, the Average Human's
creation rules (career skills, free ranks) and the wound and strain thresholds (Genesys
Core Rulebook, where the seed is silent)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from rulesets.errors import RuleError
from rulesets.genesys.catalogue import CHARACTERISTICS, _rule

# ---------------------------------------------------------------------------------------------
# The character sheet: skills, thresholds, creation and experience (its costs: costs.py).
#
# The seed (Genesys dice pool) says how a pool is built from a characteristic and a skill but
# has no character creation and no advancement. What follows takes them from the public
# Genesys Core Rulebook, cited as "Genesys Core Rulebook, <step or section>"; every choice
# beyond it is marked **Decision** and repeated in docs/systems/genesys.md.
# ---------------------------------------------------------------------------------------------

CORE_RULEBOOK = "Genesys Core Rulebook"
"""Prefix of the citations of the public core rules (where the seed is silent)."""


def _core(section: str) -> str:
    return f"{CORE_RULEBOOK}, {section}"


@dataclass(frozen=True)
class SkillInfo:
    """One skill of a campaign's list: its name, the characteristic it is linked to (Genesys
    dice pool, Skill and Characteristic) and the core rulebook's group ("General", "Combat",
    "Social", "Knowledge", "Magic"; "Custom" for a skill the GM adds)."""

    name: str
    characteristic: str
    group: str = "Custom"

    def as_dict(self) -> dict[str, str]:
        """``{"name", "characteristic", "group"}`` for ``Campaign.system_data``."""
        return {"name": self.name, "characteristic": self.characteristic, "group": self.group}


CORE_SKILLS: tuple[SkillInfo, ...] = (
    SkillInfo("Alchemy", "Intellect", "General"),
    SkillInfo("Astrocartography", "Intellect", "General"),
    SkillInfo("Athletics", "Brawn", "General"),
    SkillInfo("Computers", "Intellect", "General"),
    SkillInfo("Cool", "Presence", "General"),
    SkillInfo("Coordination", "Agility", "General"),
    SkillInfo("Discipline", "Willpower", "General"),
    SkillInfo("Driving", "Agility", "General"),
    SkillInfo("Mechanics", "Intellect", "General"),
    SkillInfo("Medicine", "Intellect", "General"),
    SkillInfo("Operating", "Intellect", "General"),
    SkillInfo("Perception", "Cunning", "General"),
    SkillInfo("Piloting", "Agility", "General"),
    SkillInfo("Resilience", "Brawn", "General"),
    SkillInfo("Riding", "Agility", "General"),
    SkillInfo("Skulduggery", "Cunning", "General"),
    SkillInfo("Stealth", "Agility", "General"),
    SkillInfo("Streetwise", "Cunning", "General"),
    SkillInfo("Survival", "Cunning", "General"),
    SkillInfo("Vigilance", "Willpower", "General"),
    SkillInfo("Arcana", "Intellect", "Magic"),
    SkillInfo("Divine", "Willpower", "Magic"),
    SkillInfo("Primal", "Cunning", "Magic"),
    SkillInfo("Brawl", "Brawn", "Combat"),
    SkillInfo("Gunnery", "Agility", "Combat"),
    SkillInfo("Melee", "Brawn", "Combat"),
    SkillInfo("Melee (Light)", "Brawn", "Combat"),
    SkillInfo("Melee (Heavy)", "Brawn", "Combat"),
    SkillInfo("Ranged", "Agility", "Combat"),
    SkillInfo("Ranged (Light)", "Agility", "Combat"),
    SkillInfo("Ranged (Heavy)", "Agility", "Combat"),
    SkillInfo("Charm", "Presence", "Social"),
    SkillInfo("Coercion", "Willpower", "Social"),
    SkillInfo("Deception", "Cunning", "Social"),
    SkillInfo("Leadership", "Presence", "Social"),
    SkillInfo("Negotiation", "Presence", "Social"),
    SkillInfo("Knowledge", "Intellect", "Knowledge"),
)
"""Every skill of the Genesys Core Rulebook (Chapter 3, Skills) with its linked
characteristic and group. A setting uses a subset (Genesys Core Rulebook, Skills: "Melee"
or "Melee (Light)" and "Melee (Heavy)", magic skills only where there is magic)."""

DEFAULT_SKILL_NAMES: tuple[str, ...] = (
    "Athletics", "Computers", "Cool", "Coordination", "Discipline", "Driving", "Mechanics",
    "Medicine", "Operating", "Perception", "Piloting", "Resilience", "Riding", "Skulduggery",
    "Stealth", "Streetwise", "Survival", "Vigilance",
    "Brawl", "Melee", "Ranged", "Gunnery",
    "Charm", "Coercion", "Deception", "Leadership", "Negotiation",
    "Knowledge",
)
"""A new campaign's skill list. **Decision:** the core rulebook's general, social and
knowledge skills, and the single-skill combat variants (Brawl, Melee, Ranged, Gunnery), without
the setting-bound ones (Alchemy, Astrocartography, the magic skills, the Light/Heavy splits);
the GM adds those from :data:`CORE_SKILLS` or anything custom."""


def default_skills() -> tuple[SkillInfo, ...]:
    """The skills of :data:`DEFAULT_SKILL_NAMES`, in that order."""
    by_name = {skill.name: skill for skill in CORE_SKILLS}
    return tuple(by_name[name] for name in DEFAULT_SKILL_NAMES)


SKILL_NAME_MAX = 40
"""Longest skill name a GM may add, in characters (a layout guard, not a rule)."""

_SKILL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ()'&/,.-]*")


def check_skill(name: str, characteristic: str) -> SkillInfo:
    """Check a skill the GM adds or changes: a name of 1-40 letters, digits, spaces and
    ``( ) ' & / , . -``, starting with a letter or digit, and a characteristic of
    :data:`CHARACTERISTICS` (Genesys dice pool, Skill and Characteristic: every skill is tied
    to one characteristic).

    Returns:
        A :class:`SkillInfo` with the name stripped; the core group when the name is a core
        skill's, else "Custom".

    Raises:
        RuleError: an empty, over-long or oddly spelt name, or an unknown characteristic.
    """
    rule = _rule("Skill and Characteristic")
    clean = " ".join(name.split())
    if not clean:
        raise RuleError("give the skill a name", rule)
    if len(clean) > SKILL_NAME_MAX:
        raise RuleError(f"a skill name is at most {SKILL_NAME_MAX} characters", rule)
    if _SKILL_NAME.fullmatch(clean) is None:
        raise RuleError(
            f"{clean!r}: use letters, digits, spaces and ( ) ' & / , . - in a skill name", rule
        )
    if characteristic not in CHARACTERISTICS:
        raise RuleError(
            f"{characteristic!r} is not a characteristic ({', '.join(CHARACTERISTICS)})", rule
        )
    group = next((s.group for s in CORE_SKILLS if s.name.casefold() == clean.casefold()),
                 "Custom")
    return SkillInfo(clean, characteristic, group)


# --- Creation: Genesys Core Rulebook, Step 2 (Average Human), Step 3 (Career), Step 4 -------

STARTING_CHARACTERISTIC = 2
"""Every characteristic of the Average Human archetype (Genesys Core Rulebook, Step 2:
Select a Character Archetype, Average Human: Brawn 2, Agility 2, Intellect 2, Cunning 2,
Willpower 2, Presence 2). **Decision:** archetypes are out of scope; every character starts
as an Average Human and raises characteristics with XP during creation."""

AVERAGE_HUMAN_STARTING_XP = 110
"""The Average Human's starting experience (Genesys Core Rulebook, Step 2). **Decision:** the
app gives the campaign's own starting XP (the GM sets it; 110 matches the core rules); this
number is shown to the GM as the core rules' value."""

CAREER_SKILLS = 8
"""Career skills a career gives (Genesys Core Rulebook, Step 3: Choose a Career). **Decision:**
with no careers catalogued, the player picks eight skills of the campaign's list."""

FREE_CAREER_RANKS = 4
"""Career skills that gain one free rank at creation (Genesys Core Rulebook, Step 3)."""

FREE_NON_CAREER_RANKS = 2
"""Non-career skills an Average Human gains one free rank in at creation (Genesys Core
Rulebook, Step 2, Average Human: "one rank in each of two different non-career skills")."""

CREATION_SKILL_MAX = 2
"""No skill goes above rank 2 during character creation (Genesys Core Rulebook, Step 4:
Invest Experience Points)."""

WOUND_BASE = STRAIN_BASE = 10
"""Average Human: wound threshold 10 + Brawn, strain threshold 10 + Willpower (Genesys Core
Rulebook, Step 2; Step 5: Determine Derived Attributes)."""

TRACK_MAX = 99
"""Most wounds or strain a sheet records (a typing-mistake guard: a threshold is at most 15,
and the rules only ask whether it is exceeded)."""


def wound_threshold(brawn: int) -> int:
    """Wound threshold of an Average Human: 10 + Brawn (Genesys Core Rulebook, Step 2)."""
    return WOUND_BASE + brawn


def strain_threshold(willpower: int) -> int:
    """Strain threshold of an Average Human: 10 + Willpower (Genesys Core Rulebook, Step 2)."""
    return STRAIN_BASE + willpower


def check_career(
    skills: Iterable[str], career: Iterable[str], free_career: Iterable[str],
    free_other: Iterable[str],
) -> None:
    """Check a new character's career skills and free ranks against the campaign's skills.

    Rules (Genesys Core Rulebook, Step 3: Choose a Career; Step 2, Average Human):
    exactly :data:`CAREER_SKILLS` career skills (all of them when the list is shorter);
    one free rank in exactly :data:`FREE_CAREER_RANKS` of the career skills; one free rank in
    exactly :data:`FREE_NON_CAREER_RANKS` different non-career skills (fewer only when the
    list has fewer).

    Args:
        skills: the campaign's skill names.
        career: the chosen career skills.
        free_career: career skills with a free rank.
        free_other: non-career skills with a free rank.

    Raises:
        RuleError: the first rule broken, named in the message.
    """
    known = list(skills)
    career, free_career, free_other = set(career), set(free_career), set(free_other)
    for name in sorted(career | free_career | free_other):
        if name not in known:
            raise RuleError(f"{name!r} is not on this campaign's skill list",
                            _core("Step 3: Choose a Career"))
    want = min(CAREER_SKILLS, len(known))
    if len(career) != want:
        raise RuleError(
            f"choose exactly {want} career skills (you chose {len(career)})",
            _core("Step 3: Choose a Career"),
        )
    outside = sorted(free_career - career)
    if outside:
        raise RuleError(
            f"{', '.join(outside)}: a free career rank goes to one of your career skills",
            _core("Step 3: Choose a Career"),
        )
    want = min(FREE_CAREER_RANKS, len(career))
    if len(free_career) != want:
        raise RuleError(
            f"choose exactly {want} career skills for a free rank (you chose "
            f"{len(free_career)})",
            _core("Step 3: Choose a Career"),
        )
    inside = sorted(free_other & career)
    if inside:
        raise RuleError(
            f"{', '.join(inside)}: the Average Human's free ranks go to non-career skills",
            _core("Step 2: Select a Character Archetype, Average Human"),
        )
    want = min(FREE_NON_CAREER_RANKS, len(known) - len(career))
    if len(free_other) != want:
        raise RuleError(
            f"choose exactly {want} different non-career skills for the Average Human's free "
            f"ranks (you chose {len(free_other)})",
            _core("Step 2: Select a Character Archetype, Average Human"),
        )
