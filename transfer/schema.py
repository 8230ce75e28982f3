"""The schema of an export file: every field of a document checked before anything is written.

An import is untrusted input (docs/backup.md, "Limits"). Two checks run on every document,
besides the links, ledger and rules checks of :mod:`transfer.services`:

1. :func:`check_shape`, first, on the decoded JSON as a whole and without recursion: no
   nesting deeper than :data:`MAX_DEPTH`, no list longer than :data:`MAX_LIST`, no object
   with more than :data:`MAX_KEYS` keys, no text longer than :data:`MAX_TEXT`, no control
   character in any text or key (NUL, escapes, lone surrogates; tab and newlines only),
   no fraction and no whole number outside what JSON carries exactly. A hostile file stops
   here before any rule reads it.
2. :func:`check_document`, once the rows are read: the document (format version 3)
   against its system's schema (pydantic, strict): the envelope, the campaign, members,
   sessions, characters, ledger entries, rolls and roll requests, each with exactly its
   known keys (every column of :data:`transfer.format.FIELDS` typed from its model: lengths,
   ranges, choices), and the JSON a system keeps (a sheet, campaign data, a roll's pool and
   result by kind, a request's data) against the system's own
   :class:`~systems.schema.ImportSchema`. Names may not be empty, text holds one
   line unless it is written text (notes, a backstory, a recap, a description: what people
   write in Markdown is at most :data:`core.markdown.MAX_LENGTH` characters, as its forms
   allow), and no date or time lies in the future (:data:`CLOCK_SKEW` allowed).

An older file is read into the version 3 document it stands for (``transfer.services``)
and checked as one; before that, for a version 1 file, :func:`check_version_1` checks the
parts only version 1 has (:func:`version_1_columns`: Maelstrom's trait rows, track, dice and
request columns), typed as their columns were and, for the JSON ones, as the file's system's
:class:`~systems.schema.ImportSchema` says (``dice``, ``request_traits``).

Each raises :class:`SchemaError` naming the field as a path
(``characters[0].sheet.features[2].die``) and the rule.
"""

from __future__ import annotations

import datetime
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal, Protocol, TypeVar, cast

from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from pydantic import AfterValidator, Field, TypeAdapter, ValidationError, create_model
from pydantic_core import ErrorDetails

from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from core import markdown, text
from rolls.models import RequestedRoll, Roll
from rulesets.registry import RULESETS
from systems import schema as sk
from systems.registry import package_of
from transfer.format import FIELDS, MARKDOWN_FIELDS, VERSION, may_leave_out

MAX_DEPTH = 16
"""Deepest nesting of objects and lists in a document (a genuine export nests 8 deep)."""

MAX_LIST = 20_000
"""Most entries of any one list (a campaign's rolls; the bonus dice of an exploding roll)."""

MAX_KEYS = 200
"""Most keys of any one object."""

MAX_TEXT = max(sk.TEXT_MAX, markdown.MAX_LENGTH)
"""Longest text anywhere in a document (characters): what people write in Markdown (a
backstory, notes, a recap); a column's own limit may be lower (other multi-line text
:data:`systems.schema.TEXT_MAX`)."""

MAX_WHOLE = 2**53 - 1
"""Largest whole number (either sign) a document may hold: what JSON carries exactly."""

CLOCK_SKEW = datetime.timedelta(minutes=5)
"""How far in the future a time may lie (another machine's clock running ahead)."""

SESSION_DATE_AHEAD = datetime.timedelta(days=366)
"""How far ahead a session's date may lie: a GM may date a planned session (the session form
allows it), never years ahead."""

EARLIEST = datetime.date(1900, 1, 1)
"""The earliest date or time a document may name."""

MAX_CHARACTERS = 1_000
MAX_MEMBERS = 1_000
MAX_SESSIONS = 10_000
MAX_ROWS = MAX_LIST
"""Most rolls, requests or ledger entries."""

INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "PositiveSmallIntegerField": (0, 32_767),
    "SmallIntegerField": (-32_768, 32_767),
    "PositiveIntegerField": (0, 1_000_000),
    "IntegerField": (-1_000_000, 1_000_000),
}
"""The range of each kind of integer column: the database's for small integers, a million
either way (XP, a roll's net successes) for the others, so no value overflows a column."""


class SchemaError(ValueError):
    """A document that breaks its schema: ``path`` names the field
    (``characters[0].sheet.features[2].die``, empty for the document itself) and
    ``rule`` the broken rule; ``str()`` is a sentence fit to show."""

    def __init__(self, path: str, rule: str) -> None:
        self.path, self.rule = path, rule
        where = f"at {path}" if path else "as a whole"
        super().__init__(f"The file is refused {where}: {rule}.")


# --- 1. the shape -------------------------------------------------------------------------


def check_shape(data: Any) -> None:
    """Check a decoded document's size and text everywhere, iteratively (a hostile file
    cannot exhaust the stack here). Limits: :data:`MAX_DEPTH`, :data:`MAX_LIST`,
    :data:`MAX_KEYS`, :data:`MAX_TEXT`, :data:`MAX_WHOLE`; every text by core.text's rule
    for multi-line text (no control character but tab and line ends, no direction mark, no
    lone surrogate); no fractions (no field holds one).

    Raises:
        SchemaError: naming the first offending field and the limit.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict | list):
            if len(path) >= MAX_DEPTH:
                raise SchemaError(_path(path), f"nested deeper than {MAX_DEPTH} levels")
            if isinstance(value, list):
                if len(value) > MAX_LIST:
                    raise SchemaError(_path(path), f"a list of {len(value)} entries; at most "
                                                   f"{MAX_LIST} are taken")
                stack.extend((item, (*path, i)) for i, item in enumerate(value))
                continue
            if len(value) > MAX_KEYS:
                raise SchemaError(_path(path), f"an object of {len(value)} keys; at most "
                                               f"{MAX_KEYS} are taken")
            for key, item in value.items():
                _check_text(key, (*path, key), "a key")
                stack.append((item, (*path, key)))
        elif isinstance(value, str):
            _check_text(value, path, "text")
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_WHOLE:
                raise SchemaError(_path(path), f"the number {str(value)[:20]}... is too large "
                                               f"(at most {MAX_WHOLE} either way)")
        else:  # a float, NaN or Infinity: JSON reads them, no field of the format has one
            raise SchemaError(_path(path), f"{value!r} is a fraction; every number in an "
                                           "export is a whole number")


def _check_text(value: str, path: tuple[str | int, ...], what: str) -> None:
    if len(value) > MAX_TEXT:
        raise SchemaError(_path(path), f"{what} of {len(value)} characters; at most "
                                       f"{MAX_TEXT} are taken")
    # core.text's rule for multi-line text, which every text a form takes keeps (a line's
    # stricter rule is the field's own, in the schema below).
    problem = text.text_problem(value)
    if problem:
        raise SchemaError(_path(path), f"{what} that no field may hold: {problem}")


def _path(path: tuple[str | int, ...]) -> str:
    """``characters[0].sheet.features[2].die``; a key that is not a plain word is quoted and
    escaped (``rolls[0]["bonus_dice\\u0000"]``), and shortened to 40 characters."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isascii() and part.replace("_", "a").isalnum() and len(part) <= 40:
            out += f".{part}" if out else part
        else:
            out += f"[{json.dumps(part[:40])}]"
    return out


# --- 2. the schema ------------------------------------------------------------------------


def _timestamp(raw: str) -> str:
    try:
        value = parse_datetime(raw)
    except ValueError:
        value = None
    if value is None or timezone.is_naive(value):
        raise ValueError("must be a date and time with its time zone "
                         "(2025-01-31T20:15:00+00:00)")
    if value.year < EARLIEST.year:
        raise ValueError(f"lies before {EARLIEST.year}")
    if value > timezone.now() + CLOCK_SKEW:
        raise ValueError("lies in the future: nothing in an export happened after it was "
                         "exported")
    return raw


