"""The export format, version by version: which columns of which rows a document carries.

Both directions read it: the export (``transfer.services``) writes these columns, the import's
schema (``transfer.schema``) types them and the import writes them back. docs/backup.md
describes the format for people.

Version 2 (written since Maelstrom moved onto the shared sheet layer) carries every system
alike: a character's sheet in ``sheet``, a roll's dice in ``result``, a request's pool in
``data`` and ``description``. Version 1 also carried the columns and rows Maelstrom kept of its
own, which the system declares (:func:`transfer.schema.version_1_columns`); every version 1
file still imports (``transfer.services`` reads it into version 2 first).
"""

from __future__ import annotations

from typing import Any

from django.db import models

from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from rolls.models import RequestedRoll, Roll

FORMAT = "sheetkeeper"
VERSION = 2
"""The version an export writes."""
VERSIONS = (1, 2)
"""Every version an import reads."""
KINDS = ("character", "campaign")

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
"""The largest file the import pages take (10 MiB: a campaign of several thousand rolls);
``manage.py import_campaign`` reads any size."""

FIELDS: dict[type[models.Model], tuple[str, ...]] = {
    Campaign: ("name", "starting_xp", "system_data", "created_at"),
    Membership: ("role", "joined_at"),
    Session: ("date", "title", "notes", "created_at"),
    Character: ("name", "concept", "sheet", "xp_available", "xp_total", "created_at",
                "updated_at"),
    XpEntry: ("kind", "available_delta", "total_delta", "banked_delta", "trait_key",
              "bank_key", "rank_from", "rank_to", "reason", "created_at"),
    Roll: ("ruleset", "kind", "description", "pool", "outcome", "net", "summary", "result",
           "gm_only", "imported", "created_at"),
    RequestedRoll: ("note", "data", "description", "created_at"),
}
"""The columns each model carries in the document, under their own names, as they are."""

LATER_FIELDS: dict[type[models.Model], dict[str, Any]] = {
    Roll: {"imported": False},
}
"""Columns added to :data:`FIELDS` after format version 1 first shipped, with the value a file
made before them stands for. A file may leave these out (every older export still imports,
docs/backup.md); every other column must be there."""

_NUMBER = "a document number (``id``), made again on import"
LINKS: dict[type[models.Model], dict[str, str]] = {
    Campaign: {"id": _NUMBER, "ruleset": "the document's ``system``",
               "created_by": "a username", "invite_token": "never exported: an invite link "
               "is a key to the table; the import issues a fresh one"},
    Membership: {"id": _NUMBER, "campaign": "the campaign's ``members``", "user": "a username"},
    Session: {"id": _NUMBER, "campaign": "the document's campaign"},
    Character: {"id": _NUMBER, "campaign": "the document's or the target campaign",
                "owner": "a username",
                "review": "never exported: the import sets it (a player's character awaits "
                          "the GM; the GM's own file is theirs to vouch for)"},
    XpEntry: {"id": _NUMBER, "character": "listed under its character",
              "reverses": _NUMBER, "session": _NUMBER, "created_by": "a username"},
    Roll: {"id": _NUMBER, "campaign": "the document's campaign", "character": _NUMBER,
           "parent": _NUMBER, "rolled_by": "a username"},
    RequestedRoll: {"id": _NUMBER, "campaign": "the document's campaign",
                    "character": _NUMBER, "answer": _NUMBER, "requested_by": "a username"},
}
"""Every other column, and how it travels (tests/transfer checks that the two lists cover
every column, so a new column cannot be lost silently)."""
