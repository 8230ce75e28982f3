"""The export format, version by version: the document, and which columns of which rows it
carries.

The document, format version 3 (docs/backup.md describes it for people)::

    {"format": "sheetkeeper", "version": 3, "kind": "character" | "campaign",
     "system": "<ruleset slug>", "exported_at": "<ISO 8601>",

     # kind "campaign":
     "campaign": {<Campaign columns>, "created_by": "<username>",
                  "members": [{"username": ..., "role": "gm" | "player", "joined_at": ...}]},
     "characters": [<character>, ...],
     # kind "character":
     "character": <character>,
     # both:
     "sessions": [{"id": 1, <Session columns>}, ...],
     "rolls": [{"id": 1, "character": 1 | null, "parent": 1 | null, "rolled_by": "<username>",
                <Roll columns>}, ...],
     "requested_rolls": [{"character": 1, "answer": 1 | null, "requested_by": "<username>",
                          <RequestedRoll columns>}, ...],
     # kind "campaign" only; may be left out (:data:`LATER_SECTIONS`):
     "activity": [{"character": 1 | null, "actor": "<username>" | null, "roll": 1 | null,
                   <Activity columns>}, ...]}

    <character> = {"id": 1, "owner": "<username>", <Character columns>,
                   "xp_entries": [{"id": 1, "reverses": 1 | null, "session": 1 | null,
                                   "created_by": "<username>", <XpEntry columns>}, ...],
                   "items": [{<Item columns>}, ...]}   # its inventory, in order; may be left out

:data:`FIELDS` lists the columns each model carries, under their own names; :data:`LINKS` says
how every other column travels. Every system's character keeps its whole sheet in ``sheet``,
every roll its dice in ``result`` and every request its pool in ``data`` and
``description``. ``id`` values are the document's own numbers (1, 2, ... in the order the rows
were made), never database ids, so exporting an imported campaign gives the same document
again; each link (a reversal, a roll's parent, the request a roll answers, an award's session)
names a row listed before it, and a roll a system keeps in its campaign data is named by its
number too (:func:`map_roll_ids`). Timestamps keep their time zone. A character's GM notes are
the GM's alone (:data:`GM_ONLY_FIELDS`): a file made by anyone else leaves them out.

A campaign's ``activity`` is its activity log (``history.models.Activity``), every entry in
the order it was made, GM-only ones among them: only the GM exports a campaign. A character
document carries none: its entries are its campaign's (they name other characters, the GM's
rolls), a player's file must never hold a GM-only one, and a character that joins another
campaign starts a history there with its import. An entry's ``imported`` is set by the
import whatever the file says, as a roll's is.

Version 3 adds to version 2 a campaign's description and archive date, a character's
backstory, notes, GM notes and status (retired, dead) and whether a ledger entry came with the
character's creation, and calls a session's notes its recap (:data:`ADDED_IN_3`,
:data:`RENAMED_IN_3`). Version 2 carries every system alike (a character's sheet in ``sheet``,
a roll's dice in ``result``, a request's pool in ``data`` and ``description``). Version 1 also
carried the columns and rows Maelstrom kept of its own, which the system declares
(:func:`transfer.schema.version_1_columns`). :mod:`transfer.upgrade` reads an older file into
the current document it stands for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import models

import systems
from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from equipment.models import Item
from history.models import Activity
from rolls.models import RequestedRoll, Roll

FORMAT = "sheetkeeper"
VERSION = 3
"""The version an export writes."""
VERSIONS = (1, 2, 3)
"""Every version an import reads."""
KINDS = ("character", "campaign")

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
"""The largest file the import pages take (10 MiB: a campaign of several thousand rolls);
``manage.py import_campaign`` reads any size."""

FIELDS: dict[type[models.Model], tuple[str, ...]] = {
    Campaign: ("name", "description", "starting_xp", "system_data", "created_at",
               "archived_at", "party_sheets", "readings"),
    Membership: ("role", "joined_at"),
    Session: ("date", "title", "recap", "created_at"),
    Character: ("name", "concept", "backstory", "notes", "gm_notes", "status", "sheet",
                "xp_available", "xp_total", "created_at", "updated_at", "is_npc",
                "npc_shown"),
    XpEntry: ("kind", "available_delta", "total_delta", "banked_delta", "trait_key",
              "bank_key", "rank_from", "rank_to", "reason", "at_creation", "created_at"),
    Roll: ("ruleset", "kind", "description", "pool", "outcome", "net", "summary", "result",
           "gm_only", "imported", "readings", "created_at"),
    RequestedRoll: ("note", "data", "description", "created_at"),
    Item: ("name", "quantity", "note", "details", "created_at", "updated_at"),
    Activity: ("kind", "action", "text", "changes", "gm_only", "imported", "created_at"),
}
"""The columns each model carries in the document, under their own names, as they are."""

MARKDOWN_FIELDS: dict[type[models.Model], tuple[str, ...]] = {
    Session: ("recap",),
    Character: ("backstory", "notes", "gm_notes"),
}
"""The columns people write in Markdown (``core.markdown``): lines kept, at most
``core.markdown.MAX_LENGTH`` characters each, as the forms that write them allow."""

GM_ONLY_FIELDS: dict[type[models.Model], dict[str, Any]] = {
    # An NPC is the GM's (docs/npcs.md): a player's file is never one, nor makes one.
    Character: {"gm_notes": "", "is_npc": False, "npc_shown": ""},
}
"""The columns only the campaign's GM may read, with the value their absence stands for. An
export made for anyone else (a player exporting their own character) leaves the key out, so
the text is nowhere in the file; a file may leave them out; and an import by anyone but the
target campaign's GM writes that value whatever the file holds, so a player's file cannot
plant GM notes."""

LATER_FIELDS: dict[type[models.Model], dict[str, Any]] = {
    # A roll and a campaign from before the table readings played the seed's (docs/rules.md).
    Roll: {"imported": False, "readings": {}},
    # Whether the players read each other's sheets: on, as for every campaign that was on
    # this server when the setting came (campaigns 0008); the GM turns it off.
    Campaign: {"party_sheets": True, "readings": {}},
    # NPCs came with the GM's side of the table: a file from before holds none.
    Character: {"is_npc": False, "npc_shown": ""},
}
"""Columns added to :data:`FIELDS` after format version 1 first shipped, with the value a file
made before them stands for. A file may leave these out (every older export still imports,
docs/backup.md); every other column must be there but those of :data:`GM_ONLY_FIELDS`."""


LATER_LISTS: dict[type[models.Model], dict[str, type[models.Model]]] = {
    Character: {"items": Item},
}
"""Lists of rows carried under a row that came after format version 3 first shipped, by key, with
the model of their rows: a character's inventory (``equipment.models.Item``, in its order).
A file may leave one out, which stands for an empty list: an older file imports with an
empty inventory (docs/backup.md). No version was added for it, as none was for the columns
of :data:`LATER_FIELDS`: every file that leaves it out still means what it meant."""

LATER_SECTIONS: dict[str, dict[str, type[models.Model]]] = {
    "campaign": {"activity": Activity},
}
"""Lists of rows at the top of a document that came after format version 3 first shipped, by
the document's kind and key, with the model of their rows: a campaign's activity log
(``history.models.Activity``, in the order it was made). A file may leave one out, which
stands for an empty list: every campaign file exported before it imports with an empty log
(docs/backup.md), and, as for :data:`LATER_LISTS`, no version was added for it."""


def may_leave_out(model: type[models.Model]) -> dict[str, Any]:
    """The columns of ``model`` a document of the current version may leave out, with the
    value each absence stands for (:data:`LATER_FIELDS` and :data:`GM_ONLY_FIELDS`)."""
    return {**LATER_FIELDS.get(model, {}), **GM_ONLY_FIELDS.get(model, {})}


ADDED_IN_3: dict[type[models.Model], dict[str, Any]] = {
    Campaign: {"description": "", "archived_at": None},
    Character: {"backstory": "", "notes": "", "gm_notes": "", "status": ""},
    XpEntry: {"at_creation": False},
}
"""The columns format version 3 added, with the value a version 2 file stands for: no
description, not archived, nothing written, in the party; a ledger entry came with its
character's creation when its kind is one only creation writes in its system
(:attr:`systems.SheetSystem.creation_entry_kinds`, as the migration that added the column
marked the rows already stored, characters/migrations/0006), which the import sets over the
``False`` here; a purchase made while building a character cannot be told from a later one
there, so it counts as later, as in the database."""

RENAMED_IN_3: dict[type[models.Model], dict[str, str]] = {
    Session: {"notes": "recap"},
}
"""Columns format version 3 renamed: old name -> new name, the content the same."""


def _version_2_columns(model: type[models.Model], names: tuple[str, ...]) -> tuple[str, ...]:
    old_name = {new: old for old, new in RENAMED_IN_3.get(model, {}).items()}
    return tuple(old_name.get(name, name) for name in names
                 if name not in ADDED_IN_3.get(model, {}))


VERSION_2_FIELDS: dict[type[models.Model], tuple[str, ...]] = {
    model: _version_2_columns(model, names) for model, names in FIELDS.items()
}
"""The columns each model carried in format version 2 (and version 1, beside the columns of
its own that :func:`transfer.schema.version_1_columns` lists)."""

_NUMBER = "a document number (``id``), made again on import"
LINKS: dict[type[models.Model], dict[str, str]] = {
    Campaign: {"id": _NUMBER, "ruleset": "the document's ``system``",
               "created_by": "a username", "invite_token": "never exported: an invite link "
               "is a key to the table; the import issues a fresh one (none for an "
               "archived campaign, whose invites stay revoked until the GM issues one)",
               "live_version": "never exported: the open pages' bookkeeping of this server "
               "(campaigns.versions); an imported campaign starts at 0",
               "hidden_version": "never exported: as ``live_version``"},
    Membership: {"id": _NUMBER, "campaign": "the campaign's ``members``", "user": "a username"},
    Session: {"id": _NUMBER, "campaign": "the document's campaign"},
    Character: {"id": _NUMBER, "campaign": "the document's or the target campaign",
                "owner": "a username",
                "review": "never exported: the import sets it (a player's character awaits "
                          "the GM; the GM's own file is theirs to vouch for)"},
    XpEntry: {"id": _NUMBER, "character": "listed under its character",
              "reverses": _NUMBER, "session": _NUMBER, "created_by": "a username"},
    Roll: {"id": _NUMBER, "campaign": "the document's campaign", "character": _NUMBER,
           "parent": _NUMBER, "rolled_by": "a username",
           "code": "never exported: how this server's pages name the roll; the import draws "
                   "a fresh one"},
    RequestedRoll: {"id": _NUMBER, "campaign": "the document's campaign",
                    "character": _NUMBER, "answer": _NUMBER, "requested_by": "a username"},
    Item: {"id": "never exported: an item is listed under its character",
           "character": "listed under its character (``items``)",
           "position": "the item's place in its character's ``items``"},
    Activity: {"id": "never exported: nothing links to an entry; the document lists them in "
                     "the order they were made",
               "campaign": "the document's campaign", "character": _NUMBER, "roll": _NUMBER,
               "actor": "a username, or null for the server",
               "link": "never exported: the path of one of this server's pages; the import "
                       "leaves it empty",
               "code": "never exported: how this server's pages name the entry; the import "
                       "draws a fresh one"},
}
"""Every other column, and how it travels (tests/transfer checks that the two lists cover
every column, so a new column cannot be lost silently)."""


def map_roll_ids(ruleset: str, system_data: Any, change: Callable[[Any], Any]) -> None:
    """Rewrite in place the roll ids a system keeps in its campaign data (its
    :attr:`~systems.SheetSystem.system_data_roll_ids`): each ``id`` goes through ``change``
    (database id to document number on export, the number checked, then back to the new
    row's id on import). Data that is not an object, and a part without an id, are left as
    they are."""
    system = systems.for_ruleset(ruleset)
    if not isinstance(system_data, dict):
        return
    for key, id_key in system.system_data_roll_ids:
        part = system_data.get(key)
        if isinstance(part, dict) and part.get(id_key) is not None:
            system_data[key] = {**part, id_key: change(part[id_key])}
