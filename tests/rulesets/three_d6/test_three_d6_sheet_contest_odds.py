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
    """P(first wins), by rolling every combination of faces through resolve_contest (each
    side's roll resolved once, then every pair contested with both tie-break draws)."""
    faces = range(1, 7)

    def sides(pool: three_d6.TestPool, facts: TieFacts) -> list[three_d6.ContestSide]:
        return [three_d6.ContestSide(result=three_d6.resolve_test(pool, roll), is_pc=facts.is_pc,
                                     is_defender=facts.is_defender, level=facts.level,
                                     modifier=facts.modifier)
                for roll in itertools.product(faces, repeat=pool.dice)]

    mine, theirs = sides(first, first_facts), sides(second, second_facts)
    # The stored result's round trip is test_three_d6.py's to check, once per shape.
    wins = sum(three_d6.resolve_contest(a, b, _Fixed(draw)).winner == 1
               for a in mine for b in theirs for draw in (1, 2))
    return Fraction(wins, 2 * len(mine) * len(theirs))


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
