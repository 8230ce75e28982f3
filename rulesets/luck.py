"""How lucky a roll was: the exact distribution of the system's measure for one roll as it
was made (:class:`RollLuck`), which the luck figures sum over many rolls (docs/history.md,
"How the dice ran"). Plain Python: each system's engine gives its rolls' distributions."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

K = TypeVar("K")


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


# The luck of many rolls -------------------------------------------------------------------
#
# The total of a table's measure over many independent rolls has the convolution of their
# distributions as its distribution. A distribution is held as integers over one denominator
# (``chance(low + i) = numerators[i] / denominator``), and two are convolved by multiplying
# two big integers that hold their numerators side by side (Kronecker substitution): CPython
# multiplies big integers in C, far faster than a loop over Fractions, and exactly.
#
# Exact while the numbers stay small (:data:`EXACT_BITS`); past that, every chance is rounded
# to a multiple of 2**-PRECISION after each product and the tails below 2**-TAIL_BITS are cut,
# and the figure carries a bound on what rounding and cutting can have moved it.

PRECISION = 96
"""Bits after the binary point of a rounded chance (docs/history.md, "How the dice ran")."""

TAIL_BITS = 80
"""A rounded product cuts each of its tails while what it cuts stays under 2**-TAIL_BITS."""

EXACT_BITS = 1 << 22
"""The largest product, in bits (the total's number of values times the bits of its exact
denominator), computed exactly; a larger one is rounded. About 260 rolls of five d10s that
do not explode; about 15 whose tens explode (their odds' denominators run to ~300 bits)."""


@dataclass(frozen=True)
class Luck:
    """How a set of rolls ran against their exact odds.

    Attributes:
        measure: the measure summed (:attr:`RollLuck.measure`).
        rolls: how many rolls were counted.
        expected: the expected total of the measure, exactly (the sum of the rolls' means).
        actual: the total the rolls gave.
        percentile: the chance, in percent, that the same rolls give a smaller total, ties
            counted half: ``100 * (P(X < actual) + P(X = actual) / 2)`` for the total ``X``.
            50 is as expected; 90 is luckier than 90 of 100 tables rolling the same dice.
        error: a bound on how far ``percentile`` can be from the exact figure, in percentage
            points; ``0`` when it is exact.
    """

    measure: str
    rolls: int
    expected: Fraction
    actual: int
    percentile: Fraction
    error: float

    @property
    def exact(self) -> bool:
        """Whether :attr:`percentile` is exact (no rounding, no tail cut)."""
        return self.error == 0


@dataclass(frozen=True)
class Total:
    """The distribution of the total of many rolls' measure.

    ``chance(low + i)`` is ``numerators[i] / denominator``; a rounded total has the
    denominator ``2**PRECISION``, numerators that may sum to a little more or less than it,
    and ``error``, a bound on the sum of the absolute differences between its chances and the
    exact ones (the L1 distance); an exact total has ``error`` 0.
    """

    low: int
    numerators: tuple[int, ...]
    denominator: int
    error: Fraction

    def chance_below(self, value: int) -> Fraction:
        """``P(X < value) + P(X = value) / 2``, as held (exact when :attr:`error` is 0)."""
        index = value - self.low
        below = sum(self.numerators[:max(index, 0)])
        at = self.numerators[index] if 0 <= index < len(self.numerators) else 0
        return Fraction(2 * below + at, 2 * self.denominator)


def _width(numbers: Sequence[int]) -> int:
    """The bits of the largest of ``numbers`` (0 for none)."""
    return 0 if not numbers else max(numbers).bit_length()


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The convolution of two lists of non-negative integers, exactly: ``c[k]`` is the sum of
    ``a[i] * b[k - i]``."""
    if len(a) == 1 or len(b) == 1:
        scale, rest = (a[0], b) if len(a) == 1 else (b[0], a)
        return [scale * x for x in rest]
    bits = _width(a) + _width(b) + min(len(a), len(b)).bit_length()
    size = bits // 8 + 1
    packed_a = int.from_bytes(b"".join(x.to_bytes(size, "little") for x in a), "little")
    packed_b = int.from_bytes(b"".join(x.to_bytes(size, "little") for x in b), "little")
    length = len(a) + len(b) - 1
    product = (packed_a * packed_b).to_bytes(size * length, "little")
    return [int.from_bytes(product[i:i + size], "little") for i in range(0, size * length, size)]


@dataclass(frozen=True)
class _Part:
    """A distribution being built: ``numerators / denominator`` from ``low``, with
    ``error * 2**-(PRECISION + 1)`` a bound on its L1 distance from the exact one."""

    low: int
    numerators: list[int]
    denominator: int
    error: int


def _times(a: _Part, b: _Part, *, rounded: bool) -> _Part:
    """The distribution of the sum of independent ``a`` and ``b``; rounded back to
    ``2**-PRECISION`` with its tails cut when ``rounded``.

    The error of a product: ``|pq - p'q'| <= |p - p'| |q| + |p'| |q - q'|`` in L1, and a
    distribution held with error ``e`` weighs at most ``1 + e``; rounding each chance adds
    ``2**-(PRECISION + 1)`` per value, cutting adds what it cut. Errors are counted in whole
    units of ``2**-(PRECISION + 1)``, rounded up."""
    numerators = _convolve(a.numerators, b.numerators)
    error = a.error + b.error + -(-a.error * b.error >> (PRECISION + 1))
    if not rounded:
        return _Part(a.low + b.low, numerators, a.denominator * b.denominator, error)
    # The error is counted in units of the rounding: both must already be rounded to it.
    assert a.denominator == b.denominator == 1 << PRECISION, "round an exact part first"
    half = 1 << (PRECISION - 1)
    numerators = [(n + half) >> PRECISION for n in numerators]
    low, cut = a.low + b.low, 0
    budget = 1 << (PRECISION - TAIL_BITS)
    start = 0
    while start < len(numerators) - 1 and cut + numerators[start] < budget:
        cut += numerators[start]
        start += 1
    end, cut_high = len(numerators), 0
    while end - 1 > start and cut_high + numerators[end - 1] < budget:
        cut_high += numerators[end - 1]
        end -= 1
    kept = numerators[start:end]
    error += len(numerators) + 2 * (cut + cut_high)
    return _Part(low + start, kept, a.denominator, error)


def _leaf(low: int, chances: tuple[Fraction, ...], *, rounded: bool) -> _Part:
    """One roll's distribution as a :class:`_Part`, over its own common denominator, or
    rounded to ``2**-PRECISION`` (each chance to the nearest multiple)."""
    if rounded:
        scale = 1 << PRECISION
        numerators = [round(p * scale) for p in chances]
        return _Part(low, numerators, scale, len(numerators))  # half a unit each at most
    denominator = math.lcm(*(p.denominator for p in chances))
    return _Part(low, [p.numerator * (denominator // p.denominator) for p in chances],
                 denominator, 0)


def _power(part: _Part, times: int, *, rounded: bool) -> _Part:
    """The distribution of the sum of ``times`` independent copies of ``part`` (squaring)."""
    result: _Part | None = None
    while True:
        if times & 1:
            result = part if result is None else _times(result, part, rounded=rounded)
        times >>= 1
        if not times:
            assert result is not None
            return result
        part = _times(part, part, rounded=rounded)


def _product(parts: list[_Part], *, rounded: bool) -> _Part:
    """The distribution of the sum of independent ``parts``, multiplied as a balanced tree so
    that the big products are few."""
    while len(parts) > 1:
        parts.sort(key=lambda p: len(p.numerators))
        paired = [_times(parts[i], parts[i + 1], rounded=rounded)
                  for i in range(0, len(parts) - 1, 2)]
        parts = paired + parts[len(parts) - len(parts) % 2:]
    return parts[0]


def _same(lucks: Sequence[RollLuck]) -> dict[tuple[int, tuple[Fraction, ...]], int]:
    """How many of ``lucks`` share each distribution (``(low, chances)``): a table rolls the
    same few pools again and again, and each is worked out once."""
    # Hashing a tuple of Fractions is slow: rolls that share one tuple object are counted by
    # its identity first, and each tuple is hashed once.
    counts: dict[tuple[int, int], int] = {}
    shapes: dict[tuple[int, int], tuple[int, tuple[Fraction, ...]]] = {}
    for luck in lucks:
        place = (luck.low, id(luck.chances))
        if place in counts:
            counts[place] += 1
        else:
            counts[place] = 1
            shapes[place] = (luck.low, luck.chances)
    same: dict[tuple[int, tuple[Fraction, ...]], int] = {}
    for place, times in counts.items():
        same[shapes[place]] = same.get(shapes[place], 0) + times
    return same


def _mean(low: int, chances: tuple[Fraction, ...]) -> Fraction:
    """The mean of the distribution ``chances`` from ``low``, exactly."""
    return sum((Fraction(low + i) * p for i, p in enumerate(chances)), Fraction(0))


def total_distribution(lucks: Sequence[RollLuck], *, exact_bits: int = EXACT_BITS) -> Total:
    """The distribution of the total measure of ``lucks``, the rolls being independent: the
    convolution of their distributions. Exact (``error`` 0) while the largest product stays
    under ``exact_bits`` (the number of values times the bits of the common denominator);
    past it, rounded to ``2**-PRECISION`` with tails under ``2**-TAIL_BITS`` cut at each
    product, and ``error`` bounds the L1 distance to the exact distribution.

    Raises:
        ValueError: no rolls, or rolls of two measures.
    """
    if not lucks:
        raise ValueError("No rolls to total.")
    _one_measure(lucks)
    return _total(_same(lucks), exact_bits=exact_bits)


Same = dict[tuple[int, tuple[Fraction, ...]], int]
"""Rolls grouped by distribution: ``(low, chances)`` -> how many (:func:`_same`)."""


def _rounded(same: Same, exact_bits: int) -> bool:
    """Whether the total of ``same`` is past ``exact_bits`` (values times denominator bits)."""
    values = sum(times * (len(chances) - 1) for (_, chances), times in same.items()) + 1
    bits = sum(times * math.lcm(*(p.denominator for p in chances)).bit_length()
               for (_, chances), times in same.items())
    return values * bits > exact_bits


def _sum_of(same: Same, *, rounded: bool) -> _Part:
    """The distribution of the total of ``same``'s rolls."""
    return _product([_power(_leaf(low, chances, rounded=rounded), times, rounded=rounded)
                     for (low, chances), times in same.items()], rounded=rounded)


def _as_total(part: _Part) -> Total:
    return Total(part.low, tuple(part.numerators), part.denominator,
                 Fraction(part.error, 1 << (PRECISION + 1)))


def _total(same: Same, *, exact_bits: int) -> Total:
    """:func:`total_distribution` of rolls grouped by distribution (:func:`_same`)."""
    return _as_total(_sum_of(same, rounded=_rounded(same, exact_bits)))


def _luck(lucks: Sequence[RollLuck], same: Same, total: Total) -> Luck:
    """The :class:`Luck` of ``lucks`` (grouped as ``same``) whose total has ``total``."""
    actual = sum(luck.actual for luck in lucks)
    percentile = 100 * total.chance_below(actual)
    error = float(100 * total.error)
    if error:
        percentile = min(max(percentile, Fraction(0)), Fraction(100))
    expected = sum((times * _mean(low, chances) for (low, chances), times in same.items()),
                   Fraction(0))
    return Luck(measure=lucks[0].measure, rolls=len(lucks), expected=expected, actual=actual,
                percentile=percentile, error=error)


def _one_measure(lucks: Iterable[RollLuck]) -> None:
    if len({luck.measure for luck in lucks}) > 1:
        raise ValueError("Rolls of different measures do not add up.")


def luck_of(lucks: Sequence[RollLuck], *, exact_bits: int = EXACT_BITS) -> Luck | None:
    """How ``lucks`` ran against their exact odds (:class:`Luck`), or ``None`` for no rolls.

    The percentile is exact while the total's distribution is (:func:`total_distribution`);
    otherwise its ``error`` is at most 100 times the distribution's L1 error, which the
    rounding keeps far below a millionth of a percentage point.

    Raises:
        ValueError: rolls of two measures.
    """
    if not lucks:
        return None
    _one_measure(lucks)
    same = _same(lucks)
    return _luck(lucks, same, _total(same, exact_bits=exact_bits))


def luck_by_group(groups: Mapping[K, Sequence[RollLuck]], *, exact_bits: int = EXACT_BITS
                  ) -> tuple[dict[K, Luck], Luck | None]:
    """The :class:`Luck` of each group of rolls (a character's) and of all of them (the
    table's), as :func:`luck_of` gives them, but the table's total worked out from the
    groups' (their rolls are independent), so each roll is convolved once. Exact or rounded
    all together, as the table's total is (:data:`EXACT_BITS`). Empty groups are left out;
    ``({}, None)`` for no rolls.

    Raises:
        ValueError: rolls of two measures.
    """
    groups = {key: lucks for key, lucks in groups.items() if lucks}
    every = [luck for lucks in groups.values() for luck in lucks]
    if not every:
        return {}, None
    _one_measure(every)
    sames = {key: _same(lucks) for key, lucks in groups.items()}
    same: Same = {}
    for own in sames.values():
        for shape, times in own.items():
            same[shape] = same.get(shape, 0) + times
    rounded = _rounded(same, exact_bits)
    parts = {key: _sum_of(own, rounded=rounded) for key, own in sames.items()}
    each = {key: _luck(groups[key], sames[key], _as_total(part)) for key, part in parts.items()}
    table = _luck(every, same, _as_total(_product(list(parts.values()), rounded=rounded)))
    return each, table


def running_luck(lucks: Sequence[RollLuck]) -> list[float]:
    """After each roll of ``lucks`` (in the order given), the total so far minus its
    expected value: above 0 the dice have run better than their odds so far. For a chart: a
    float, off the exact figure by a few parts in 10**15 of the rolls' total at most."""
    means: dict[tuple[int, int], float] = {}  # by the chances' identity, as _same counts
    running, sofar = [], 0.0
    for luck in lucks:
        place = (luck.low, id(luck.chances))
        mean = means.get(place)
        if mean is None:
            mean = means[place] = float(_mean(luck.low, luck.chances))
        sofar += luck.actual - mean
        running.append(sofar)
    return running


@dataclass(frozen=True)
class Outcome:
    """One value of the measure over many rolls: how many rolls gave it (``actual``) and how
    many were expected to (``expected``, the sum of each roll's chance of it)."""

    value: int
    actual: int
    expected: Fraction


def outcome_mix(lucks: Sequence[RollLuck], *, least: Fraction = Fraction(1, 200)
                ) -> list[Outcome]:
    """For each value of the measure, from the lowest to the highest any roll of ``lucks``
    gave or was expected to give at least ``least`` times, the rolls that gave it against the
    rolls expected to (:class:`Outcome`); ``[]`` for no rolls. Values outside that span (an
    exploding die's long tail, that nobody rolled) are left out."""
    expected: dict[int, Fraction] = {}
    actual: dict[int, int] = {}
    for (low, chances), times in _same(lucks).items():
        for i, p in enumerate(chances):
            expected[low + i] = expected.get(low + i, Fraction(0)) + times * p
    for luck in lucks:
        actual[luck.actual] = actual.get(luck.actual, 0) + 1
    shown = [v for v, e in expected.items() if e >= least] + list(actual)
    if not shown:
        return []
    return [Outcome(v, actual.get(v, 0), expected.get(v, Fraction(0)))
            for v in range(min(shown), max(shown) + 1)]


def _to_rounded(part: _Part) -> _Part:
    """An exact ``part`` rounded to ``2**-PRECISION`` (each chance to the nearest multiple:
    half a unit of error each); a rounded one as it is."""
    scale = 1 << PRECISION
    if part.denominator == scale:
        return part
    numerators = [(2 * n * scale + part.denominator) // (2 * part.denominator)
                  for n in part.numerators]
    return _Part(part.low, numerators, scale, part.error + len(numerators))


@dataclass
class _Running:
    """One group's (or the table's) sums so far: rolls, actual and expected totals, the
    distribution of the total, and the total minus the expected after each roll."""

    part: _Part | None = None
    rolls: int = 0
    actual: int = 0
    expected: Fraction = Fraction(0)
    running: list[float] | None = None

    def add(self, lucks: Sequence[RollLuck], same: Same, part: _Part, *,
            rounded: bool) -> None:
        self.part = part if self.part is None else _times(self.part, part, rounded=rounded)
        self.rolls += len(lucks)
        self.actual += sum(luck.actual for luck in lucks)
        self.expected += sum((times * _mean(low, chances)
                              for (low, chances), times in same.items()), Fraction(0))
        base = self.running[-1] if self.running else 0.0
        self.running = (self.running or []) + [base + value for value in running_luck(lucks)]

    def luck(self, measure: str) -> Luck:
        assert self.part is not None
        total = _as_total(self.part)
        percentile = 100 * total.chance_below(self.actual)
        error = float(100 * total.error)
        if error:
            percentile = min(max(percentile, Fraction(0)), Fraction(100))
        return Luck(measure=measure, rolls=self.rolls, expected=self.expected,
                    actual=self.actual, percentile=percentile, error=error)


@dataclass
class Tally(Generic[K]):
    """The luck of a growing set of rolls, in groups (a character's) and all together (the
    table's), to which later rolls are added (:meth:`add`) at the cost of their own
    distributions and one product per total they join, never the whole convolution again.

    Exact while the table's total is (:data:`EXACT_BITS`); the addition that takes it past
    rounds every total kept (half a unit of ``2**-PRECISION`` per value, counted in its
    error), and it stays rounded. :meth:`figures` gives what :func:`luck_by_group` gives for
    the same rolls: the same figures while exact, within the stated bound once rounded.
    The expected and actual totals stay exact, and so do the mix's counts (:attr:`mix`).
    """

    exact_bits: int = EXACT_BITS
    measure: str = ""
    rounded: bool = False
    values: int = 1
    bits: int = 0
    groups: dict[K, _Running] = field(default_factory=dict)
    table: _Running = field(default_factory=_Running)
    expected_counts: dict[int, Fraction] = field(default_factory=dict)
    actual_counts: dict[int, int] = field(default_factory=dict)

    def add(self, rolls: Sequence[tuple[K, RollLuck]]) -> None:
        """Add rolls, each with its group (``(character, luck)``), in the order they were
        made, all after every roll already added: the running luck follows this order.

        Raises:
            ValueError: rolls of another measure than those added before.
        """
        every = [luck for _, luck in rolls]
        if not every:
            return
        groups: dict[K, list[RollLuck]] = {}
        for key, luck in rolls:
            groups.setdefault(key, []).append(luck)
        if len({luck.measure for luck in every} | ({self.measure} - {""})) > 1:
            raise ValueError("Rolls of different measures do not add up.")
        self.measure = every[0].measure
        sames = {key: _same(lucks) for key, lucks in groups.items()}
        for own in sames.values():
            for (low, chances), times in own.items():
                self.values += times * (len(chances) - 1)
                self.bits += times * math.lcm(*(p.denominator for p in chances)).bit_length()
                for i, p in enumerate(chances):
                    self.expected_counts[low + i] = (
                        self.expected_counts.get(low + i, Fraction(0)) + times * p)
        for luck in every:
            self.actual_counts[luck.actual] = self.actual_counts.get(luck.actual, 0) + 1
        if not self.rounded and self.values * self.bits > self.exact_bits:
            self.rounded = True
            for kept in (*self.groups.values(), self.table):
                if kept.part is not None:
                    kept.part = _to_rounded(kept.part)
        parts = {key: _sum_of(own, rounded=self.rounded) for key, own in sames.items()}
        for key, part in parts.items():
            self.groups.setdefault(key, _Running()).add(groups[key], sames[key], part,
                                                       rounded=self.rounded)
        same: Same = {}
        for own in sames.values():
            for shape, times in own.items():
                same[shape] = same.get(shape, 0) + times
        self.table.add(every, same, _product(list(parts.values()), rounded=self.rounded),
                       rounded=self.rounded)

    def figures(self) -> tuple[dict[K, Luck], Luck | None]:
        """Each group's :class:`Luck` and the table's (``None`` before any roll)."""
        if self.table.part is None:
            return {}, None
        return ({key: kept.luck(self.measure) for key, kept in self.groups.items()},
                self.table.luck(self.measure))

    def running(self) -> tuple[dict[K, list[float]], list[float]]:
        """After each roll, the total so far minus the expected (:func:`running_luck`), per
        group and for the table."""
        return ({key: kept.running or [] for key, kept in self.groups.items()},
                self.table.running or [])

    def mix(self, *, least: Fraction = Fraction(1, 200)) -> list[Outcome]:
        """:func:`outcome_mix` of every roll added."""
        shown = [v for v, e in self.expected_counts.items() if e >= least]
        shown += list(self.actual_counts)
        if not shown:
            return []
        return [Outcome(v, self.actual_counts.get(v, 0),
                        self.expected_counts.get(v, Fraction(0)))
                for v in range(min(shown), max(shown) + 1)]
