"""How lucky a Maelstrom roll was: the exact distribution of its net successes (Maelstrom
rules.md, Resolving the Result, Threshold, Using Specialties, Adding Experience Dice), for the
luck figures (docs/history.md, "How the dice ran"; docs/systems/maelstrom.md, "Luck").

The measure is the roll's successes as its outcome counts them: its net successes, 0 for a
failure or a botch (:attr:`rulesets.maelstrom.Resolution.net`). The generating functions
are those of :mod:`rulesets.maelstrom.odds`, computed here in whole numbers, so every
chance is an exact :class:`~fractions.Fraction`:

- a bonus die and the chain its 10s start (Using Specialties) has g = a + b*x + c*x*g**2
  with a = (difficulty - 1)/10, b = (10 - difficulty)/10, c = 1/10. Its coefficient of x**n
  has the denominator 10**(2n + 1) at most, so with y = x/100 every coefficient of every
  series here is a whole number over a power of ten: the series are lists of integers;
- a regular die that does not show a 1 is q = (difficulty - 2)/10 + (10 - difficulty)/10*x
  + x*g**2/10 with exploding tens, or (difficulty - 2)/10 + (11 - difficulty)/10*x without;
- P(b regular dice show 1, s successes in all) = C(dice, b) * 0.1**b * [x**s] q**(dice - b),
  and the net successes of (b, s) are what :func:`rulesets.maelstrom.resolve` makes of them.

Without exploding tens the distribution is whole. With them it is unbounded: the series is
taken far enough that what it leaves out is below 2**-60 (:data:`TAIL`), and that rest is
added to the highest value kept, as :class:`rulesets.luck.RollLuck` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import comb

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import DIE_SIDES, _rule
from rulesets.maelstrom.odds import ODDS_MAX_DICE
from rulesets.maelstrom.pools import AUTOMATIC_AT, ActionPool, _check_difficulty, _check_threshold

MEASURE = "successes"
"""What a Maelstrom roll's luck counts: net successes, as the outcome counts them."""

TAIL = Fraction(1, 2**60)
"""The most probability an exploding roll's distribution may leave out before its rest is
added to its highest value."""


def _net(successes: int, *, ones: int, threshold: int, automatic: int, botches: bool,
         automatic_at: str) -> int:
    """Net successes of ``successes`` rolled (dice and bonus dice) with ``ones`` 1s on the
    regular dice, as :func:`rulesets.maelstrom.resolve` counts them."""
    total = successes + automatic
    removed = min(threshold, total if automatic_at == AUTOMATIC_AT[0] else successes)
    remaining = total - removed
    kept = automatic if automatic_at == "kept" else 0
    counted = ones if botches else 0
    return max(0, remaining - kept - counted) + kept


def _times(p: Sequence[int], q: Sequence[int], degree: int) -> list[int]:
    """Product of two series in y (whole coefficients), cut after ``degree``."""
    out = [0] * (degree + 1)
    for i, pi in enumerate(p):
        if not pi:
            continue
        for j, qj in enumerate(q[:degree + 1 - i]):
            out[i + j] += pi * qj
    return out


@lru_cache(maxsize=64)
def _bonus_chain(difficulty: int, degree: int) -> tuple[int, ...]:
    """A bonus die and its chain: ``G[n]`` with P(n successes) = G[n] / 10**(2n + 1)."""
    square: list[int] = []  # (g**2) scaled: [y**k] = S[k] / 10**(2k + 2)
    g = [difficulty - 1]
    for n in range(1, degree + 1):
        k = n - 1
        square.append(sum(g[i] * g[k - i] for i in range(k + 1)))
        g.append((100 * (DIE_SIDES - difficulty) if n == 1 else 0) + square[k])
    return tuple(g)


def _regular_die(difficulty: int, exploding: bool, degree: int) -> list[int]:
    """A regular die that does not show 1: ``Q[s]`` with P(s successes) = Q[s] /
    10**(2s + 1)."""
    if not exploding:
        return [difficulty - 2, 100 * (DIE_SIDES + 1 - difficulty)][:degree + 1]
    g = _bonus_chain(difficulty, degree)
    square = _times(g, g, degree)  # [y**k] over 10**(2k + 2)
    # A 10: one success and two bonus dice, (1/10) * x * g**2.
    return [difficulty - 2, 100 * (DIE_SIDES - difficulty) + square[0],
            *square[1:degree]][:degree + 1]


