"""The import: a character document into a campaign, or a campaign document as a new campaign,
all or nothing; and the GM's decision on a character a player brought.

Importing checks the whole document first (:mod:`transfer.validate`; an older file is read
into the current document it stands for, :mod:`transfer.upgrade`), then writes every row as
it was inside one transaction: no rule is re-run and no die re-rolled, the append-only ledger,
roll log and activity log are copied, not replayed. A character's import (and the GM's
decision on it) is a change of the campaign it joins, and appends an activity entry; a
campaign's import copies its log and adds nothing to it. Anything wrong raises
:class:`~transfer.validate.TransferError` naming it, and nothing is written.

Users do not travel between installations (docs/backup.md, "Who owns what after an import"):
the document records usernames, and an import attributes everything to the person importing
it (owner of every character, author of every roll and ledger entry), so no one gains access
to a campaign by sharing a username with someone elsewhere. Only the server's administrator,
through ``manage.py import_campaign --keep-users``, may map recorded usernames to the
accounts of the same name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

import systems
from campaigns.models import Campaign, Membership, Session, new_invite_token
from characters.ledger import lock_character
from characters.models import RULE_IMPORTS, Character, CharacterImport, XpEntry
from core.live import announce
from history.log import record
from history.models import Activity
from rolls.models import Roll
from rulesets import registry
from rulesets.errors import RuleError
from transfer import checks, upgrade
from transfer.format import GM_ONLY_FIELDS, map_roll_ids
from transfer.validate import (
    Plan,
    TransferError,
    check_header,
    check_rows,
    read_campaign,
    read_plan,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

_T = TypeVar("_T")


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
    and what the file says of when and where it was exported, and the campaign's activity
    log gains an entry ("Imported Rook from a file."): a character file carries no activity
    of its own (docs/backup.md), so its history here starts with its import.

    Args:
        data: the decoded document (:func:`transfer.validate.read_document`).
        campaign: the campaign to import into; the document's system must be its system.
        owner: the member importing it.

    Returns:
        The new Character.

    Raises:
        TransferError: naming the problem (wrong format, version, kind or system, a column
            out of range, a broken link, a ledger that does not add up, a sheet the rules
            refuse).
    """
    version = check_header(data, "character")
    data = upgrade.current(data, version)
    if data["system"] != campaign.ruleset:
        raise TransferError(
            f"This is a {registry.get(data['system']).name} character and {campaign.name} "
            f"plays {campaign.ruleset_name}: a character can only join a campaign of its own "
            "system.")
    check_rows(data)
    plan = read_plan(data, campaign)
    existing = {}
    for session in campaign.sessions.order_by("-pk"):  # the oldest wins a tie
        existing[(session.date, session.title)] = session
    sessions = {ref: existing.get((s.date, s.title)) for ref, s in plan.sessions.items()}

    # The GM or a co-GM, who read and write GM notes alike (docs/decisions.md, "The co-GM").
    by_gm = campaign.memberships.filter(user=owner, role__in=Membership.GM_SEATS).exists()
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
        written, _ = _write_rows(
            plan, campaign, sessions, user_for=lambda name: owner, owner_for=lambda name: owner,
            review=Character.Review.ACCEPTED if by_gm else Character.Review.PENDING)
        character = written[plan.characters[0].ref]
        CharacterImport.objects.create(
            character=character, imported_by=owner,
            exported_at=parse_datetime(data["exported_at"]),
            file_system=data["system"], file_version=version,
            sessions=[{"date": s.date.isoformat(), "title": s.title,
                       "linked": sessions[ref] is not None}
                      for ref, s in plan.sessions.items()],
            decided_by=owner if by_gm else None, decided_at=timezone.now() if by_gm else None)
        record(campaign_id=campaign.pk, kind=Activity.Kind.CHARACTER, action="import",
               text=f"Imported {character.name} from a file"
                    + ("." if by_gm else ": it awaits the GM."),
               by=owner, character=character, gm_only=character.changes_gm_only)
        # The GM's open dashboard lists the newcomer (awaiting review when a player brings it).
        announce(campaign.pk, "partyChanged", character_id=character.pk,
                 gm_only=character.changes_gm_only)
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
    restore it. The characters keep their GM notes: the importer is their GM. The activity
    log comes as it was (GM-only entries kept, each marked ``imported``, its people mapped as
    the rolls' are, none linking to a page), and the import adds no entry of its own: the
    campaign is made as the file records it, so exporting it gives the same file again
    (its marks aside), and the marks say what came from a file.

    Args:
        data: the decoded document (:func:`transfer.validate.read_document`).
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
    data = upgrade.current(data, check_header(data, "campaign"))
    check_rows(data)
    head = read_campaign(data)
    plan = read_plan(data, head.campaign)
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
            if (member.role in (Membership.Role.PLAYER, Membership.Role.CO_GM)
                    and user is not None and user != gm):
                _insert(Membership(campaign=campaign, user=user, role=member.role,
                                   joined_at=member.joined_at))
        sessions = {}
        for ref, session in plan.sessions.items():
            session.campaign = campaign
            _insert(session)
            sessions[ref] = session
        written, rolls = _write_rows(plan, campaign, sessions, user_for=user_for,
                                     owner_for=user_for)
        _write_activity(plan, campaign, written, rolls, user_for=user_for)
        map_roll_ids(campaign.ruleset, system_data, lambda ref: rolls[ref].pk)
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
    :class:`~characters.models.CharacterImport` (``decided_by``, ``decided_at``) and in the
    campaign's activity log, and is final.

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
        decision = CharacterImport.objects.select_for_update().get(character=locked)
        decision.decided_by = by
        decision.decided_at = timezone.now()
        decision.save(update_fields=["decided_by", "decided_at"])
        record(campaign_id=locked.campaign_id, kind=Activity.Kind.CHARACTER,
               action="accept" if accept else "refuse",
               text=(f"Accepted {locked.name}, imported from a file." if accept else
                     f"Refused {locked.name}, imported from a file: it stays as a record, "
                     "never in play."),
               by=by, character=locked, gm_only=locked.changes_gm_only)
        announce(locked.campaign_id, "trackChanged", character_id=locked.pk,
                 gm_only=locked.changes_gm_only)
        # Accepted, it joins play ("Ask for a roll"); either way the lists drop its review tag.
        announce(locked.campaign_id, "partyChanged", character_id=locked.pk,
                 gm_only=locked.changes_gm_only)
    return locked


def _write_rows(plan: Plan, campaign: Campaign, sessions: Mapping[int, Session | None], *,
                user_for: Callable[[str], User], owner_for: Callable[[str], User],
                review: str = Character.Review.NONE
                ) -> tuple[dict[int, Character], dict[int, Roll]]:
    """Write the plan's characters, their rows, the rolls and the requests into ``campaign``
    (inside the caller's transaction), each in the file's order so every link names a row
    already written; ``sessions`` are the rows each session number stands for (None: the
    award is written without its session).

    Every character gets ``review`` (``Character.Review``: pending for a player's import),
    and every roll is marked ``imported`` whatever the file says: this server rolled none of
    them (docs/backup.md, "What an import is trusted for").

    Returns:
        The characters and the rolls written, by document number.

    Raises:
        TransferError: the rules cannot read a roll written (the caller's transaction is
            rolled back).
    """
    written: dict[int, Character] = {}
    for plan_row in plan.characters:
        character = plan_row.character
        character.campaign = campaign
        character.owner = owner_for(plan_row.owner)
        character.review = review
        _insert(character)
        written[plan_row.ref] = character
        entries: dict[int, XpEntry] = {}
        for entry in plan_row.entries:
            row = entry.row
            row.character = character
            row.reverses = entries[entry.reverses] if entry.reverses else None
            row.session = sessions[entry.session] if entry.session else None
            row.created_by = user_for(entry.created_by)
            _insert(row)
            entries[entry.ref] = row
        for item in plan_row.items:
            item.character = character
            _insert(item)
    rolls: dict[int, Roll] = {}
    for roll in plan.rolls:
        roll_row = roll.row
        roll_row.campaign = campaign
        roll_row.character = written[roll.character] if roll.character else None
        roll_row.parent = rolls[roll.parent] if roll.parent else None
        roll_row.rolled_by = user_for(roll.rolled_by)
        roll_row.imported = True
        _insert(roll_row)
        rolls[roll.ref] = roll_row
    for request in plan.requests:
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
    return written, rolls


def _write_activity(plan: Plan, campaign: Campaign, characters: Mapping[int, Character],
                    rolls: Mapping[int, Roll], *, user_for: Callable[[str], User]) -> None:
    """Write the plan's activity log into ``campaign`` (inside the caller's transaction), in
    the file's order, after ``characters`` and ``rolls`` (the rows written, by document
    number): each entry marked ``imported`` whatever the file says, its actor mapped as the
    other rows' people are (none stays none: the server's own change), with no ``link`` (the
    path of the other server's page) and a fresh ``code``. In batches, as the log may run to
    many thousands of entries; nothing reacts to an entry's ``post_save`` here (the group's
    chat posts new changes, never copied ones), which ``bulk_create`` does not send."""
    entries = []
    for entry in plan.activity:
        row = entry.row
        row.campaign = campaign
        row.character = characters[entry.character] if entry.character else None
        row.roll = rolls[entry.roll] if entry.roll else None
        row.actor = user_for(entry.actor) if entry.actor is not None else None
        row.imported = True
        row.link = ""
        entries.append(row)
    Activity.objects.bulk_create(entries, batch_size=1000)


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
