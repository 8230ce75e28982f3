"""The export: a character or a whole campaign as one JSON document of the current format
version (:mod:`transfer.format` gives its shape), and the file it is downloaded as.

A document is written as the rows are: every column of :data:`~transfer.format.FIELDS` as it
is (a date or time as ISO 8601 with its time zone), each link as the document number of the
row it names, each person as a username. What only the campaign's GM may see (their notes, the
GM-only rolls) is in the GM's file alone.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.utils import timezone

from campaigns.models import Campaign, Membership, Session
from characters.models import Character, XpEntry
from equipment.models import Item
from history.models import Activity
from rolls.models import RequestedRoll, Roll
from transfer.format import FIELDS, FORMAT, GM_ONLY_FIELDS, VERSION, map_roll_ids


def export_character(character: Character, *, for_gm: bool = True) -> dict[str, Any]:
    """The character as a document of kind ``"character"``: its columns (its sheet among
    them), its whole XP ledger (with reversal and session links, and the sessions those
    link to), its inventory (``items``, in order), its rolls (follow-ups included) and the
    roll requests made of it.

    Args:
        character: the character to export.
        for_gm: the file is its campaign's GM's, and carries what only they may see: the
            GM-only rolls and the GM's notes. False for anyone else (the owner): those
            rolls are left out (a roll built on a left-out roll, and a request it answered,
            with them), and so is the ``gm_notes`` key, text and all.

    Returns:
        A JSON-serialisable dict (:mod:`transfer.format`).
    """
    entries = list(character.xp_entries.select_related("created_by").order_by("pk"))
    sessions = Session.objects.filter(pk__in={e.session_id for e in entries if e.session_id})
    rolls: list[Roll] = []
    kept: set[int] = set()
    for roll in character.rolls.select_related("rolled_by").order_by("pk"):
        hidden = roll.gm_only and not for_gm
        if not hidden and (roll.parent_id is None or roll.parent_id in kept):
            rolls.append(roll)
            kept.add(roll.pk)
    requests = [q for q in character.requested_rolls.select_related("requested_by")
                .order_by("pk") if q.answer_id is None or q.answer_id in kept]
    exporter = _Exporter(sessions=list(sessions.order_by("pk")), characters=[character],
                         entries=entries, rolls=rolls, for_gm=for_gm,
                         items=list(Item.objects.filter(character=character)))
    return {
        **_header("character", character.campaign.ruleset),
        "character": exporter.character(character),
        **exporter.tail(requests),
    }


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    """The campaign as a document of kind ``"campaign"``: its settings (its archive date
    among them), system data and members, its sessions, every character (as
    :func:`export_character` writes one for the GM: GM notes included), every roll (NPC and
    GM-only rolls included), every roll request and its whole activity log (GM-only entries
    included), in the order it was made. Only the GM exports a campaign.

    Returns:
        A JSON-serialisable dict (:mod:`transfer.format`).
    """
    # The GM's NPCs too: their sheets and their rolls are the campaign's (docs/npcs.md).
    characters = list(Character.all_objects.filter(campaign=campaign)
                      .select_related("owner").order_by("pk"))
    exporter = _Exporter(
        sessions=list(campaign.sessions.order_by("pk")), characters=characters,
        entries=list(XpEntry.objects.filter(character__campaign=campaign)
                     .select_related("created_by").order_by("pk")),
        rolls=list(campaign.rolls.select_related("rolled_by").order_by("pk")), for_gm=True,
        items=list(Item.objects.filter(character__campaign=campaign)),
    )
    members = campaign.memberships.select_related("user").order_by("pk")
    requests = campaign.requested_rolls.select_related("requested_by").order_by("pk")
    system_data = copy.deepcopy(campaign.system_data)
    map_roll_ids(campaign.ruleset, system_data, lambda pk: exporter.roll_refs.get(pk))
    return {
        **_header("campaign", campaign.ruleset),
        "campaign": {
            **_columns(campaign, Campaign), "system_data": system_data,
            "created_by": campaign.created_by.get_username(),
            "members": [{"username": m.user.get_username(), **_columns(m, Membership)}
                        for m in members],
        },
        "characters": [exporter.character(c) for c in characters],
        **exporter.tail(list(requests)),
        "activity": exporter.activity(
            campaign.activity.select_related("actor").order_by("pk").iterator(2000)),
    }


def document_filename(document: Mapping[str, Any]) -> str:
    """The download's file name: ``<name>.sheetkeeper.json``, the name made safe for any
    file system (letters, digits, spaces, dashes and underscores kept)."""
    part = document.get("character") or document.get("campaign") or {}
    name = "".join(ch if ch.isalnum() or ch in " -_" else "_" for ch in part.get("name", ""))
    return f"{name.strip() or 'sheetkeeper'}.sheetkeeper.json"


def document_json(document: Mapping[str, Any]) -> str:
    """The document as the text of a file: indented JSON, UTF-8 characters kept."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _header(kind: str, ruleset: str) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "kind": kind, "system": ruleset,
            "exported_at": timezone.now().isoformat()}


