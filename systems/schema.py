"""The building blocks of each system's import schema (docs/backup.md, "Limits").

An import is untrusted input: :mod:`transfer.schema` checks every field of a document
against a schema before anything is written. The parts that depend on a rule system (a
sheet, a campaign's ``system_data``, a roll's pool and result by kind, a roll request's data,
the die faces a roll stores) are declared by the system, in
``systems/<slug>/schema.py`` as ``IMPORT_SCHEMA`` (an :class:`ImportSchema`), so
``transfer/`` knows no system. The types here are pydantic (strict: no "4" read as 4, no
``true`` as 1) and every model refuses keys it does not declare.

The schema checks *shape*: known keys, JSON types, lengths, counts, ranges wide enough for
every value the rules make, and die sizes the system uses. The rules' own checks
(``check_sheet``, ``check_system_data``, :mod:`transfer.checks`) still decide what the game
allows.

How a schema spells a field's type (one pattern for every ``systems/<slug>/schema.py``):
a type checker (mypy) refuses a call where a type belongs (``dice: whole(0, 100)``), so a
constrained field is ``Annotated[<Python type>, <constraint>]``, the constraint a call of a
helper here that returns pydantic *metadata*, never a type::

    dice: Annotated[int, sk.between(0, 100)]               # a whole number, 0 to 100
    label: Annotated[str, sk.one_line(80)]                  # one line, at most 80 characters
    name: Annotated[str, sk.name_line(80)]                  # a one-line name, not blank
    note: Annotated[str, sk.multiline(1_000)] = ""          # text, newlines allowed
    notes: Annotated[list[sk.Line], sk.max_items(50)]       # at most 50 entries
    outcome: Annotated[str, sk.one_of(rules.OUTCOMES)]      # one value of a catalogue

A type used more than once is a module-level alias (``_Face: TypeAlias = Annotated[int,
sk.between(1, 10)]``; :data:`Line` and :data:`Name` are the ones of the default length).
``Literal[...]`` of values written out stays as it is (``Literal["maelstrom"]``); a
catalogue's values go through :func:`one_of`, which validates exactly as ``Literal[values]``
would. Pydantic validates ``Annotated[str, sk.one_line(80)]`` as a ``str`` with the
constraint; mypy sees ``str``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal, TypeAlias

from annotated_types import GroupedMetadata, Interval, MaxLen
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, GetCoreSchemaHandler
from pydantic_core import CoreSchema

from core import text
from systems.registry import package_of

__all__ = [
    "LIST_MAX",
    "NAME_MAX",
    "TEXT_MAX",
    "ImportSchema",
    "Line",
    "Name",
    "Schema",
    "between",
    "import_schema",
    "max_items",
    "multiline",
    "name_line",
    "one_line",
    "one_of",
]

NAME_MAX = 200
"""The longest name or one-line label inside a system's JSON (a feature, a skill, a note)."""

TEXT_MAX = 10_000
"""The longest multi-line text inside a system's JSON."""

LIST_MAX = 500
"""The most entries of a list inside a sheet or campaign data (features, skills, dice)."""

# The one rule for text (core.text): what a form accepts, an import takes back.


def _no_control(value: str) -> str:
    problem = text.text_problem(value)
    if problem:
        raise ValueError(f"text may not hold this character: {problem}")
    return value


def _one_line(value: str) -> str:
    problem = text.line_problem(value)
    if problem:
        raise ValueError(f"text must be one line of plain text: {problem}")
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("a name may not be empty")
    return value


@dataclass(frozen=True)
class _Text(GroupedMetadata):
    """A length limit and the checks a text field runs after it (pydantic unpacks a
    ``GroupedMetadata`` in place: the same constraints, in the same order, as
    ``Annotated[str, Field(max_length=...), AfterValidator(check), ...]``)."""

    max_length: int
    checks: tuple[Callable[[str], str], ...]

    def __iter__(self) -> Iterator[object]:
        yield MaxLen(self.max_length)
        for check in self.checks:
            yield AfterValidator(check)


