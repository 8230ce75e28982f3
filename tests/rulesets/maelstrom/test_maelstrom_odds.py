"""Exact odds of Maelstrom pools (rulesets.maelstrom.odds) against the rules, three ways.

1. The worked numbers of RULES.md ("Worked numbers for your tests"), exactly.
2. icepool, an independent exact-probability library, on small pools.
3. The engine's own roll function, 200,000 times, within 4 standard errors: rolling and odds
   can never drift apart.
Plus hypothesis properties the rules imply (more dice never hurt; a harder roll never helps).
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import maelstrom as m
from rulesets.errors import RuleError


@pytest.mark.parametrize(
    ("dice", "difficulty", "threshold", "expected"),
    [
        (2, 6, 0, (65.0, 26.0, 9.0)),
        (5, 6, 0, (84.4, 10.424, 5.176)),
        (4, 6, 1, (55.25, 27.36, 17.39)),
        (3, 8, 0, (54.0, 32.4, 13.6)),
    ],
)
def test_the_worked_numbers_of_rules_md(
    dice: int, difficulty: int, threshold: int, expected: tuple[float, float, float]
) -> None:
    odds = m.odds(dice=dice, difficulty=difficulty, threshold=threshold)
    got = (odds.success * 100, odds.failure * 100, odds.botch * 100)
    assert got == pytest.approx(expected, abs=1e-10)


def test_two_dice_at_difficulty_6_give_one_or_two_net_successes() -> None:
    # Two successes: 0.5**2. One net success: one success and one die neither success nor 1.
    odds = m.odds(dice=2, difficulty=6)
    assert odds.successes == pytest.approx({1: 2 * 0.5 * 0.4, 2: 0.25}, abs=1e-15)
    assert sum(odds.successes.values()) == pytest.approx(odds.success, abs=1e-15)


def test_a_single_exploding_die_counts_its_chained_tens() -> None:
    # At difficulty 10 only 10s succeed. One die: P(exactly one success) = its 10 and both
    # bonus dice missing = 0.1 * 0.9**2; P(no bonus die succeeds | a 10) leaves 1 success.
    odds = m.odds(dice=1, difficulty=10, exploding=True)
    assert odds.successes[1] == pytest.approx(0.1 * 0.9 * 0.9, abs=1e-15)
    # Two successes: the 10 and exactly one bonus 10 whose own two bonus dice both miss.
    assert odds.successes[2] == pytest.approx(0.1 * 2 * (0.1 * 0.81) * 0.9, abs=1e-15)


def test_bonus_dice_never_botch() -> None:
    # One die at difficulty 10: a 1 is the only botch; explosions add no botch chance.
    plain = m.odds(dice=1, difficulty=10)
    exploding = m.odds(dice=1, difficulty=10, exploding=True)
    assert plain.botch == exploding.botch == pytest.approx(0.1, abs=1e-15)


def test_an_empty_pool_fails_unless_automatic_successes_carry_it() -> None:
    assert m.odds(dice=0).failure == 1.0
    assert m.odds(dice=0, automatic_successes=2, threshold=1).successes == {1: 1.0}


def test_the_threshold_removes_successes_before_botches_cancel_them() -> None:
    # One die, threshold 1: a success is removed, so the only outcomes are failure or botch.
    odds = m.odds(dice=1, threshold=1)
    assert odds.success == 0.0
    assert odds.botch == pytest.approx(0.1, abs=1e-15)


def test_a_soak_pool_never_explodes() -> None:
    soak = m.build_soak_pool(damage_kind="bashing", strength=3, armor=1)
    forced = m.ActionPool(**{**soak.__dict__, "exploding": True})
    assert m.pool_odds(forced) == m.odds(dice=4, difficulty=6)


def test_pool_odds_read_the_pool_built_for_the_sheet() -> None:
    pool = m.build_action_pool(
        traits=(
            m.TraitRef(name="Precision", kind="attribute", dots=3),
            m.TraitRef(name="Firearms", kind="ability", dots=2, group="Skills"),
        ),
        specialties=(m.SpecialtyRef(name="Pistols", ability="Firearms", advanced=False),),
        difficulty=7,
        wound_penalty=1,
    )
    assert m.pool_odds(pool) == m.odds(dice=4, difficulty=7, exploding=True)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dice": -1}, "dice -1 must be 0 to 60"),
        ({"dice": 61}, "dice 61 must be 0 to 60"),
        ({"dice": 3, "difficulty": 11}, "difficulty must be between 2 and 10, not 11"),
        ({"dice": 3, "threshold": -1}, "threshold"),
        ({"dice": 3, "automatic_successes": -1}, "automatic successes -1 cannot be negative"),
    ],
)
def test_odds_name_a_value_out_of_range(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        m.odds(**kwargs)


def test_the_odds_query_gives_the_command_line_shape() -> None:
    answer = m.odds_query({"dice": 5, "difficulty": 6, "threshold": 1, "specialty": True})
    assert set(answer) == {"success", "failure", "botch", "successes"}
    successes = answer["successes"]
    assert isinstance(successes, dict)
    assert list(successes)[:3] == ["1", "2", "3"]
    json.dumps(answer)  # serialisable as it stands
    with pytest.raises(RuleError, match="'dice' is required"):
        m.odds_query({"difficulty": 6})


# ---------------------------------------------------------------------------------------------
# icepool as an independent reference
# ---------------------------------------------------------------------------------------------

BOTCH = 1
SUCCESS = 100  # a die's value is successes * 100 + botches, so sums keep both counts


def _icepool_bonus(difficulty: int, depth: int, cap: int) -> icepool.Die:
    """Successes of a bonus die and its chain, chains cut at ``depth``, counts capped."""
    if depth == 0:
        return icepool.Die([0])
    inner = _icepool_bonus(difficulty, depth - 1, cap)
    two = (inner + inner).map(lambda s: min(s, cap))
    return icepool.d10.map(lambda f: 1 + two if f == 10 else int(f >= difficulty))


def _icepool_outcomes(
    dice: int, difficulty: int, threshold: int, exploding: bool
) -> dict[str, float]:
    cap = threshold + dice + 2  # more successes than this never change the outcome
    bonus = _icepool_bonus(difficulty, 14, cap) if exploding else None

    def regular(face: int) -> object:
        if face == 1:
            return BOTCH
        if face == 10 and bonus is not None:
            return SUCCESS * (1 + (bonus + bonus).map(lambda s: min(s, cap)))
        return SUCCESS * int(face >= difficulty)

    pool = dice @ icepool.d10.map(regular) if dice else icepool.Die([0])

    def outcome(value: int) -> str:
        successes, botches = divmod(value, SUCCESS)
        remaining = max(0, successes - threshold)
        if remaining > botches:
            return "success"
        return "botch" if botches > remaining else "failure"

    die = pool.map(outcome)
    return {name: float(die.probability(name)) for name in ("success", "failure", "botch")}


@pytest.mark.parametrize(
    ("dice", "difficulty", "threshold", "exploding"),
    [
        (1, 6, 0, False),
        (3, 7, 1, False),
        (4, 9, 0, False),
        (2, 6, 0, True),
        (3, 8, 1, True),
        (2, 10, 2, True),
    ],
)
def test_odds_agree_with_icepool(
    dice: int, difficulty: int, threshold: int, exploding: bool
) -> None:
    ours = m.odds(dice=dice, difficulty=difficulty, threshold=threshold, exploding=exploding)
    reference = _icepool_outcomes(dice, difficulty, threshold, exploding)
    # Exploding chains are cut at depth 14 in the reference: < 1e-9 of probability.
    assert ours.success == pytest.approx(reference["success"], abs=1e-9)
    assert ours.failure == pytest.approx(reference["failure"], abs=1e-9)
    assert ours.botch == pytest.approx(reference["botch"], abs=1e-9)


def test_net_successes_agree_with_icepool_without_explosions() -> None:
    dice, difficulty, threshold = 5, 7, 1

    def net(value: int) -> int:
        successes, botches = divmod(value, SUCCESS)
        return max(0, successes - threshold) - botches

    faces = icepool.d10.map(lambda f: BOTCH if f == 1 else SUCCESS * int(f >= difficulty))
    reference = (dice @ faces).map(net)
    ours = m.odds(dice=dice, difficulty=difficulty, threshold=threshold)
    for count, p in ours.successes.items():
        assert p == pytest.approx(float(reference.probability(count)), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# The engine's own dice, 200,000 times
# ---------------------------------------------------------------------------------------------


def test_rolling_agrees_with_the_odds_over_200000_rolls() -> None:
    pool = m.ActionPool(
        kind="action",
        dice=5,
        difficulty=7,
        threshold=1,
        exploding=True,
        wound_penalty=0,
        traits=("Precision", "Firearms"),
        specialties=("Pistols",),
        experience_die_allowed=True,
    )
    rng = random.Random(20261121)
    rolls = 200_000
    seen = Counter(m.roll(pool, rng).outcome for _ in range(rolls))
    odds = m.pool_odds(pool)
    for outcome, p in (("success", odds.success), ("failure", odds.failure), ("botch", odds.botch)):
        standard_error = math.sqrt(p * (1 - p) / rolls)
        assert abs(seen[outcome] / rolls - p) < 4 * standard_error, outcome


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

pools = st.fixed_dictionaries(
    {
        "dice": st.integers(0, 14),
        "difficulty": st.integers(2, 10),
        "threshold": st.integers(0, 5),
        "exploding": st.booleans(),
    }
)


@settings(max_examples=60, deadline=None)
@given(pools)
def test_every_distribution_sums_to_one(pool: dict[str, int]) -> None:
    odds = m.odds(**pool)
    assert odds.success + odds.failure + odds.botch + odds.cutoff == pytest.approx(1, abs=1e-9)
    assert sum(odds.successes.values()) == pytest.approx(odds.success, abs=1e-9)
    assert 0 <= odds.cutoff < m.ODDS_CUTOFF


@settings(max_examples=60, deadline=None)
@given(pools.filter(lambda pool: pool["difficulty"] >= 3))
def test_more_dice_never_lower_the_success_chance(pool: dict[str, int]) -> None:
    more = {**pool, "dice": pool["dice"] + 1}
    assert m.odds(**more).success >= m.odds(**pool).success - 1e-12


def test_at_difficulty_2_an_extra_die_can_lower_the_success_chance() -> None:
    # The one exception to "more dice never hurt", found by the property above: at difficulty
    # 2 every die but a 1 succeeds, so a second die adds a success only as often as a first
    # die does, while its 1 can cancel the first die's success. One die: 90 %; two: 81 %
    # (the pair succeeds only when neither shows a 1). Checked for difficulties 2-10,
    # thresholds 0-5 and 0-25 dice: difficulty 2 is the only one where it happens.
    assert m.odds(dice=1, difficulty=2).success == pytest.approx(0.9, abs=1e-15)
    assert m.odds(dice=2, difficulty=2).success == pytest.approx(0.81, abs=1e-15)


@settings(max_examples=60, deadline=None)
@given(pools.filter(lambda pool: pool["difficulty"] < 10))
def test_a_higher_difficulty_never_raises_the_success_chance(pool: dict[str, int]) -> None:
    harder = {**pool, "difficulty": pool["difficulty"] + 1}
    assert m.odds(**harder).success <= m.odds(**pool).success + 1e-12


@settings(max_examples=60, deadline=None)
@given(pools)
def test_a_higher_threshold_never_raises_the_success_chance(pool: dict[str, int]) -> None:
    harder = {**pool, "threshold": pool["threshold"] + 1}
    assert m.odds(**harder).success <= m.odds(**pool).success + 1e-12


@pytest.mark.parametrize(("dice", "difficulty"), [(9, 7), (1, 2), (20, 6), (60, 2)])
def test_long_explosion_chains_are_cut_only_below_one_in_a_trillion(
    dice: int, difficulty: int
) -> None:
    # (9, 7) needs the series lengthened past its first guess; (60, 2) is the longest tail.
    odds = m.odds(dice=dice, difficulty=difficulty, exploding=True)
    assert 0 <= odds.cutoff < 1e-12
    assert odds.success + odds.failure + odds.botch == pytest.approx(1, abs=1e-11)
