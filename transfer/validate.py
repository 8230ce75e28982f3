"""Checking an import: the file read, its header, every row against the schema of its format
version, and a current document read into unsaved rows (the plan), its links, ledger and rules
checked.

The order, each step trusting the ones before it: :func:`read_document` (size, UTF-8, JSON),
:func:`check_header` (what the file is: format, version, kind, system; then its shape,
:func:`transfer.schema.check_shape`), :func:`check_rows` (every key and column,
:func:`transfer.schema.check_rows`), then :func:`read_campaign` and :func:`read_plan` (the
document numbers and links, the ledger's sums, the rules' judgement of sheets and campaign
data, :mod:`transfer.checks`; then the JSON each system keeps against its schema,
:func:`transfer.schema.check_system_parts`, and the rolls' dice against the rules).
:mod:`transfer.upgrade` reads an older file into the current document between the rows of its
own version and those of the current one.

Every refusal is a :class:`TransferError` whose message names the row as a person finds it in
the file ("Character 2 (Rook)'s XP entry 3", "Roll 5", "The campaign") and the field. A
column's own rules (its key, its JSON type, a value it needs, the database's length and range,
its choices, a date's form) are worded for the row (``Roll 1: 'outcome' must be one of ...``);
every other rule (inside a system's JSON, a name on one line and not empty, written text's
length, a time in the future) names the field's path (``The file is refused at
rolls[0].created_at: lies in the future ...``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pydantic
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.dateparse import parse_date, parse_datetime
from pydantic_core import ErrorDetails

from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from equipment.models import Item
from history.models import Activity
from rolls.models import RequestedRoll, Roll
from rulesets import registry
from rulesets.errors import RuleError
from systems.stored import is_whole_number
from transfer import checks, schema
from transfer.format import (
    FIELDS,
    FORMAT,
    KINDS,
    MAX_UPLOAD_BYTES,
    VERSION,
    VERSIONS,
    map_roll_ids,
    may_leave_out,
)


class TransferError(ValueError):
    """An import refused; the message names the problem and is fit to show the person
    importing. Nothing has been written when it is raised."""


# --- The file -------------------------------------------------------------------------------


def read_document(raw: bytes | str, *, max_bytes: int | None = MAX_UPLOAD_BYTES) -> Any:
    """Decode an uploaded file into the JSON value it holds.

    Args:
        raw: the file's bytes (UTF-8, a byte-order mark allowed) or text.
        max_bytes: the size limit, or None for none (the management command).

    Returns:
        The decoded JSON value (not checked yet: the import functions do that).

    Raises:
        TransferError: too large, not UTF-8, or not valid JSON (with the line and column).
    """
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if max_bytes is not None and size > max_bytes:
        raise TransferError(f"The file is {_megabytes(size)}; an import takes at most "
                            f"{_megabytes(max_bytes)}.")
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise TransferError("The file is not text (UTF-8): choose the .sheetkeeper.json file "
                            "Sheetkeeper exported.") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TransferError(f"The file is not valid JSON: {exc.msg} at line {exc.lineno}, "
                            f"column {exc.colno}.") from None
    except RecursionError:
        raise TransferError("The file is not valid JSON: it is nested too deeply.") from None
    except ValueError as exc:  # a whole number of more than 4300 digits (int_max_str_digits)
        raise TransferError(f"The file is not valid JSON: {exc}.") from None


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


def check_header(data: Any, kind: str) -> int:
    """Check what a document of ``kind`` says it is, then the shape of all of it
    (:func:`transfer.schema.check_shape`).

    Returns:
        Its format version, one of :data:`~transfer.format.VERSIONS`.

    Raises:
        TransferError: not a Sheetkeeper export, a version this Sheetkeeper does not read,
            another kind, a system it does not play, or a shape out of bounds.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError('This is not a Sheetkeeper export: its "format" is not '
                            f'"{FORMAT}".')
    version = data.get("version")
    if not is_whole_number(version) or version not in VERSIONS:
        newer = is_whole_number(version) and version > VERSION
        read = f"{', '.join(str(v) for v in VERSIONS[:-1])} and {VERSIONS[-1]}"
        raise TransferError(
            f"The file is format version {version!r}; this Sheetkeeper reads versions "
            f"{read}{' (the file comes from a newer Sheetkeeper)' if newer else ''}.")
    if data.get("kind") not in KINDS:
        raise TransferError(f"The file's kind {data.get('kind')!r} is neither a character "
                            "nor a campaign.")
    if data["kind"] != kind:
        raise TransferError(f"This file holds a {data['kind']}, not a {kind}: import it as "
                            f"a {data['kind']}.")
    system = data.get("system")
    ruleset = registry.RULESETS.get(system) if isinstance(system, str) else None
    if ruleset is None or not ruleset.selectable:
        raise TransferError(f"The file's system {system!r} is not one this Sheetkeeper "
                            f"plays ({', '.join(registry.RULESETS)}).")
    _checked(schema.check_shape, data)
    return version


