"""Exact odds of a Maelstrom pool, and the odds query of the ``odds`` command (Maelstrom
rules.md, Resolving the Result, Threshold, Using Specialties)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb

from rulesets.errors import RuleError
from rulesets.maelstrom.catalogue import DEFAULT_DIFFICULTY, _rule
from rulesets.maelstrom.pools import AUTOMATIC_AT, ActionPool, _check_difficulty, _check_threshold
from rulesets.maelstrom.readings import (
    SPECIALTY_BOTCH,
    STRONG_BOND,
    TENS_EXPLODE,
    MaelstromReadings,
)
from rulesets.query import Parameter, read_query

# ---------------------------------------------------------------------------------------------
# Exact odds: Maelstrom rules.md, Resolving the Result, Threshold, Using Specialties
# ---------------------------------------------------------------------------------------------

ODDS_MAX_DICE = 60
"""Largest pool :func:`odds` accepts (d10s); far above any legal pool, it bounds the work."""

ODDS_CUTOFF = 1e-12
"""Probability mass of long explosion chains that :func:`odds` may leave out, at most."""


@dataclass(frozen=True)
class MaelstromOdds:
    """Exact probabilities of a pool's outcomes.

    Attributes:
        success: P(outcome is "success"), a float in [0, 1].
        failure: P(outcome is "failure").
        botch: P(outcome is "botch").
        successes: net successes (1, 2, ...) -> probability, for successful rolls only;
            ascending, zero entries left out; sums to ``success``.
        cutoff: probability of the explosion chains too long to count (exploding pools
            only), below :data:`ODDS_CUTOFF`; ``success + failure + botch == 1 - cutoff``.
    """

    success: float
    failure: float
    botch: float
    successes: Mapping[int, float]
    cutoff: float = 0.0

    def as_dict(self) -> dict[str, object]:
        """``{"success", "failure", "botch", "successes": {"1": p, ...}}`` (the odds command)."""
        return {
            "success": self.success,
            "failure": self.failure,
            "botch": self.botch,
            "successes": {str(net): p for net, p in self.successes.items()},
        }


def _bonus_die_series(difficulty: int, degree: int) -> list[float]:
    """Successes from one bonus die and every die its tens chain, as a power series.

    With g(x) the generating function (coefficient of x**s = P(s successes)), a bonus die
    shows a 1 (ignored for bonus dice) or another failing face, a success, or a 10 (a success
    and two more bonus dice): g = a + b*x + c*x*g**2. Matching coefficients gives each one
    exactly from the lower ones, so no chain depth is ever cut; only degrees above
    ``degree`` are left out.
    """
    a = (difficulty - 1) / 10  # faces 1 .. difficulty-1
    b = (10 - difficulty) / 10  # faces difficulty .. 9
    c = 0.1  # face 10
    g = [0.0] * (degree + 1)
    g[0] = a
    square = [0.0] * (degree + 1)  # g**2, filled up to the degree needed next
    for n in range(1, degree + 1):
        # coefficient n-1 of g**2 only needs g[0..n-1], all known now.
        k = n - 1
        square[k] = sum(g[i] * g[k - i] for i in range(k + 1))
        g[n] = (b if n == 1 else 0.0) + c * square[k]
    return g


def _non_botch_die(difficulty: int, exploding: bool, degree: int) -> list[float]:
    """Successes of one regular die that does not show a 1, as a power series (sums to 0.9)."""
    low = (difficulty - 2) / 10  # faces 2 .. difficulty-1
    mid = (10 - difficulty) / 10  # faces difficulty .. 9
    q = [0.0] * (degree + 1)
    q[0] = low
    if not exploding:
        q[1] = mid + 0.1
        return q
    g = _bonus_die_series(difficulty, degree)
    g_squared = _multiply(g, g, degree)
    q[1] = mid
    for s in range(1, degree + 1):
        q[s] += 0.1 * g_squared[s - 1]  # a 10: one success and two bonus dice
    return q


def _multiply(p: Sequence[float], q: Sequence[float], degree: int) -> list[float]:
    """Product of two power series, truncated after ``degree``."""
    out = [0.0] * (degree + 1)
    q_terms = [(j, qj) for j, qj in enumerate(q) if qj]
    for i, pi in enumerate(p):
        if not pi:
            continue
        for j, qj in q_terms:
            if i + j > degree:
                break
            out[i + j] += pi * qj
    return out


def _joint(
    dice: int, difficulty: int, exploding: bool, degree: int
) -> tuple[list[tuple[int, float, list[float]]], float]:
    """(botches, P(exactly these dice botch ... ), success series) rows and the mass left out.

    P(B = b, S = s) = C(dice, b) * 0.1**b * [x**s] q**(dice - b), where q is
    :func:`_non_botch_die`: the b dice showing 1 add no successes.
    """
    q = _non_botch_die(difficulty, exploding, degree)
    powers = [[1.0] + [0.0] * degree]
    for _ in range(dice):
        powers.append(_multiply(powers[-1], q, degree))
    rows: list[tuple[int, float, list[float]]] = []
    missing = 0.0
    for b in range(dice + 1):
        weight = comb(dice, b) * 0.1**b
        series = powers[dice - b]
        missing += weight * (0.9 ** (dice - b) - sum(series))
        rows.append((b, weight, series))
    return rows, missing


def odds(
    *,
    dice: int,
    difficulty: int = DEFAULT_DIFFICULTY,
    threshold: int = 0,
    exploding: bool = False,
    automatic_successes: int = 0,
    botches: bool = True,
    automatic_at: str = "before_threshold",
) -> MaelstromOdds:
    """Exact probabilities of success, failure and botch, and of each net success count.

    The rules are those of :func:`resolve` (Maelstrom rules.md, Resolving the Result and
    Threshold): successes on every die, the threshold removes successes first, 1s on the
    regular dice cancel the rest, bonus dice never botch. With ``exploding`` (a specialty is
    used, Maelstrom rules.md, Using Specialties) every 10 adds two bonus dice whose 10s
    explode again, without limit.

    Method: generating functions in floats (error well below 1e-9). Each bonus die's chain
    is summed exactly to any number of successes (:func:`_bonus_die_series`); the only cut is
    pools with more successes than the series keeps. The series is lengthened until the
    probability left out is below :data:`ODDS_CUTOFF` (1e-12) and that mass is reported as
    ``cutoff``. Without exploding tens nothing is cut. Timings: docs/performance.md, "Exact
    odds".

    Args:
        dice: d10s rolled, 0 to :data:`ODDS_MAX_DICE` (0 is a soak pool with no Strength and
            no armor, which soaks nothing: a certain failure).
        difficulty: 2 to 10.
        threshold: successes removed first, >= 0.
        exploding: exploding tens (a specialty is used).
        automatic_successes: successes without dice (Strong Bond), >= 0.
        botches: whether 1s on the regular dice botch (the table reading
            "specialty_botch" turns it off for a specialty's roll).
        automatic_at: where the automatic successes count, as in :func:`resolve`
            ("before_threshold", "after_threshold" or "kept").

    Returns:
        A :class:`MaelstromOdds`.

    Raises:
        RuleError: dice, difficulty, threshold or automatic successes out of range, or an
            unknown ``automatic_at``; the message names the value.
    """
    if not 0 <= dice <= ODDS_MAX_DICE:
        raise RuleError(f"dice {dice} must be 0 to {ODDS_MAX_DICE}", _rule("Dice Pool"))
    _check_difficulty(difficulty)
    _check_threshold(threshold)
    if automatic_successes < 0:
        raise RuleError(
            f"automatic successes {automatic_successes} cannot be negative",
            _rule("Rolling Willpower"),
        )
    if automatic_at not in AUTOMATIC_AT:
        raise RuleError(f"unknown place for automatic successes {automatic_at!r}",
                        _rule("Rolling Willpower"))
    # Without explosions a pool has at most one success a die. With them the tail is longer
    # the lower the difficulty; this first guess, fitted to the terms needed for 1-30 dice at
    # every difficulty, leaves out less than 1e-12 in one pass. Should it not, the series
    # grows a quarter at a time until it does.
    easier = 10 - difficulty
    degree = max(dice, 1) if not exploding else 26 + 5 * easier // 2 + (5 + 2 * easier) * dice // 10
    while True:
        rows, missing = _joint(dice, difficulty, exploding, degree)
        if missing < ODDS_CUTOFF or not exploding:
            break
        degree += degree // 4
    success = failure = botch = 0.0
    by_net: dict[int, float] = {}
    before = automatic_at == AUTOMATIC_AT[0]
    kept = automatic_successes if automatic_at == "kept" else 0
    for ones, weight, series in rows:
        counted = ones if botches else 0
        for s, p in enumerate(series):
            if not p:
                continue
            # As resolve(): the threshold takes the automatic successes too only before it,
            # and a botch cancels them unless they are kept.
            if before:
                remaining = max(0, s + automatic_successes - threshold)
            else:
                remaining = max(0, s - threshold) + automatic_successes
            net = max(0, remaining - kept - counted) + kept
            probability = weight * p
            if net > 0:
                success += probability
                by_net[net] = by_net.get(net, 0.0) + probability
            elif counted > remaining - kept:
                botch += probability
            else:
                failure += probability
    # Summing thousands of float terms can land a hair above 1 (1 + 2e-15 for 60 dice at
    # difficulty 2); a probability must never print or draw as more than certain.
    return MaelstromOdds(
        success=min(success, 1.0),
        failure=min(failure, 1.0),
        botch=min(botch, 1.0),
        successes=dict(sorted(by_net.items())),
        cutoff=max(0.0, missing) if exploding else 0.0,
    )


def pool_odds(pool: ActionPool) -> MaelstromOdds:
    """Exact odds of an :class:`ActionPool` as built for the sheet; see :func:`odds`.

    Soak pools never explode (Maelstrom rules.md, Soaking Damage), whatever the pool says.

    Args:
        pool: a pool from :func:`build_action_pool`, :func:`build_willpower_pool` or
            :func:`build_soak_pool`.

    Returns:
        The :class:`MaelstromOdds` of its dice, difficulty, threshold, exploding tens and
        automatic successes.

    Raises:
        RuleError: only for a pool built by hand with values out of range.
    """
    return odds(
        dice=pool.dice,
        difficulty=pool.difficulty,
        threshold=pool.threshold,
        exploding=pool.exploding and pool.kind != "soak",
        automatic_successes=pool.automatic_successes,
        botches=pool.botches,
        automatic_at=pool.automatic_at,
    )


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("dice", int, None, "d10s in the pool"),
    Parameter("difficulty", int, DEFAULT_DIFFICULTY, "2 to 10; a die showing this or more"),
    Parameter("threshold", int, 0, "successes removed first"),
    Parameter("specialty", bool, False, "a specialty is used: exploding tens"),
    Parameter("automatic_successes", int, 0, "successes without dice (Strong Bond)"),
    TENS_EXPLODE.odds_parameter,
    SPECIALTY_BOTCH.odds_parameter,
    STRONG_BOND.odds_parameter,
)
"""Parameters of the ``odds maelstrom`` command and of a batch line: the pool, and the table
readings that change its odds (:mod:`rulesets.maelstrom.readings`)."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer an odds query (the ``odds`` command, a batch line); see :func:`odds`.

    Args:
        query: ``{"dice": 5, "difficulty": 6, "threshold": 1, "specialty": true,
            "tens_explode": "always"}``; only ``dice`` is required. The readings read as
            :func:`rulesets.maelstrom.build_action_pool` reads them: exploding tens with a
            specialty or under ``tens_explode="always"``, no botch for a specialty's roll under
            ``specialty_botch="no_botch"``, the automatic successes where ``strong_bond``
            places them.

    Returns:
        :meth:`MaelstromOdds.as_dict`.

    Raises:
        RuleError: an unknown key, a mistyped value or a value out of range.
    """
    values = read_query(query, ODDS_PARAMETERS)
    readings = MaelstromReadings.from_query(values)
    specialty = bool(values["specialty"])
    automatic = int(values["automatic_successes"])
    return odds(
        dice=int(values["dice"]),
        difficulty=int(values["difficulty"]),
        threshold=int(values["threshold"]),
        exploding=specialty or readings.tens_explode == "always",
        automatic_successes=automatic,
        botches=not (specialty and readings.specialty_botch == "no_botch"),
        automatic_at=readings.strong_bond if automatic else AUTOMATIC_AT[0],
    ).as_dict()

