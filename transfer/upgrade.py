"""Older files: a document of format version 1 or 2 read into the current document it stands
for (docs/backup.md, "Files of older formats"), which is then checked and written exactly as
one.

Each version is read into the next: 1 into 2 (:func:`_from_version_1`), 2 into 3
(:func:`_from_version_2`). Before each step the file's rows are checked against the schema of
their own version (:func:`transfer.validate.check_rows`: every key as that version wrote it,
and for version 1 every column typed), so a step reads only what it can trust; the values the
step does not read are checked with the rest of the current document.
"""

from __future__ import annotations

import copy
from collections.abc import Collection
from functools import partial
from typing import Any

from django.db import models

import systems
from campaigns.models import Campaign, Session
from characters.models import Character, XpEntry
from rulesets import registry
from rulesets.errors import RuleError
from transfer import checks, schema
from transfer.format import ADDED_IN_3, RENAMED_IN_3, VERSION
from transfer.validate import TransferError, check_rows


def current(data: dict[str, Any], version: int) -> dict[str, Any]:
    """The document of the current format version that ``data`` stands for.

    Args:
        data: a document of format ``version``, its header checked
            (:func:`transfer.validate.check_header`); it is not changed.
        version: its format version.

    Returns:
        ``data`` itself when it is current, else a new document read version by version.

    Raises:
        TransferError: a row of an older file that is not as its version wrote it, or a
            sheet or roll of a version 1 file the rules refuse or cannot read.
    """
    if version == 1:
        data = _from_version_1(data)
    if version <= 2:
        data = _from_version_2(data)
    return data


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """The version 3 document a version 2 document stands for (docs/backup.md, "Format
    version 2").

    Each row version 3 changed must be as version 2 wrote it (every column of
    :data:`~transfer.format.VERSION_2_FIELDS` and its links, none unknown: a version 3
    column in a version 2 file is refused); then a session's ``notes`` become its ``recap``
    (:data:`~transfer.format.RENAMED_IN_3`) and the columns version 3 added take the value
    the file stands for (:data:`~transfer.format.ADDED_IN_3`): no description, not archived,
    nothing written, in the party, and a ledger entry came with its character's creation
    when only a creation writes its kind in the file's system
    (:attr:`systems.SheetSystem.creation_entry_kinds`). Rolls and requests are as in
    version 3.

    Raises:
        TransferError: a row lacks a column or has one version 2 did not have.
    """
    check_rows(data)
    document = copy.deepcopy(data)
    document["version"] = VERSION

    def upgrade(model: type[models.Model], row: dict[str, Any]) -> None:
        for old, new in RENAMED_IN_3.get(model, {}).items():
            row[new] = row.pop(old)
        row.update(ADDED_IN_3.get(model, {}))

    creation_kinds = systems.for_ruleset(document["system"]).creation_entry_kinds
    if document["kind"] == "character":
        characters = [document["character"]]
    else:
        upgrade(Campaign, document["campaign"])
        characters = document["characters"]
    for session in document["sessions"]:
        upgrade(Session, session)
    for row in characters:
        upgrade(Character, row)
        for entry in row["xp_entries"]:
            upgrade(XpEntry, entry)
            kind = entry["kind"]  # any JSON value yet: its column's check comes later
            entry["at_creation"] = isinstance(kind, str) and kind in creation_kinds
    return document


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """The version 2 document a version 1 document stands for (docs/backup.md, "Format
    version 1").

    Version 1 carried, besides every column of version 2, the rows and columns Maelstrom kept
    of its own (:func:`transfer.schema.version_1_columns`, as the system declares them: a
    character's trait rows, merits and flaws and track columns, a roll's dice columns, a
    request's pool columns). Every row is checked as it was then (every column there and
    none unknown, each of its column's type); then the system's reader of its own version 1
    data (:func:`transfer.schema.version_1_reader`) makes each character's sheet, each
    roll's pool and result, each request's data and description from them. A system without
    one kept nothing there: its characters list no such rows, its rolls keep no faces in
    those columns (its schema's ``dice``), and the columns' defaults are dropped. The
    system's ``check_sheet`` judges the sheet made, with the rest of the current document.

    Raises:
        TransferError: naming the row and the problem, or the rule that refuses a sheet or a
            roll.
    """
    check_rows(data)
    document = copy.deepcopy(data)
    document["version"] = 2
    slug = document["system"]
    v1 = schema.version_1_columns()
    reader = schema.version_1_reader(slug)
    rules = registry.get(slug).name
    characters = ([document["character"]] if document["kind"] == "character"
                  else document["characters"])
    for i, row in enumerate(characters, start=1):
        where = f"Character {i} ({row['name']})"
        columns = _version_1_columns(row, v1.character)
        lists = [row.pop(key) for key in v1.rows]
        if reader is None:
            carried = [v1.row_words[key][1] for key, items in zip(v1.rows, lists, strict=True)
                       if items]
            if carried:
                raise TransferError(f"{where}: the {rules} rules refuse this sheet: a {rules} "
                                    f"character has no {' or '.join(carried)}.")
            continue
        try:
            row["sheet"] = checks.readable(partial(reader.make_sheet, columns, *lists),
                                           "the sheet")
        except RuleError as exc:
            raise TransferError(f"{where}: the {rules} rules refuse this sheet: {exc}"
                                ) from None
    for i, row in enumerate(document["rolls"], start=1):
        columns = _version_1_columns(row, v1.roll)
        try:
            if reader is not None:
                row["pool"], row["result"] = checks.readable(
                    partial(reader.make_roll, columns), "its dice")
        except RuleError as exc:
            raise TransferError(f"Roll {i} is refused: {exc}") from None
    for i, row in enumerate(document["requested_rolls"], start=1):
        columns = _version_1_columns(row, v1.request)
        try:
            if reader is not None:
                row["data"], row["description"] = checks.readable(
                    partial(reader.make_request, columns), "its pool")
        except RuleError as exc:
            raise TransferError(f"Requested roll {i} is refused: {exc}") from None
    return document


def _version_1_columns(row: dict[str, Any], names: Collection[str]) -> dict[str, Any]:
    """A copy of every column of a version 1 ``row``, which keeps those of version 2 only
    (``names`` are taken out of it)."""
    columns = dict(row)
    for name in names:
        del row[name]
    return columns
