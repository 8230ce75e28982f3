"""The typed contract every rules engine satisfies: :class:`RulesModule`.

Each system's package (``rulesets/<slug>/``) is a module, not a class; mypy accepts a module
as the implementation of a :class:`typing.Protocol`, so :data:`rulesets.registry.RULESETS`
typing its ``module`` as :class:`RulesModule` makes ``mypy --strict`` check every engine
against this contract. Shared code (the registry, the ``odds`` command, the GM's NPC quick
roll) calls an engine only through these members and never names a system.

A system's pool and result types are its own (Maelstrom's ``ActionPool``, Genesys's
``DicePool``...); the contract names only what shared code does with them:
:class:`RulesPool` and :class:`RulesResult`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rulesets.dice import Rng
from rulesets.query import Parameter
from rulesets.readings import Readings


@dataclass(frozen=True)
class StoredBound:
    """A rule the database keeps on every stored sheet of one system, as a check constraint on
    ``Character.sheet`` (characters/models.py builds it; docs/architecture.md, "What the
    database keeps").

    Each whole number ``sheet[part][key]``, for every ``key`` in ``keys``, is at least
    ``minimum`` and, when ``maximum_key`` is set, at most ``sheet[part][maximum_key]``. A sheet
    without ``part`` (another system's) passes.

    Attributes:
        name: the constraint's name in the database; never reused for another rule.
        part: the sheet's top-level key, e.g. ``"willpower"``.
        keys: the bounded numbers inside it, e.g. ``("current",)``.
        minimum: the least each may be.
        maximum_key: the number inside ``part`` each may not exceed, or ``""``.
        rule: the rule's source, e.g. ``"Maelstrom rules.md, Willpower"``.
    """

    name: str
    part: str
    keys: tuple[str, ...]
    minimum: int = 0
    maximum_key: str = ""
    rule: str = ""


class RulesPool(Protocol):
    """A dice pool ready to roll, as shared code sees it (e.g. an NPC's quick roll)."""

    def describe(self) -> str:
        """One line for the UI and the roll log, e.g. "Precision + Driving: 5 dice, ..."."""
        ...

    def as_dict(self) -> dict[str, object]:
        """The pool as a JSON-serialisable dict, stored with its roll."""
        ...


class RulesResult(Protocol):
    """A rolled and resolved pool, as shared code sees it."""

    def summary(self) -> str:
        """Short text for the UI and the roll log, e.g. "2 successes"."""
        ...

    def as_dict(self) -> dict[str, object]:
        """The whole result as a JSON-serialisable dict, stored in ``Roll.result``; every
        system's ``from_dict`` rebuilds it and its ``"summary"`` equals :meth:`summary`."""
        ...

    def verdict(self) -> tuple[str, int]:
        """The result's verdict when it is rolled alone, with no sheet around it (the GM's NPC
        quick roll, and an import's check of one): ``(outcome, net)``, the outcome one of
        ``"success"``, ``"failure"``, ``"botch"`` or ``"rolled"`` (no pass or fail in the
        system's terms), ``net`` a whole number the log can sort by (0 where the system has
        none). A roll from a sheet may keep a verdict of the system's own beside it (its
        ``SheetSystem.roll`` says which: a Genesys check's net successes, say)."""
        ...


class RulesModule(Protocol):
    """What every system's rules module offers and shared code may call on it.

    Attributes:
        SOURCE: the prefix of every rule citation the system's ``RuleError`` carries, e.g.
            ``"Maelstrom rules.md"``.
        ODDS_PARAMETERS: the parameters of the system's odds query, from which the ``odds``
            command builds its flags and reads a batch line (:mod:`rulesets.query`).
        QUICK_ROLL_EXAMPLES: examples of the GM's NPC quick roll notation, for the form's
            help text; at least one, the first the one error messages quote.
        QUICK_ROLL_MAX_LENGTH: the longest quick roll text accepted, in characters.
        READINGS: the system's table readings, a :class:`rulesets.readings.Readings`
            subclass: the rules a campaign may read another way, each field a reading.
    """

    SOURCE: str
    ODDS_PARAMETERS: tuple[Parameter, ...]
    QUICK_ROLL_EXAMPLES: tuple[str, ...]
    QUICK_ROLL_MAX_LENGTH: int

    @property
    def READINGS(self) -> type[Readings]:  # noqa: N802  # a module constant, read-only here
        """The system's :class:`rulesets.readings.Readings` subclass (a read-only member, so
        a module's own subclass satisfies it)."""
        ...

    def odds_query(self, query: Mapping[str, object]) -> dict[str, object]:
        """Answer one odds query (a command line's flags or a batch line).

        Args:
            query: parameter name -> value, checked against :attr:`ODDS_PARAMETERS`.

        Returns:
            The exact odds as a JSON-serialisable dict (the system's ``Odds.as_dict()``).

        Raises:
            RuleError: an unknown key, a mistyped value or a value out of range.
        """
        ...

    # The readings are typed Any for the reason the pool is (below): each system's quick roll
    # takes its own READINGS, which shared code builds from the same module.
    def quick_roll(self, text: str, readings: Any) -> RulesPool:
        """Parse the GM's NPC quick roll notation into a pool :meth:`roll` accepts, under the
        campaign's table ``readings`` (an instance of :attr:`READINGS`).

        Raises:
            RuleError: notation the system cannot read; the message quotes the bad part.
        """
        ...

    # The pool is typed Any: each system's roll takes its own pool type, and shared code only
    # passes on what the same module's quick_roll returned. Protocols cannot tie the two
    # without making every caller generic over a type it never looks inside.
    def roll(self, pool: Any, rng: Rng) -> RulesResult:
        """Roll ``pool`` with the injected ``rng`` and resolve it by the system's rules."""
        ...