def _checked(check: Callable[[Any], None], data: Any) -> None:
    """Run a check of the whole file (its shape, its schema, its rolls' dice), refusals as
    TransferError."""
    try:
        check(data)
    except (schema.SchemaError, RuleError) as exc:
        raise TransferError(str(exc)) from None


# --- The rows -------------------------------------------------------------------------------


def check_rows(data: dict[str, Any]) -> None:
    """Check every row of a document against the schema of its format version
    (:func:`transfer.schema.check_rows`): every key there and none unknown, every column of
    its type and within its limits, every link a document number and every person a
    username.

    Args:
        data: the decoded document, its header checked (:func:`check_header`).

    Raises:
        TransferError: naming the first row that breaks the schema, the field and the rule
            (every missing or unknown key of that row at once).
    """
    try:
        schema.check_rows(data)
    except pydantic.ValidationError as exc:
        raise TransferError(_refusal(data, exc.errors(), data["version"])) from None


_USERNAMES = {"username", "owner", "created_by", "rolled_by", "requested_by", "actor"}
_LINKS = {"reverses", "session", "character", "parent", "answer", "roll"}
_TYPE_ERRORS = {"string_type", "int_type", "bool_type", "dict_type", "list_type",
                "model_type", "model_attributes_type"}
_DATE_ERRORS = {"string_type", "string_too_long", schema.DATE_FORM}
_SECTIONS: dict[str, tuple[str, type[models.Model]]] = {
    "sessions": ("Session", Session), "rolls": ("Roll", Roll),
    "requested_rolls": ("Requested roll", RequestedRoll),
    "activity": ("Activity entry", Activity)}


@dataclass(frozen=True)
class _Row:
    """A row of the document as a refusal names it."""

    where: str
    """The row ("Character 2", "Roll 5", "The file")."""
    named: str = ""
    """The row before one of its links or rows ("Character 2 (Rook)"); else ``where``."""
    called: str = ""
    """The row when it is not an object ("The character"); else ``where``."""
    columns: Mapping[str, models.Field[Any, Any]] = field(default_factory=dict)
    lists: Mapping[str, str] = field(default_factory=dict)
    """Each of its lists (a key) in words ("The campaign's members")."""


def _refusal(data: dict[str, Any], errors: list[ErrorDetails], version: int) -> str:
    """The message for the first of ``errors``, pydantic's of the rows of ``data``, a file
    of format ``version``."""
    error = errors[0]
    loc = tuple(error["loc"])
    kind, raw = error["type"], error.get("input")
    if kind in ("missing", "extra_forbidden"):
        row, rest = _locate(data, loc[:-1])
        if not rest:  # a key of a row, not of a system's JSON
            keys = sorted(str(e["loc"][-1]) for e in errors
                          if e["type"] == kind and tuple(e["loc"][:-1]) == loc[:-1])
            if kind == "missing":
                return f"{row.where} lacks {', '.join(repr(k) for k in keys)}."
            # A hostile file may bring thousands of keys, each of any length: name a few.
            named = ", ".join(ascii(k[:40]) for k in keys[:5])
            more = f" and {len(keys) - 5} more" if len(keys) > 5 else ""
            return (f"{row.where} has {named}{more}, which format version {version} does "
                    "not have.")
    row, rest = _locate(data, loc)
    if not rest:
        return f"{row.called or row.where} is not an object."
    if len(rest) == 1:
        words = _field_words(row, str(rest[0]), kind, raw)
        if words:
            return words
    return str(schema.SchemaError.of(error, data))


def _field_words(row: _Row, name: str, kind: str, raw: Any) -> str | None:
    """The row's words for an error at its field ``name``, or None where the rule is not the
    column's own (the path names it then)."""
    named = row.named or row.where
    if name in row.columns:
        return _column_words(row.where, name, row.columns[name], kind, raw)
    if name in row.lists:
        return f"{row.lists[name]} is not a list." if kind == "list_type" else None
    if name == "id":
        return f"{named}'s 'id' must be a number." if kind == "int_type" else None
    if name in _USERNAMES:
        return None if isinstance(raw, str) and raw else f"{named}'s {name!r} must be a username."
    if name in _LINKS:
        if raw is None:  # only a request's character may not be null
            return f"{row.where} must name the character it asks."
        return f"{named}'s {name!r} names {raw!r}, which is not listed before it in the file."
    return None


