"""Resolving and rolling with the injected RNG (Shattered World Core Engine, The Core
Mechanic / Standard Success).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.shattered_world.catalogue import _CORE, _DICE, SYSTEM
from rulesets.shattered_world.pools import ActionPool, _check_target
from rulesets.shattered_world.readings import MULTIPLIER_ORDERS, ZERO_RULES
from rulesets.shattered_world.totals import total
from rulesets.stored import Stored

OUTCOMES: tuple[str, ...] = ("success", "standard success", "failure")
"""A roll's outcomes: a success on the total, an automatic standard success on the die's
highest face, or a failure."""


@dataclass(frozen=True)
class Resolution:
    """The resolved result of one die against a target number.

    Attributes:
        total: the final result (:func:`total`).
        outcome: "success" (total >= target), "standard success" (the highest face rescued a
            total below the target) or "failure".
        degree: degree of success, >= 1 on a success (the base damage), 0 on a failure.
        automatic: the face decided the outcome regardless of the total (a 1 fails; the
            highest face gives a standard success).
    """

    total: int
    outcome: str
    degree: int
    automatic: bool

    @property
    def success(self) -> bool:
        """Whether the action succeeds (a success or a standard success)."""
        return self.outcome != "failure"


def resolve(
    face: int,
    die: int,
    target: int,
    modifier: int = 0,
    multipliers: str | Sequence[int] = "",
    *,
    multiplier_order: str = MULTIPLIER_ORDERS[0],
    zero_becomes_one: str = ZERO_RULES[0],
) -> Resolution:
    """Resolve one rolled face against a target number.

    Shattered World Core Engine, The Core Mechanic and Standard Success:

    1. a 1 is a failure regardless of modifiers (there are no critical failures);
    2. otherwise the total (:func:`total`) succeeds if it equals or exceeds the target number;
       the degree of success is total - target, and a bare match counts 1 ("zero Damage
       always becomes one");
    3. the highest face is an automatic standard success (degree 1: the target "exceeded by
       1") if and only if the total would otherwise fail; a better total keeps its degree.

    The table readings (:mod:`rulesets.shattered_world.readings`) change the total only: how
    the factors combine and which totals of 0 become 1 (:func:`total`).

    Args:
        face: the face rolled, 1..die.
        die: the die size, >= 2.
        target: the target number, >= 1.
        modifier: the sum of every +/- modifier.
        multipliers: ×/÷ notation or signed factors, in the order written.
        multiplier_order: "any_order" or "as_written" (:func:`final_factor`).
        zero_becomes_one: "every_total" or "divisions_only" (:func:`total`).

    Returns:
        A :class:`Resolution`.

    Raises:
        RuleError: a die below 2 sides, a face outside 1..die, a target below 1, bad
            multiplier notation or an unknown reading.
    """
    if die < 2:
        raise RuleError(f"a d{die} needs at least 2 sides", _DICE)
    if not 1 <= face <= die:
        raise RuleError(f"a d{die} shows 1 to {die}, not {face}", _CORE)
    _check_target(target)
    value = total(face, modifier, multipliers, multiplier_order=multiplier_order,
                  zero_becomes_one=zero_becomes_one)
    if face == 1:
        return Resolution(total=value, outcome="failure", degree=0, automatic=True)
    if value >= target:
        return Resolution(
            total=value, outcome="success", degree=max(1, value - target), automatic=False
        )
    if face == die:
        return Resolution(total=value, outcome="standard success", degree=1, automatic=True)
    return Resolution(total=value, outcome="failure", degree=0, automatic=False)


@dataclass(frozen=True)
class RollResult:
    """A rolled pool: the die's face and the resolution.

    Attributes:
        pool: the :class:`ActionPool` rolled.
        face: the face rolled, 1..pool.die.
        resolution: the :class:`Resolution` of that face.
    """

    pool: ActionPool
    face: int
    resolution: Resolution

    @property
    def outcome(self) -> str:
        """The outcome: "success", "standard success" or "failure"."""
        return self.resolution.outcome

    @property
    def success(self) -> bool:
        """Whether the action succeeds."""
        return self.resolution.success

    def verdict(self) -> tuple[str, int]:
        """The roll log's ``(outcome, net)``: a success (a standard success too) or a
        failure; no number to sort by (0)."""
        return ("success" if self.success else "failure"), 0

    @property
    def degree(self) -> int:
        """Degree of success (>= 1), or 0 on a failure."""
        return self.resolution.degree

    @property
    def total(self) -> int:
        """The final result after modifiers and multipliers."""
        return self.resolution.total

    def summary(self) -> str:
        """One short line for the roll log.

        E.g. "Success, degree 3 (12 vs 9)", "Standard success, degree 1 (d8 showed 8)",
        "Failure (a 1)", "Failure (5 vs 9)".
        """
        resolution = self.resolution
        if resolution.outcome == "success":
            return f"Success, degree {resolution.degree} ({resolution.total} vs {self.pool.target})"
        if resolution.outcome == "standard success":
            return f"Standard success, degree 1 (d{self.pool.die} showed {self.face})"
        if resolution.automatic:
            return "Failure (a 1)"
        return f"Failure ({resolution.total} vs {self.pool.target})"

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage.

        Keys: "system" ("shattered_world"), "pool" (:meth:`ActionPool.as_dict`), "dice" (the
        one face, as a list), "total", "outcome", "success", "degree", "automatic" and
        "summary". :meth:`from_dict` rebuilds the result.
        """
        resolution = self.resolution
        return {
            "system": SYSTEM,
            "pool": self.pool.as_dict(),
            "dice": [self.face],
            "total": resolution.total,
            "outcome": resolution.outcome,
            "success": resolution.success,
            "degree": resolution.degree,
            "automatic": resolution.automatic,
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict`, recomputing the resolution.

        The outcome is recomputed from the stored face with :func:`resolve`, so a stored
        result can never disagree with the rules.

        Raises:
            RuleError: a missing or mistyped field, not exactly one die, or a face outside
                the die.
        """
        stored = Stored(data, _CORE)
        pool = ActionPool.from_dict(stored.mapping("pool"))
        dice = stored.ints("dice")
        if len(dice) != 1:
            raise RuleError(f"a Shattered World roll has one die, not {len(dice)}", _CORE)
        return cls(pool=pool, face=dice[0], resolution=_resolve_pool(pool, dice[0]))


def _resolve_pool(pool: ActionPool, face: int) -> Resolution:
    return resolve(face, pool.die, pool.target, pool.modifier, pool.multipliers,
                   multiplier_order=pool.multiplier_order, zero_becomes_one=pool.zero_becomes_one)


def roll(pool: ActionPool, rng: Rng) -> RollResult:
    """Roll a pool's die and resolve it (Shattered World Core Engine, The Core Mechanic).

    Args:
        pool: the pool to roll.
        rng: the injected random source; exactly one ``rng.randint(1, pool.die)`` call.

    Returns:
        A :class:`RollResult`.
    """
    face = roll_die(rng, pool.die)
    return RollResult(pool=pool, face=face, resolution=_resolve_pool(pool, face))


def standard_success(pool: ActionPool) -> Resolution:
    """Take a standard success without rolling, where the player has that option.

    "A roll is a standard success ... when the player has the option to choose standard
    success and does not wish to roll any dice": the target is exceeded by 1, degree 1.
    Whether the option exists is the GM's call, not checked here.

    Args:
        pool: the pool that would have been rolled.

    Returns:
        A :class:`Resolution` with outcome "standard success", degree 1, total target + 1.

    Source: Shattered World Core Engine, Standard Success.
    """
    return Resolution(total=pool.target + 1, outcome="standard success", degree=1, automatic=True)
