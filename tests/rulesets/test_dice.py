"""Step dice shared by the systems: Shahquest wiki, "Dice, Step Up, Step Down, and Spreads"."""

from __future__ import annotations

import pytest

from rulesets.dice import STEP_DICE, format_dice, parse_dice, spread, step_down, step_up
from rulesets.errors import RuleError


def test_a_step_up_moves_a_die_to_the_next_size() -> None:
    assert [step_up(size) for size in STEP_DICE] == [6, 8, 10, 12, None]


def test_two_steps_are_the_difference_between_a_d4_and_a_d8() -> None:
    assert step_up(4, 2) == 8
    assert step_down(8, 2) == 4


def test_stepping_down_a_d4_removes_the_die() -> None:
    assert [step_down(size) for size in STEP_DICE] == [None, 4, 6, 8, 10]


def test_a_spread_adds_one_die_of_the_same_size_and_a_double_spread_two() -> None:
    assert spread(8) == (8, 8)
    assert spread(6, 2) == (6, 6, 6)
    assert spread(10, 0) == (10,)


def test_steps_come_before_spreads() -> None:
    # A d6 stepped up then spread is 2d8, never d8 + d6.
    stepped = step_up(6)
    assert stepped is not None
    assert spread(stepped) == (8, 8)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: step_up(7), "d7 is not a step die"),
        (lambda: step_down(20), "d20 is not a step die"),
        (lambda: step_up(6, -1), "cannot step up by -1 steps"),
        (lambda: step_down(6, -2), "cannot step down by -2 steps"),
        (lambda: spread(8, -1), "cannot spread -1 times"),
    ],
)
def test_step_functions_refuse_what_is_not_a_step(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError, match=message):
        call()


def test_dice_notation_reads_counts_and_sizes_largest_first() -> None:
    assert parse_dice("d10 2d8 d6") == (10, 8, 8, 6)
    assert parse_dice("D6, d12 + 3d4") == (12, 6, 4, 4, 4)
    assert format_dice((6, 8, 10, 8)) == "d10 2d8 d6"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the pool is empty"),
        ("d10 banana", "'banana' is not dice notation"),
        ("0d8", "'0d8' has no dice"),
        ("d20", "'d20': d20 is not one of d4, d6, d8, d10, d12"),
    ],
)
def test_dice_notation_names_the_bad_term(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        parse_dice(text)


def test_dice_notation_accepts_other_sizes_when_asked() -> None:
    assert parse_dice("d20 d4", sizes=(4, 20)) == (20, 4)