def _column_words(where: str, name: str, column: models.Field[Any, Any], kind: str,
                  raw: Any) -> str | None:
    """The row's words for an error at one of its columns: what the column needs, its
    database limit in Django's words, its choices; None for any other rule."""
    if raw is None and not column.null:
        return f"{where}: {name!r} needs a value."
    problem = f"{where}: {name!r} must be"
    if kind in _TYPE_ERRORS or (kind == "literal_error" and not isinstance(raw, str)) or (
            isinstance(column, models.DateField) and kind in _DATE_ERRORS):
        if isinstance(column, models.JSONField):
            return f"{problem} {'an object' if column.get_default() == {} else 'a list'}."
        return f"{problem} {_needs(column)}, not {raw!r}."
    try:
        column.run_validators(raw)
    except ValidationError as exc:
        return f"{where}: {name!r}: {' '.join(exc.messages)}"
    if kind == "literal_error":
        allowed = ", ".join(str(key) for key, _ in column.flatchoices)
        return f"{problem} one of {allowed}, not {raw!r}."
    return None


def _needs(column: models.Field[Any, Any]) -> str:
    if isinstance(column, models.DateTimeField):
        return "a date and time with its time zone (2025-01-31T20:15:00+00:00)"
    if isinstance(column, models.DateField):
        return "a date (2025-01-31)"
    if isinstance(column, models.BooleanField):
        return "true or false"
    if isinstance(column, models.IntegerField):
        return "a whole number"
    return "text"


def _locate(data: dict[str, Any], loc: tuple[str | int, ...]
            ) -> tuple[_Row, tuple[str | int, ...]]:
    """The row of the document that ``loc`` lies in (the file itself outside every row), and
    the rest of ``loc`` inside it."""
    v1 = schema.version_1_columns()
    head = loc[0] if loc else None
    index = loc[1] if len(loc) > 1 else None
    if head == "campaign":
        if len(loc) > 2 and loc[1] == "members":
            return _Row(f"Member {int(loc[2]) + 1} of the campaign",
                        columns=schema.model_columns(Membership)), loc[3:]
        return _Row("The campaign", columns=schema.model_columns(Campaign),
                    lists={"members": "The campaign's members"}), loc[1:]
    if head == "character" or (head == "characters" and isinstance(index, int)):
        start = 1 if head == "character" else 2
        number = 1 if head == "character" else int(loc[1]) + 1
        where = f"Character {number}"
        named = _named(where, data[head] if head == "character" else data[head][number - 1])
        rest = loc[start:]
        if len(rest) > 1 and isinstance(rest[1], int) and (
                rest[0] in ("xp_entries", "items") or rest[0] in v1.rows):
            one, columns = (("XP entry", schema.model_columns(XpEntry))
                            if rest[0] == "xp_entries"
                            else ("item", schema.model_columns(Item)) if rest[0] == "items"
                            else (v1.row_words[str(rest[0])][0], v1.rows[str(rest[0])]))
            return _Row(f"{named}'s {one} {rest[1] + 1}", columns=columns), rest[2:]
        return _Row(where, named=named, called="The character" if start == 1 else "",
                    columns={**schema.model_columns(Character), **v1.character},
                    lists={"xp_entries": f"{named}'s XP ledger",
                           "items": f"{named}'s equipment",
                           **{key: f"{named}'s {many}"
                              for key, (_, many) in v1.row_words.items()}}), rest
    if isinstance(head, str) and head in _SECTIONS and isinstance(index, int):
        word, model = _SECTIONS[head]
        extra = {"rolls": v1.roll, "requested_rolls": v1.request}.get(head, {})
        return _Row(f"{word} {index + 1}",
                    columns={**schema.model_columns(model), **extra}), loc[2:]
    return _Row("The file", lists={key: f"The {key.replace('_', ' ')}" for key in (
        "sessions", "characters", "rolls", "requested_rolls", "activity")}), loc


def _named(where: str, row: Any) -> str:
    """``where`` with the character's name, when its row has one: "Character 1 (Rook)"."""
    name = row.get("name") if isinstance(row, dict) else None
    return f"{where} ({name})" if isinstance(name, str) else where


