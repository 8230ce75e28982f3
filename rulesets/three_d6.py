"""Rules engine for the 3d6 tests of an unnamed system ("Rolls And Tests").

The seed text (``seeds/002_6302363384505e15.txt``, cited below as "3d6 Rolls and Tests,
<section>") is the authority; /work/shared/RULES.md section 5 summarises it. Where the seed is
silent, the decision taken is written in the docstring of the function concerned and
collected here:

- Favor and disfavor are netted: a test rolls ``3 + favor - disfavor`` d6s, never fewer than
  0 (only the net matters, so one favor and one disfavor roll 3d6).
- Zero dice: nothing is rolled and the test fails automatically. It is *not* a critical
  failure (no die shows a 1); its total is 0. In a contest a side that rolled no dice loses
  to any side that rolled, whatever the totals.
- A critical success doubles the roll before modifiers; it is *not* automatically a success:
  the doubled roll plus the modifier is still compared with the test difficulty.
- A critical failure is always a failure: its total is 0 and a test difficulty is at least 1.
- Favor and disfavor are capped at :data:`MAX_FAVOR` points each: an engine limit, not a rule.

Everything here is pure Python: frozen dataclasses, plain functions and an injected RNG
(:class:`rulesets.dice.Rng`). Units: dice are d6s unless named (``"d8"``, ``"d%"``); a roll's
value, total, modifier and test difficulty (TD) are points on the same scale as the dice sum.
Every rule violation raises :class:`RuleError`, whose message a player can read and whose
``rule`` names the seed section.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError as RuleError  # re-exported: callers catch it from here
from rulesets.notation import split_clauses
from rulesets.query import Parameter, read_query
from rulesets.stored import Stored

SOURCE = "3d6 Rolls and Tests"
"""Prefix of every rule citation."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_STORED_RULE = _rule("Rolls and Tests")
"""The rule a damaged stored test cites (a damaged stored contest cites Contesting)."""

SYSTEM = "three_d6"
"""The slug stored in every serialised roll."""

BASE_DICE = 3
"""A test rolls 3d6 before favor and disfavor (3d6 Rolls and Tests, Your Fate and the Dice)."""

DIE_SIDES = 6
"""Tests roll six-sided dice (3d6 Rolls and Tests, Your Fate and the Dice)."""

CRITICAL_SIXES = 3
"""Sixes needed for a critical success: "three or more 6's" (3d6 Rolls and Tests, Critical
Successes and Failures)."""

TRAIT_COUNT, SUBTRAIT_COUNT = 6, 12
"""A test is based on one of 6 traits or one of 12 subtraits (3d6 Rolls and Tests, Rolls and
Tests). Their names are not in the seed: the GM names them per campaign."""

MAX_FAVOR = 20
"""Most points of favor, and of disfavor, on one test. An engine limit (keeps odds queries
fast and bounded), not a rule of the seed."""

TD_MIN = 1
"""Lowest test difficulty: the minimum roll needed to succeed is at least 1 (3d6 Rolls and
Tests, Test Difficulty). It also makes every critical failure (value 0) a failure."""


# ---------------------------------------------------------------------------------------------
# Dice vocabulary: 3d6 Rolls and Tests, Dice Nomenclature
# ---------------------------------------------------------------------------------------------

PERCENTILE = "d%"
"""Notation for the percentile die: a d10 whose faces read 00, 10, ..., 90."""

DICE_VOCABULARY: dict[str, tuple[int, ...]] = {
    "d4": tuple(range(1, 5)),
    "d6": tuple(range(1, 7)),
    "d8": tuple(range(1, 9)),
    "d10": tuple(range(1, 11)),
    PERCENTILE: tuple(range(0, 100, 10)),
    "d12": tuple(range(1, 13)),
    "d20": tuple(range(1, 21)),
}
"""The seven die types of the seed in its order, each with its faces: d4, d6, d8, d10,
percentile (faces 0, 10, ..., 90, written 00-90), d12, d20 (3d6 Rolls and Tests, Dice
Nomenclature)."""

_NOTATION = re.compile(r"(\d*)(d(?:\d+|%))")


def die_faces(die: str) -> tuple[int, ...]:
    """The faces of one die type of the seed's vocabulary.

    Args:
        die: ``"d4"``, ``"d6"``, ``"d8"``, ``"d10"``, ``"d%"`` (percentile), ``"d12"`` or
            ``"d20"``.

    Returns:
        The faces in ascending order, e.g. ``(1, 2, 3, 4)`` for d4 and ``(0, 10, ..., 90)``
        for the percentile die.

    Raises:
        RuleError: ``die`` is not one of the seven types (3d6 Rolls and Tests, Dice
            Nomenclature).
    """
    faces = DICE_VOCABULARY.get(die.strip().lower())
    if faces is None:
        known = ", ".join(DICE_VOCABULARY)
        raise RuleError(f"{die!r} is not one of the dice types {known}", _rule("Dice Nomenclature"))
    return faces


