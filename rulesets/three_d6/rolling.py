"""Rolling with the injected RNG: dice of the seed's vocabulary, and a test worked out
from its dice into a :class:`TestResult` (3d6 Rolls and Tests, Dice Nomenclature; Rolls
and Tests; Critical Successes and Failures)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.stored import Stored
from rulesets.three_d6.catalogue import (
    _STORED_RULE,
    CRITICAL_SIXES,
    DICE_VOCABULARY,
    DIE_SIDES,
    PERCENTILE,
    SYSTEM,
    _rule,
    describe_dice,
)
from rulesets.three_d6.pools import TestPool

# ---------------------------------------------------------------------------------------------
# Dice vocabulary: 3d6 Rolls and Tests, Dice Nomenclature
# ---------------------------------------------------------------------------------------------

_NOTATION = re.compile(r"(\d*)(d(?:\d+|%))")


def roll_dice(notation: str, rng: Rng) -> tuple[int, ...]:
    """Roll dice written the seed's way: "the quantity directly before the dice type".

    Args:
        notation: e.g. ``"4d8"``, ``"d20"``, ``"2d%"`` (one die type, count >= 1).
        rng: the injected random source; one ``rng.randint(1, sides)`` call per die (the
            percentile die is rolled as a d10 whose face ``f`` reads ``10 * (f - 1)``).

    Returns:
        The faces rolled, in order, e.g. ``(3, 8, 1, 5)`` for ``"4d8"``.

    Raises:
        RuleError: the text is not ``[count]d<type>``, the count is 0, or the type is not one
            of :data:`DICE_VOCABULARY` (3d6 Rolls and Tests, Dice Nomenclature).
    """
    match = _NOTATION.fullmatch(notation.strip().lower())
    if match is None:
        raise RuleError(
            f"{notation!r} is not dice notation such as '4d8' or 'd%'", _rule("Dice Nomenclature")
        )
    count = int(match.group(1) or "1")
    die = match.group(2)
    describe_dice(count, die)  # checks the count and the type
    if die == PERCENTILE:
        return tuple(10 * (roll_die(rng, 10) - 1) for _ in range(count))
    sides = len(DICE_VOCABULARY[die])
    return tuple(roll_die(rng, sides) for _ in range(count))


# ---------------------------------------------------------------------------------------------
# Rolling: 3d6 Rolls and Tests, Critical Successes and Failures
# ---------------------------------------------------------------------------------------------

OUTCOMES: tuple[str, ...] = ("success", "failure", "rolled")
"""Outcomes of a test: "success" or "failure" against a TD, "rolled" for a contest roll
without TD (its total is compared in :func:`resolve_contest`)."""


def _roll_value(dice_sum: int, sixes: int, dice: int, critical_allowed: bool = True
                ) -> tuple[int, bool, bool]:
    """(value before modifiers, critical success?, critical failure?) of ``dice`` d6s kept,
    their sum and sixes; no critical success unless ``critical_allowed`` (the table reading
    ``disfavor_critical``, :attr:`TestPool.critical_allowed`).

    Every die shows a 1 exactly when the sum equals the number of dice, so the odds' dynamic
    programme needs no separate "all ones" flag.
    """
    if dice == 0:
        return 0, False, False
    if dice_sum == dice:
        return 0, False, True
    if critical_allowed and sixes >= CRITICAL_SIXES:
        return 2 * dice_sum, True, False
    return dice_sum, False, False


def _total(value: int, modifier: int, critical_failure: bool, dice: int) -> int:
    # A critical failure "ignores modifiers"; a zero-dice test is failed without a roll.
    return 0 if critical_failure or dice == 0 else value + modifier


@dataclass(frozen=True)
class TestResult:
    """A rolled test with every die and the outcome.

    Built by :func:`roll_test` or :func:`resolve_test` (which recomputes everything from the
    dice, so a result never disagrees with the rules).

    Attributes:
        pool: the :class:`TestPool` rolled.
        dice: every d6 face, in the order rolled (empty when the pool has zero dice).
        value: the roll before modifiers: the sum of the dice kept, doubled on a critical
            success, 0 on a critical failure or with zero dice.
        total: value + modifier; 0 on a critical failure (modifiers ignored) or zero dice.
        critical_success: three or more dice kept show 6 (and the table readings allow it).
        critical_failure: every die kept shows 1 (at least one die).
        automatic_failure: zero dice, so the test failed without a roll.
        outcome: "success", "failure" or, without a TD, "rolled" (a zero-dice test is
            "failure" even without a TD).
        dropped: the positions in ``dice`` of the highest dice disfavor removed, under the
            table reading ``favor_disfavor="counted_apart"`` (of equal faces, the last
            rolled); empty otherwise. Every other die is kept.
    """

    __test__ = False  # not a pytest test class despite its name

    pool: TestPool
    dice: tuple[int, ...]
    value: int
    total: int
    critical_success: bool
    critical_failure: bool
    automatic_failure: bool
    outcome: str
    dropped: tuple[int, ...] = ()

    @property
    def kept(self) -> tuple[int, ...]:
        """The faces of the dice kept, in the order rolled (all of them unless disfavor
        removed some)."""
        return tuple(face for i, face in enumerate(self.dice) if i not in self.dropped)

    @property
    def dice_sum(self) -> int:
        """The plain sum of the dice kept, before doubling or modifiers (3-18 on 3d6)."""
        return sum(self.kept)

    @property
    def sixes(self) -> int:
        """How many dice kept show 6."""
        return self.kept.count(6)

    @property
    def success(self) -> bool:
        """Whether the test succeeded (false for a contest roll without TD)."""
        return self.outcome == "success"

    def verdict(self) -> tuple[str, int]:
        """The roll log's ``(outcome, net)``: the test's outcome (success, failure, or rolled
        without a TD); no number to sort by (0)."""
        return self.outcome, 0

    def summary(self) -> str:
        """One short line for the roll log.

        E.g. "Success: 14 vs TD 12", "Success: 37 vs TD 12, critical success",
        "Failure: 0 vs TD 10, critical failure", "Total 13" (contest roll), "Failure: no dice
        to roll".
        """
        if self.automatic_failure:
            return "Failure: no dice to roll"
        if self.pool.td is None:
            text = f"Total {self.total}"
        else:
            text = f"{self.outcome.capitalize()}: {self.total} vs TD {self.pool.td}"
        if self.critical_success:
            text += ", critical success"
        if self.critical_failure:
            text += ", critical failure"
        return text

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage; :meth:`from_dict` rebuilds it.

        Keys: "system" ("three_d6"), "pool" (:meth:`TestPool.as_dict`), "dice", "value",
        "total", "critical_success", "critical_failure", "automatic_failure", "outcome",
        "summary"; and "dropped" (:attr:`dropped`, a list) only when disfavor removed dice.
        """
        return {
            "system": SYSTEM,
            "pool": self.pool.as_dict(),
            "dice": list(self.dice),
            "value": self.value,
            "total": self.total,
            "critical_success": self.critical_success,
            "critical_failure": self.critical_failure,
            "automatic_failure": self.automatic_failure,
            "outcome": self.outcome,
            "summary": self.summary(),
            **({"dropped": list(self.dropped)} if self.dropped else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TestResult:
        """Rebuild a roll stored with :meth:`as_dict`, recomputing the outcome from the dice.

        Raises:
            RuleError: a missing or mistyped field, or dice that do not fit the pool (see
                :func:`resolve_test`).
        """
        stored = Stored(data, _STORED_RULE)
        return resolve_test(TestPool.from_dict(stored.mapping("pool")), stored.ints("dice"))


def resolve_test(pool: TestPool, dice: Sequence[int]) -> TestResult:
    """Work out a test from its dice: value, total, critical success or failure, outcome.

    The roll is the sum of all dice (3d6 Rolls and Tests, Rolls and Tests; favor dice are
    summed too). Three or more 6s: critical success, the value before modifiers is doubled.
    Every die a 1: critical failure, the value becomes 0 and modifiers are ignored (3d6
    Rolls and Tests, Critical Successes and Failures). Success when total >= TD (3d6 Rolls
    and Tests, Test Difficulty). Decisions: a critical success is not automatically a success
    (the doubled value plus the modifier must still reach the TD); a critical failure always
    fails (total 0 < TD); zero dice fail automatically and are not a critical failure.

    The pool's table readings (:mod:`rulesets.three_d6.readings`): counted apart, disfavor
    removes the ``pool.dropped`` highest dice rolled (of equal faces, the last rolled) and
    the roll, its sixes and its ones are the dice kept; with ``disfavor_critical="forbidden"``
    a test with disfavor is never a critical success (its value is the plain sum).

    Args:
        pool: the test.
        dice: the d6 faces, exactly ``pool.dice`` of them (e.g. physical dice typed in).

    Returns:
        A :class:`TestResult`.

    Raises:
        RuleError: the number of faces differs from ``pool.dice`` or a face is outside 1-6.
    """
    faces = tuple(dice)
    if len(faces) != pool.dice:
        raise RuleError(
            f"this test rolls {pool.dice}d6, but {len(faces)} dice were given",
            _rule("Favor and Disfavor"),
        )
    for face in faces:
        if not 1 <= face <= DIE_SIDES:
            raise RuleError(f"a d6 cannot show {face}", _rule("Your Fate and the Dice"))
    dropped = tuple(sorted(sorted(range(len(faces)), key=lambda i: (faces[i], i))
                           [len(faces) - pool.dropped:])) if pool.dropped else ()
    kept = [face for i, face in enumerate(faces) if i not in dropped]
    value, critical_success, critical_failure = _roll_value(
        sum(kept), kept.count(6), len(kept), pool.critical_allowed)
    total = _total(value, pool.modifier, critical_failure, len(kept))
    if pool.automatic_failure:
        outcome = "failure"
    elif pool.td is None:
        outcome = "rolled"
    else:
        outcome = "success" if total >= pool.td else "failure"
    return TestResult(
        pool=pool,
        dice=faces,
        value=value,
        total=total,
        critical_success=critical_success,
        critical_failure=critical_failure,
        automatic_failure=pool.automatic_failure,
        outcome=outcome,
        dropped=dropped,
    )


def roll_test(pool: TestPool, rng: Rng) -> TestResult:
    """Roll a test: ``pool.dice`` d6s, then :func:`resolve_test`.

    A pool with zero dice rolls nothing (no RNG call) and fails automatically: "If you have
    enough disfavor to roll zero dice, the test is automatically failed" (3d6 Rolls and
    Tests, Favor and Disfavor).

    Args:
        pool: the test.
        rng: the injected random source; one ``rng.randint(1, 6)`` call per die.

    Returns:
        A :class:`TestResult` with every die in the order rolled.
    """
    return resolve_test(pool, [roll_die(rng, DIE_SIDES) for _ in range(pool.dice)])


def roll(pool: TestPool, rng: Rng) -> TestResult:
    """Roll a test: the same as :func:`roll_test`, under the name every rules module uses for
    its roll function (``module.roll(pool, rng)``, docs/rules.md).

    Args:
        pool: a :class:`TestPool` (from :func:`build_test` or :func:`quick_roll`).
        rng: the injected random source.

    Returns:
        The :class:`TestResult`.
    """
    return roll_test(pool, rng)