def _columns(row: models.Model, model: type[models.Model], *, for_gm: bool = True
             ) -> dict[str, Any]:
    """The row's columns as the document carries them; without those only the GM may see
    (:data:`~transfer.format.GM_ONLY_FIELDS`) unless ``for_gm``."""
    out = {}
    hidden = () if for_gm else GM_ONLY_FIELDS.get(model, {})
    for name in FIELDS[model]:
        if name in hidden:
            continue
        value = getattr(row, name)
        out[name] = value.isoformat() if hasattr(value, "isoformat") else value
    return out


def _numbers(rows: list[Any]) -> dict[int, int]:
    """Database id -> document number, 1, 2, ... in the order given (by id)."""
    return {row.pk: number for number, row in enumerate(rows, start=1)}


@dataclass
class _Exporter:
    """Writes rows with their links as document numbers."""

    sessions: list[Session]
    characters: list[Character]
    entries: list[XpEntry]
    rolls: list[Roll]
    for_gm: bool
    """Whether the file is the GM's (it carries the GM's notes)."""
    items: list[Item] = field(default_factory=list)
    """The characters' inventories, each in its order (``Item.Meta.ordering``)."""
    session_refs: dict[int, int] = field(init=False)
    character_refs: dict[int, int] = field(init=False)
    entry_refs: dict[int, int] = field(init=False)
    roll_refs: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.session_refs = _numbers(self.sessions)
        self.character_refs = _numbers(self.characters)
        # Numbered as the document lists them, ledger after ledger, which is the order an
        # import writes them in: exporting the import numbers them the same again.
        self.entries.sort(key=lambda e: (self.character_refs[e.character_id], e.pk))
        self.entry_refs = _numbers(self.entries)
        self.roll_refs = _numbers(self.rolls)

    def _ref(self, refs: dict[int, int], pk: int | None) -> int | None:
        return None if pk is None else refs[pk]

    def character(self, character: Character) -> dict[str, Any]:
        return {
            "id": self.character_refs[character.pk],
            "owner": character.owner.get_username(),
            **_columns(character, Character, for_gm=self.for_gm),
            "xp_entries": [{
                "id": self.entry_refs[e.pk],
                "reverses": self._ref(self.entry_refs, e.reverses_id),
                "session": self._ref(self.session_refs, e.session_id),
                "created_by": e.created_by.get_username(),
                **_columns(e, XpEntry),
            } for e in self.entries if e.character_id == character.pk],
            "items": [_columns(i, Item) for i in self.items if i.character_id == character.pk],
        }

    def tail(self, requests: list[RequestedRoll]) -> dict[str, Any]:
        """The sessions, rolls and requests of the document."""
        return {
            "sessions": [{"id": self.session_refs[s.pk], **_columns(s, Session)}
                         for s in self.sessions],
            "rolls": [{
                "id": self.roll_refs[r.pk],
                "character": self._ref(self.character_refs, r.character_id),
                # A follow-up is made on its own character's roll (rolls/services.py), so
                # its parent is always in the document with it.
                "parent": self._ref(self.roll_refs, r.parent_id),
                "rolled_by": r.rolled_by.get_username(),
                **_columns(r, Roll),
            } for r in self.rolls],
            "requested_rolls": [{
                "character": self.character_refs[q.character_id],
                "answer": self._ref(self.roll_refs, q.answer_id),
                "requested_by": q.requested_by.get_username(),
                **_columns(q, RequestedRoll),
            } for q in requests],
        }

    def activity(self, entries: Iterable[Activity]) -> list[dict[str, Any]]:
        """The activity log's entries, in the order given: each entry's character and roll
        by number, its actor by username (null for the server's own), never its ``link``
        (a path of this server's pages) nor its ``code``."""
        return [{
            "character": self._ref(self.character_refs, a.character_id),
            "actor": a.actor.get_username() if a.actor is not None else None,
            "roll": self._ref(self.roll_refs, a.roll_id),
            **_columns(a, Activity),
        } for a in entries]
