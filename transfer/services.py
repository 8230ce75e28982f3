"""Export and import of characters and whole campaigns as one JSON document.

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
                          <RequestedRoll columns>}, ...]}

    <character> = {"id": 1, "owner": "<username>", <Character columns>,
                   "xp_entries": [{"id": 1, "reverses": 1 | null, "session": 1 | null,
                                   "created_by": "<username>", <XpEntry columns>}, ...]}

Every system's character keeps its whole sheet in ``sheet``, every roll its dice in ``result``
and every request its pool in ``data`` and ``description``. A character's ``gm_notes`` are the
GM's alone: a file exported by anyone else leaves the key out, and an import by anyone but the
campaign's GM ignores it (:data:`~transfer.format.GM_ONLY_FIELDS`); such an import also
takes a ledger entry's creation mark only for the kinds a creation alone writes.

Older files are read into the current document they stand for, then checked and written
exactly as one. Format version 2 had no description or archive date on the campaign, nothing
written and no status on a character, no creation mark on a ledger entry, and called a
session's recap its ``notes`` (:func:`_from_version_2`). Format version 1 also carried the rows
and columns Maelstrom kept of its own (trait rows, merits and flaws, track columns, a roll's
dice columns, a request's pool columns); a version 1 file is read into the version 2 document
it stands for (:func:`_from_version_1`, through the system's own reader of that data), and on.

:data:`FIELDS` lists the columns each model carries; :data:`LINKS` says how every other column
travels. ``id`` values are the document's own numbers (1, 2, ... in the order the rows were
made), never database ids, so exporting an imported campaign gives the same document again;
each link (a reversal, a roll's parent, the request a roll answers, an award's session) names
a row listed before it. Timestamps keep their time zone.

Importing checks the whole document first (the header, its size and text everywhere, every
column's type and range, the links, the ledger's sums, the sheets, campaign data and rolls'
dice through the rules, :mod:`transfer.checks`, every field against its system's schema,
:mod:`transfer.schema`), then writes every row as it was inside one transaction: no rule is
re-run and no die re-rolled, the append-only ledger and roll log are copied, not replayed.
Anything wrong raises :class:`TransferError` naming it, and nothing is written.

Users do not travel between installations (docs/backup.md, "Who owns what after an import"):
the document records usernames, and an import attributes everything to the person importing
it (owner of every character, author of every roll and ledger entry), so no one gains access
to a campaign by sharing a username with someone elsewhere. Only the server's administrator,
through ``manage.py import_campaign --keep-users``, may map recorded usernames to the
accounts of the same name.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

import systems
from campaigns.models import Campaign, Membership, Session, new_invite_token
from characters.ledger import lock_character
from characters.models import RULE_IMPORTS, Character, CharacterImport, XpEntry
from core.live import announce
from rolls.models import RequestedRoll, Roll
from rulesets import registry
from rulesets.errors import RuleError
from transfer import checks, schema
from transfer.format import (
    ADDED_IN_3,
    FIELDS,
    FORMAT,
    GM_ONLY_FIELDS,
    KINDS,
    LATER_FIELDS,
    MAX_UPLOAD_BYTES,
    RENAMED_IN_3,
    VERSION,
    VERSION_2_FIELDS,
    VERSIONS,
    may_leave_out,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

_T = TypeVar("_T")


class TransferError(ValueError):
    """An import refused; the message names the problem and is fit to show the person
    importing. Nothing has been written when it is raised."""


# --- Export ---------------------------------------------------------------------------------


def export_character(character: Character, *, for_gm: bool = True) -> dict[str, Any]:
    """The character as a document of kind ``"character"``: its columns (its sheet among
    them), its whole XP ledger (with reversal and session links, and the sessions those
    link to), its rolls (follow-ups included) and the roll requests made of it.

    Args:
        character: the character to export.
        for_gm: the file is its campaign's GM's, and carries what only they may see: the
            GM-only rolls and the GM's notes. False for anyone else (the owner): those
            rolls are left out (a roll built on a left-out roll, and a request it answered,
            with them), and so is the ``gm_notes`` key, text and all.

    Returns:
        A JSON-serialisable dict (see the module docstring).
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
                         entries=entries, rolls=rolls, for_gm=for_gm)
    return {
        **_header("character", character.campaign.ruleset),
        "character": exporter.character(character),
        **exporter.tail(requests),
    }


def export_campaign(campaign: Campaign) -> dict[str, Any]:
    """The campaign as a document of kind ``"campaign"``: its settings (its archive date
    among them), system data and members, its sessions, every character (as
    :func:`export_character` writes one for the GM: GM notes included), every roll (NPC and
    GM-only rolls included) and every roll request. Only the GM exports a campaign.

    Returns:
        A JSON-serialisable dict (see the module docstring).
    """
    characters = list(campaign.characters.select_related("owner").order_by("pk"))
    exporter = _Exporter(
        sessions=list(campaign.sessions.order_by("pk")), characters=characters,
        entries=list(XpEntry.objects.filter(character__campaign=campaign)
                     .select_related("created_by").order_by("pk")),
        rolls=list(campaign.rolls.select_related("rolled_by").order_by("pk")), for_gm=True,
    )
    members = campaign.memberships.select_related("user").order_by("pk")
    requests = campaign.requested_rolls.select_related("requested_by").order_by("pk")
    system_data = copy.deepcopy(campaign.system_data)
    _map_roll_ids(campaign.ruleset, system_data, lambda pk: exporter.roll_refs.get(pk))
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


