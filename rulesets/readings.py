"""Table readings: the rules a campaign may read another way, each a choice the GM makes.

Where a seed is silent or can be read two ways, docs/rules.md and docs/systems/ record one
decision; where tables commonly play a house rule the engine can model exactly, it is offered
too. A system lists its readings as a frozen dataclass of :class:`Readings` whose fields are
the readings' keys (each a ``str``, the chosen :class:`Choice`'s ``value``) and whose
``READINGS`` class attribute describes them (:class:`Reading`). The first choice of each is the
default, the engine's behaviour before readings existed, so a campaign that never chose reads
every rule as it always did.

The engine takes the readings as that typed value, passed to pool building, resolution and
odds; the sheet layer keeps a campaign's choices as ``{key: value}`` for the readings that
differ from the default (:meth:`Readings.changed`), and a roll keeps the ones it was made under.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from rulesets.errors import RuleError
from rulesets.query import Parameter

READINGS_RULE = "Sheetkeeper's table readings (docs/rules.md, Table readings)"
"""The ``rule`` of a :class:`RuleError` about readings that do not exist."""


@dataclass(frozen=True)
class Choice:
    """One way to read a rule.

    Attributes:
        value: stored in the campaign and in a roll, e.g. ``"always"``; lowercase words joined
            by underscores.
        label: one sentence of what it does, as the settings page offers it, e.g. "Tens
            explode on every action roll, with or without a specialty (house rule)".
    """

    value: str
    label: str


@dataclass(frozen=True)
class Reading:
    """A rule a campaign may read another way.

    Attributes:
        key: the :class:`Readings` field and the stored key, e.g. ``"tens_explode"``.
        title: a few words, e.g. "Exploding tens".
        seed: what the seed says, quoted with its citation, so the GM sees what is read.
        choices: the readings offered, the first the default (the seed's reading, or the
            decision docs/rules.md records where the seed is silent).
        rolls: the kinds of roll (``Roll.kind`` values) whose result the reading can change,
            so that a roll names only those among the readings it was made under; None for
            every kind, ``()`` for a reading that changes no roll (a track, a price).
    """

    key: str
    title: str
    seed: str
    choices: tuple[Choice, ...]
    rolls: tuple[str, ...] | None = None

    @property
    def default(self) -> str:
        """The default choice's value (the first)."""
        return self.choices[0].value

    def label(self, value: str) -> str:
        """The sentence of the choice ``value``; the value itself for one no longer offered."""
        return next((choice.label for choice in self.choices if choice.value == value), value)

    @property
    def odds_parameter(self) -> Parameter:
        """This reading as a parameter of the ``odds`` command and of a batch line
        (``--tens-explode always``; ``{"tens_explode": "always"}``)."""
        values = ", ".join(choice.value for choice in self.choices)
        return Parameter(self.key, str, self.default, f"table reading: {values}")


@dataclass(frozen=True)
class Readings:
    """A campaign's readings of one system's rules: subclass it with one ``str`` field per
    :class:`Reading` of ``READINGS``, defaulting to the reading's first choice. The base class
    has none (a system with nothing to read another way).
    """

    READINGS: ClassVar[tuple[Reading, ...]] = ()

    @classmethod
    def from_values(cls, values: Mapping[str, object], *, strict: bool = True) -> Self:
        """The readings ``values`` chooses, the default for every reading it leaves out.

        Args:
            values: ``{key: value}``, e.g. a campaign's stored choices or an import's.
            strict: refuse an unknown key or value (a form, an import, the ``odds``
                command). When False (reading what this server stored), a key or value no
                longer offered reads as the default instead.

        Returns:
            An instance of the subclass.

        Raises:
            RuleError: (strict) a key that is not a reading of this system, or a value that
                is not one of its choices; the message names both.
        """
        known = {reading.key: reading for reading in cls.READINGS}
        chosen: dict[str, str] = {}
        for key, value in values.items():
            reading = known.get(key)
            if reading is None:
                if strict:
                    names = ", ".join(known) or "none"
                    raise RuleError(f"{key!r} is not a table reading of this system "
                                    f"(its readings: {names})", READINGS_RULE)
                continue
            offered = [choice.value for choice in reading.choices]
            if value not in offered:
                if strict:
                    raise RuleError(f"{reading.title}: {value!r} is not one of "
                                    f"{', '.join(offered)}", READINGS_RULE)
                continue
            chosen[key] = str(value)
        return cls(**chosen)

    def values(self) -> dict[str, str]:
        """Every reading's value, ``{key: value}``."""
        return {reading.key: str(getattr(self, reading.key)) for reading in self.READINGS}

    def changed(self) -> dict[str, str]:
        """The readings that differ from the default, ``{key: value}``: what a campaign and a
        roll store (``{}`` for the seed's rules as the engine reads them by default)."""
        return {key: value for key, value in self.values().items()
                if value != _reading(self, key).default}

    def describe(self, kind: str | None = None) -> list[str]:
        """The changed readings in words, one line each: "Exploding tens: Tens explode on every
        action roll, with or without a specialty (house rule)"; with ``kind`` (a roll's kind),
        only those that can change a roll of that kind (:attr:`Reading.rolls`)."""
        lines = []
        for key, value in self.changed().items():
            reading = _reading(self, key)
            if kind is None or reading.rolls is None or kind in reading.rolls:
                lines.append(f"{reading.title}: {reading.label(value)}")
        return lines

    @classmethod
    def odds_parameters(cls) -> tuple[Parameter, ...]:
        """Every reading as an ``odds`` parameter (:attr:`Reading.odds_parameter`)."""
        return tuple(reading.odds_parameter for reading in cls.READINGS)

    @classmethod
    def from_query(cls, values: Mapping[str, object]) -> Self:
        """The readings an odds query names (its other keys ignored), strictly checked.

        Raises:
            RuleError: a reading's value that is not one of its choices.
        """
        keys = {reading.key for reading in cls.READINGS}
        return cls.from_values({key: value for key, value in values.items() if key in keys})


def _reading(readings: Readings, key: str) -> Reading:
    return next(reading for reading in readings.READINGS if reading.key == key)

