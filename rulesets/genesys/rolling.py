"""Rolling a Genesys pool with the injected RNG and interpreting the symbols: the rolled
dice, the tally and the stored result (Genesys dice pool, Interpreting the Pool)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulesets.dice import Rng, roll_die
from rulesets.errors import RuleError
from rulesets.genesys.catalogue import DIE_SIDES, DIE_TYPES, FACES, SYMBOLS, _rule
from rulesets.genesys.pools import _STORED_RULE, DicePool
from rulesets.stored import Stored

# ---------------------------------------------------------------------------------------------
# Rolling and interpreting: Genesys dice pool, Interpreting the Pool
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RolledDie:
    """One rolled die (Genesys dice pool, Interpreting the Pool; faces per RULES.md).

    Attributes:
        die: its type, one of :data:`DIE_TYPES`.
        face: the face rolled, 1 to the die's sides (``DIE_SIDES[die]``); face ``n`` shows
            ``FACES[die][n - 1]``.

    Raises:
        RuleError: an unknown die type or a face outside 1..sides.
    """

    die: str
    face: int

    def __post_init__(self) -> None:
        if self.die not in DIE_TYPES:
            raise RuleError(
                f"{self.die!r} is not a die type ({', '.join(DIE_TYPES)})",
                _rule("Basic Dice Pool"),
            )
        sides = DIE_SIDES[self.die]
        if not 1 <= self.face <= sides:
            raise RuleError(
                f"a {self.die} die has faces 1 to {sides}, not {self.face}",
                _rule("Basic Dice Pool"),
            )

    @property
    def symbols(self) -> tuple[str, ...]:
        """The symbols on the face rolled, e.g. ``("success", "advantage")``; empty if
        blank."""
        return FACES[self.die][self.face - 1]

    def as_dict(self) -> dict[str, object]:
        """``{"die": "ability", "face": 7, "symbols": ["success", "advantage"]}``."""
        return {"die": self.die, "face": self.face, "symbols": list(self.symbols)}


@dataclass(frozen=True)
class Tally:
    """The symbols of a roll, counted and cancelled (Genesys dice pool, Interpreting the Pool).

    Attributes:
        successes: success symbols plus one per triumph (Triumph).
        failures: failure symbols plus one per despair (Despair).
        advantages: advantage symbols.
        threats: threat symbols.
        triumphs: triumph symbols; never cancelled (Triumph and Despair).
        despairs: despair symbols; never cancelled.
    """

    successes: int
    failures: int
    advantages: int
    threats: int
    triumphs: int
    despairs: int

    @property
    def net_successes(self) -> int:
        """Successes minus failures: each failure cancels one success (Successes and
        Failures). Negative means net failures."""
        return self.successes - self.failures

    @property
    def net_advantage(self) -> int:
        """Advantages minus threats (Advantages and Threats): positive is net advantage,
        negative is net threat."""
        return self.advantages - self.threats

    @property
    def net_threat(self) -> int:
        """Net threat: threats left after cancelling, 0 when advantage wins or ties."""
        return max(0, -self.net_advantage)

    @property
    def succeeded(self) -> bool:
        """The check succeeds with at least one net success; all cancelled or net failures
        fail it (Successes and Failures)."""
        return self.net_successes >= 1


def tally(dice: Iterable[RolledDie]) -> Tally:
    """Count and cancel the symbols of rolled dice (Genesys dice pool, Interpreting the Pool).

    Each triumph also counts one success and each despair one failure (Triumph; Despair);
    triumph and despair never cancel each other (Triumph and Despair).

    Args:
        dice: the rolled dice, in any order.

    Returns:
        A :class:`Tally`.
    """
    seen = dict.fromkeys(SYMBOLS, 0)
    for rolled in dice:
        for symbol in rolled.symbols:
            seen[symbol] += 1
    return Tally(
        successes=seen["success"] + seen["triumph"],
        failures=seen["failure"] + seen["despair"],
        advantages=seen["advantage"],
        threats=seen["threat"],
        triumphs=seen["triumph"],
        despairs=seen["despair"],
    )


def _plural(count: int, noun: str, plural: str) -> str:
    return f"{count} {noun if count == 1 else plural}"


@dataclass(frozen=True)
class RollResult:
    """A rolled pool: every die with its face and symbols, and the outcome (Genesys dice
    pool, Interpreting the Pool).

    Attributes:
        pool: the :class:`DicePool` rolled.
        dice: the rolled dice, in the pool's order (:meth:`DicePool.dice`).
        tally: the counted symbols (:func:`tally` of ``dice``).
    """

    pool: DicePool
    dice: tuple[RolledDie, ...]
    tally: Tally

    @property
    def succeeded(self) -> bool:
        """Whether the check succeeds: net successes >= 1."""
        return self.tally.succeeded

    def verdict(self) -> tuple[str, int]:
        """The roll log's ``(outcome, net)``: a success with at least one net success, else a
        failure; no number to sort by (0)."""
        return ("success" if self.succeeded else "failure"), 0

    def summary(self) -> str:
        """Short text for the roll log.

        "Success (2 net), 1 advantage, 1 triumph"; "Failure (1 net failure), 2 threat,
        1 despair"; "Failure (cancelled out)". Advantage and threat appear when net of each
        other; triumphs and despairs whenever rolled.
        """
        t = self.tally
        if t.succeeded:
            parts = [f"Success ({t.net_successes} net)"]
        elif t.net_successes < 0:
            parts = [f"Failure ({_plural(-t.net_successes, 'net failure', 'net failures')})"]
        else:
            parts = ["Failure (cancelled out)"]
        if t.net_advantage > 0:
            parts.append(f"{t.net_advantage} advantage")
        elif t.net_advantage < 0:
            parts.append(f"{t.net_threat} threat")
        if t.triumphs:
            parts.append(_plural(t.triumphs, "triumph", "triumphs"))
        if t.despairs:
            parts.append(_plural(t.despairs, "despair", "despairs"))
        return ", ".join(parts)

    def as_dict(self) -> dict[str, object]:
        """The roll as a JSON-serialisable dict for storage.

        Keys: "system" ("genesys"), "pool" (:meth:`DicePool.as_dict`), "dice" (a list of
        :meth:`RolledDie.as_dict`), "outcome" (successes, failures, advantages, threats,
        triumphs, despairs, net_successes, net_advantage, success) and "summary".
        :meth:`from_dict` rebuilds the result.
        """
        t = self.tally
        return {
            "system": "genesys",
            "pool": self.pool.as_dict(),
            "dice": [rolled.as_dict() for rolled in self.dice],
            "outcome": {
                "successes": t.successes,
                "failures": t.failures,
                "advantages": t.advantages,
                "threats": t.threats,
                "triumphs": t.triumphs,
                "despairs": t.despairs,
                "net_successes": t.net_successes,
                "net_advantage": t.net_advantage,
                "success": t.succeeded,
            },
            "summary": self.summary(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RollResult:
        """Rebuild a roll stored with :meth:`as_dict`.

        The symbols and the outcome are recomputed from the stored die types and faces, so a
        stored result can never disagree with the face table.

        Raises:
            RuleError: a missing or mistyped field, a bad die or face, or dice that do not
                match the stored pool.
        """
        stored = Stored(data, _STORED_RULE)
        pool = DicePool.from_dict(stored.mapping("pool"))
        dice: list[RolledDie] = []
        for item in stored.mappings("dice"):
            stored_die = Stored(item, _STORED_RULE)
            dice.append(RolledDie(die=stored_die.str("die"), face=stored_die.int("face")))
        if tuple(rolled.die for rolled in dice) != pool.dice():
            raise RuleError(
                f"the stored dice do not match the pool {pool.notation()!r}", _STORED_RULE
            )
        return cls(pool=pool, dice=tuple(dice), tally=tally(dice))


def roll(pool: DicePool, rng: Rng) -> RollResult:
    """Roll a dice pool and interpret it (Genesys dice pool, Interpreting the Pool).

    Rolls every die in the pool's order (ability, proficiency, difficulty, challenge, boost,
    setback), one ``rng.randint(1, sides)`` each (d8, d12, d8, d12, d6, d6).

    Args:
        pool: the pool to roll.
        rng: the injected random source.

    Returns:
        A :class:`RollResult`.
    """
    dice = tuple(RolledDie(die, roll_die(rng, DIE_SIDES[die])) for die in pool.dice())
    return RollResult(pool=pool, dice=dice, tally=tally(dice))