def describe_dice(count: int, die: str) -> str:
    """Write ``count`` dice of one type the seed's way: ``(4, "d8") -> "4d8"``.

    Args:
        count: number of dice, >= 1 (a count of 1 is written without the number: ``"d8"``).
        die: a die type of :data:`DICE_VOCABULARY`.

    Returns:
        The notation, e.g. ``"3d6"``, ``"d%"``.

    Raises:
        RuleError: a count below 1 or an unknown die type (3d6 Rolls and Tests, Dice
            Nomenclature).
    """
    die_faces(die)
    if count < 1:
        raise RuleError(f"a roll needs at least 1 die, not {count}", _rule("Dice Nomenclature"))
    return f"{count if count > 1 else ''}{die.strip().lower()}"


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
# Pool building: 3d6 Rolls and Tests, Rolls and Tests / Favor and Disfavor / Test Difficulty
# ---------------------------------------------------------------------------------------------


def _check_td(td: int) -> None:
    if td < TD_MIN:
        raise RuleError(f"test difficulty {td} must be {TD_MIN} or more", _rule("Test Difficulty"))


def _check_favor(name: str, points: int) -> None:
    if points < 0:
        raise RuleError(f"{name} {points} must be 0 or more", _rule("Favor and Disfavor"))
    if points > MAX_FAVOR:
        raise RuleError(
            f"{name} {points} is more than {MAX_FAVOR}, the most points this engine handles",
            _rule("Favor and Disfavor"),
        )


def dice_count(favor: int = 0, disfavor: int = 0) -> int:
    """How many d6s a test rolls: 3, plus one per favor, minus one per disfavor, at least 0.

    "For each point of favor you have on a roll, you roll an additional 1d6. For each point
    of disfavor you have on a roll, you remove a d6" (3d6 Rolls and Tests, Favor and
    Disfavor). Decision (the seed is silent on order): favor and disfavor are netted, so one
    favor and one disfavor roll 3d6, and 1 favor with 3 disfavor rolls 1d6.

    Args:
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.

    Returns:
        The number of d6s, >= 0; 0 means the test fails automatically.

    Raises:
        RuleError: a negative count or one above :data:`MAX_FAVOR`.
    """
    _check_favor("favor", favor)
    _check_favor("disfavor", disfavor)
    return max(0, BASE_DICE + favor - disfavor)


