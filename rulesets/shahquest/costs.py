"""Shahquest advancement: XP prices of stepping up a feature's die and of a specialization.

Advancement is not in the seed (RULES.md: "Unknown"); this is a house rule, documented in
docs/systems/shahquest.md.
"""

from __future__ import annotations

from rulesets import dice as _dice
from rulesets.errors import RuleError
from rulesets.shahquest.catalogue import _STEPS, _check_step_die

ADVANCEABLE_TYPES: tuple[str, ...] = ("attribute", "skill", "power_set")
"""Feature types whose die XP steps up (**Decision**: the seed has no advancement rules;
affiliations stay d4, d6 and d8 once each, a quirk is always a d8, resources, assets and
stress are bought or made in play, not with XP)."""

SPECIALIZATION_COST = 5
"""XP a new specialization of a skill costs (**Decision**, see :data:`ADVANCEABLE_TYPES`)."""

NEW_FEATURE_DIE = _dice.STEP_DICE[0]
"""The die a new attribute, skill or power bought with XP starts at: a d4, the smallest step
die (**Decision**, see :data:`NEW_FEATURE_COST`)."""

NEW_FEATURE_COST = NEW_FEATURE_DIE
"""XP a new attribute, skill or power costs: 4, the size of the d4 it starts at
(**Decision**: the seed has no advancement rules; as with :func:`step_up_cost`, a die costs
the size it reaches, and a new feature is the step from no die to the smallest, so the
whole ladder from nothing to d12 costs 4 + 36 = 40 XP)."""

ADVANCEMENT_RULE = "House rule, Shahquest advancement (docs/systems/shahquest.md)"
"""The rule cited by advancement refusals: ours, not the seed's."""


def step_up_cost(die: int) -> int:
    """XP to step a feature's die up once: the new die's size (**Decision**: the seed has no
    advancement rules; a d6 -> d8 costs 8 XP, so each step costs more than the last and the
    whole ladder d4 -> d12 costs 6 + 8 + 10 + 12 = 36 XP).

    Args:
        die: the current die size (4-10).

    Returns:
        The price in XP.

    Raises:
        RuleError: not a step die, or a d12 (the largest die; it cannot step up).
    """
    _check_step_die(die, "the die to step up", _STEPS)
    stepped = _dice.step_up(die)
    if stepped is None:
        raise RuleError("a d12 is the largest die and cannot step up", ADVANCEMENT_RULE)
    return stepped
