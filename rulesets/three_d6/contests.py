"""Contests between two rolled tests and their tie-breakers (3d6 Rolls and Tests,
Contesting; Tie Breakers)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.stored import Stored
from rulesets.three_d6.catalogue import _STORED_RULE, SYSTEM, _rule
from rulesets.three_d6.rolling import TestResult

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

    def verdict(self) -> tuple[str, int]:
        """The roll log's ``(outcome, net)``: a success when the first side (the character
        rolling) wins, else a failure; the first side's total less the second's."""
        return (("success" if self.winner == 1 else "failure"),
                self.first.result.total - self.second.result.total)

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
