"""The luck of many rolls (rulesets/luck.py): the distribution of their total against an
independent computation (every outcome multiplied out for a few rolls, a seeded simulation
for many), and the percentile at its edges."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest

from rulesets.luck import (
    RollLuck,
    Tally,
    luck_by_group,
    luck_of,
    outcome_mix,
    running_luck,
    total_distribution,
)


def successes(dice: int, target: int, actual: int) -> RollLuck:
    """A pool of ``dice`` d10s, each a success on ``target`` or more: binomial."""
    p = Fraction(11 - target, 10)
    return RollLuck("successes", 0, tuple(
        math.comb(dice, k) * p**k * (1 - p)**(dice - k) for k in range(dice + 1)), actual)


def net(actual: int) -> RollLuck:
    """A measure that can go below zero: one d6's face minus 3 (-2 to 3)."""
    return RollLuck("successes", -2, (Fraction(1, 6),) * 6, actual)


def enumerated(lucks: list[RollLuck]) -> Fraction:
    """The percentile of the actual total, every combination of outcomes multiplied out."""
    actual = sum(luck.actual for luck in lucks)
    below = at = Fraction(0)
    for combo in itertools.product(*(list(enumerate(luck.chances)) for luck in lucks)):
        total = sum(luck.low + i for luck, (i, _) in zip(lucks, combo, strict=True))
        chance = math.prod(p for _, p in combo)
        if total < actual:
            below += chance
        elif total == actual:
            at += chance
    return 100 * (below + at / 2)


SMALL_SETS = [
    [successes(3, 7, 2), successes(2, 6, 0), net(3)],
    [successes(4, 8, 1), successes(4, 8, 1), net(-2), net(0)],
    [successes(1, 10, 1), RollLuck("successes", 3, (Fraction(1, 3), Fraction(2, 3)), 4)],
]


@pytest.mark.parametrize("lucks", SMALL_SETS)
def test_the_percentile_is_exactly_what_enumerating_every_outcome_gives(lucks):
    luck = luck_of(lucks)
    assert luck is not None and luck.exact
    assert luck.percentile == enumerated(lucks)
    assert luck.expected == sum(luck.expected for luck in lucks)
    assert luck.actual == sum(luck.actual for luck in lucks)


@pytest.mark.parametrize("lucks", SMALL_SETS)
def test_a_rounded_total_stays_within_its_stated_bound_of_the_exact_one(lucks):
    luck = luck_of(lucks, exact_bits=0)
    assert luck is not None and not luck.exact
    assert 0 < luck.error < 1e-15
    assert abs(luck.percentile - enumerated(lucks)) <= luck.error


def test_the_total_distribution_sums_to_one_and_matches_enumeration_value_by_value():
    lucks = SMALL_SETS[0]
    total = total_distribution(lucks)
    assert sum(total.numerators) == total.denominator
    expected: dict[int, Fraction] = {}
    for combo in itertools.product(*(list(enumerate(luck.chances)) for luck in lucks)):
        value = sum(luck.low + i for luck, (i, _) in zip(lucks, combo, strict=True))
        expected[value] = expected.get(value, Fraction(0)) + math.prod(p for _, p in combo)
    assert {total.low + i: Fraction(n, total.denominator)
            for i, n in enumerate(total.numerators) if n} == expected


def table(rng: random.Random, rolls: int) -> list[RollLuck]:
    """``rolls`` rolls of mixed pools, each with an outcome drawn from its own odds."""
    lucks = []
    for _ in range(rolls):
        dice, target = rng.randint(1, 7), rng.randint(4, 9)
        luck = successes(dice, target, 0) if rng.random() < 0.8 else net(0)
        actual = luck.low + rng.choices(range(len(luck.chances)), weights=luck.chances)[0]
        lucks.append(RollLuck(luck.measure, luck.low, luck.chances, actual))
    return lucks


def test_a_large_tables_total_agrees_with_a_seeded_simulation_of_its_rolls():
    rng = random.Random(35)
    lucks = table(rng, 200)
    total = total_distribution(lucks, exact_bits=0)  # as a campaign's thousands are
    assert total.error > 0
    tables = 1500
    weights = [list(itertools.accumulate(float(p) for p in luck.chances)) for luck in lucks]
    simulated = sorted(
        sum(luck.low + rng.choices(range(len(luck.chances)), cum_weights=cum)[0]
            for luck, cum in zip(lucks, weights, strict=True))
        for _ in range(tables))
    for quantile in (0.1, 0.25, 0.5, 0.75, 0.9):
        value = simulated[int(quantile * tables)]
        chance = float(total.chance_below(value))
        observed = (sum(1 for v in simulated if v < value)
                    + sum(1 for v in simulated if v == value) / 2) / tables
        # Five standard errors of a proportion over 1,500 tables: a seeded run, never flaky.
        assert abs(observed - chance) < 5 * math.sqrt(chance * (1 - chance) / tables)


def test_a_thousand_rolls_are_rounded_within_a_billionth_of_a_point():
    lucks = table(random.Random(7), 1000)
    luck = luck_of(lucks)
    assert luck is not None and 0 < luck.error < 1e-9
    exact = luck_of(lucks[:200], exact_bits=1 << 40)
    rounded = luck_of(lucks[:200], exact_bits=0)
    assert exact is not None and rounded is not None and exact.exact
    assert abs(exact.percentile - rounded.percentile) <= rounded.error