# --- The plan -------------------------------------------------------------------------------


@dataclass
class Member:
    """A seat of the campaign as the file records it: a username, not an account."""

    username: str
    role: str
    joined_at: Any


@dataclass
class CampaignRow:
    """A campaign document's campaign, unsaved, and the usernames it names."""

    campaign: Campaign
    created_by: str
    members: list[Member]


@dataclass
class EntryPlan:
    """An unsaved ledger entry, its number and its links by number (``session`` None for
    none), its author a username."""

    ref: int
    row: XpEntry
    reverses: int | None
    session: int | None
    created_by: str


@dataclass
class CharacterPlan:
    """An unsaved character, its number, its owner's username, its ledger and its inventory
    (unsaved items, their positions set) in order."""

    ref: int
    owner: str
    character: Character
    entries: list[EntryPlan]
    items: list[Item] = field(default_factory=list)


@dataclass
class RollPlan:
    """An unsaved roll, its number and its links by number (None for none: an NPC's roll,
    a roll that follows up none), its roller a username."""

    ref: int
    row: Roll
    character: int | None
    parent: int | None
    rolled_by: str


@dataclass
class RequestPlan:
    """An unsaved roll request, the number of the character it asks and of the roll that
    answers it (None while open), its author a username."""

    row: RequestedRoll
    character: int
    answer: int | None
    requested_by: str


@dataclass
class ActivityPlan:
    """An unsaved activity entry, the numbers of the character and the roll it names (None
    for none), who made the change (a username, None for the server)."""

    row: Activity
    character: int | None
    roll: int | None
    actor: str | None


@dataclass
class Plan:
    """A checked document as unsaved rows and their links by document number, each list in
    the file's order (every link names a row before it)."""

    sessions: dict[int, Session]
    characters: list[CharacterPlan]
    rolls: list[RollPlan]
    requests: list[RequestPlan]
    activity: list[ActivityPlan] = field(default_factory=list)
    """A campaign's activity log, in the order it was made (none in a character document)."""

    def usernames(self) -> set[str]:
        """Every username the rows name."""
        names = {c.owner for c in self.characters}
        names |= {e.created_by for c in self.characters for e in c.entries}
        names |= {r.rolled_by for r in self.rolls} | {q.requested_by for q in self.requests}
        names |= {a.actor for a in self.activity if a.actor is not None}
        return names


def read_campaign(data: dict[str, Any]) -> CampaignRow:
    """The campaign of a current campaign document (its rows checked, :func:`check_rows`),
    unsaved, with its members.

    Raises:
        TransferError: the members hold no GM or several, or list a username twice, or the
            rules refuse the campaign's system data.
    """
    row = data["campaign"]
    campaign = Campaign(ruleset=data["system"], **_values(Campaign, row))
    members = [Member(username=member["username"], **_values(Membership, member))
               for member in row["members"]]
    if [m.role for m in members].count(Membership.Role.GM) != 1:
        raise TransferError("The campaign's members must hold exactly one GM.")
    repeated = [n for n, count in Counter(m.username for m in members).items() if count > 1]
    if repeated:
        raise TransferError(f"The campaign's members list {repeated[0]!r} twice.")
    try:
        checks.check_campaign(campaign)
    except RuleError as exc:
        raise TransferError(f"The campaign's system data is refused: {exc}") from None
    return CampaignRow(campaign=campaign, created_by=row["created_by"], members=members)