def _map_roll_ids(ruleset: str, system_data: Any, change: Callable[[Any], Any]) -> None:
    """Rewrite in place the roll ids a system keeps in its campaign data (its
    :attr:`~systems.SheetSystem.system_data_roll_ids`): database ids to document
    numbers on export, and back on import."""
    system = systems.for_ruleset(ruleset)
    if not isinstance(system_data, dict):
        return
    for key, id_key in system.system_data_roll_ids:
        part = system_data.get(key)
        if isinstance(part, dict) and part.get(id_key) is not None:
            system_data[key] = {**part, id_key: change(part[id_key])}


# --- Reading a file -------------------------------------------------------------------------


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


# --- Import ---------------------------------------------------------------------------------


def import_character(data: Any, campaign: Campaign, owner: User) -> Character:
    """Import a character document into ``campaign`` as ``owner``'s character, atomically.

    Everything is checked first (:class:`TransferError` otherwise, nothing written); then the
    character (its sheet among its columns), its ledger, rolls and requests are written as they
    were, with new ids and the links between them kept. ``owner`` also becomes the author of
    every roll, ledger entry and request it brings (usernames do not travel). An award linked
    to a session is linked to the campaign's session of the same date and title when there is
    one; otherwise it keeps its XP and reason without the link (a character import never adds
    sessions to a campaign), and ``character.unlinked_awards`` counts those.

    A file is the importer's word, not the server's (docs/backup.md, "What an import is
    trusted for"): every roll it brings is marked ``imported``, and a player's character
    arrives awaiting the GM (``Character.Review.PENDING``: no roll, no XP, no request until
    the GM accepts it, :func:`import_decide`) and without GM notes, whatever the file holds
    (a player cannot plant them); a ledger entry the file marks as the creation's keeps the
    mark only when its kind is one only a creation writes
    (:attr:`systems.SheetSystem.creation_entry_kinds`), so a player cannot make imported
    history deletable. The GM's own import is accepted at once, by them, with the file's GM
    notes and creation marks. A retired or dead character arrives so (out of the party).
    Either way a :class:`~characters.models.CharacterImport` records who brought it, when,
    and what the file says of when and where it was exported.

    Args:
        data: the decoded document (:func:`read_document`).
        campaign: the campaign to import into; the document's system must be its system.
        owner: the member importing it.

    Returns:
        The new Character.

    Raises:
        TransferError: naming the problem (wrong format, version, kind or system, a column
            out of range, a broken link, a ledger that does not add up, a sheet the rules
            refuse).
    """
    version = _check_header(data, "character")
    data = _current(data, version)
    if data["system"] != campaign.ruleset:
        raise TransferError(
            f"This is a {registry.get(data['system']).name} character and {campaign.name} "
            f"plays {campaign.ruleset_name}: a character can only join a campaign of its own "
            "system.")
    plan = _Plan.read(data, campaign)
    existing = {}
    for session in campaign.sessions.order_by("-pk"):  # the oldest wins a tie
        existing[(session.date, session.title)] = session
    sessions = {ref: existing.get((s.date, s.title)) for ref, s in plan.sessions.items()}

    by_gm = campaign.memberships.filter(user=owner, role=Membership.Role.GM).exists()
    if not by_gm:
        # Only the GM writes GM notes: a player's file (perhaps one the GM once exported)
        # brings none into the campaign.
        for plan_row in plan.characters:
            for name, value in GM_ONLY_FIELDS[Character].items():
                setattr(plan_row.character, name, value)
        # Nor does a player's file decide which entries came with the creation: the mark
        # lets the character be deleted with them, so a file marking its awards would make
        # its history deletable. An entry keeps it only when its kind is one only a creation
        # writes, as a file without marks is read; the file may still leave it off.
        kinds = systems.for_campaign(campaign).creation_entry_kinds
        for plan_row in plan.characters:
            for entry in plan_row.entries:
                entry.row.at_creation = entry.row.at_creation and entry.row.kind in kinds

    def write() -> Character:
        written = plan.write_rows(
            campaign, sessions, user_for=lambda name: owner, owner_for=lambda name: owner,
            review=Character.Review.ACCEPTED if by_gm else Character.Review.PENDING)
        character = written[plan.characters[0].ref]
        CharacterImport.objects.create(
            character=character, imported_by=owner, exported_at=_exported_at(data),
            file_system=data["system"], file_version=version,
            sessions=[{"date": s.date.isoformat(), "title": s.title,
                       "linked": sessions[ref] is not None}
                      for ref, s in plan.sessions.items()],
            decided_by=owner if by_gm else None, decided_at=timezone.now() if by_gm else None)
        # The GM's open dashboard lists the newcomer (awaiting review when a player brings it).
        announce(campaign.pk, "partyChanged", character_id=character.pk)
        if Roll.objects.filter(character=character).exists():
            # Its rolls join the campaign's roll log.
            announce(campaign.pk, "rollMade", character_id=character.pk)
        return character

    character = _atomically(write)
    character.unlinked_awards = sum(  # type: ignore[attr-defined]  # an ad hoc attribute of this instance for the page, not a column
        1 for entry in plan.characters[0].entries
        if entry.session is not None and sessions[entry.session] is None)
    return character