@dataclass(frozen=True, kw_only=True)
class TestPool:
    """A test ready to roll: 3d6 (changed by favor and disfavor) + modifier vs TD.

    Built by :func:`build_test`; keyword-only.

    Attributes:
        label: the trait or subtrait tested, free text named by the GM (e.g. "Agility");
            may be empty.
        modifier: added to the roll (any whole number, negative for a penalty).
        favor: points of favor (one extra d6 each), 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor (one d6 fewer each), 0 to :data:`MAX_FAVOR`.
        td: the test difficulty, >= 1, or ``None`` for a roll made only to be compared in a
            contest.
    """

    __test__ = False  # not a pytest test class despite its name

    label: str = ""
    modifier: int = 0
    favor: int = 0
    disfavor: int = 0
    td: int | None = None

    @property
    def dice(self) -> int:
        """Number of d6s rolled, >= 0 (see :func:`dice_count`)."""
        return max(0, BASE_DICE + self.favor - self.disfavor)

    @property
    def automatic_failure(self) -> bool:
        """Whether the pool has zero dice, so the test is failed without rolling."""
        return self.dice == 0

    def describe(self) -> str:
        """One line for the UI, e.g. "Agility test: 4d6 + 1 vs TD 12 (1 favor)".

        A contest roll (no TD) reads "Power test: 3d6 - 2"; a zero-dice pool ends with
        "(no dice: fails automatically)".
        """
        name = f"{self.label} test" if self.label else "Test"
        dice = f"{self.dice}d{DIE_SIDES}" if self.dice else "no dice"
        text = f"{name}: {dice}"
        if self.modifier:
            text += f" {'+' if self.modifier > 0 else '-'} {abs(self.modifier)}"
        if self.td is not None:
            text += f" vs TD {self.td}"
        notes = []
        if self.favor:
            notes.append(f"{self.favor} favor")
        if self.disfavor:
            notes.append(f"{self.disfavor} disfavor")
        if self.automatic_failure:
            notes.append("no dice: fails automatically")
        if notes:
            text += f" ({', '.join(notes)})"
        return text

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict; see :meth:`from_dict`.

        Keys: "label", "modifier", "favor", "disfavor", "td" (an int, or None for a contest
        roll) and "dice" (derived, for readers of the stored JSON).
        """
        return {
            "label": self.label,
            "modifier": self.modifier,
            "favor": self.favor,
            "disfavor": self.disfavor,
            "td": self.td,
            "dice": self.dice,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TestPool:
        """Rebuild a pool stored with :meth:`as_dict` (the stored "dice" is recomputed).

        Raises:
            RuleError: a missing or mistyped field, or values :func:`build_test` rejects.
        """
        stored = Stored(data, _STORED_RULE)
        td_stored = Stored(data, _rule("Test Difficulty"))  # a mistyped td cites its own rule
        td = None if stored.value("td") is None else td_stored.int("td")
        return build_test(
            label=stored.str("label"),
            modifier=stored.int("modifier"),
            favor=stored.int("favor"),
            disfavor=stored.int("disfavor"),
            td=td,
        )


def build_test(
    *,
    label: str = "",
    modifier: int = 0,
    favor: int = 0,
    disfavor: int = 0,
    td: int | None = None,
) -> TestPool:
    """Build a test from a character's trait or subtrait and the situation.

    "To make a test, such as a Power test, a player rolls 3d6 and adds their modifier to the
    roll" (3d6 Rolls and Tests, Rolls and Tests); favor and disfavor add and remove d6s (3d6
    Rolls and Tests, Favor and Disfavor); the TD is "the minimum roll needed to succeed"
    (3d6 Rolls and Tests, Test Difficulty). Trait names are the GM's, so only a label is
    kept.

    Args:
        label: the trait or subtrait, free text (e.g. "Power"); surrounding spaces dropped.
        modifier: the trait's modifier plus any situational one (whole number, may be < 0).
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.
        td: test difficulty >= 1, or None for a contest roll (the opponent's test is the bar).

    Returns:
        A :class:`TestPool`; ``pool.dice`` may be 0, and such a test fails automatically.

    Raises:
        RuleError: favor or disfavor below 0 or above :data:`MAX_FAVOR`, or a TD below 1.
    """
    dice_count(favor, disfavor)
    if td is not None:
        _check_td(td)
    return TestPool(label=label.strip(), modifier=modifier, favor=favor, disfavor=disfavor, td=td)


# ---------------------------------------------------------------------------------------------
# Rolling: 3d6 Rolls and Tests, Critical Successes and Failures
# ---------------------------------------------------------------------------------------------

OUTCOMES: tuple[str, ...] = ("success", "failure", "rolled")
"""Outcomes of a test: "success" or "failure" against a TD, "rolled" for a contest roll
without TD (its total is compared in :func:`resolve_contest`)."""


def _roll_value(dice_sum: int, sixes: int, dice: int) -> tuple[int, bool, bool]:
    """(value before modifiers, critical success?, critical failure?) of ``dice`` d6s.

    Every die shows a 1 exactly when the sum equals the number of dice, so the odds' dynamic
    programme needs no separate "all ones" flag.
    """
    if dice == 0:
        return 0, False, False
    if dice_sum == dice:
        return 0, False, True
    if sixes >= CRITICAL_SIXES:
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
        value: the roll before modifiers: the dice sum, doubled on a critical success, 0 on a
            critical failure or with zero dice.
        total: value + modifier; 0 on a critical failure (modifiers ignored) or zero dice.
        critical_success: three or more dice show 6.
        critical_failure: every die rolled shows 1 (at least one die).
        automatic_failure: zero dice, so the test failed without a roll.
        outcome: "success", "failure" or, without a TD, "rolled" (a zero-dice test is
            "failure" even without a TD).
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

    @property
    def dice_sum(self) -> int:
        """The plain sum of the dice, before doubling or modifiers (3-18 on 3d6)."""
        return sum(self.dice)

    @property
    def sixes(self) -> int:
        """How many dice show 6."""
        return self.dice.count(6)

    @property
    def success(self) -> bool:
        """Whether the test succeeded (false for a contest roll without TD)."""
        return self.outcome == "success"

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
        "summary".
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
    value, critical_success, critical_failure = _roll_value(sum(faces), faces.count(6), len(faces))
    total = _total(value, pool.modifier, critical_failure, len(faces))
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


# ---------------------------------------------------------------------------------------------
# Contests: 3d6 Rolls and Tests, Contesting / Tie Breakers
# ---------------------------------------------------------------------------------------------

CONTEST_DECIDERS: tuple[str, ...] = (
    "total",
    "pc_beats_npc",
    "defender",
    "modifier",
    "level",
    "random",
)
"""What decided a contest: the higher total, then the tie-breakers in the seed's order (3d6
Rolls and Tests, Contesting; Tie Breakers)."""


@dataclass(frozen=True, kw_only=True)
class ContestSide:
    """One creature in a contest: its rolled test and the facts the tie-breakers use.

    Attributes:
        result: the creature's rolled :class:`TestResult` (its TD, if any, is ignored).
        is_pc: a player character (True) or an NPC (False).
        is_defender: whether this creature is defending itself.
        level: the PC's level or the NPC's rating ("DR"), compared as whole numbers.
        modifier: the modifier the "better modifier" tie-breaker compares; None (the default)
            means the modifier of the rolled test.
        name: who this is, for the roll log (e.g. "Aria"); may be empty.
    """

    result: TestResult
    is_pc: bool
    is_defender: bool = False
    level: int = 0
    modifier: int | None = None
    name: str = ""

    @property
    def tie_modifier(self) -> int:
        """The modifier compared by the tie-breaker (given, or the test's own)."""
        return self.result.pool.modifier if self.modifier is None else self.modifier

    def as_dict(self) -> dict[str, object]:
        """The side as a JSON-serialisable dict (the result via :meth:`TestResult.as_dict`).

        Keys: "name", "result", "is_pc", "is_defender", "level", "modifier" (the given
        tie-breaking modifier, or None when the test's own is used).
        """
        return {
            "name": self.name,
            "result": self.result.as_dict(),
            "is_pc": self.is_pc,
            "is_defender": self.is_defender,
            "level": self.level,
            "modifier": self.modifier,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ContestSide:
        """Rebuild a side stored with :meth:`as_dict` (its test recomputed from the dice).

        Raises:
            RuleError: a missing or mistyped field.
        """
        stored = Stored(data, _STORED_RULE)
        return cls(
            result=TestResult.from_dict(Stored(data, _rule("Contesting")).mapping("result")),
            is_pc=stored.bool("is_pc"),
            is_defender=stored.bool("is_defender"),
            level=stored.int("level"),
            modifier=None if stored.value("modifier") is None else stored.int("modifier"),
            name=stored.str("name"),
        )


def _contest_key(side: ContestSide) -> tuple[bool, int]:
    # A side that could not roll (zero dice) failed automatically: below every rolled total.
    return (not side.result.automatic_failure, side.result.total)


def _decide(
    first: ContestSide, second: ContestSide, random_die: int | None
) -> tuple[int, str] | None:
    """(winner 1 or 2, decider), or None when only a random draw is left and none is given."""
    key1, key2 = _contest_key(first), _contest_key(second)
    if key1 != key2:
        return (1 if key1 > key2 else 2), "total"
    winner, decided_by = tie_break(_tie_facts(first), _tie_facts(second))
    if winner is not None:
        return winner, decided_by
    if random_die is None:
        return None
    return random_die, "random"


@dataclass(frozen=True, kw_only=True)
class TieFacts:
    """What the tie-breakers know about one creature, without its dice.

    Attributes:
        is_pc: a player character (True) or an NPC (False).
        is_defender: whether it is defending itself.
        modifier: the modifier the "better modifier" tie-breaker compares.
        level: the PC's level or the NPC's rating (DR).
    """

    is_pc: bool
    is_defender: bool = False
    modifier: int = 0
    level: int = 0


def _tie_facts(side: ContestSide) -> TieFacts:
    """A rolled side's facts for :func:`tie_break` (its given modifier, or its test's)."""
    return TieFacts(is_pc=side.is_pc, is_defender=side.is_defender, modifier=side.tie_modifier,
                    level=side.level)


def tie_break(first: TieFacts, second: TieFacts) -> tuple[int | None, str]:
    """Who wins a tie on the same final number, from the side facts alone.

    In the seed's order (3d6 Rolls and Tests, Tie Breakers): a PC against an NPC wins;
    otherwise a defender against a non-defender; otherwise the better (higher) modifier;
    otherwise the higher level or DR; otherwise one is chosen at random.

    Args:
        first: the first creature's facts.
        second: the second creature's facts.

    Returns:
        ``(winner, decided_by)``: winner 1 or 2 and one of :data:`CONTEST_DECIDERS` other than
        "total"; or ``(None, "random")`` when only a random draw can decide.
    """
    if first.is_pc != second.is_pc:
        return (1 if first.is_pc else 2), "pc_beats_npc"
    if first.is_defender != second.is_defender:
        return (1 if first.is_defender else 2), "defender"
    if first.modifier != second.modifier:
        return (1 if first.modifier > second.modifier else 2), "modifier"
    if first.level != second.level:
        return (1 if first.level > second.level else 2), "level"
    return None, "random"


_DECIDER_TEXT: dict[str, str] = {
    "total": "",
    "pc_beats_npc": "tie: the PC wins against an NPC",
    "defender": "tie: the defender wins",
    "modifier": "tie: the better modifier wins",
    "level": "tie: the higher level or rating wins",
    "random": "tie: chosen at random",
}


@dataclass(frozen=True)
class ContestResult:
    """The outcome of a contest between two rolled tests.

    Attributes:
        first: the first :class:`ContestSide`.
        second: the second :class:`ContestSide`.
        winner: 1 if the first side won, 2 if the second did.
        decided_by: one of :data:`CONTEST_DECIDERS`: "total" when the totals differ,
            otherwise the tie-breaker that settled it.
        random_die: the d2 drawn for the last tie-breaker (1 = first side wins), or None when
            no draw was needed.
    """

    first: ContestSide
    second: ContestSide
    winner: int
    decided_by: str
    random_die: int | None = None

    @property
    def winning_side(self) -> ContestSide:
        """The side that won."""
        return self.first if self.winner == 1 else self.second

    @property
    def losing_side(self) -> ContestSide:
        """The side that lost."""
        return self.second if self.winner == 1 else self.first

    def summary(self) -> str:
        """One short line for the roll log, e.g. "Aria wins 14 to 12" or
        "Aria wins 13 to 13 (tie: the PC wins against an NPC)"."""
        winner, loser = self.winning_side, self.losing_side
        name = winner.name or ("First side" if self.winner == 1 else "Second side")
        text = f"{name} wins {winner.result.total} to {loser.result.total}"
        if self.decided_by != "total":
            text += f" ({_DECIDER_TEXT[self.decided_by]})"
        return text

    def as_dict(self) -> dict[str, object]:
        """The contest as a JSON-serialisable dict; :meth:`from_dict` rebuilds it.

        Keys: "system" ("three_d6"), "kind" ("contest"), "first", "second"
        (:meth:`ContestSide.as_dict`), "winner" (1 or 2), "decided_by", "random_die" (int or
        None) and "summary".
        """
        return {
            "system": SYSTEM,
            "kind": "contest",
            "first": self.first.as_dict(),
            "second": self.second.as_dict(),
            "winner": self.winner,
            "decided_by": self.decided_by,
            "random_die": self.random_die,
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> ContestResult:
        """Rebuild a contest stored with :meth:`as_dict`, deciding it again from the dice,
        the side facts and the stored random draw.

        Raises:
            RuleError: a missing or mistyped field, or a tie that needs a random draw when
                none (or one other than 1 or 2) is stored.
        """
        contest = Stored(data, _rule("Contesting"))
        sides = [ContestSide.from_dict(contest.mapping(key)) for key in ("first", "second")]
        random_die = Stored(data, _STORED_RULE).value("random_die")
        if random_die is not None and random_die not in (1, 2):
            raise RuleError(
                f"stored random draw {random_die!r} is not 1 or 2", _rule("Tie Breakers")
            )
        assert random_die is None or isinstance(random_die, int)
        decision = _decide(sides[0], sides[1], random_die)
        if decision is None:
            raise RuleError(
                "the stored contest is a full tie but has no random draw", _rule("Tie Breakers")
            )
        winner, decided_by = decision
        return cls(
            first=sides[0],
            second=sides[1],
            winner=winner,
            decided_by=decided_by,
            random_die=random_die if decided_by == "random" else None,
        )


def resolve_contest(first: ContestSide, second: ContestSide, rng: Rng) -> ContestResult:
    """Decide a contest between two rolled tests.

    "Your test will be compared to another's test, and the higher roll will win the contest"
    (3d6 Rolls and Tests, Contesting): the higher total wins. On the same final number, in
    order (3d6 Rolls and Tests, Tie Breakers): a PC against an NPC wins; otherwise a
    defender against a non-defender wins; otherwise the better (higher) modifier; otherwise
    the higher level or DR; otherwise one is chosen at random. Decision: a side with zero
    dice (failed automatically) loses to any side that rolled; two such sides tie.

    Args:
        first: one side.
        second: the other side.
        rng: the injected random source; used only for the last tie-breaker, as one
            ``rng.randint(1, 2)`` (1 = the first side wins).

    Returns:
        A :class:`ContestResult` naming the winner and what decided it.
    """
    decision = _decide(first, second, None)
    random_die: int | None = None
    if decision is None:
        random_die = roll_die(rng, 2)
        decision = (random_die, "random")
    winner, decided_by = decision
    return ContestResult(
        first=first, second=second, winner=winner, decided_by=decided_by, random_die=random_die
    )


# ---------------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------------


def _outcome_counts(dice: int) -> dict[tuple[int, int], int]:
    """Ways ``dice`` d6s make each (sum, sixes capped at 3), out of ``6 ** dice``.

    A dynamic programme over the dice, one die at a time: at most 6 * dice * 4 states, so 23
    dice take a few milliseconds (enumerating faces would take 6 ** 23 steps).
    """
    counts: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(dice):
        following: dict[tuple[int, int], int] = {}
        for (dice_sum, sixes), ways in counts.items():
            for face in range(1, DIE_SIDES + 1):
                key = (dice_sum + face, min(CRITICAL_SIXES, sixes + (face == DIE_SIDES)))
                following[key] = following.get(key, 0) + ways
        counts = following
    return counts


def total_distribution(
    *, modifier: int = 0, favor: int = 0, disfavor: int = 0
) -> dict[int, Fraction]:
    """Exact distribution of a test's total (value + modifier, 0 on a critical failure).

    The rules are those of :func:`resolve_test` (3d6 Rolls and Tests, Rolls and Tests;
    Favor and Disfavor; Critical Successes and Failures). A zero-dice test gives ``{0: 1}``.

    Args:
        modifier: added to the roll (whole number).
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.

    Returns:
        total -> probability (Fraction), keys ascending, zero-probability totals left out;
        the probabilities sum to exactly 1.

    Raises:
        RuleError: favor or disfavor below 0 or above :data:`MAX_FAVOR`.
    """
    dice = dice_count(favor, disfavor)
    whole = DIE_SIDES**dice
    ways: dict[int, int] = {}
    for (dice_sum, sixes), count in _outcome_counts(dice).items():
        value, _, critical_failure = _roll_value(dice_sum, sixes, dice)
        total = _total(value, modifier, critical_failure, dice)
        ways[total] = ways.get(total, 0) + count
    return {total: Fraction(ways[total], whole) for total in sorted(ways)}


@dataclass(frozen=True)
class TestOdds:
    """Exact odds of one test.

    Attributes:
        td: the test difficulty.
        modifier: added to the roll.
        favor: points of favor.
        disfavor: points of disfavor.
        dice: d6s rolled (3 + favor - disfavor, at least 0).
        success: P(total >= TD), a Fraction.
        critical_success: P(three or more 6s), a Fraction.
        critical_failure: P(every die a 1), a Fraction (0 with zero dice).
    """

    __test__ = False  # not a pytest test class despite its name

    td: int
    modifier: int
    favor: int
    disfavor: int
    dice: int
    success: Fraction
    critical_success: Fraction
    critical_failure: Fraction

    def as_dict(self) -> dict[str, object]:
        """The command-line JSON shape: ``{"success", "critical_success",
        "critical_failure"}``, each a float probability."""
        return {
            "success": float(self.success),
            "critical_success": float(self.critical_success),
            "critical_failure": float(self.critical_failure),
        }


def odds(td: int, modifier: int = 0, favor: int = 0, disfavor: int = 0) -> TestOdds:
    """Exact chance of success, of a critical success and of a critical failure of a test.

    Same rules as :func:`resolve_test` (3d6 Rolls and Tests, Test Difficulty; Favor and
    Disfavor; Critical Successes and Failures), computed by a dynamic programme over the dice
    with the state (sum, sixes capped at 3); "every die a 1" is the state whose sum equals the
    number of dice. Exact (Fractions), no sampling; 3d6 with 5 favor takes about a millisecond.

    Args:
        td: test difficulty, >= 1.
        modifier: added to the roll (whole number).
        favor: points of favor, 0 to :data:`MAX_FAVOR`.
        disfavor: points of disfavor, 0 to :data:`MAX_FAVOR`.

    Returns:
        A :class:`TestOdds`.

    Raises:
        RuleError: a TD below 1, or favor or disfavor below 0 or above :data:`MAX_FAVOR`; the
            message names the value.
    """
    _check_td(td)
    dice = dice_count(favor, disfavor)
    whole = DIE_SIDES**dice
    success = critical_success = critical_failure = 0
    for (dice_sum, sixes), count in _outcome_counts(dice).items():
        value, is_critical_success, is_critical_failure = _roll_value(dice_sum, sixes, dice)
        if _total(value, modifier, is_critical_failure, dice) >= td:
            success += count
        critical_success += count * is_critical_success
        critical_failure += count * is_critical_failure
    return TestOdds(
        td=td,
        modifier=modifier,
        favor=favor,
        disfavor=disfavor,
        dice=dice,
        success=Fraction(success, whole),
        critical_success=Fraction(critical_success, whole),
        critical_failure=Fraction(critical_failure, whole),
    )


@dataclass(frozen=True)
class ContestOdds:
    """Exact odds of a contest between two tests, seen from the first side.

    Attributes:
        win: P(the first side wins), ties settled by the tie-breakers (a random draw counts
            as one half), a Fraction.
        lose: P(the second side wins) = 1 - win, a Fraction.
        tie: P(both reach the same final number), a Fraction (part of ``win`` or ``lose``).
        tie_decided_by: how a tie is settled for these two sides (see :func:`tie_break`).
        tie_winner: 1 or 2, or None when a tie goes to a random draw.
    """

    win: Fraction
    lose: Fraction
    tie: Fraction
    tie_decided_by: str
    tie_winner: int | None


def _contest_ways(pool: TestPool) -> tuple[list[tuple[tuple[bool, int], int]], int]:
    """``([((rolled at all?, total), ways), ...], whole)``: the pool's outcomes as whole
    numbers of ways out of ``whole``, keys ascending in the order :func:`resolve_contest`
    compares them."""
    if pool.automatic_failure:
        return [((False, 0), 1)], 1
    whole = DIE_SIDES**pool.dice
    distribution = total_distribution(
        modifier=pool.modifier, favor=pool.favor, disfavor=pool.disfavor
    )
    return [((True, total), p.numerator * (whole // p.denominator))
            for total, p in distribution.items()], whole


def contest_odds(first: TestPool, second: TestPool, first_facts: TieFacts,
                 second_facts: TieFacts) -> ContestOdds:
    """Exact chance that the first side wins a contest (3d6 Rolls and Tests, Contesting;
    Tie Breakers), by the same rules as :func:`resolve_contest`: the higher total wins, a
    side with no dice loses to any side that rolled, and a tie goes to the tie-breakers (a
    random draw is worth one half).

    Args:
        first: the first side's test (its TD, if any, is ignored).
        second: the second side's test.
        first_facts: the first side's tie-breaking facts (its ``modifier`` is compared).
        second_facts: the second side's.

    Returns:
        A :class:`ContestOdds`.

    Raises:
        RuleError: a pool's favor or disfavor outside 0 to :data:`MAX_FAVOR` (possible only
            for a pool not made by :func:`build_test`).
    """
    # One merge of the two outcome lists (keys ascending) in whole numbers of ways: the ways
    # the other side stays below each of my keys accumulate as it goes, so 23 dice a side
    # take one pass, not a product of the two lists in Fractions.
    mine, whole_mine = _contest_ways(first)
    theirs, whole_theirs = _contest_ways(second)
    above = tie = below = j = 0
    for key, ways in mine:
        while j < len(theirs) and theirs[j][0] < key:
            below += theirs[j][1]
            j += 1
        above += ways * below
        if j < len(theirs) and theirs[j][0] == key:
            tie += ways * theirs[j][1]
    whole = whole_mine * whole_theirs
    tie_chance = Fraction(tie, whole)
    winner, decided_by = tie_break(first_facts, second_facts)
    share = Fraction(1, 2) if winner is None else Fraction(1 if winner == 1 else 0)
    win = Fraction(above, whole) + tie_chance * share
    return ContestOdds(win=win, lose=1 - win, tie=tie_chance, tie_decided_by=decided_by,
                       tie_winner=winner)


ODDS_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("td", int, None, "test difficulty, the total needed to succeed (1 or more)"),
    Parameter("modifier", int, 0, "added to the roll (may be negative)"),
    Parameter("favor", int, 0, f"points of favor, one extra d6 each (0-{MAX_FAVOR})"),
    Parameter("disfavor", int, 0, f"points of disfavor, one d6 fewer each (0-{MAX_FAVOR})"),
)
"""The odds query's parameters: ``--td 12 --modifier 1 --favor 1 --disfavor 0``."""


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """Answer one odds query from the command line or a batch line.

    Args:
        query: e.g. ``{"td": 12, "modifier": 1, "favor": 1, "disfavor": 0}``; a "system" key
            is ignored; modifier, favor and disfavor default to 0.

    Returns:
        ``{"success": p, "critical_success": p, "critical_failure": p}`` (floats).

    Raises:
        RuleError: a bad key or value type (see :func:`rulesets.query.read_query`) or a value
            :func:`odds` rejects.
    """
    values = read_query(query, ODDS_PARAMETERS)
    return odds(
        td=_query_int(values, "td"),
        modifier=_query_int(values, "modifier"),
        favor=_query_int(values, "favor"),
        disfavor=_query_int(values, "disfavor"),
    ).as_dict()


def _query_int(values: Mapping[str, int | str | bool], name: str) -> int:
    value = values[name]
    assert isinstance(value, int) and not isinstance(value, bool)  # read_query checked it
    return value


# ---------------------------------------------------------------------------------------------
# NPC quick roll: 3d6 Rolls and Tests, Rolls and Tests / Favor and Disfavor / Test Difficulty
# ---------------------------------------------------------------------------------------------

QUICK_ROLL_EXAMPLES: tuple[str, ...] = (
    "3d6+2 favor 1",
    "3d6-1",
    "3d6 +2 disfavor 2",
    "3d6+1 td 12",
    "3d6 vs 10",
)
"""The GM's NPC quick roll notation, for the form's help text (see :func:`quick_roll`)."""

QUICK_ROLL_MAX_LENGTH = 200
"""Longest quick roll text accepted, in characters (a typing-mistake guard, not a rule)."""

QUICK_ROLL_MAX_NUMBER = 999
"""Largest modifier (either sign) and test difficulty in a quick roll: a typing-mistake guard,
not a rule of the seed."""

_QUICK_CLAUSES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dice", re.compile(r"(?P<count>\d+)?\s*d(?P<sides>\d+|%)(?![a-z0-9])")),
    ("modifier", re.compile(r"(?P<n>[-+]\s*\d+)")),
    ("disfavor", re.compile(r"disfavou?r(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    ("favor", re.compile(r"favou?r(?![a-z])\s*(?P<n>[-+]?\d+)?")),
    (
        "test difficulty",
        re.compile(r"(?:td|vs\.?|versus)(?![a-z])\s*(?:td(?![a-z])\s*)?(?P<n>[-+]?\d+)?"),
    ),
)
_QUICK_REPEATABLE = frozenset({"modifier"})


def _quick_dice(part: str, match: re.Match[str]) -> None:
    """Refuse any dice but 3d6, pointing to favor or disfavor for another number of d6s."""
    count = int(match.group("count") or "1")
    if match.group("sides") != str(DIE_SIDES):
        raise RuleError(
            f"{part!r}: a test always rolls 3d6; write e.g. {QUICK_ROLL_EXAMPLES[0]!r}",
            _rule("Your Fate and the Dice"),
        )
    if count > BASE_DICE:
        raise RuleError(
            f"{part!r}: a test always rolls 3d6; write '3d6 favor {count - BASE_DICE}' for "
            f"{count} dice",
            _rule("Favor and Disfavor"),
        )
    if count < BASE_DICE:
        raise RuleError(
            f"{part!r}: a test always rolls 3d6; write '3d6 disfavor {BASE_DICE - count}' for "
            f"{count} {'die' if count == 1 else 'dice'}",
            _rule("Favor and Disfavor"),
        )


def quick_roll(text: str) -> TestPool:
    """Parse the GM's NPC quick roll, e.g. "3d6+2 favor 1", into a test.

    Grammar (any case; spaces and commas between clauses are free; any order):

    - ``3d6``, required: a test always rolls 3d6 (3d6 Rolls and Tests, Your Fate and the
      Dice); "4d6" or "2d6" is refused with a message saying to write favor or disfavor;
    - modifiers ``+<n>`` / ``-<n>``, as many as wanted, summed (3d6 Rolls and Tests, Rolls
      and Tests: "adds their modifier"), each at most :data:`QUICK_ROLL_MAX_NUMBER`;
    - ``favor <n>`` and ``disfavor <n>`` (also "favour"), each at most once, 0 to
      :data:`MAX_FAVOR` (3d6 Rolls and Tests, Favor and Disfavor);
    - ``td <n>``, ``vs <n>`` or ``vs td <n>``: the test difficulty, 1 to
      :data:`QUICK_ROLL_MAX_NUMBER` (3d6 Rolls and Tests, Test Difficulty); without it the
      roll is a contest roll (no TD), whose result reads "Total N".

    The test is labelled "NPC". **Decision:** several modifiers add up ("3d6+2-1" is +1);
    "favor" without a number is refused rather than read as 1.

    Args:
        text: the notation, e.g. ``"3d6+2 favor 1"``, ``"3d6-1"``, ``"3d6 +2 disfavor 2"`` or
            ``"3d6+1 td 12"``; at most :data:`QUICK_ROLL_MAX_LENGTH` characters.

    Returns:
        A :class:`TestPool` built by :func:`build_test`, which :func:`roll_test` accepts.

    Raises:
        RuleError: empty or over-long text, a part that is not understood, missing 3d6, dice
            other than 3d6, a clause without its number or given twice, or a modifier,
            favor, disfavor or TD out of range; the message quotes the part, e.g. "'4d6': a
            test always rolls 3d6; write '3d6 favor 1' for 4 dice".
    """
    modifier = 0
    favor = disfavor = 0
    td: int | None = None
    has_dice = False
    clauses = split_clauses(
        text,
        _QUICK_CLAUSES,
        example=QUICK_ROLL_EXAMPLES[0],
        rule=_rule("Rolls and Tests"),
        max_length=QUICK_ROLL_MAX_LENGTH,
        repeatable=_QUICK_REPEATABLE,
    )
    for name, part, match in clauses:
        if name == "dice":
            _quick_dice(part, match)
            has_dice = True
            continue
        number = int(match.group("n").replace(" ", ""))
        if name == "modifier":
            if abs(number) > QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: a modifier must be between -{QUICK_ROLL_MAX_NUMBER} and "
                    f"+{QUICK_ROLL_MAX_NUMBER}",
                    _rule("Rolls and Tests"),
                )
            modifier += number
        elif name in ("favor", "disfavor"):
            if not 0 <= number <= MAX_FAVOR:
                raise RuleError(
                    f"{part!r}: {name} must be between 0 and {MAX_FAVOR}",
                    _rule("Favor and Disfavor"),
                )
            if name == "favor":
                favor = number
            else:
                disfavor = number
        else:
            if not TD_MIN <= number <= QUICK_ROLL_MAX_NUMBER:
                raise RuleError(
                    f"{part!r}: the test difficulty must be between {TD_MIN} and "
                    f"{QUICK_ROLL_MAX_NUMBER}",
                    _rule("Test Difficulty"),
                )
            td = number
    if not has_dice:
        raise RuleError(
            f"{text.strip()!r} has no 3d6: a test always rolls 3d6; write e.g. "
            f"{QUICK_ROLL_EXAMPLES[0]!r}",
            _rule("Your Fate and the Dice"),
        )
    return build_test(label="NPC", modifier=modifier, favor=favor, disfavor=disfavor, td=td)


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