def _date(raw: str) -> str:
    try:
        value = parse_date(raw)
    except ValueError:
        value = None
    if value is None:
        raise ValueError("must be a date (2025-01-31)")
    if value < EARLIEST:
        raise ValueError(f"lies before {EARLIEST.year}")
    if value > timezone.localdate() + SESSION_DATE_AHEAD:
        raise ValueError(f"lies more than {SESSION_DATE_AHEAD.days} days in the future")
    return raw


Timestamp = Annotated[str, Field(max_length=40), AfterValidator(_timestamp)]
Date = Annotated[str, Field(max_length=10), AfterValidator(_date)]
Number = Annotated[int, Field(ge=1, le=10**9)]
Username = Annotated[str, sk.name_line(150)]

# The JSON columns whose shape the system declares: (model, column) -> ImportSchema field.
_SYSTEM_PARTS: dict[tuple[type[models.Model], str], str] = {
    (Campaign, "system_data"): "system_data",
    (Character, "sheet"): "sheet",
    (RequestedRoll, "data"): "request_data",
}
# A roll's pool and result depend on its kind: checked one roll at a time (_check_rolls).
_BY_KIND = {(Roll, "pool"), (Roll, "result")}
# Text with line breaks though its column is a CharField: a campaign's description is "a line
# or two", and its settings form may take it in a text box.
_LINES = {(Campaign, "description")}


def _model_column(model: type[models.Model], name: str, system: sk.ImportSchema) -> Any:
    """The pydantic type of one column of ``model`` as the document carries it."""
    column = model._meta.get_field(name)
    # FIELDS names concrete columns only (tests/transfer checks it against the models), never
    # a reverse relation or a generic foreign key.
    assert isinstance(column, models.Field)
    if (model, name) in _SYSTEM_PARTS:
        return getattr(system, _SYSTEM_PARTS[(model, name)])
    if (model, name) in _BY_KIND:
        return Any
    if name in MARKDOWN_FIELDS.get(model, ()):
        return Annotated[str, sk.multiline(markdown.MAX_LENGTH)]
    if (model, name) in _LINES:
        return Annotated[str, sk.multiline(column.max_length or sk.TEXT_MAX)]
    return _column_type(column)


def _column_type(column: models.Field[Any, Any]) -> Any:
    """The pydantic type of a column no system declares, from the column's own limits."""
    if isinstance(column, models.JSONField):
        kind: Any = dict[str, Any] if column.get_default() == {} else list[Any]
    elif isinstance(column, models.DateTimeField):
        kind = Timestamp
    elif isinstance(column, models.DateField):
        kind = Date
    elif isinstance(column, models.BooleanField):
        kind = bool
    elif isinstance(column, models.IntegerField):
        low, high = INTEGER_RANGES.get(column.get_internal_type(), INTEGER_RANGES["IntegerField"])
        kind = Annotated[int, Field(ge=low, le=high)]
    elif column.choices:
        kind = Literal[tuple(key for key, _ in column.flatchoices)]
    elif isinstance(column, models.TextField):
        kind = Annotated[str, sk.multiline(sk.TEXT_MAX)]
    elif not column.blank:  # a name: not empty
        kind = Annotated[str, sk.name_line(column.max_length or MAX_TEXT)]
    else:
        kind = Annotated[str, sk.one_line(column.max_length or MAX_TEXT)]
    return kind | None if column.null else kind


def _row_model(model: type[models.Model], fields: tuple[str, ...], system: sk.ImportSchema,
               links: Mapping[str, Any], slug: str, later: Mapping[str, Any]
               ) -> type[sk.Schema]:
    # Any: create_model's keyword arguments also name its options (__doc__, __module__), so a
    # precisely typed dict of (type, default) pairs matches none of its overloads.
    columns: dict[str, Any] = {name: (_model_column(model, name, system),
                                      later.get(name, ...))
                               for name in fields}
    columns.update({name: (kind, ...) for name, kind in links.items()})
    return create_model(f"{slug}_{model.__name__}", __base__=sk.Schema, **columns)


def _rows(item: Any, most: int) -> Any:
    return Annotated[list[item], Field(max_length=most)]


