"""The schema of an export file: every field of a document checked before anything is written.

An import is untrusted input (docs/backup.md, "Limits"). Three checks run on every document,
besides the links, ledger and rules checks of :mod:`transfer.validate`:

1. :func:`check_shape`, first, on the decoded JSON as a whole and without recursion: no
   nesting deeper than :data:`MAX_DEPTH`, no list longer than :data:`MAX_LIST`, no object
   with more than :data:`MAX_KEYS` keys, no text longer than :data:`MAX_TEXT`, no control
   character in any text or key (NUL, escapes, lone surrogates; tab and newlines only),
   no fraction and no whole number outside what JSON carries exactly. A hostile file stops
   here before any rule reads it.
2. :func:`check_rows`, once the header is read: every row against the schema of the file's
   format version (pydantic, strict), each with exactly its known keys. A current document
   (version 3): the envelope, the campaign, members, sessions, characters, ledger entries,
   inventory items, rolls, roll requests and a campaign's activity log, every column of
   :data:`transfer.format.FIELDS` typed from its model (JSON type, null, length, range,
   choices, a date's form; an activity entry's ``changes`` as :data:`Changes`), names not
   empty, text on one line unless it is written text (notes, a backstory, a recap, a
   description, an activity entry's text: what people write in Markdown is at most
   :data:`core.markdown.MAX_LENGTH` characters, as its forms allow), no date or time in the
   future (:data:`CLOCK_SKEW` allowed), the links document numbers and the people
   usernames; the JSON a system keeps is an object here.
   A version 2 file: the keys of the rows version 3 changed (the campaign, sessions,
   characters, ledger entries). A version 1 file: every row's keys, its columns typed as in
   version 3, and the columns and rows only version 1 has (:func:`version_1_columns`:
   Maelstrom's trait rows, track, dice and request columns) typed as their columns were
   and, for the JSON ones, as the file's system's :class:`~systems.schema.ImportSchema`
   says (``dice``, ``request_traits``). :mod:`transfer.upgrade` reads an older file on into
   the current document, which is then checked as one.
3. :func:`check_system_parts`, once the rules have judged the sheets: the JSON a system keeps
   (a sheet, campaign data, a roll's pool and result by kind, a request's data) against the
   system's own :class:`~systems.schema.ImportSchema`.

:func:`check_shape` and :func:`check_system_parts` raise :class:`SchemaError` naming the
field as a path (``characters[0].sheet.features[2].die``) and the rule; :func:`check_rows`
raises pydantic's ``ValidationError`` with every error and its location, which
:mod:`transfer.validate` words for the row it lies in.
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
from pydantic_core import ErrorDetails, PydanticCustomError

from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from core import markdown, text
from equipment.models import ITEMS_MAX, QUANTITY_MAX, Item
from history.models import Activity
from rolls.models import RequestedRoll, Roll
from rulesets.registry import RULESETS
from systems import schema as sk
from systems.registry import package_of
from transfer.format import (
    FIELDS,
    FORMAT,
    LATER_FIELDS,
    LATER_LISTS,
    LATER_SECTIONS,
    MARKDOWN_FIELDS,
    VERSION,
    VERSION_2_FIELDS,
    may_leave_out,
)

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

MAX_ACTIVITY = 100_000
"""Most entries of a campaign's activity log: the one list allowed past :data:`MAX_LIST`, as
every roll, ledger entry and change at the table has an entry (a campaign of 20,000 rolls
logs more than 20,000 changes). On the site the upload's size bounds it far lower."""

LONG_LISTS: dict[tuple[str | int, ...], int] = {("activity",): MAX_ACTIVITY}
"""The lists, by path, whose bound is not :data:`MAX_LIST`."""

MAX_CHANGES = 2_000
"""Most facts one activity entry records as changed (``Activity.changes``): every fact of a
sheet and a full inventory (``equipment.models.ITEMS_MAX``) with room to spare."""

INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "PositiveSmallIntegerField": (0, 32_767),
    "SmallIntegerField": (-32_768, 32_767),
    "PositiveIntegerField": (0, 1_000_000),
    "IntegerField": (-1_000_000, 1_000_000),
}
"""The range of each kind of integer column: the database's for small integers, a million
either way (XP, a roll's net successes) for the others, so no value overflows a column."""


DATE_FORM = "date_form"
"""The type of the error of a date or time not written as one (a column's own rule, which
:mod:`transfer.validate` words as the row's, unlike a date out of range)."""