def test_one_roll_is_its_own_odds():
    luck = luck_of([successes(2, 6, 1)])
    # Two dice at 1/2 each: P(0) = 1/4, P(1) = 1/2.
    assert luck is not None and luck.percentile == 100 * (Fraction(1, 4) + Fraction(1, 4))
    assert luck.expected == 1


def test_every_roll_at_its_minimum_is_half_the_chance_of_that_below_one_percent():
    lucks = [successes(3, 7, 0), net(-2)]
    luck = luck_of(lucks)
    assert luck is not None
    assert luck.percentile == 100 * Fraction(27, 125) * Fraction(1, 6) / 2


def test_every_roll_at_its_maximum_leaves_half_the_chance_of_that_above():
    lucks = [successes(3, 7, 3), net(3), net(3)]
    luck = luck_of(lucks)
    assert luck is not None
    assert luck.percentile == 100 - 100 * Fraction(8, 125) * Fraction(1, 36) / 2


def test_no_rolls_have_no_luck_and_two_measures_do_not_add_up():
    assert luck_of([]) is None
    with pytest.raises(ValueError, match="different measures"):
        luck_of([successes(1, 6, 1), RollLuck("effort", 1, (Fraction(1),), 1)])


def test_running_luck_is_the_total_so_far_minus_what_was_expected():
    assert running_luck([successes(2, 6, 2), successes(2, 6, 0)]) == [1, 0]


def test_the_outcome_mix_counts_rolls_per_value_against_the_expected_count():
    mix = outcome_mix([successes(1, 6, 1), successes(1, 6, 1), successes(2, 6, 0)])
    assert [(o.value, o.actual, o.expected) for o in mix] == [
        (0, 1, Fraction(1, 2) + Fraction(1, 2) + Fraction(1, 4)),
        (1, 2, Fraction(1, 2) + Fraction(1, 2) + Fraction(1, 2)),
        (2, 0, Fraction(1, 4)),
    ]


def test_the_table_s_luck_from_its_characters_totals_is_the_luck_of_all_its_rolls():
    groups = {"Rook": SMALL_SETS[0], "Wren": SMALL_SETS[1], "Nobody": []}
    each, table = luck_by_group(groups)
    assert set(each) == {"Rook", "Wren"}
    assert each["Rook"] == luck_of(SMALL_SETS[0]) and each["Wren"] == luck_of(SMALL_SETS[1])
    assert table == luck_of(SMALL_SETS[0] + SMALL_SETS[1])
    assert luck_by_group({"Nobody": []}) == ({}, None)


def test_a_rounded_table_from_its_characters_stays_within_its_bound():
    rng = random.Random(11)
    groups = {name: table(rng, 150) for name in ("Rook", "Wren", "Vex")}
    each, rounded = luck_by_group(groups, exact_bits=0)
    exact = luck_of([luck for lucks in groups.values() for luck in lucks], exact_bits=1 << 40)
    assert rounded is not None and exact is not None and exact.exact
    assert 0 < rounded.error < 1e-15
    assert abs(rounded.percentile - exact.percentile) <= rounded.error
    assert rounded.expected == exact.expected and rounded.actual == exact.actual


def test_a_tally_grown_roll_by_roll_gives_the_figures_of_all_its_rolls_at_once():
    groups = {"Rook": SMALL_SETS[0] + SMALL_SETS[2], "Wren": SMALL_SETS[1]}
    # The two characters' rolls taken in turn, as a table makes them.
    made: list[tuple[str, RollLuck]] = []
    for turn in range(max(len(lucks) for lucks in groups.values())):
        made += [(name, lucks[turn]) for name, lucks in groups.items() if turn < len(lucks)]
    tally: Tally[str] = Tally()
    tally.add(made[:5])
    for roll in made[5:]:
        tally.add([roll])
    assert tally.figures() == luck_by_group(groups)
    every = [luck for _, luck in made]
    assert tally.mix() == outcome_mix(every)
    running, table = tally.running()
    assert running["Rook"] == pytest.approx(running_luck(groups["Rook"]))
    assert table == pytest.approx(running_luck(every))


def test_a_tally_that_grows_past_exact_stays_within_its_bound_of_the_exact_figure():
    rng = random.Random(12)
    lucks = table(rng, 400)
    tally: Tally[str] = Tally(exact_bits=1 << 17)
    for start in range(0, 400, 50):
        tally.add([("Rook", luck) for luck in lucks[start:start + 50]])
        assert tally.rounded == (start > 0)
    each, rounded = tally.figures()
    exact = luck_of(lucks, exact_bits=1 << 40)
    assert rounded is not None and exact is not None and exact.exact and not rounded.exact
    assert 0 < rounded.error < 1e-14
    assert abs(rounded.percentile - exact.percentile) <= rounded.error
    assert (rounded.expected, rounded.actual, rounded.rolls) == (
        exact.expected, exact.actual, 400)
    with pytest.raises(ValueError, match="different measures"):
        tally.add([("Rook", RollLuck("effort", 1, (Fraction(1),), 1))])