@dataclass(frozen=True)
class _Schemas:
    character: TypeAdapter[Any]
    campaign: TypeAdapter[Any]
    rolls: Mapping[str, tuple[TypeAdapter[Any], TypeAdapter[Any]]]


@cache
def _schemas(slug: str) -> _Schemas:
    """The document models of one system, built once from the columns the format carries
    (:data:`transfer.format.FIELDS`)."""
    system = sk.import_schema(slug)

    def row(model: type[models.Model], **links: Any) -> type[sk.Schema]:
        return _row_model(model, FIELDS[model], system, links, slug, may_leave_out(model))

    optional_number = Number | None
    member = row(Membership, username=Username)
    session = row(Session, id=Number)
    entry = row(XpEntry, id=Number, reverses=optional_number, session=optional_number,
                created_by=Username)
    character = row(Character, id=Number, owner=Username, xp_entries=_rows(entry, MAX_ROWS))
    roll = row(Roll, id=Number, character=optional_number, parent=optional_number,
               rolled_by=Username)
    request = row(RequestedRoll, character=Number, answer=optional_number,
                  requested_by=Username)
    campaign = row(Campaign, created_by=Username, members=_rows(member, MAX_MEMBERS))
    envelope: dict[str, Any] = {  # Any: see _row_model
        "format": (Literal["sheetkeeper"], ...), "version": (Literal[VERSION], ...),
        "system": (Literal[slug], ...), "exported_at": (Timestamp, ...),
        "sessions": (_rows(session, MAX_SESSIONS), ...),
        "rolls": (_rows(roll, MAX_ROWS), ...),
        "requested_rolls": (_rows(request, MAX_ROWS), ...),
    }
    character_fields: dict[str, Any] = {"kind": (Literal["character"], ...),
                                         "character": (character, ...), **envelope}
    campaign_fields: dict[str, Any] = {
        "kind": (Literal["campaign"], ...), "campaign": (campaign, ...),
        "characters": (_rows(character, MAX_CHARACTERS), ...), **envelope,
    }
    character_file = create_model(f"{slug}_CharacterFile", __base__=sk.Schema,
                                  **character_fields)
    campaign_file = create_model(f"{slug}_CampaignFile", __base__=sk.Schema,
                                 **campaign_fields)
    return _Schemas(
        character=TypeAdapter(character_file), campaign=TypeAdapter(campaign_file),
        rolls={kind: (TypeAdapter(pool), TypeAdapter(result))
               for kind, (pool, result) in system.rolls.items()},
    )


def check_document(data: Mapping[str, Any]) -> None:
    """Check a whole document against its system's schema (see the module docstring).

    Args:
        data: the decoded document, its header already checked (a known ``system`` and
            ``kind``) and its shape passed by :func:`check_shape`.

    Raises:
        SchemaError: naming the first field that breaks the schema, and the rule.
    """
    schemas = _schemas(data["system"])
    adapter = schemas.character if data["kind"] == "character" else schemas.campaign
    _validate(adapter, data, ())
    for i, roll in enumerate(data["rolls"]):
        kinds = schemas.rolls.get(roll["kind"])
        if kinds is None:
            raise SchemaError(f"rolls[{i}].kind", f"a {data['system']} roll is never of kind "
                                                  f"{roll['kind']!r} (it makes "
                                                  f"{', '.join(schemas.rolls)})")
        _validate(kinds[0], roll["pool"], ("rolls", i, "pool"))
        _validate(kinds[1], roll["result"], ("rolls", i, "result"))


# --- format version 1 -------------------------------------------------------------------------


