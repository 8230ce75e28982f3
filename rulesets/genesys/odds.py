"""Exact odds of a Genesys pool, and the odds query of the ``odds`` command (Genesys dice
pool, Successes and Failures; Advantages and Threats; Triumph and Despair)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rulesets.genesys.catalogue import DIE_SIDES, DIE_TYPES, FACES
from rulesets.genesys.pools import DicePool, modify_pool, parse_pool
from rulesets.genesys.readings import BOOST_SETBACK, GenesysReadings
from rulesets.query import Parameter, read_query

# ---------------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------------


def _marginal(die: str, value: dict[str, int]) -> tuple[tuple[int, int], ...]:
    """(symbol score, number of faces) pairs of one die, the score a signed sum."""
    counts: dict[int, int] = {}
    for face in FACES[die]:
        score = sum(value.get(symbol, 0) for symbol in face)
        counts[score] = counts.get(score, 0) + 1
    return tuple(sorted(counts.items()))


_NET_SUCCESS_VALUE = {"success": 1, "triumph": 1, "failure": -1, "despair": -1}
_NET_ADVANTAGE_VALUE = {"advantage": 1, "threat": -1}
_NET_SUCCESS_FACES = {die: _marginal(die, _NET_SUCCESS_VALUE) for die in DIE_TYPES}
_NET_ADVANTAGE_FACES = {die: _marginal(die, _NET_ADVANTAGE_VALUE) for die in DIE_TYPES}


def _convolve(
    counts: Mapping[str, int], faces: Mapping[str, tuple[tuple[int, int], ...]]
) -> dict[int, int]:
    """Number of face combinations giving each total score, die by die (exact ints)."""
    ways: dict[int, int] = {0: 1}
    for die, count in counts.items():
        steps = faces[die]
        for _ in range(count):
            new: dict[int, int] = {}
            for total, n in ways.items():
                for score, m in steps:
                    key = total + score
                    new[key] = new.get(key, 0) + n * m
            ways = new
    return ways


def _distribution(ways: Mapping[int, int], combinations: int) -> tuple[tuple[int, Fraction], ...]:
    return tuple((value, Fraction(ways[value], combinations)) for value in sorted(ways))


@dataclass(frozen=True)
class Odds:
    """Exact odds of a pool, as :class:`fractions.Fraction` probabilities (Genesys dice
    pool, Successes and Failures; Advantages and Threats; Triumph and Despair).

    Attributes:
        pool: the pool.
        success: P(net successes >= 1), i.e. the check succeeds.
        advantage: P(net advantage >= 1).
        threat: P(net threat >= 1).
        triumph: P(at least one triumph).
        despair: P(at least one despair).
        net_successes: the distribution of net successes (negative = net failures) as
            ascending ``(value, probability)`` pairs, zero probabilities left out.
        net_advantage: the distribution of net advantage (negative = net threat), likewise.
    """

    pool: DicePool
    success: Fraction
    advantage: Fraction
    threat: Fraction
    triumph: Fraction
    despair: Fraction
    net_successes: tuple[tuple[int, Fraction], ...]
    net_advantage: tuple[tuple[int, Fraction], ...]

    def as_dict(self) -> dict[str, object]:
        """The command-line JSON shape: ``{"success", "advantage", "threat", "triumph",
        "despair"}``, each a float probability."""
        return {
            "success": float(self.success),
            "advantage": float(self.advantage),
            "threat": float(self.threat),
            "triumph": float(self.triumph),
            "despair": float(self.despair),
        }


def odds(pool: DicePool | str) -> Odds:
    """Exact odds of a pool (Genesys dice pool, Interpreting the Pool).

    Every probability the command line reports is a function of one signed score per die,
    so no joint state is needed: net successes (success and triumph +1, failure and despair
    -1) and net advantage (advantage +1, threat -1) are each convolved die by die over the
    few distinct scores of each die, counting face combinations as exact integers; a
    triumph's or despair's chance is one minus the product of "none on this die". Cost is
    O(dice^2 * 5) and the result exact (Fractions); docs/performance.md, "Exact odds", has
    the timings.

    Args:
        pool: a :class:`DicePool`, or letter notation for :func:`parse_pool`.

    Returns:
        An :class:`Odds`.

    Raises:
        RuleError: notation :func:`parse_pool` refuses.
    """
    if isinstance(pool, str):
        pool = parse_pool(pool)
    counts = pool.counts()
    combinations = 1
    no_triumph = no_despair = 1
    for die, count in counts.items():
        sides = DIE_SIDES[die]
        combinations *= sides**count
        no_triumph *= sum(1 for f in FACES[die] if "triumph" not in f) ** count
        no_despair *= sum(1 for f in FACES[die] if "despair" not in f) ** count
    net_successes = _convolve(counts, _NET_SUCCESS_FACES)
    net_advantage = _convolve(counts, _NET_ADVANTAGE_FACES)
    return Odds(
        pool=pool,
        success=Fraction(sum(n for v, n in net_successes.items() if v >= 1), combinations),
        advantage=Fraction(sum(n for v, n in net_advantage.items() if v >= 1), combinations),
        threat=Fraction(sum(n for v, n in net_advantage.items() if v <= -1), combinations),
        triumph=1 - Fraction(no_triumph, combinations),
        despair=1 - Fraction(no_despair, combinations),
        net_successes=_distribution(net_successes, combinations),
        net_advantage=_distribution(net_advantage, combinations),
    )


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        name="pool",
        kind=str,
        default=None,
        help="dice in letter notation, e.g. '2A 1P 2D 1C 1B 1S' (A ability, P proficiency, "
        "D difficulty, C challenge, B boost, S setback)",
    ),
    BOOST_SETBACK.odds_parameter,
)
"""Parameters of a Genesys odds query: ``pool`` (required, letter notation), and the table
reading that changes a written pool's odds, ``boost_setback``
(:mod:`rulesets.genesys.readings`). The other reading, ``impossible_destiny``, changes how a
check's pool is built, which a written pool already is."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query: ``{"pool": "2A 1P 2D"}`` -> :meth:`Odds.as_dict`.

    Args:
        query: parameter name -> value, as a command line or batch line gives it;
            ``{"pool": "2A 1D 1B 1S", "boost_setback": "cancel"}`` rolls the pool as the house
            rule leaves it (here "2A 1D", as :func:`modify_pool` cancels).

    Returns:
        ``{"success": p, "advantage": p, "threat": p, "triumph": p, "despair": p}``.

    Raises:
        RuleError: a bad query shape (:func:`rulesets.query.read_query`), pool notation
            (:func:`parse_pool`; Genesys dice pool, Basic Dice Pool), or a reading's value
            that is not one of its choices.
    """
    values = read_query(query, ODDS_PARAMETERS)
    readings = GenesysReadings.from_query(values)
    pool = values["pool"]
    assert isinstance(pool, str)
    return odds(modify_pool(parse_pool(pool), readings=readings)).as_dict()
