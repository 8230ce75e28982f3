"""The advancement house rule of the Shahquest engine (docs/systems/shahquest.md: the seed
has no advancement rules)."""

from __future__ import annotations

import pytest

from rulesets import shahquest
from rulesets.errors import RuleError


@pytest.mark.parametrize(("die", "cost"), [(4, 6), (6, 8), (8, 10), (10, 12)])
def test_a_step_up_costs_the_new_dies_size(die: int, cost: int) -> None:
    assert shahquest.step_up_cost(die) == cost


def test_the_whole_ladder_costs_36_xp() -> None:
    assert sum(shahquest.step_up_cost(die) for die in (4, 6, 8, 10)) == 36


@pytest.mark.parametrize("die", [12, 5, 20])
def test_a_d12_or_a_die_off_the_ladder_cannot_step_up(die: int) -> None:
    with pytest.raises(RuleError):
        shahquest.step_up_cost(die)


def test_xp_steps_up_attributes_skills_and_powers_only() -> None:
    assert shahquest.ADVANCEABLE_TYPES == ("attribute", "skill", "power_set")
    assert shahquest.SPECIALIZATION_COST == 5