def import_campaign(data: Any, gm: User, *, keep_users: bool = False) -> Campaign:
    """Import a campaign document as a new campaign whose GM is ``gm``, atomically.

    Everything is checked first (:class:`TransferError` otherwise, nothing written); then the
    campaign, its sessions, characters, ledgers, rolls and requests are written as they were,
    with new ids, the links between them kept and a fresh invite link. ``gm`` takes the GM's
    seat (with its recorded date) and, by default, owns every character and authors every
    roll, ledger entry and request: no other account is seated or named. A campaign the
    file says is archived arrives archived (read-only, on its recorded date, with no invite
    link, as archiving leaves it), so a restored backup is what it was; its new GM can
    restore it. The characters keep their GM notes: the importer is their GM.

    Args:
        data: the decoded document (:func:`read_document`).
        gm: the user who becomes the GM.
        keep_users: map each recorded username to the account of that name on this
            installation where there is one (owner, author, and a player's seat for the
            recorded players); the rest fall to ``gm``. Only for the server's administrator
            (``manage.py import_campaign --keep-users``), who vouches that the names are the
            same people: never offered on a web page.

    Returns:
        The new Campaign.

    Raises:
        TransferError: naming the problem, as :func:`import_character` does.
    """
    data = _current(data, _check_header(data, "campaign"))
    head = _campaign_row(data["campaign"], data["system"])
    plan = _Plan.read(data, head.campaign)
    accounts: dict[str, User] = {}
    if keep_users:
        names = {head.created_by, *(m.username for m in head.members), *plan.usernames()}
        user_model = get_user_model()
        accounts = {u.get_username(): u for u in user_model.objects.filter(
            **{f"{user_model.USERNAME_FIELD}__in": names})}

    def user_for(name: str) -> User:
        return accounts.get(name, gm)

    def write() -> Campaign:
        campaign = head.campaign
        campaign.created_by = gm
        # An archived campaign takes no one new (archiving revokes its invites).
        campaign.invite_token = None if campaign.is_archived else new_invite_token()
        system_data, campaign.system_data = campaign.system_data, {}
        _insert(campaign)
        gm_seat = next(m for m in head.members if m.role == Membership.Role.GM)
        _insert(Membership(campaign=campaign, user=gm, role=Membership.Role.GM,
                           joined_at=gm_seat.joined_at))
        for member in head.members:
            user = accounts.get(member.username)
            if member.role == Membership.Role.PLAYER and user is not None and user != gm:
                _insert(Membership(campaign=campaign, user=user, role=member.role,
                                   joined_at=member.joined_at))
        sessions = {}
        for ref, session in plan.sessions.items():
            session.campaign = campaign
            _insert(session)
            sessions[ref] = session
        plan.write_rows(campaign, sessions, user_for=user_for, owner_for=user_for)
        _map_roll_ids(campaign.ruleset, system_data, lambda ref: plan.roll_ids[ref])
        campaign.system_data = system_data
        campaign.save(update_fields=["system_data"])
        try:
            checks.check_dashboard(campaign)
        except RuleError as exc:  # rolls the whole import back
            raise TransferError(f"The campaign's system data is refused: {exc}") from None
        return campaign

    return _atomically(write)


def import_decide(*, character: Character, accept: bool, by: User) -> Character:
    """The GM accepts or refuses a character a player imported, atomically.

    Accepted, it plays like any character (its history stays as imported: its rolls keep
    their mark). Refused, it stays in the campaign as a record of what was brought, never in
    play: its owner may still see and export it. The decision is recorded on its
    :class:`~characters.models.CharacterImport` (``decided_by``, ``decided_at``) and is final.

    Args:
        character: the imported character (its campaign's GM is checked by the caller).
        accept: True to accept, False to refuse.
        by: the GM deciding.

    Returns:
        The character, re-read under its lock, with the decision.

    Raises:
        RuleError: the character does not await the GM (made here, or already decided),
            naming what it is.
    """
    with transaction.atomic():
        locked = lock_character(character.pk)
        if locked.review != Character.Review.PENDING:
            state = ("was made here, not imported" if not locked.review
                     else f"was already {locked.review} by the GM")
            raise RuleError(f"{locked.name} {state}: there is nothing to decide.",
                            RULE_IMPORTS)
        locked.review = Character.Review.ACCEPTED if accept else Character.Review.REFUSED
        locked.save(update_fields=["review", "updated_at"])
        record = CharacterImport.objects.select_for_update().get(character=locked)
        record.decided_by = by
        record.decided_at = timezone.now()
        record.save(update_fields=["decided_by", "decided_at"])
        announce(locked.campaign_id, "trackChanged", character_id=locked.pk)
        # Accepted, it joins play ("Ask for a roll"); either way the lists drop its review tag.
        announce(locked.campaign_id, "partyChanged", character_id=locked.pk)
    return locked


