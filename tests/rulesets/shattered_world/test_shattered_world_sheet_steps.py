"""The die steps table (the seed's lost "Buy-in AD FRD Notes" table, campaign data): parsing,
checking and the default (Shattered World Core Engine, Action Dice and Field Role Dice;
RULES.md section 3 Decision)."""

from __future__ import annotations

import pytest

from rulesets import shattered_world as sw


def test_the_default_steps_start_at_a_d4_action_die_and_a_d8_field_role_die() -> None:
    steps = sw.default_die_steps()

    assert steps[0] == sw.DieStep(4, 8, 0)
    assert [(s.action_die, s.field_role_die, s.cost) for s in steps[1:]] == [
        (6, 10, 10), (8, 12, 20), (10, 20, 30), (12, 20, 40), (20, 20, 50)]


def test_a_typed_table_round_trips_through_its_lines() -> None:
    text = "d4 d8 0 start\n\n  d6   d10 5\nD8 d12 15 Knighted at last"

    steps = sw.parse_die_steps(text)

    assert steps[2] == sw.DieStep(8, 12, 15, "Knighted at last")
    assert sw.parse_die_steps("\n".join(s.line() for s in steps)) == steps


def test_the_chart_of_a_table_is_every_die_it_uses() -> None:
    assert sw.die_steps_chart(sw.default_die_steps()) == (4, 6, 8, 10, 12, 20)


@pytest.mark.parametrize(("text", "message"), [
    ("", "needs at least the starting step"),
    ("d4 d8 3", "row 1 is the starting step: its cost must be 0"),
    ("d4 d8 0\nd4 d10 5", "row 2: the action die must grow"),
    ("d4 d8 0\nd6 d6 5", "row 2: the field role die cannot shrink"),
    ("d6 d4 0", "row 1: the field role die d4 is smaller than the action die d6"),
    ("d4 d8 0\nd6 d10 0", "row 2: a step costs at least 1 XP"),
    ("d4 d8 0\nsix ten", "'six ten' is not a die step"),
])
def test_a_bad_table_is_refused_naming_the_row(text: str, message: str) -> None:
    with pytest.raises(sw.RuleError, match=message):
        sw.parse_die_steps(text)