class SchemaError(ValueError):
    """A document that breaks its schema: ``path`` names the field
    (``characters[0].sheet.features[2].die``, empty for the document itself) and
    ``rule`` the broken rule; ``str()`` is a sentence fit to show."""

    def __init__(self, path: str, rule: str) -> None:
        self.path, self.rule = path, rule
        where = f"at {path}" if path else "as a whole"
        super().__init__(f"The file is refused {where}: {rule}.")

    @classmethod
    def of(cls, error: ErrorDetails, value: Any, where: tuple[str | int, ...] = ()
           ) -> SchemaError:
        """The refusal of one pydantic ``error`` met in ``value``, which lies at ``where``
        in the document."""
        return cls(_path((*where, *_data_path(value, error["loc"]))), _rule(error))


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
                most = LONG_LISTS.get(path, MAX_LIST)
                if len(value) > most:
                    raise SchemaError(_path(path), f"a list of {len(value)} entries; at most "
                                                   f"{most} are taken")
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


# --- 2. the rows ---------------------------------------------------------------------------


def _timestamp(raw: str) -> str:
    try:
        value = parse_datetime(raw)
    except ValueError:
        value = None
    if value is None or timezone.is_naive(value):
        raise PydanticCustomError(DATE_FORM, "must be a date and time with its time zone "
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
        raise PydanticCustomError(DATE_FORM, "must be a date (2025-01-31)")
    if value < EARLIEST:
        raise ValueError(f"lies before {EARLIEST.year}")
    if value > timezone.localdate() + SESSION_DATE_AHEAD:
        raise ValueError(f"lies more than {SESSION_DATE_AHEAD.days} days in the future")
    return raw


Timestamp = Annotated[str, Field(max_length=40), AfterValidator(_timestamp)]
Date = Annotated[str, Field(max_length=10), AfterValidator(_date)]
Number = Annotated[int, Field(ge=1, le=10**9)]
Username = Annotated[str, sk.name_line(150)]
Link = Number | None
"""A link to a row listed before, by its document number, or null."""

# Text with line breaks though its column is a CharField: a campaign's description is "a line
# or two", and its settings form may take it in a text box; an activity entry's text quotes a
# roll's description, which may hold a line break.
_LINES = {(Campaign, "description"), (Activity, "text")}

Changes = Annotated[
    list[Annotated[list[Annotated[str, sk.multiline(sk.TEXT_MAX)]],
                   Field(min_length=3, max_length=3)]],
    Field(max_length=MAX_CHANGES)]
"""An activity entry's ``changes``: ``[[label, before, after], ...]``, three texts each (a
fact's value may be a sheet's written text, lines and all)."""

Slug = Annotated[str, Field(max_length=40, pattern=r"^[-a-zA-Z0-9_]*$")]
"""An activity entry's ``action``: a slug, as Django's slugs are, or empty."""


def model_columns(model: type[models.Model]) -> dict[str, models.Field[Any, Any]]:
    """The columns of ``model`` a document carries (:data:`transfer.format.FIELDS`), by
    name."""
    columns = {}
    for name in FIELDS[model]:
        column = model._meta.get_field(name)
        # FIELDS names concrete columns only (tests/transfer checks it against the models),
        # never a reverse relation or a generic foreign key.
        assert isinstance(column, models.Field)
        columns[name] = column
    return columns


def _column(model: type[models.Model], name: str, column: models.Field[Any, Any]) -> Any:
    """The pydantic type of one column of ``model`` in a current document (a system's JSON
    is an object here; :func:`check_system_parts` types it)."""
    if name in MARKDOWN_FIELDS.get(model, ()):
        return Annotated[str, sk.multiline(markdown.MAX_LENGTH)]
    if (model, name) in _LINES:
        return Annotated[str, sk.multiline(column.max_length or sk.TEXT_MAX)]
    if (model, name) == (Item, "quantity"):  # at least one (the table's check), as the form
        return Annotated[int, Field(ge=1, le=QUANTITY_MAX)]
    if (model, name) == (Activity, "changes"):
        return Changes
    if (model, name) == (Activity, "action"):
        return Slug
    return _column_type(column)


def _column_type(column: models.Field[Any, Any]) -> Any:
    """The pydantic type of a column from the column's own limits."""
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


def _model(name: str, columns: Mapping[str, Any], later: Mapping[str, Any] | None = None
           ) -> type[sk.Schema]:
    """A model of exactly ``columns`` (name -> type), each required but those of ``later``
    (name -> the value its absence stands for)."""
    later = later or {}
    # Any: create_model's keyword arguments also name its options (__doc__, __module__), so a
    # precisely typed dict of (type, default) pairs matches none of its overloads.
    fields: dict[str, Any] = {key: (kind, later.get(key, ...)) for key, kind in columns.items()}
    return create_model(name, __base__=sk.Schema, **fields)


def _rows(item: Any, most: int = MAX_LIST) -> Any:
    """A list of ``item`` of at most ``most`` entries."""
    return Annotated[list[item], Field(max_length=most)]


def _files(name: str, version: int, *, campaign: Any, character: Any, sessions: Any,
           rolls: Any, requests: Any, exported_at: Any,
           later: Mapping[str, Mapping[str, Any]] | None = None
           ) -> dict[str, TypeAdapter[Any]]:
    """The schema of each kind of file of a format ``version``, of the rows given; its
    fields in the order an import reads them. ``later``: by kind, the lists a file may leave
    out (:data:`transfer.format.LATER_SECTIONS`), by key, with their rows' type."""
    def file(kind: str, body: Mapping[str, Any]) -> TypeAdapter[Any]:
        sections = (later or {}).get(kind, {})
        return TypeAdapter(_model(f"{name}_{kind}_file", {
            "format": Literal[FORMAT], "version": Literal[version], "kind": Literal[kind],
            "system": str, "exported_at": exported_at, **body, "rolls": rolls,
            "requested_rolls": requests, **sections}, dict.fromkeys(sections, [])))

    return {"character": file("character", {"sessions": sessions, "character": character}),
            "campaign": file("campaign", {
                "campaign": campaign, "sessions": sessions,
                "characters": _rows(character, MAX_CHARACTERS)})}


@cache
def _current_rows() -> dict[str, TypeAdapter[Any]]:
    """The rows of a current document, built once from the columns the format carries."""
    def row(model: type[models.Model], **links: Any) -> type[sk.Schema]:
        columns = {name: _column(model, name, column)
                   for name, column in model_columns(model).items()}
        # A list carried since (LATER_LISTS): left out, it is empty.
        lists = {key: _rows(row(rows), ITEMS_MAX)
                 for key, rows in LATER_LISTS.get(model, {}).items()}
        return _model(model.__name__, {**columns, **links, **lists},
                      {**may_leave_out(model), **dict.fromkeys(lists, [])})

    entry = row(XpEntry, id=Number, reverses=Link, session=Link, created_by=Username)
    # Each section's rows and their links; a section the format gains needs its own here.
    links: dict[type[models.Model], dict[str, Any]] = {
        Activity: {"character": Link, "actor": Username | None, "roll": Link}}
    later = {kind: {key: _rows(row(model, **links[model]), MAX_ACTIVITY)
                    for key, model in sections.items()}
             for kind, sections in LATER_SECTIONS.items()}
    return _files(
        "current", VERSION, exported_at=Timestamp, later=later,
        campaign=row(Campaign, created_by=Username,
                     members=_rows(row(Membership, username=Username), MAX_MEMBERS)),
        character=row(Character, id=Number, owner=Username, xp_entries=_rows(entry, MAX_ROWS)),
        sessions=_rows(row(Session, id=Number), MAX_SESSIONS),
        rolls=_rows(row(Roll, id=Number, character=Link, parent=Link, rolled_by=Username),
                    MAX_ROWS),
        requests=_rows(row(RequestedRoll, character=Number, answer=Link,
                           requested_by=Username), MAX_ROWS))


def _keys(model: type[models.Model], *links: str) -> dict[str, Any]:
    """Any value under each key a version 2 row of ``model`` has, and under ``links``."""
    return dict.fromkeys((*VERSION_2_FIELDS[model], *links), Any)


@cache
def _version_2_rows() -> dict[str, TypeAdapter[Any]]:
    """The rows of a version 2 file that version 3 changed, each with exactly the keys it had
    but for the columns added since (:data:`transfer.format.LATER_FIELDS`), which it may
    leave out (their values are checked once the file is read on into version 3)."""
    entry = _model("v2_XpEntry", _keys(XpEntry, "id", "reverses", "session", "created_by"))
    return _files(
        "v2", 2, exported_at=Any, rolls=Any, requests=Any,
        campaign=_model("v2_Campaign", _keys(Campaign, "created_by", "members"),
                        LATER_FIELDS.get(Campaign)),
        character=_model("v2_Character", {**_keys(Character, "id", "owner"),
                                          "xp_entries": _rows(entry)},
                         LATER_FIELDS.get(Character)),
        sessions=_rows(_model("v2_Session", _keys(Session, "id"))))


@cache
def _version_1_rows(slug: str) -> dict[str, TypeAdapter[Any]]:
    """The rows of a version 1 file of the system ``slug``, each with exactly the keys it had:
    the version 2 columns of a character, a roll and a request typed as in version 3, those
    only version 1 has as their columns were (:func:`version_1_columns`)."""
    system = sk.import_schema(slug)
    v1 = version_1_columns()

    def typed(columns: Mapping[str, models.Field[Any, Any]]) -> dict[str, Any]:
        return {name: getattr(system, v1.typed_by[name]) if name in v1.typed_by
                else _column_type(column) for name, column in columns.items()}

    def row(model: type[models.Model], extra: Mapping[str, models.Field[Any, Any]],
            *links: str, **more: Any) -> type[sk.Schema]:
        columns = {name: model_columns(model)[name] for name in VERSION_2_FIELDS[model]}
        return _model(f"{slug}_v1_{model.__name__}",
                      {**typed(columns), **typed(extra), **dict.fromkeys(links, Any), **more},
                      LATER_FIELDS.get(model))

    entry = _model("v1_XpEntry", _keys(XpEntry, "id", "reverses", "session", "created_by"))
    own = {key: _rows(_model(f"{slug}_v1_{key}", typed(columns)), v1.rows_max[key])
           for key, columns in v1.rows.items()}
    if version_1_reader(slug) is not None:  # its sheet was in those rows and columns
        own["sheet"] = sk.NO_DATA
    member = _model("v1_Membership", _keys(Membership, "username"))
    return _files(
        f"{slug}_v1", 1, exported_at=Any,
        campaign=_model("v1_Campaign", {**_keys(Campaign, "created_by"),
                                        "members": _rows(member)},
                        LATER_FIELDS.get(Campaign)),
        character=row(Character, v1.character, "id", "owner", xp_entries=_rows(entry), **own),
        sessions=_rows(_model("v1_Session", _keys(Session, "id"))),
        rolls=_rows(row(Roll, v1.roll, "id", "character", "parent", "rolled_by")),
        requests=_rows(row(RequestedRoll, v1.request, "character", "answer",
                           "requested_by")))


def check_rows(data: Mapping[str, Any]) -> None:
    """Check every row of a document against the schema of its format version (see the
    module docstring).

    Args:
        data: the decoded document, its header checked (a known ``system``, ``kind`` and
            ``version``) and its shape passed by :func:`check_shape`.

    Raises:
        pydantic.ValidationError: every error, each with its location in ``data``.
    """
    version = data["version"]
    files = (_current_rows() if version == VERSION else _version_2_rows() if version == 2
             else _version_1_rows(data["system"]))
    files[data["kind"]].validate_python(data)


# --- 3. a system's parts ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Parts:
    sheet: TypeAdapter[Any]
    system_data: TypeAdapter[Any]
    request_data: TypeAdapter[Any]
    rolls: Mapping[str, tuple[TypeAdapter[Any], TypeAdapter[Any]]]


@cache
def _parts(slug: str) -> _Parts:
    """The schemas of the JSON the system ``slug`` keeps, built once."""
    system = sk.import_schema(slug)
    return _Parts(sheet=TypeAdapter(system.sheet), system_data=TypeAdapter(system.system_data),
                  request_data=TypeAdapter(system.request_data),
                  rolls={kind: (TypeAdapter(pool), TypeAdapter(result))
                         for kind, (pool, result) in system.rolls.items()})


def check_system_parts(data: Mapping[str, Any]) -> None:
    """Check the JSON a system keeps in a current document against the system's
    :class:`~systems.schema.ImportSchema`: the campaign's ``system_data``, each character's
    ``sheet``, each roll's ``pool`` and ``result`` (by its kind: a kind the system never makes
    is refused) and each request's ``data``.

    Args:
        data: the decoded document, its rows passed by :func:`check_rows`.

    Raises:
        SchemaError: naming the first field that breaks the schema, and the rule.
    """
    slug = data["system"]
    parts = _parts(slug)
    characters: list[tuple[tuple[str | int, ...], Any]] = (
        [(("character",), data["character"])] if data["kind"] == "character"
        else [(("characters", i), row) for i, row in enumerate(data["characters"])])
    if data["kind"] == "campaign":
        _validate(parts.system_data, data["campaign"]["system_data"],
                  ("campaign", "system_data"))
    for where, row in characters:
        _validate(parts.sheet, row["sheet"], (*where, "sheet"))
    for i, roll in enumerate(data["rolls"]):
        kinds = parts.rolls.get(roll["kind"])
        if kinds is None:
            raise SchemaError(f"rolls[{i}].kind", f"a {slug} roll is never of kind "
                                                  f"{roll['kind']!r} (it makes "
                                                  f"{', '.join(parts.rolls)})")
        _validate(kinds[0], roll["pool"], ("rolls", i, "pool"))
        _validate(kinds[1], roll["result"], ("rolls", i, "result"))
    for i, request in enumerate(data["requested_rolls"]):
        _validate(parts.request_data, request["data"], ("requested_rolls", i, "data"))


# --- 4. what format version 1 kept of a system's own ------------------------------------------


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


# --- refusals --------------------------------------------------------------------------------


def _validate(adapter: TypeAdapter[Any], value: Any, where: tuple[str | int, ...]) -> None:
    try:
        adapter.validate_python(value)
    except ValidationError as exc:
        # A union reports one error per member; the deepest is the one that got furthest
        # (a die refused inside the result, not "is not an empty object").
        error = max(exc.errors(), key=lambda e: len(e["loc"]))
        raise SchemaError.of(error, value, where) from None


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
