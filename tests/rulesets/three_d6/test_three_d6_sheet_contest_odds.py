"""Exact contest odds and the facts-only tie-breaker added for the 3d6 sheet (3d6 Rolls and
Tests, Contesting; Tie Breakers), checked against brute-force enumeration of the dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesets import three_d6
from rulesets.three_d6 import TieFacts, build_test, contest_odds, tie_break


def brute_force_win(first: three_d6.TestPool, second: three_d6.TestPool,
                    first_facts: TieFacts, second_facts: TieFacts) -> Fraction:
    """P(first wins), by rolling every combination of faces through resolve_contest."""
    wins = Fraction(0)
    faces = range(1, 7)
    first_rolls = list(itertools.product(faces, repeat=first.dice))
    second_rolls = list(itertools.product(faces, repeat=second.dice))
    weight = Fraction(1, len(first_rolls) * len(second_rolls))
    for mine in first_rolls:
        for theirs in second_rolls:
            sides = [
                three_d6.ContestSide(result=three_d6.resolve_test(first, mine),
                                     is_pc=first_facts.is_pc,
                                     is_defender=first_facts.is_defender,
                                     level=first_facts.level, modifier=first_facts.modifier),
                three_d6.ContestSide(result=three_d6.resolve_test(second, theirs),
                                     is_pc=second_facts.is_pc,
                                     is_defender=second_facts.is_defender,
                                     level=second_facts.level, modifier=second_facts.modifier),
            ]
            draws = [three_d6.ContestResult.from_dict(
                {**three_d6.resolve_contest(*sides, _Fixed(d)).as_dict()}) for d in (1, 2)]
            wins += weight * Fraction(sum(r.winner == 1 for r in draws), 2)
    return wins


class _Fixed:
    def __init__(self, face: int) -> None:
        self.face = face

    def randint(self, a: int, b: int) -> int:
        return self.face


@pytest.mark.parametrize(("first", "second", "first_facts", "second_facts"), [
    (build_test(modifier=2), build_test(modifier=0, favor=1),
     TieFacts(is_pc=True, modifier=2), TieFacts(is_pc=False, modifier=0)),
    (build_test(modifier=1, disfavor=1), build_test(modifier=1),
     TieFacts(is_pc=True, modifier=1), TieFacts(is_pc=True, is_defender=True, modifier=1)),
    (build_test(modifier=0), build_test(modifier=0),
     TieFacts(is_pc=True), TieFacts(is_pc=True)),
    (build_test(modifier=5, disfavor=3), build_test(modifier=-4, disfavor=1),
     TieFacts(is_pc=True, modifier=5), TieFacts(is_pc=True, modifier=-4)),
])
def test_contest_odds_match_every_combination_of_dice(first, second, first_facts, second_facts):
    odds = contest_odds(first, second, first_facts, second_facts)

    assert odds.win == brute_force_win(first, second, first_facts, second_facts)
    assert odds.win + odds.lose == 1


def test_two_equal_pcs_with_a_random_tie_break_win_half_the_time():
    odds = contest_odds(build_test(), build_test(), TieFacts(is_pc=True), TieFacts(is_pc=True))

    assert odds.win == Fraction(1, 2)
    assert odds.tie_winner is None and odds.tie_decided_by == "random"


def test_a_side_with_no_dice_loses_even_to_a_critical_failure():
    odds = contest_odds(build_test(disfavor=3), build_test(modifier=-10),
                        TieFacts(is_pc=True), TieFacts(is_pc=False))

    assert odds.win == 0 and odds.tie == 0


@pytest.mark.parametrize(("first", "second", "expected"), [
    (TieFacts(is_pc=True), TieFacts(is_pc=False, is_defender=True), (1, "pc_beats_npc")),
    (TieFacts(is_pc=False), TieFacts(is_pc=False, is_defender=True), (2, "defender")),
    (TieFacts(is_pc=True, is_defender=True, modifier=1),
     TieFacts(is_pc=True, is_defender=True, modifier=2), (2, "modifier")),
    (TieFacts(is_pc=True, modifier=2, level=4), TieFacts(is_pc=True, modifier=2, level=3),
     (1, "level")),
    (TieFacts(is_pc=True, level=3), TieFacts(is_pc=True, level=3), (None, "random")),
])
def test_the_tie_breakers_apply_in_the_seeds_order(first, second, expected):
    assert tie_break(first, second) == expected
