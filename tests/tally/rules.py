"""Tally's rules engine: one d6, plus a bonus (:class:`rulesets.base.RulesModule`).

The engine of the tests' made-up system (tests/tally/__init__.py). Plain Python like every
engine: the NPC quick roll notation is ``d6`` or ``d6+N`` (N from 0 to :data:`BONUS_MAX`),
the odds are of a six on the die.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.dice import Rng
from rulesets.errors import RuleError
from rulesets.query import Parameter, read_query
from rulesets.readings import Readings

SOURCE = "Tally rules"
"""The prefix of every rule this engine cites."""

LIMITS = f"{SOURCE}, Limits"
"""The section every refusal of the tally's rules cites."""

BONUS_MAX = 9
"""The largest bonus a quick roll adds to the die."""

QUICK_ROLL_EXAMPLES = ("d6+2", "d6")
"""The NPC quick roll's examples (the first one is quoted in error messages)."""

QUICK_ROLL_MAX_LENGTH = 20
"""The longest quick roll text accepted, in characters."""

READINGS = Readings
"""Tally reads its one rule one way: no table readings."""

ODDS_PARAMETERS = (Parameter("bonus", int, 0, f"added to the die (0 to {BONUS_MAX})"),)
"""The odds query: the bonus added to the die."""

_QUICK = re.compile(r"d6(?:\s*\+\s*(\d+))?")


@dataclass(frozen=True)
class Pool:
    """One d6 and ``bonus`` (0 to :data:`BONUS_MAX`)."""

    bonus: int = 0

    def describe(self) -> str:
        """``"d6+2"``."""
        return f"d6+{self.bonus}" if self.bonus else "d6"

    def as_dict(self) -> dict[str, object]:
        """``{"bonus": 2}``."""
        return {"bonus": self.bonus}


@dataclass(frozen=True)
class Result:
    """A rolled pool: the die's ``face`` (1 to 6) and the total with the bonus."""

    pool: Pool
    face: int

    @property
    def total(self) -> int:
        """The face plus the bonus."""
        return self.face + self.pool.bonus

    def summary(self) -> str:
        """``"rolled 7"``."""
        return f"rolled {self.total}"

    def verdict(self) -> tuple[str, int]:
        """``("rolled", 0)``: no pass or fail, nothing to sort by."""
        return "rolled", 0

    def as_dict(self) -> dict[str, object]:
        """``{"pool": {"bonus": 2}, "face": 5, "total": 7, "summary": "rolled 7"}``."""
        return {"pool": self.pool.as_dict(), "face": self.face, "total": self.total,
                "summary": self.summary()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        """The result :meth:`as_dict` stored."""
        return cls(pool=Pool(bonus=int(data["pool"]["bonus"])), face=int(data["face"]))


def quick_roll(text: str, readings: Readings | None = None) -> Pool:
    """Parse ``d6`` or ``d6+N`` (any case, spaces free) into a :class:`Pool`.

    Raises:
        RuleError: empty, longer than :data:`QUICK_ROLL_MAX_LENGTH`, not that notation, or a
            bonus above :data:`BONUS_MAX`; the message quotes the text.
    """
    cleaned = text.strip().lower()
    if not cleaned:
        raise RuleError(f"the quick roll is empty: write e.g. '{QUICK_ROLL_EXAMPLES[0]}'",
                        LIMITS)
    if len(text) > QUICK_ROLL_MAX_LENGTH:
        raise RuleError(f"the quick roll is {len(text)} characters long, more than "
                        f"{QUICK_ROLL_MAX_LENGTH}.", LIMITS)
    match = _QUICK.fullmatch(cleaned)
    if match is None:
        raise RuleError(f"'{cleaned}' is not understood: write 'd6' or 'd6+N'.", LIMITS)
    bonus = int(match[1] or 0)
    if bonus > BONUS_MAX:
        raise RuleError(f"'+{bonus}': the bonus must be between 0 and {BONUS_MAX}.", LIMITS)
    return Pool(bonus=bonus)


def roll(pool: Pool, rng: Rng) -> Result:
    """Roll the d6 of ``pool`` with ``rng``."""
    return Result(pool=pool, face=rng.randint(1, 6))


def odds_query(query: Mapping[str, object]) -> dict[str, object]:
    """``{"six": 1/6, "total_at_least_7": p}`` for ``{"bonus": n}``.

    Raises:
        RuleError: an unknown key, a mistyped value or a bonus out of range.
    """
    values = read_query(query, ODDS_PARAMETERS)
    bonus = values["bonus"]
    assert isinstance(bonus, int)  # read_query checked the type
    if not 0 <= bonus <= BONUS_MAX:
        raise RuleError(f"the bonus must be between 0 and {BONUS_MAX}, not {bonus}.", LIMITS)
    return {"six": 1 / 6, "total_at_least_7": sum(face + bonus >= 7 for face in range(1, 7)) / 6}