def read_plan(data: dict[str, Any], campaign: Campaign) -> Plan:
    """Read a current document's rows (checked, :func:`check_rows`) into unsaved rows for
    ``campaign`` (the target of a character import, or the unsaved campaign of a campaign
    import), checking what lies between the rows: each document number used once, each
    link naming a row before it, each ledger adding up to its character's XP, the rules'
    judgement of every sheet, each roll of the file's system, each activity entry's roll
    about its character (GM-only with it), then the JSON each system keeps against its
    schema and the rolls' dice against the rules.

    Raises:
        TransferError: naming the row and the problem.
    """
    sessions: dict[int, Session] = {}
    for i, row in enumerate(data["sessions"], start=1):
        _unique(row["id"], sessions, f"Session {i}")
        sessions[row["id"]] = Session(**_values(Session, row))
    rows = [data["character"]] if data["kind"] == "character" else data["characters"]
    characters: list[CharacterPlan] = []
    character_refs: set[int] = set()
    entry_refs: set[int] = set()
    for i, row in enumerate(rows, start=1):
        characters.append(_read_character(row, i, campaign, sessions, entry_refs,
                                          character_refs))
        character_refs.add(characters[-1].ref)
    rolls = _read_rolls(data["rolls"], character_refs, data["system"])
    requests = _read_requests(data["requested_rolls"], character_refs,
                              {r.ref: r for r in rolls})
    # A file from before the log travelled has none (transfer.format.LATER_SECTIONS).
    activity = _read_activity(data.get("activity", []), character_refs,
                              {r.ref: r for r in rolls})
    if data["kind"] == "campaign":
        known = {r.ref for r in rolls}

        def check_roll(ref: Any) -> Any:
            if not is_whole_number(ref) or ref not in known:
                raise TransferError(f"The campaign's system data names roll {ref!r}, "
                                    "which is not in the file.")
            return ref

        map_roll_ids(campaign.ruleset, campaign.system_data, check_roll)
    # After the sheets' rules (their refusals first); before the rolls' (shape known).
    _checked(schema.check_system_parts, data)
    _checked(checks.check_rolls_dice, [(r.ref, r.row, r.parent) for r in rolls])
    return Plan(sessions=sessions, characters=characters, rolls=rolls, requests=requests,
                activity=activity)


@cache
def _dates(model: type[models.Model]) -> tuple[tuple[str, Callable[[str], Any]], ...]:
    """The columns of ``model`` a document writes as ISO 8601 text, and how each is read."""
    return tuple((name, parse_datetime if isinstance(column, models.DateTimeField)
                  else parse_date)
                 for name, column in schema.model_columns(model).items()
                 if isinstance(column, models.DateField))


def _values(model: type[models.Model], row: Mapping[str, Any]) -> dict[str, Any]:
    """The columns of ``model`` from a checked row as the model takes them: a date or time
    read, a column the file may leave out at the value its absence stands for."""
    values = {**may_leave_out(model), **{name: row[name] for name in FIELDS[model]
                                          if name in row}}
    for name, read in _dates(model):
        if values[name] is not None:
            values[name] = read(values[name])
    return values


def _unique(ref: int, known: Collection[int], where: str) -> None:
    if ref in known:
        raise TransferError(f"{where}: the number {ref} is used twice.")


def _link(value: int | None, where: str, known: Collection[int]) -> int | None:
    """A link to a row listed before this one (a number among ``known``), or None."""
    if value is not None and value not in known:
        raise TransferError(f"{where} names {value!r}, which is not listed before it in the "
                            "file.")
    return value


def _read_character(data: dict[str, Any], index: int, campaign: Campaign,
                    sessions: Mapping[int, Session], entry_refs: set[int],
                    taken: set[int]) -> CharacterPlan:
    where = _named(f"Character {index}", data)
    ref = data["id"]
    _unique(ref, taken, where)
    character = Character(campaign=campaign, **_values(Character, data))
    entries: list[EntryPlan] = []
    by_ref: dict[int, EntryPlan] = {}
    undone: set[int] = set()
    for i, row in enumerate(data["xp_entries"], start=1):
        entry_where = f"{where}'s XP entry {i}"
        _unique(row["id"], entry_refs, entry_where)
        reverses = _link(row["reverses"], f"{entry_where}'s 'reverses'", by_ref)
        if reverses is not None:
            if reverses in undone:
                raise TransferError(f"{entry_where} undoes entry {reverses}, which is already "
                                    "undone.")
            undone.add(reverses)
        entry = EntryPlan(ref=row["id"], row=XpEntry(**_values(XpEntry, row)),
                          reverses=reverses, created_by=row["created_by"],
                          session=_link(row["session"], f"{entry_where}'s 'session'",
                                        sessions))
        entries.append(entry)
        by_ref[entry.ref] = entry
        entry_refs.add(entry.ref)
    _check_ledger(character, [e.row for e in entries], where)
    try:
        checks.check_character(character)
    except RuleError as exc:
        raise TransferError(f"{where}: the {campaign.ruleset_name} rules refuse this sheet: "
                            f"{exc}") from None
    items = [Item(position=i, **_values(Item, row)) for i, row in enumerate(data.get("items", []))]
    for i, item in enumerate(items, start=1):
        try:
            checks.check_item(item, character)
        except RuleError as exc:
            raise TransferError(f"{where}'s item {i} ({item.name}) is refused by the "
                                f"{campaign.ruleset_name} rules: {exc}") from None
    return CharacterPlan(ref=ref, owner=data["owner"], character=character, entries=entries,
                         items=items)