class Version1Reader(Protocol):
    """What a system that kept data of its own in format version 1 declares as ``VERSION_1``
    in ``systems/<slug>/schema.py`` (Maelstrom: its trait rows and merits and flaws, its
    track columns, a roll's dice columns, a request's pool columns): the columns it was kept
    in, which every version 1 file carries on its rows (another system's holding their
    defaults), and how the version 2 parts of a row are made of them.

    The ``make_*`` functions take the row's columns as checked (those of
    :data:`transfer.format.FIELDS` and the version 1 ones of its kind, each of its column's
    type) and raise RuleError for what the rules refuse (KeyError, TypeError, ValueError on
    a shape they cannot read, which the import reports as data that cannot be read)."""

    @property
    def character(self) -> Mapping[str, models.Field[Any, Any]]:
        """A character's columns, by name (unbound model fields)."""

    @property
    def rows(self) -> Mapping[str, Mapping[str, models.Field[Any, Any]]]:
        """The lists of rows a character carried (``"traits"``) and their columns."""

    @property
    def row_words(self) -> Mapping[str, tuple[str, str]]:
        """Each list's row in words, one and many (``("trait", "traits")``)."""

    @property
    def rows_max(self) -> Mapping[str, int]:
        """The most rows of each list a character may carry."""

    @property
    def roll(self) -> Mapping[str, models.Field[Any, Any]]:
        """A roll's columns."""

    @property
    def request(self) -> Mapping[str, models.Field[Any, Any]]:
        """A roll request's columns."""

    @property
    def typed_by(self) -> Mapping[str, str]:
        """A JSON column of a roll or request -> the field of the file's system's
        :class:`~systems.schema.ImportSchema` that types it (``"dice"``)."""

    @property
    def make_sheet(self) -> Callable[[Mapping[str, Any], list[dict[str, Any]],
                                      list[dict[str, Any]]], dict[str, Any]]:
        """``(character's columns, its trait rows, its merits and flaws)`` -> its
        ``Character.sheet``."""

    @property
    def make_roll(self) -> Callable[[Mapping[str, Any]],
                                    tuple[dict[str, Any], dict[str, Any]]]:
        """A roll's columns -> its ``(pool, result)``."""

    @property
    def make_request(self) -> Callable[[Mapping[str, Any]], tuple[dict[str, Any], str]]:
        """A request's columns -> its ``(data, description)``."""


_V = TypeVar("_V")


@cache
def version_1_reader(slug: str) -> Version1Reader | None:
    """The system's reader of its own version 1 data (``VERSION_1`` of its schema module),
    or ``None`` for a system that kept nothing of its own there."""
    module = importlib.import_module(f"{package_of(slug)}.schema")
    return cast("Version1Reader | None", getattr(module, "VERSION_1", None))


@dataclass(frozen=True)
class Version1Columns:
    """The columns and rows a version 1 document carries beyond version 2, on every
    system's rows (see :class:`Version1Reader` for each attribute)."""

    character: Mapping[str, models.Field[Any, Any]]
    rows: Mapping[str, Mapping[str, models.Field[Any, Any]]]
    row_words: Mapping[str, tuple[str, str]]
    rows_max: Mapping[str, int]
    roll: Mapping[str, models.Field[Any, Any]]
    request: Mapping[str, models.Field[Any, Any]]
    typed_by: Mapping[str, str]


@cache
def version_1_columns() -> Version1Columns:
    """The columns a version 1 document carries beyond version 2: those every registered
    system that kept data of its own there declares (:func:`version_1_reader`), together."""
    readers = [reader for slug in RULESETS
               if (reader := version_1_reader(slug)) is not None]

    def merged(part: Callable[[Version1Reader], Mapping[str, _V]]) -> dict[str, _V]:
        return {key: value for reader in readers for key, value in part(reader).items()}

    return Version1Columns(
        character=merged(lambda r: r.character), rows=merged(lambda r: r.rows),
        row_words=merged(lambda r: r.row_words), rows_max=merged(lambda r: r.rows_max),
        roll=merged(lambda r: r.roll), request=merged(lambda r: r.request),
        typed_by=merged(lambda r: r.typed_by))


@dataclass(frozen=True)
class _Part:
    """The version 1 columns of one kind of row, and their schema."""

    keys: frozenset[str]
    adapter: TypeAdapter[Any]


def _model(name: str, columns: Mapping[str, Any]) -> type[sk.Schema]:
    """A model of exactly ``columns`` (name -> type), every one required."""
    fields: dict[str, Any] = {key: (kind, ...) for key, kind in columns.items()}  # see _row_model
    return create_model(name, __base__=sk.Schema, **fields)