@dataclass(frozen=True)
class _OneOf:
    """Validation as ``Literal[*values]`` (the same core schema and errors), the values
    taken from a catalogue at run time, which ``Literal[...]`` cannot spell for mypy."""

    values: tuple[str | int, ...]

    def __get_pydantic_core_schema__(self, source: Any,
                                     handler: GetCoreSchemaHandler) -> CoreSchema:
        # The annotated type is what mypy sees; it must hold every value (no int catalogue
        # behind a str field).
        if not all(isinstance(value, source) for value in self.values):
            raise TypeError(f"one_of{self.values!r} has a value that is not {source!r}")
        # Literal[("a", "b")] is Literal["a", "b"]; a run-time subscription, never a type.
        literal: Any = Literal
        return handler.generate_schema(literal[self.values])


def between(low: int, high: int) -> Interval:
    """For ``Annotated[int, between(low, high)]``: a whole number from ``low`` to ``high``
    (the model is strict: JSON true/false and "4" refused)."""
    return Interval(ge=low, le=high)


def one_line(max_length: int = NAME_MAX) -> GroupedMetadata:
    """For ``Annotated[str, one_line(n)]``: one line of text, at most ``n`` characters,
    by core.text's rule for a line (no control character, tab nor line break, no direction
    mark)."""
    return _Text(max_length, (_one_line,))


def name_line(max_length: int = NAME_MAX) -> GroupedMetadata:
    """For ``Annotated[str, name_line(n)]``: a name, one line, not empty nor only spaces,
    at most ``n`` characters."""
    return _Text(max_length, (_one_line, _not_blank))


def multiline(max_length: int = TEXT_MAX) -> GroupedMetadata:
    """For ``Annotated[str, multiline(n)]``: text of at most ``n`` characters, tab and
    newlines allowed, no other control character nor direction mark (core.text's rule)."""
    return _Text(max_length, (_no_control,))


def max_items(most: int = LIST_MAX) -> MaxLen:
    """For ``Annotated[list[X], max_items(n)]``: at most ``n`` entries."""
    return MaxLen(most)


def one_of(values: Iterable[str | int]) -> _OneOf:
    """For ``Annotated[str, one_of(catalogue)]`` (``int`` for die sizes): one of
    ``values``, validated as ``Literal`` of them (in their order, which the error lists)."""
    return _OneOf(tuple(values))


Line: TypeAlias = Annotated[str, one_line(NAME_MAX)]
"""One line of at most :data:`NAME_MAX` characters (a label, a summary, a note line)."""

Name: TypeAlias = Annotated[str, name_line(NAME_MAX)]
"""A name of at most :data:`NAME_MAX` characters."""


class Schema(BaseModel):
    """A JSON object with exactly the declared keys (unknown keys refused), strictly typed.
    Validation only: the import stores the document's own values, never this model."""

    model_config = ConfigDict(extra="forbid", strict=True, hide_input_in_errors=True)


class NoData(Schema):
    """An empty object: data a system never keeps there (any key is refused)."""


NO_DATA: Any = NoData


@dataclass(frozen=True)
class ImportSchema:
    """What a system's JSON looks like in an export (each a type pydantic validates).

    Attributes:
        sheet: ``Character.sheet``.
        system_data: ``Campaign.system_data``.
        rolls: each roll kind the system makes -> (type of ``Roll.pool``, of ``Roll.result``);
            a roll of any other kind is refused.
        dice: ``Roll.dice``, ``Roll.bonus_dice`` and ``Roll.experience_die`` (the faces a
            roll keeps in columns; empty where the system keeps them in its result).
        request_traits: ``RequestedRoll.traits``.
        request_data: ``RequestedRoll.data``.
    """

    sheet: Any
    system_data: Any
    rolls: Mapping[str, tuple[Any, Any]]
    dice: Any = Annotated[list[int], Field(max_length=0)]
    request_traits: Any = Annotated[list[str], Field(max_length=0)]
    request_data: Any = field(default_factory=lambda: _NOTE_DATA)


class _Note(Schema):
    note: Annotated[str, multiline(1_000)] = ""


_NOTE_DATA: Any = _Note


@cache
def import_schema(slug: str) -> ImportSchema:
    """The :class:`ImportSchema` of the rule system ``slug``, from
    ``systems/<slug>/schema.py`` (its package's, :func:`systems.registry.package_of`).

    Raises:
        ModuleNotFoundError: the system declares none (every selectable system does;
            tests/transfer/test_import_schema.py checks).
    """
    module = importlib.import_module(f"{package_of(slug)}.schema")
    schema: ImportSchema = module.IMPORT_SCHEMA
    return schema