def _start_degree(dice: int, difficulty: int, threshold: int, exploding: bool) -> int:
    """Successes the series first reach: every regular die's without exploding tens. With
    them, the net successes whose rest is below :data:`TAIL` (fitted to 1-20 dice at every
    difficulty: 35 to 106) plus what the threshold and the 1s may take; the series grow a
    quarter at a time should that not do."""
    if not exploding:
        return max(dice, 1)
    easier = DIE_SIDES - difficulty
    return dice + threshold + 40 + 4 * easier + (5 + 2 * easier) * dice // 10


def net_distribution(*, dice: int, difficulty: int, threshold: int = 0,
                     exploding: bool = False, automatic_successes: int = 0,
                     botches: bool = True, automatic_at: str = AUTOMATIC_AT[0],
                     reach: int = 0) -> tuple[int, tuple[Fraction, ...]]:
    """The exact distribution of a pool's net successes (Maelstrom rules.md, Resolving the
    Result, Threshold, Using Specialties), by the rules of :func:`rulesets.maelstrom.resolve`
    and the generating functions of this module's docstring.

    Args:
        dice: regular d10s, 0 to :data:`rulesets.maelstrom.ODDS_MAX_DICE`.
        difficulty: 2 to 10.
        threshold: successes removed first, >= 0.
        exploding: exploding tens (a specialty is used, or the table reads so).
        automatic_successes: successes without dice (Strong Bond), >= 0.
        botches: whether 1s on the regular dice botch (the table reading "specialty_botch").
        automatic_at: where the automatic successes count, one of
            :data:`rulesets.maelstrom.AUTOMATIC_AT`.
        reach: the distribution covers at least this many net successes where the pool can
            make them (a roll that gave more than the cut would keep).

    Returns:
        ``(low, chances)``: ``chances[i]`` is the exact chance of ``low + i`` net
        successes; they sum to 1. With exploding tens the values above the cut (what is left
        out is below :data:`TAIL`, 2**-60) are added to the highest value kept.

    Raises:
        RuleError: a value out of range, naming it.
    """
    if not 0 <= dice <= ODDS_MAX_DICE:
        raise RuleError(f"dice {dice} must be 0 to {ODDS_MAX_DICE}", _rule("Dice Pool"))
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if automatic_successes < 0 or automatic_at not in AUTOMATIC_AT:
        raise RuleError(f"automatic successes {automatic_successes} at {automatic_at!r} "
                        "cannot be counted", _rule("Rolling Willpower"))
    # Net successes never exceed the successes rolled less the threshold and the 1s: series
    # this long reach ``reach``.
    degree = max(_start_degree(dice, difficulty, threshold, exploding), reach + threshold + dice)
    return _distribution(dice, difficulty, threshold, exploding, automatic_successes, botches,
                         automatic_at, degree if exploding else max(dice, 1))


@lru_cache(maxsize=512)
def _distribution(dice: int, difficulty: int, threshold: int, exploding: bool,
                  automatic_successes: int, botches: bool, automatic_at: str, degree: int
                  ) -> tuple[int, tuple[Fraction, ...]]:
    """:func:`net_distribution` from series of ``degree`` successes at first (cached: a
    table rolls the same pools again and again)."""
    while True:
        ways = _net_ways(dice, difficulty, exploding, degree, threshold=threshold,
                         automatic=automatic_successes, botches=botches,
                         automatic_at=automatic_at)
        if not exploding:
            high = max(ways)
            break
        # Net successes up to ``high`` come from series terms up to ``degree`` alone (the
        # threshold and the 1s take at most threshold + dice): their chances are whole.
        high = degree - threshold - dice
        above = 1 - sum((p for net, p in ways.items() if net <= high), Fraction(0))
        if above < TAIL:
            ways = {net: p for net, p in ways.items() if net <= high}
            ways[high] = ways.get(high, Fraction(0)) + above
            break
        degree += degree // 4
    low = min(ways)
    return low, tuple(ways.get(value, Fraction(0)) for value in range(low, high + 1))


