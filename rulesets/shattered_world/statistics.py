"""Statistics as resource pools, hit points and the full rest (Shattered World Core Engine,
Mechanical (Non-Roleplay) Actions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _STATISTICS

STATISTICS: dict[str, str] = {
    "PF": "Physical Fitness",
    "MA": "Mental Acuity",
    "EN": "Endurance",
    "PR": "Perception",
    "SP": "Spirit",
    "EM": "Empathy",
}
"""The six Statistics by abbreviation (RULES.md section 3, from the character-creation page)."""

HIT_POINTS = "HP"
"""Code of the Hit Points pool, the one pool a full rest does not restore."""

_POOL_NAMES: dict[str, str] = {**STATISTICS, HIT_POINTS: "Hit Points"}


@dataclass(frozen=True)
class Statistic:
    """One statistic as a resource pool, written current/max ("15/20 Physical Fitness").

    Attributes:
        code: "PF", "MA", "EN", "PR", "SP", "EM" or "HP".
        current: points left, 0..maximum.
        maximum: the normal maximum, >= 0.

    Raises:
        RuleError: on construction, an unknown code, a negative maximum, or current outside
            0..maximum.

    Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions.
    """

    code: str
    current: int
    maximum: int

    def __post_init__(self) -> None:
        if self.code not in _POOL_NAMES:
            known = ", ".join(_POOL_NAMES)
            raise RuleError(f"unknown statistic {self.code!r}; use one of {known}", _STATISTICS)
        if self.maximum < 0:
            raise RuleError(f"{self.name} maximum {self.maximum} cannot be negative", _STATISTICS)
        if not 0 <= self.current <= self.maximum:
            raise RuleError(
                f"{self.name} {self.current} must be between 0 and its maximum {self.maximum}",
                _STATISTICS,
            )

    @property
    def name(self) -> str:
        """The full name, e.g. "Physical Fitness"."""
        return _POOL_NAMES[self.code]

    def __str__(self) -> str:
        return f"{self.current}/{self.maximum} {self.name}"

    def lose(self, points: int) -> Statistic:
        """Lose ``points`` (>= 0); the pool stops at 0 ("when the target's pool reaches zero").

        Raises:
            RuleError: negative points.
        """
        if points < 0:
            raise RuleError(f"cannot lose {points} points of {self.name}", _STATISTICS)
        return replace(self, current=max(0, self.current - points))

    def regain(self, points: int) -> Statistic:
        """Regain ``points`` (>= 0), up to the maximum.

        Raises:
            RuleError: negative points.
        """
        if points < 0:
            raise RuleError(f"cannot regain {points} points of {self.name}", _STATISTICS)
        return replace(self, current=min(self.maximum, self.current + points))


@dataclass(frozen=True)
class Statistics:
    """A character's statistics (and hit points) as resource pools.

    Attributes:
        pools: one :class:`Statistic` per code, codes unique.

    Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions.
    """

    pools: tuple[Statistic, ...]

    def __post_init__(self) -> None:
        codes = [pool.code for pool in self.pools]
        for code in codes:
            if codes.count(code) > 1:
                raise RuleError(f"statistic {code} is listed twice", _STATISTICS)

    def __getitem__(self, code: str) -> Statistic:
        for pool in self.pools:
            if pool.code == code:
                return pool
        raise RuleError(f"the character has no statistic {code!r}", _STATISTICS)

    def with_pool(self, statistic: Statistic) -> Statistics:
        """A copy with ``statistic`` replacing the pool of the same code (or added)."""
        others = tuple(pool for pool in self.pools if pool.code != statistic.code)
        if len(others) == len(self.pools):
            return Statistics(self.pools + (statistic,))
        return Statistics(
            tuple(statistic if pool.code == statistic.code else pool for pool in self.pools)
        )

    def full_rest(self) -> Statistics:
        """A full 8-hour rest: every statistic back to its maximum, hit points excepted.

        Returns:
            A new :class:`Statistics`; the "HP" pool is unchanged.

        Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions ("all
        Statistics excluding Hit Points are normally restored to their normal maximums").
        """
        return Statistics(
            tuple(
                pool if pool.code == HIT_POINTS else replace(pool, current=pool.maximum)
                for pool in self.pools
            )
        )


def new_statistics(maxima: Mapping[str, int], hit_points: int | None = None) -> Statistics:
    """Statistics at their maximums for a new character.

    Args:
        maxima: maximum per code, e.g. ``{"PF": 20, "MA": 15, ...}``; every one of the six
            :data:`STATISTICS` must be given.
        hit_points: maximum hit points, or None to leave hit points out.

    Returns:
        A :class:`Statistics` in the order PF, MA, EN, PR, SP, EM (then HP).

    Raises:
        RuleError: a missing or unknown code, or a negative maximum.

    Source: Shattered World Core Engine, Mechanical (Non-Roleplay) Actions.
    """
    for code in maxima:
        if code not in STATISTICS:
            raise RuleError(f"unknown statistic {code!r}", _STATISTICS)
    missing = [code for code in STATISTICS if code not in maxima]
    if missing:
        raise RuleError(f"missing statistics: {', '.join(missing)}", _STATISTICS)
    pools = [Statistic(code, maxima[code], maxima[code]) for code in STATISTICS]
    if hit_points is not None:
        pools.append(Statistic(HIT_POINTS, hit_points, hit_points))
    return Statistics(tuple(pools))