def _part(name: str, columns: Mapping[str, Any]) -> _Part:
    return _Part(keys=frozenset(columns), adapter=TypeAdapter(_model(name, columns)))


@cache
def _version_1_parts(slug: str) -> tuple[_Part, _Part, _Part]:
    """The schemas of the columns only version 1 has in a file of the system ``slug``: (a
    character's, a roll's, a request's)."""
    system = sk.import_schema(slug)
    v1 = version_1_columns()

    def typed(columns: Mapping[str, models.Field[Any, Any]]) -> dict[str, Any]:
        return {name: getattr(system, v1.typed_by[name]) if name in v1.typed_by
                else _column_type(column) for name, column in columns.items()}

    character = typed(v1.character)
    character.update({key: _rows(_model(f"{slug}_v1_{key}", typed(columns)),
                                 v1.rows_max[key])
                      for key, columns in v1.rows.items()})
    if version_1_reader(slug) is not None:  # its sheet was in those rows and columns
        character["sheet"] = sk.NO_DATA
    return (_part(f"{slug}_v1_Character", character),
            _part(f"{slug}_v1_Roll", typed(v1.roll)),
            _part(f"{slug}_v1_RequestedRoll", typed(v1.request)))


def check_version_1(data: Mapping[str, Any]) -> None:
    """Check the parts of a version 1 document that version 2 does not have: each
    character's track columns, trait rows and merits and flaws, each roll's dice columns
    (the faces the system's ``ImportSchema.dice`` takes: none for a system that keeps its
    dice in the result), each request's pool columns (``ImportSchema.request_traits``).

    Args:
        data: the decoded version 1 document, its rows read (every row an object with every
            column, each of its column's JSON type: ``transfer.services`` checks that first).

    Raises:
        SchemaError: naming the first field that breaks the schema, and the rule.
    """
    character, roll, request = _version_1_parts(data["system"])
    characters: list[tuple[tuple[str | int, ...], Any]] = (
        [(("character",), data["character"])] if data["kind"] == "character"
        else [(("characters", i), row) for i, row in enumerate(data["characters"])])
    rows = [
        *((character, where, row) for where, row in characters),
        *((roll, ("rolls", i), row) for i, row in enumerate(data["rolls"])),
        *((request, ("requested_rolls", i), row)
          for i, row in enumerate(data["requested_rolls"])),
    ]
    for part, where, row in rows:
        _validate(part.adapter, {key: row[key] for key in part.keys if key in row}, where)


def _validate(adapter: TypeAdapter[Any], value: Any, where: tuple[str | int, ...]) -> None:
    try:
        adapter.validate_python(value)
    except ValidationError as exc:
        # A union reports one error per member; the deepest is the one that got furthest
        # (a die refused inside the result, not "is not an empty object").
        error = max(exc.errors(), key=lambda e: len(e["loc"]))
        raise SchemaError(_path((*where, *_data_path(value, error["loc"]))),
                          _rule(error)) from None


def _data_path(value: Any, loc: tuple[str | int, ...]) -> list[str | int]:
    """The error's location as keys and indexes of the data, without the names pydantic
    adds for union members and validators."""
    path: list[str | int] = []
    node = value
    for part in loc:
        inside = (part in node if isinstance(node, dict) else
                  isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node))
        if inside:
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and not _is_tag(part):
            path.append(part)  # a missing key: name it
            break
        else:
            continue
        path.append(part)
    return path


def _is_tag(part: str) -> bool:
    return "[" in part or part in {"int", "str", "bool", "dict", "list", "none"} or \
        part[:1].isupper()


def _rule(error: ErrorDetails) -> str:
    kind, message = error["type"], error["msg"]
    if kind == "extra_forbidden":
        return "this field is not in the format (unknown fields are refused: nothing " \
               "unknown is imported)"
    if kind == "missing":
        return "this field is missing"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return "must be an object"
    if message.startswith(("Value error, ", "Assertion failed, ")):
        message = message.split(", ", 1)[1]
    message = message.replace("Input should be", "must be", 1)
    return message[:1].lower() + message[1:]