def _exported_at(data: Mapping[str, Any]) -> Any:
    """The file's ``exported_at`` as a time-zone-aware datetime, or None when it is not one
    (kept as the file's word, for the GM's review page)."""
    raw = data.get("exported_at")
    try:
        value = parse_datetime(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    return None if value is None or timezone.is_naive(value) else value


def _atomically(write: Callable[[], _T]) -> _T:
    try:
        with transaction.atomic():
            return write()
    except IntegrityError as exc:  # a guard: the checks above refuse these first
        raise TransferError(f"The file's rows break a rule of the database ({exc}); "
                            "nothing was imported.") from None


def _insert(row: models.Model) -> None:
    """Write a new row exactly as given, its timestamps included.

    ``save_base(raw=True)`` is how Django's ``loaddata`` writes fixtures: it leaves
    ``auto_now_add``/``auto_now`` alone (which would stamp the import's time over the
    recorded one). It passes by ``Roll.save``/``XpEntry.save``, whose append-only guard
    refuses edits of existing rows; ``force_insert`` makes this a new row, never an edit.
    """
    row.save_base(raw=True, force_insert=True)


# --- Reading older files -------------------------------------------------------------------


def _current(data: dict[str, Any], version: int) -> dict[str, Any]:
    """The document of the current format version that ``data``, a document of format
    ``version`` (its header and shape checked), stands for: itself when it is current, else
    a new one read version by version (1 into 2, 2 into 3). Raises TransferError."""
    if version == 1:
        data = _from_version_1(data)
    if version <= 2:
        data = _from_version_2(data)
    return data


def _from_version_2(data: dict[str, Any]) -> dict[str, Any]:
    """The version 3 document a version 2 document stands for (docs/backup.md, "Files of
    older formats", "Format version 2").

    Each row version 3 changed must be as version 2 wrote it (every column of
    :data:`~transfer.format.VERSION_2_FIELDS` and its links, none unknown: a version 3
    column in a version 2 file is refused); then a session's ``notes`` become its ``recap``
    (:data:`~transfer.format.RENAMED_IN_3`) and the columns version 3 added take the value
    the file stands for (:data:`~transfer.format.ADDED_IN_3`): no description, not archived,
    nothing written, in the party, and a ledger entry came with its character's creation
    when only a creation writes its kind in the file's system
    (:attr:`systems.SheetSystem.creation_entry_kinds`, as the migration marked stored
    rows). Rolls and requests did not change. The values themselves
    are checked afterwards, with the rest of the document.

    Args:
        data: a version 2 document (or one read from version 1), its header and shape
            checked; it is not changed.

    Returns:
        A new document of format version 3.

    Raises:
        TransferError: a row lacks a column or has one version 2 did not have.
    """
    document = copy.deepcopy(data)
    document["version"] = VERSION

    def upgrade(model: type[models.Model], row: dict[str, Any], where: str,
                links: tuple[str, ...]) -> None:
        _keys(row, {*VERSION_2_FIELDS[model], *links}, where, 2)
        for old, new in RENAMED_IN_3.get(model, {}).items():
            row[new] = row.pop(old)
        row.update(ADDED_IN_3.get(model, {}))

    creation_kinds = systems.for_ruleset(document["system"]).creation_entry_kinds
    if document["kind"] == "character":
        characters = [_object(document["character"], "The character")]
    else:
        upgrade(Campaign, _object(document["campaign"], "The campaign"), "The campaign",
                ("created_by", "members"))
        characters = [_object(row, f"Character {i}") for i, row in
                      enumerate(_list(document["characters"], "The characters"), start=1)]
    for i, row in enumerate(_list(document["sessions"], "The sessions"), start=1):
        upgrade(Session, _object(row, f"Session {i}"), f"Session {i}", ("id",))
    for i, row in enumerate(characters, start=1):
        where = f"Character {i}"
        upgrade(Character, row, where, ("id", "owner", "xp_entries"))
        for j, entry in enumerate(_list(row["xp_entries"], f"{where}'s XP ledger"), start=1):
            upgrade(XpEntry, _object(entry, f"{where}'s XP entry {j}"),
                    f"{where}'s XP entry {j}", ("id", "reverses", "session", "created_by"))
            kind = entry["kind"]  # any JSON value yet: its column's check comes later
            entry["at_creation"] = isinstance(kind, str) and kind in creation_kinds
    return document


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """The version 2 document a version 1 document stands for (docs/backup.md, "Files of
    older formats", "Format version 1").

    Version 1 carried, besides every column of version 2, the rows and columns Maelstrom kept
    of its own (:func:`transfer.schema.version_1_columns`, as the system declares them: a
    character's trait rows, merits and flaws and track columns, a roll's dice columns, a
    request's pool columns). Each row is checked as it was then (every column there and none
    unknown, each of its column's type, then :func:`transfer.schema.check_version_1`); then
    the system's reader of its own version 1 data (:func:`transfer.schema.version_1_reader`)
    makes each character's sheet, each roll's pool and result, each request's data and
    description from them. A system without one kept nothing there: its characters list no
    such rows, its rolls keep no faces in those columns (its schema's ``dice``), and the
    columns' defaults are dropped. The document returned is read on into version 3
    (:func:`_from_version_2`), then checked and written exactly as a current one (the
    system's ``check_sheet`` judges the sheet).

    Args:
        data: a version 1 document, its header and shape checked (:func:`_check_header`);
            it is not changed.

    Returns:
        A new document of format version 2.

    Raises:
        TransferError: naming the row and the problem, or the rule that refuses a sheet or a
            roll.
    """
    document = copy.deepcopy(data)
    document["version"] = 2
    slug = document["system"]
    v1 = schema.version_1_columns()
    reader = schema.version_1_reader(slug)
    rules = registry.get(slug).name
    if document["kind"] == "character":
        characters = [_object(document["character"], "The character")]
    else:
        campaign = _object(document["campaign"], "The campaign")
        _keys(campaign, {*VERSION_2_FIELDS[Campaign], "created_by", "members"},
              "The campaign", 1)
        for i, row in enumerate(_list(campaign["members"], "The campaign's members"), 1):
            where = f"Member {i} of the campaign"
            _keys(_object(row, where), {*VERSION_2_FIELDS[Membership], "username"}, where, 1)
        characters = [_object(row, f"Character {i}") for i, row in
                      enumerate(_list(document["characters"], "The characters"), start=1)]
    for i, row in enumerate(_list(document["sessions"], "The sessions"), start=1):
        _keys(_object(row, f"Session {i}"), {*VERSION_2_FIELDS[Session], "id"},
              f"Session {i}", 1)
    wheres = [_version_1_character(row, i, v1) for i, row in enumerate(characters, start=1)]
    rolls = _list(document["rolls"], "The rolls")
    for i, row in enumerate(rolls, start=1):
        _checked_columns({**_model_columns(Roll, VERSION_2_FIELDS), **v1.roll},
                         {**LATER_FIELDS[Roll], **_object(row, f"Roll {i}")}, f"Roll {i}",
                         ("id", "character", "parent", "rolled_by"), 1)
    requests = _list(document["requested_rolls"], "The requested rolls")
    for i, row in enumerate(requests, start=1):
        _checked_columns({**_model_columns(RequestedRoll, VERSION_2_FIELDS), **v1.request},
                         _object(row, f"Requested roll {i}"), f"Requested roll {i}",
                         ("character", "answer", "requested_by"), 1)
    _checked(schema.check_version_1, document)

    # Every row is as version 1 wrote it: make the version 2 parts.
    for row, where in zip(characters, wheres, strict=True):
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
    for i, row in enumerate(rolls, start=1):
        columns = _version_1_columns(row, v1.roll)
        try:
            if reader is not None:
                row["pool"], row["result"] = checks.readable(
                    partial(reader.make_roll, columns), "its dice")
        except RuleError as exc:
            raise TransferError(f"Roll {i} is refused: {exc}") from None
    for i, row in enumerate(requests, start=1):
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


def _version_1_character(row: dict[str, Any], index: int, v1: schema.Version1Columns
                         ) -> str:
    """Check a version 1 character's columns and rows (and its ledger entries' keys);
    returns how messages name it ("Character 1 (Rook)")."""
    where = f"Character {index}"
    values = _checked_columns({**_model_columns(Character, VERSION_2_FIELDS), **v1.character},
                              row, where,
                              ("id", "owner", "xp_entries", *v1.rows), 1)
    where = f"Character {index} ({values['name']})"
    for key, columns in v1.rows.items():
        one, many = v1.row_words[key]
        for i, item in enumerate(_list(row[key], f"{where}'s {many}"), start=1):
            _checked_columns(columns, _object(item, f"{where}'s {one} {i}"),
                             f"{where}'s {one} {i}", version=1)
    for i, entry in enumerate(_list(row["xp_entries"], f"{where}'s XP ledger"), start=1):
        entry_where = f"{where}'s XP entry {i}"
        _keys(_object(entry, entry_where),
              {*VERSION_2_FIELDS[XpEntry], "id", "reverses", "session", "created_by"},
              entry_where, 1)
    return where


# --- Checking a document --------------------------------------------------------------------


def _check_header(data: Any, kind: str) -> int:
    """Check the envelope of a document of ``kind``, then the shape of all of it
    (:func:`transfer.schema.check_shape`); returns its format version (one of
    :data:`~transfer.format.VERSIONS`). Raises TransferError."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError('This is not a Sheetkeeper export: its "format" is not '
                            f'"{FORMAT}".')
    version = data.get("version")
    if not _is_int(version) or version not in VERSIONS:
        newer = _is_int(version) and version > VERSION
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
    body = ("character",) if kind == "character" else ("campaign", "characters")
    _keys(data, {"format", "version", "kind", "system", "exported_at", *body, "sessions",
                 "rolls", "requested_rolls"}, "The file", version)
    _checked(schema.check_shape, data)
    return version


def _checked(check: Callable[[Any], None], data: Any) -> None:
    """Run a check of the whole file (its schema, its rolls' dice), refusals as TransferError."""
    try:
        check(data)
    except (schema.SchemaError, RuleError) as exc:
        raise TransferError(str(exc)) from None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _keys(data: Mapping[str, Any], expected: set[str], where: str,
          version: int = VERSION) -> None:
    """Every key of ``expected`` in ``data`` and no other (a file of format ``version``)."""
    missing = sorted(expected - set(data))
    if missing:
        raise TransferError(f"{where} lacks {', '.join(repr(k) for k in missing)}.")
    unknown = sorted(set(data) - expected)
    if unknown:
        # A hostile file may bring thousands of keys, each of any length: name a few.
        named = ", ".join(ascii(k[:40]) for k in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise TransferError(f"{where} has {named}{more}, which format version {version} does "
                            "not have.")


def _object(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise TransferError(f"{where} is not an object.")
    return data


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise TransferError(f"{where} is not a list.")
    return data


def _row(model: type[models.Model], data: Any, where: str, links: tuple[str, ...] = ()
         ) -> dict[str, Any]:
    """The model's columns from ``data``, each checked: every key present and none unknown,
    the JSON type the column needs, the column's own limits (length, range, choices)."""
    data = {**may_leave_out(model), **_object(data, where)}
    return _checked_columns(_model_columns(model), data, where, links)


def _model_columns(model: type[models.Model],
                   fields: Mapping[type[models.Model], tuple[str, ...]] = FIELDS
                   ) -> dict[str, models.Field[Any, Any]]:
    """The columns of ``model`` a document carries (``fields``: those of the current format
    version, or of version 2), by name."""
    columns = {}
    for name in fields[model]:
        column = model._meta.get_field(name)
        # FIELDS names concrete columns only (tests/transfer checks it against the models),
        # never a reverse relation or a generic foreign key.
        assert isinstance(column, models.Field)
        columns[name] = column
    return columns


def _checked_columns(columns: Mapping[str, models.Field[Any, Any]], data: dict[str, Any],
                     where: str, links: tuple[str, ...] = (), version: int = VERSION
                     ) -> dict[str, Any]:
    """The values of ``columns`` from the object ``data`` (which holds them, the ``links``
    and nothing else), each checked as its column (:func:`_value`)."""
    _keys(data, {*columns, *links}, where, version)
    return {name: _value(column, name, data[name], where) for name, column in columns.items()}


def _value(column: models.Field[Any, Any], name: str, raw: Any, where: str) -> Any:
    problem = f"{where}: {name!r} must be"
    value: Any = raw
    if raw is None:
        if column.null:
            return None
        raise TransferError(f"{where}: {name!r} needs a value.")
    if isinstance(column, models.DateTimeField):
        try:
            value = parse_datetime(raw) if isinstance(raw, str) else None
        except ValueError:
            value = None
        if value is None or timezone.is_naive(value):
            raise TransferError(f"{problem} a date and time with its time zone "
                                f"(2025-01-31T20:15:00+00:00), not {raw!r}.")
    elif isinstance(column, models.DateField):
        try:
            value = parse_date(raw) if isinstance(raw, str) else None
        except ValueError:
            value = None
        if value is None:
            raise TransferError(f"{problem} a date (2025-01-31), not {raw!r}.")
    elif isinstance(column, models.BooleanField):
        if not isinstance(raw, bool):
            raise TransferError(f"{problem} true or false, not {raw!r}.")
    elif isinstance(column, models.IntegerField):
        if not _is_int(raw):
            raise TransferError(f"{problem} a whole number, not {raw!r}.")
    elif isinstance(column, models.JSONField):
        shape = type(column.get_default())
        if not isinstance(raw, shape):
            raise TransferError(f"{problem} {'an object' if shape is dict else 'a list'}.")
    elif not isinstance(raw, str):
        raise TransferError(f"{problem} text, not {raw!r}.")
    try:
        column.run_validators(value)
    except ValidationError as exc:
        raise TransferError(f"{where}: {name!r}: {' '.join(exc.messages)}") from None
    if column.choices and value not in {key for key, _ in column.flatchoices}:
        allowed = ", ".join(str(key) for key, _ in column.flatchoices)
        raise TransferError(f"{problem} one of {allowed}, not {raw!r}.")
    return value


def _username(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise TransferError(f"{where} must be a username.")
    return value


def _id(value: Any, where: str) -> int:
    """A row's document number."""
    if not _is_int(value):
        raise TransferError(f"{where} must be a number.")
    return int(value)


def _link(value: Any, where: str, known: Collection[int]) -> int | None:
    """A link to a row listed before this one (a number among ``known``), or None."""
    if value is None:
        return None
    if not _is_int(value) or value not in known:
        raise TransferError(f"{where} names {value!r}, which is not listed before it in the "
                            "file.")
    return int(value)


@dataclass
class _Member:
    username: str
    role: str
    joined_at: Any


@dataclass
class _CampaignRow:
    campaign: Campaign
    created_by: str
    members: list[_Member]


def _campaign_row(data: Any, system: str) -> _CampaignRow:
    where = "The campaign"
    values = _row(Campaign, data, where, links=("created_by", "members"))
    campaign = Campaign(ruleset=system, **values)
    members = []
    for i, row in enumerate(_list(data["members"], f"{where}'s members"), start=1):
        member_where = f"Member {i} of the campaign"
        members.append(_Member(username=_username(_object(row, member_where).get("username"),
                                                  f"{member_where}'s 'username'"),
                               **_row(Membership, row, member_where, links=("username",))))
    if [m.role for m in members].count(Membership.Role.GM) != 1:
        raise TransferError("The campaign's members must hold exactly one GM.")
    repeated = [n for n, count in Counter(m.username for m in members).items() if count > 1]
    if repeated:
        raise TransferError(f"The campaign's members list {repeated[0]!r} twice.")
    try:
        checks.check_campaign(campaign)
    except RuleError as exc:
        raise TransferError(f"The campaign's system data is refused: {exc}") from None
    return _CampaignRow(campaign=campaign,
                        created_by=_username(data["created_by"], "The campaign's 'created_by'"),
                        members=members)


@dataclass
class _Entry:
    ref: int
    row: XpEntry
    reverses: int | None
    session: int | None
    created_by: str


@dataclass
class _CharacterPlan:
    ref: int
    owner: str
    character: Character
    entries: list[_Entry]


@dataclass
class _RollPlan:
    ref: int
    row: Roll
    character: int | None
    parent: int | None
    rolled_by: str


@dataclass
class _RequestPlan:
    row: RequestedRoll
    character: int
    answer: int | None
    requested_by: str


@dataclass
class _Plan:
    """A checked document as unsaved rows and their links by document number."""

    sessions: dict[int, Session]
    characters: list[_CharacterPlan]
    rolls: list[_RollPlan]
    requests: list[_RequestPlan]
    roll_ids: dict[int, int] = field(default_factory=dict)
    """Document number -> database id of each roll written (filled by :meth:`write_rows`)."""

    @classmethod
    def read(cls, data: dict[str, Any], campaign: Campaign) -> _Plan:
        """Check everything below the header against ``campaign`` (the target of a character
        import, or the unsaved campaign of a campaign import). Raises TransferError."""
        sessions: dict[int, Session] = {}
        for i, row in enumerate(_list(data["sessions"], "The sessions"), start=1):
            where = f"Session {i}"
            values = _row(Session, row, where, links=("id",))
            ref = _id(row["id"], f"{where}'s 'id'")
            _unique(ref, sessions, where)
            sessions[ref] = Session(**values)
        if data["kind"] == "character":
            rows = [_object(data["character"], "The character")]
        else:
            rows = _list(data["characters"], "The characters")
        characters: list[_CharacterPlan] = []
        entry_refs: dict[int, int] = {}  # entry number -> character number
        for i, row in enumerate(rows, start=1):
            characters.append(_read_character(row, i, campaign, sessions, entry_refs,
                                              {c.ref for c in characters}))
        rolls = _read_rolls(data["rolls"], {c.ref: c for c in characters}, data["system"])
        requests = _read_requests(data["requested_rolls"], {c.ref for c in characters},
                                  {r.ref: r for r in rolls})
        plan = cls(sessions=sessions, characters=characters, rolls=rolls, requests=requests)
        if data["kind"] == "campaign":
            known = {r.ref for r in rolls}

            def check_roll(ref: Any) -> Any:
                if not _is_int(ref) or ref not in known:
                    raise TransferError(f"The campaign's system data names roll {ref!r}, "
                                        "which is not in the file.")
                return ref

            _map_roll_ids(campaign.ruleset, campaign.system_data, check_roll)
        # After the sheets' rules (their refusals first); before the rolls' (shape known).
        _checked(schema.check_document, data)
        _checked(checks.check_rolls_dice, [(r.ref, r.row, r.parent) for r in rolls])
        return plan

    def usernames(self) -> set[str]:
        """Every username the rows name."""
        names = {c.owner for c in self.characters}
        names |= {e.created_by for c in self.characters for e in c.entries}
        names |= {r.rolled_by for r in self.rolls} | {q.requested_by for q in self.requests}
        return names

    def write_rows(self, campaign: Campaign, sessions: Mapping[int, Session | None], *,
                   user_for: Callable[[str], User],
                   owner_for: Callable[[str], User],
                   review: str = Character.Review.NONE) -> dict[int, Character]:
        """Write the characters, their rows, the rolls and the requests into ``campaign``
        (inside the caller's transaction), each in the file's order so every link names a
        row already written.

        Every character gets ``review`` (``Character.Review``: pending for a player's
        import), and every roll is marked ``imported`` whatever the file says: this server
        rolled none of them (docs/backup.md, "What an import is trusted for").

        Returns the characters by document number."""
        written: dict[int, Character] = {}
        for plan in self.characters:
            character = plan.character
            character.campaign = campaign
            character.owner = owner_for(plan.owner)
            character.review = review
            _insert(character)
            written[plan.ref] = character
            entries: dict[int, XpEntry] = {}
            for entry in plan.entries:
                row = entry.row
                row.character = character
                row.reverses = entries[entry.reverses] if entry.reverses else None
                row.session = sessions[entry.session] if entry.session else None
                row.created_by = user_for(entry.created_by)
                _insert(row)
                entries[entry.ref] = row
        rolls: dict[int, Roll] = {}
        for roll in self.rolls:
            roll_row = roll.row
            roll_row.campaign = campaign
            roll_row.character = written[roll.character] if roll.character else None
            roll_row.parent = rolls[roll.parent] if roll.parent else None
            roll_row.rolled_by = user_for(roll.rolled_by)
            roll_row.imported = True
            _insert(roll_row)
            rolls[roll.ref] = roll_row
            self.roll_ids[roll.ref] = roll_row.pk
        for request in self.requests:
            request_row = request.row
            request_row.campaign = campaign
            request_row.character = written[request.character]
            request_row.answer = rolls[request.answer] if request.answer else None
            request_row.requested_by = user_for(request.requested_by)
            _insert(request_row)
        try:
            checks.check_rolls(rolls.values(), campaign.ruleset)
        except RuleError as exc:  # raised inside the import's transaction: all rolled back
            raise TransferError(f"A roll is refused: {exc}") from None
        return written


def _unique(ref: int, known: Mapping[int, Any], where: str) -> None:
    if ref in known:
        raise TransferError(f"{where}: the number {ref} is used twice.")


def _read_character(data: dict[str, Any], index: int, campaign: Campaign,
                    sessions: Mapping[int, Session], entry_refs: dict[int, int],
                    taken: set[int]) -> _CharacterPlan:
    where = f"Character {index}"
    values = _row(Character, data, where, links=("id", "owner", "xp_entries"))
    where = f"Character {index} ({values['name']})"
    ref = _id(data["id"], f"{where}'s 'id'")
    if ref in taken:
        raise TransferError(f"{where}: the number {ref} is used twice.")
    character = Character(campaign=campaign, **values)
    entries: list[_Entry] = []
    by_ref: dict[int, _Entry] = {}
    for i, row in enumerate(_list(data["xp_entries"], f"{where}'s XP ledger"), start=1):
        entry_where = f"{where}'s XP entry {i}"
        entry_values = _row(XpEntry, row, entry_where,
                            links=("id", "reverses", "session", "created_by"))
        entry_ref = _id(row["id"], f"{entry_where}'s 'id'")
        if entry_ref in entry_refs:
            raise TransferError(f"{entry_where}: the number {entry_ref} is used twice.")
        reverses = _link(row["reverses"], f"{entry_where}'s 'reverses'", by_ref)
        if reverses is not None and any(e.reverses == reverses for e in entries):
            raise TransferError(f"{entry_where} undoes entry {reverses}, which is already "
                                "undone.")
        entry = _Entry(ref=entry_ref, row=XpEntry(**entry_values), reverses=reverses,
                       session=_link(row["session"], f"{entry_where}'s 'session'", sessions),
                       created_by=_username(row["created_by"], f"{entry_where}'s 'created_by'"))
        entries.append(entry)
        by_ref[entry.ref] = entry
        entry_refs[entry.ref] = ref
    _check_ledger(character, [e.row for e in entries], where)
    try:
        checks.check_character(character)
    except RuleError as exc:
        raise TransferError(f"{where}: the {campaign.ruleset_name} rules refuse this sheet: "
                            f"{exc}") from None
    return _CharacterPlan(ref=ref, owner=_username(data["owner"], f"{where}'s 'owner'"),
                          character=character, entries=entries)


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


def _read_rolls(data: Any, characters: Mapping[int, _CharacterPlan], system: str
                ) -> list[_RollPlan]:
    rolls: dict[int, _RollPlan] = {}
    followups: set[tuple[int, str]] = set()
    for i, row in enumerate(_list(data, "The rolls"), start=1):
        where = f"Roll {i}"
        values = _row(Roll, row, where, links=("id", "character", "parent", "rolled_by"))
        ref = _id(row["id"], f"{where}'s 'id'")
        _unique(ref, rolls, where)
        if values["ruleset"] != system:
            raise TransferError(f"{where} is a {values['ruleset']!r} roll in a {system!r} "
                                "file.")
        parent = _link(row["parent"], f"{where}'s 'parent'", rolls)
        if parent is not None:
            if (parent, values["kind"]) in followups:
                raise TransferError(f"{where}: roll {parent} already has a "
                                    f"{values['kind']!r} follow-up.")
            followups.add((parent, values["kind"]))
        rolls[ref] = _RollPlan(
            ref=ref, row=Roll(**values), parent=parent,
            character=_link(row["character"], f"{where}'s 'character'", characters),
            rolled_by=_username(row["rolled_by"], f"{where}'s 'rolled_by'"))
    return list(rolls.values())


def _read_requests(data: Any, characters: set[int], rolls: Mapping[int, _RollPlan]
                   ) -> list[_RequestPlan]:
    requests: list[_RequestPlan] = []
    answered: set[int] = set()
    for i, row in enumerate(_list(data, "The requested rolls"), start=1):
        where = f"Requested roll {i}"
        values = _row(RequestedRoll, row, where,
                      links=("character", "answer", "requested_by"))
        character = _link(row["character"], f"{where}'s 'character'", characters)
        if character is None:
            raise TransferError(f"{where} must name the character it asks.")
        answer = _link(row["answer"], f"{where}'s 'answer'", rolls)
        if answer is not None:
            if answer in answered:
                raise TransferError(f"{where}: roll {answer} already answers another request.")
            if rolls[answer].character != character:
                raise TransferError(f"{where} is answered by roll {answer}, a roll of "
                                    "another character.")
            answered.add(answer)
        requests.append(_RequestPlan(
            row=RequestedRoll(**values), character=character, answer=answer,
            requested_by=_username(row["requested_by"], f"{where}'s 'requested_by'")))
    return requests