def _check_ledger(character: Character, entries: list[XpEntry], where: str) -> None:
    """The ledger invariant (docs/architecture.md, "Append-only logs"): the cached balances
    equal the ledger's sums, available XP is never negative, and no bank is overdrawn."""
    available = sum(e.available_delta for e in entries)
    total = sum(e.total_delta for e in entries)
    if (character.xp_available, character.xp_total) != (available, total):
        raise TransferError(
            f"{where}: the XP shown ({character.xp_available} available, "
            f"{character.xp_total} total) is not what the ledger adds up to ({available} "
            f"available, {total} total).")
    if available < 0:
        raise TransferError(f"{where}: the ledger leaves {available} XP available; it can "
                            "never be negative.")
    banks: Counter[str] = Counter()
    for entry in entries:
        banks[entry.bank_key] += entry.banked_delta
    overdrawn = sorted(key for key, amount in banks.items() if amount < 0)
    if overdrawn:
        raise TransferError(f"{where}: the ledger takes more XP out of the {overdrawn[0]!r} "
                            "bank than was banked.")


def _read_rolls(data: list[dict[str, Any]], characters: set[int], system: str
                ) -> list[RollPlan]:
    rolls: dict[int, RollPlan] = {}
    followups: set[tuple[int, str]] = set()
    for i, row in enumerate(data, start=1):
        where = f"Roll {i}"
        values = _values(Roll, row)
        _unique(row["id"], rolls, where)
        if values["ruleset"] != system:
            raise TransferError(f"{where} is a {values['ruleset']!r} roll in a {system!r} "
                                "file.")
        parent = _link(row["parent"], f"{where}'s 'parent'", rolls)
        if parent is not None:
            if (parent, values["kind"]) in followups:
                raise TransferError(f"{where}: roll {parent} already has a "
                                    f"{values['kind']!r} follow-up.")
            followups.add((parent, values["kind"]))
        rolls[row["id"]] = RollPlan(
            ref=row["id"], row=Roll(**values), parent=parent, rolled_by=row["rolled_by"],
            character=_link(row["character"], f"{where}'s 'character'", characters))
    return list(rolls.values())


def _read_requests(data: list[dict[str, Any]], characters: set[int],
                   rolls: Mapping[int, RollPlan]) -> list[RequestPlan]:
    requests: list[RequestPlan] = []
    answered: set[int] = set()
    for i, row in enumerate(data, start=1):
        where = f"Requested roll {i}"
        character = _link(row["character"], f"{where}'s 'character'", characters)
        assert character is not None  # the schema's: a request names the character it asks
        answer = _link(row["answer"], f"{where}'s 'answer'", rolls)
        if answer is not None:
            if answer in answered:
                raise TransferError(f"{where}: roll {answer} already answers another request.")
            if rolls[answer].character != character:
                raise TransferError(f"{where} is answered by roll {answer}, a roll of "
                                    "another character.")
            answered.add(answer)
        requests.append(RequestPlan(
            row=RequestedRoll(**_values(RequestedRoll, row)), character=character,
            answer=answer, requested_by=row["requested_by"]))
    return requests


def _read_activity(data: list[dict[str, Any]], characters: set[int],
                   rolls: Mapping[int, RollPlan]) -> list[ActivityPlan]:
    """The activity log's entries, checked against the rows they name: the character and the
    roll listed in the file, an entry about a roll about the roll's own character (the
    character's history lists it), and an entry about a GM-only roll GM-only too (the table's
    history never shows a player a roll the roll log hides from them)."""
    entries: list[ActivityPlan] = []
    for i, row in enumerate(data, start=1):
        where = f"Activity entry {i}"
        character = _link(row["character"], f"{where}'s 'character'", characters)
        roll = _link(row["roll"], f"{where}'s 'roll'", rolls)
        values = _values(Activity, row)
        if roll is not None:
            if rolls[roll].character != character:
                raise TransferError(f"{where} records roll {roll}, a roll of another "
                                    "character.")
            if rolls[roll].row.gm_only and not values["gm_only"]:
                raise TransferError(f"{where} records roll {roll}, a GM-only roll, and is "
                                    "not GM-only: the players would read it in the table's "
                                    "history.")
        entries.append(ActivityPlan(row=Activity(**values), character=character, roll=roll,
                                    actor=row["actor"]))
    return entries