def _net_ways(dice: int, difficulty: int, exploding: bool, degree: int, *, threshold: int,
              automatic: int, botches: bool, automatic_at: str) -> dict[int, Fraction]:
    """Net successes -> exact chance, over every (1s, successes) the series reach."""
    q = _regular_die(difficulty, exploding, degree)
    powers = [[1]]
    for _ in range(dice):
        powers.append(_times(powers[-1], q, degree))
    # Every chance over one denominator, 10**(dice + 2*degree): whole numbers until the end.
    numerators: dict[int, int] = {}
    for ones in range(dice + 1):
        rolled = dice - ones
        weight = comb(dice, ones)  # each 1 is 1/10, each other die's share is in Q
        for successes, count in enumerate(powers[rolled]):
            if not count:
                continue
            net = _net(successes, ones=ones, threshold=threshold, automatic=automatic,
                       botches=botches, automatic_at=automatic_at)
            # q**rolled's [y**s] is over 10**(rolled + 2s); the 1s add 10**ones.
            numerators[net] = (numerators.get(net, 0)
                               + weight * count * 100 ** (degree - successes))
    whole = 10 ** (dice + 2 * degree)
    return {net: Fraction(count, whole) for net, count in numerators.items()}


def pool_distribution(pool: ActionPool, *, reach: int = 0) -> tuple[int, tuple[Fraction, ...]]:
    """:func:`net_distribution` of a pool as built or stored (soak pools never explode:
    Maelstrom rules.md, Soaking Damage)."""
    return net_distribution(
        dice=pool.dice, difficulty=pool.difficulty, threshold=pool.threshold,
        exploding=pool.exploding and pool.kind != "soak",
        automatic_successes=pool.automatic_successes, botches=pool.botches,
        automatic_at=pool.automatic_at, reach=reach)


def experience_die_distribution(pool: ActionPool, dice: Sequence[int],
                                bonus_dice: Sequence[int], *, reach: int = 0
                                ) -> tuple[int, tuple[Fraction, ...]]:
    """The exact distribution of the net successes an experience die adds to a roll whose
    regular dice showed ``dice`` and bonus dice ``bonus_dice`` (Maelstrom rules.md, Adding
    Experience Dice): one bonus die, which never botches, whose 10s chain as a specialty's do
    when the pool's tens explode; the roll is then resolved again with it.

    Args:
        pool: the roll's pool.
        dice: its regular dice's faces.
        bonus_dice: its bonus dice's faces before the experience die.
        reach: the distribution covers at least this many added net successes where the die
            can make them.

    Returns:
        ``(low, chances)`` of the net successes added (``low`` is 0: a success never lowers
        the net); an exploding chain is cut as :func:`net_distribution` cuts it.
    """
    before = sum(1 for face in (*dice, *bonus_dice) if face >= pool.difficulty)
    ones = sum(1 for face in dice if face == 1)
    return _added(before, ones, pool.difficulty, pool.threshold, pool.automatic_successes,
                  pool.botches, pool.automatic_at, pool.exploding and pool.kind != "soak",
                  reach)


@lru_cache(maxsize=512)
def _added(before: int, ones: int, difficulty: int, threshold: int, automatic: int,
           botches: bool, automatic_at: str, exploding: bool, reach: int
           ) -> tuple[int, tuple[Fraction, ...]]:
    """:func:`experience_die_distribution` of a roll with ``before`` successes rolled and
    ``ones`` 1s on its regular dice (cached: the same tuple for the same roll's state)."""

    def net(successes: int) -> int:
        return _net(successes, ones=ones, threshold=threshold, automatic=automatic,
                    botches=botches, automatic_at=automatic_at)

    start = net(before)
    degree = max(_start_degree(0, difficulty, threshold, exploding), reach + threshold + ones)
    while True:
        if exploding:
            g = _bonus_chain(difficulty, degree)
            die = {k: Fraction(count, 10 ** (2 * k + 1)) for k, count in enumerate(g)}
        else:
            hit = Fraction(DIE_SIDES + 1 - difficulty, DIE_SIDES)
            die = {0: 1 - hit, 1: hit}
        added: dict[int, Fraction] = {}
        for k, chance in die.items():
            gained = net(before + k) - start
            added[gained] = added.get(gained, Fraction(0)) + chance
        # More successes never lower the net: every added value below the one of the
        # longest chain kept comes from chains kept alone, so its chance is whole.
        high = max(added)
        above = 1 - sum((p for gained, p in added.items() if gained < high), Fraction(0))
        if not exploding or above - added[high] < TAIL:
            added[high] = above
            break
        degree += degree // 4
    low = min(added)
    return low, tuple(added.get(value, Fraction(0)) for value in range(low, high + 1))
