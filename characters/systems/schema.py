"""The building blocks of each system's import schema (docs/backup.md, "Limits").

An import is untrusted input: :mod:`transfer.schema` checks every field of a document
against a schema before anything is written. The parts that depend on a rule system (a
sheet, a campaign's ``system_data``, a roll's pool and result by kind, a roll request's data,
the die faces a roll stores) are declared by the system, in
``characters/systems/<slug>_schema.py`` as ``IMPORT_SCHEMA`` (an :class:`ImportSchema`), so
``transfer/`` knows no system. The types here are pydantic (strict: no "4" read as 4, no
``true`` as 1) and every model refuses keys it does not declare.

The schema checks *shape*: known keys, JSON types, lengths, counts, ranges wide enough for
every value the rules make, and die sizes the system uses. The rules' own checks
(``check_sheet``, ``check_system_data``, :mod:`transfer.checks`) still decide what the game
allows.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

__all__ = [
    "LIST_MAX",
    "NAME_MAX",
    "TEXT_MAX",
    "ImportSchema",
    "Schema",
    "die",
    "import_schema",
    "items",
    "line",
    "name",
    "text",
    "whole",
]

NAME_MAX = 200
"""The longest name or one-line label inside a system's JSON (a feature, a skill, a note)."""

TEXT_MAX = 10_000
"""The longest multi-line text inside a system's JSON."""

LIST_MAX = 500
"""The most entries of a list inside a sheet or campaign data (features, skills, dice)."""

# Control characters (C0 and C1, DEL) and lone surrogates (JSON may spell "\ud800"; no
# database can store one, and PostgreSQL refuses NUL). A line refuses tab and newline too.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_LINE_BREAKS = re.compile("[\t\n\r\u2028\u2029]")


def _no_control(value: str) -> str:
    found = _CONTROL.search(value)
    if found:
        raise ValueError(f"text may not hold the control character U+{ord(found[0]):04X}")
    return value


def _one_line(value: str) -> str:
    _no_control(value)
    found = _LINE_BREAKS.search(value)
    if found:
        raise ValueError(f"text must be one line (it holds U+{ord(found[0]):04X})")
    return value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("a name may not be empty")
    return value


def line(max_length: int = NAME_MAX) -> Any:
    """One line of text, at most ``max_length`` characters, no control characters."""
    return Annotated[str, Field(max_length=max_length), AfterValidator(_one_line)]


def name(max_length: int = NAME_MAX) -> Any:
    """A name: one line, not empty nor only spaces, at most ``max_length`` characters."""
    return Annotated[str, Field(max_length=max_length), AfterValidator(_one_line),
                     AfterValidator(_not_blank)]


def text(max_length: int = TEXT_MAX) -> Any:
    """Multi-line text (tab and newlines allowed, no other control character)."""
    return Annotated[str, Field(max_length=max_length), AfterValidator(_no_control)]


def whole(low: int, high: int) -> Any:
    """A whole number from ``low`` to ``high`` (JSON true/false refused)."""
    return Annotated[int, Field(ge=low, le=high)]


def die(sizes: tuple[int, ...]) -> Any:
    """A die size the system uses (4 for a d4), one of ``sizes``."""
    return Literal[sizes]


def items(item: Any, max_length: int = LIST_MAX) -> Any:
    """A list of ``item`` with at most ``max_length`` entries."""
    return Annotated[list[item], Field(max_length=max_length)]


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
    note: text(1_000) = ""


_NOTE_DATA: Any = _Note


@cache
def import_schema(slug: str) -> ImportSchema:
    """The :class:`ImportSchema` of the rule system ``slug``, from
    ``characters/systems/<slug>_schema.py``.

    Raises:
        ModuleNotFoundError: the system declares none (every selectable system does;
            tests/transfer/test_import_schema.py checks).
    """
    module = importlib.import_module(f"characters.systems.{slug}_schema")
    schema: ImportSchema = module.IMPORT_SCHEMA
    return schema
