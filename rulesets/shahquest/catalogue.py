"""Shahquest's catalogue: the rule citations, the feature types, affiliations, quirk, push
die, specialization uses and stress types, and the small checks every other module shares
(Shahquest wiki, Dice Pools / Feature Types / Plot Points; Affiliations; Stress and Trauma).
"""

from __future__ import annotations

from rulesets.dice import STEP_DICE
from rulesets.errors import RuleError

SOURCE = "Shahquest wiki"
"""Prefix of every rule citation."""

SYSTEM = "shahquest"
"""The slug stored in every ``as_dict()``."""


# The section names and helpers below (underscored) are shared by the package's modules
# only; callers outside use the public names re-exported from rulesets.shahquest.
def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_STEPS = "Dice, Step Up, Step Down, and Spreads"
_POOLS = "Dice Pools"
_FEATURE_TYPES_SECTION = "Feature Types"
_EXTRA_FEATURE = "Extra Feature"
_PUSH = "Push die"
_QUIRK = "Use a Quirk \u201cIn the negative\u201d"
_OWN_STRESS = "Using Your Own Stress"
_EFFORT = "Add to Effort total"
_EXTRA_EFFECT = "Extra Effect die"
_STRESS = "Stress and Trauma"
_STRESS_OUT = "Stressing Out and Trauma"
_DOWNTIME = "During Downtime, you may spend a Plot Point to\u2026"
_TENSION = "Tension Pool"
_BUILDING_TENSION = "Building the Tension"
_USING_TENSION = "Using the Tension Pool"
_DANGER = "Tension Pool as General Danger"
_AFFILIATIONS = "Affiliations"


def _die(size: int) -> str:
    return f"d{size}"


def _check_step_die(size: object, what: str, section: str = _STEPS) -> int:
    if not isinstance(size, int) or isinstance(size, bool) or size not in STEP_DICE:
        sizes = ", ".join(_die(s) for s in STEP_DICE)
        raise RuleError(f"{what} must be one of {sizes}, not {size!r}", _rule(section))
    return size


FEATURE_TYPES: tuple[str, ...] = (
    "affiliation",
    "attribute",
    "complication",
    "power_set",
    "quirk",
    "resource",
    "skill",
    "stress",
    "trauma",
    "asset",
)
"""Feature types a dice pool draws from, one feature of each unless plot points are spent.

The seed's nine types (Affiliations, Attributes, Complications, Power Sets, Quirks, Resources,
Skills, Stress, Trauma) plus assets, which it lists among the temporary features (Shahquest
wiki, Feature Types). A specialization is not a type: it modifies its skill."""

OTHER_DIE_SOURCES: tuple[str, ...] = ("push", "setting", "tension", "dice")
"""Where a pool die comes from when it is not a feature: the push die, the GM's setting die,
a tension die moved into an NPC's pool, or plain dice notation (:func:`pool_from_dice`)."""

AFFILIATIONS: tuple[str, ...] = ("Solo", "Partner", "Gang")
"""The three affiliations every character is ranked in (Shahquest wiki, Affiliations)."""

AFFILIATION_DICE: tuple[int, ...] = (4, 6, 8)
"""Each character assigns a d4, a d6 and a d8 to the three affiliations, one each."""

QUIRK_DIE = 8
"""A quirk normally adds a d8 (Shahquest wiki, Use a Quirk "In the negative")."""

NEGATIVE_QUIRK_DIE = 4
"""A quirk used "in the negative" adds a d4 instead and earns a plot point."""

PUSH_DIE = 6
"""A push die is a d6 bought with a plot point before the roll (Shahquest wiki, Push die)."""

NO_EFFECT_DIE = 4
"""**Decision** (RULES.md, the Cortex convention): the effect die is a d4 when no die is left
for it after the effort total. A campaign may read the seed another way: no effect die (the
table reading ``effect_die_default``, :mod:`rulesets.shahquest.readings`)."""

SPECIALIZATION_USES: tuple[str, ...] = ("step_up", "spread")
"""A specialization either steps up its skill's die or spreads it (Shahquest wiki, Dice Pools,
the example of Dice Pool: "He could have used his Specialization to Step Up the die")."""

STRESS_TYPES: tuple[str, ...] = ("physical", "mental", "emotional")
"""The three kinds of stress and trauma (Shahquest wiki, Stress and Trauma)."""


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _check_stress_type(kind: str) -> None:
    if kind not in STRESS_TYPES:
        raise RuleError(
            f"stress and trauma are physical, mental or emotional, not {kind!r}", _rule(_STRESS)
        )
