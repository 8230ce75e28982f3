"""How lucky a roll was: the exact distribution of the system's measure for one roll as it
was made (:class:`RollLuck`), which the luck figures sum over many rolls (docs/history.md,
"How the dice ran"). Plain Python: each system's engine gives its rolls' distributions."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class RollLuck:
    """One stored roll's measure against its exact odds.

    Attributes:
        measure: what is counted, a plural noun in the system's words, the same for every
            roll of the system so that a table's rolls add up ("successes", "effort",
            "net successes", "degrees").
        low: the smallest value the measure could take on this roll.
        chances: ``chances[i]`` is the exact chance that the measure is ``low + i``; they sum
            to 1 (an unbounded distribution, as exploding dice give, is cut where the rest is
            below 2**-60, and the rest is added to the last value: the system's docs say so).
        actual: the value the roll gave.
    """

    measure: str
    low: int
    chances: tuple[Fraction, ...]
    actual: int

    @property
    def expected(self) -> Fraction:
        """The mean of the measure for this roll, exactly."""
        return sum((Fraction(self.low + i) * p for i, p in enumerate(self.chances)),
                   Fraction(0))
