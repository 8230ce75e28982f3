"""State changes of campaigns and their memberships (docs/architecture.md, "State changes have
names": one named function per change)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

import systems
from campaigns.models import Campaign, Membership, ReadingChange, new_invite_token
from characters.models import Character, XpEntry
from characters.services import character_retire
from core.appendonly import erasing_logs
from core.live import announce_seat_closed
from core.templatetags.text import display_name
from history.log import changes as fact_changes
from history.log import record
from history.models import Activity
from rolls.models import RequestedRoll, Roll

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class MembershipError(ValueError):
    """A membership change the rules do not allow; the message is fit to show the user."""


def campaign_create(*, name: str, ruleset: str, starting_xp: int, gm: User) -> Campaign:
    """Create a campaign with a fresh invite link, and seat its creator as the GM.

    Both rows are written in one transaction, so a campaign never exists without its GM.
    ``ruleset`` is a registry slug (the form has already checked it is selectable);
    ``starting_xp`` is the XP each new character starts with.
    """
    with transaction.atomic():
        system = systems.for_ruleset(ruleset)
        campaign = Campaign.objects.create(
            name=name,
            ruleset=ruleset,
            starting_xp=starting_xp,
            system_data=system.default_system_data(),
            created_by=gm,
            invite_token=new_invite_token(),
        )
        Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
        record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, action="create",
               text=f"Started the campaign {campaign.name}.", by=gm)
    return campaign


def membership_join(*, campaign: Campaign, user: User) -> tuple[Membership, bool]:
    """Seat ``user`` at the campaign as a player; returns ``(membership, created)``.

    Idempotent: a user who already has a seat (as player or GM) keeps it unchanged and
    ``created`` is False. The unique constraint on (campaign, user) settles a double submit.
    The caller checks the invite token; this function does not. A new seat is logged
    (``member``/``join``) in the same transaction.
    """
    with transaction.atomic():
        membership, created = Membership.objects.get_or_create(
            campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER}
        )
        if created:
            record(campaign_id=campaign.pk, kind=Activity.Kind.MEMBER, action="join",
                   text=f"{display_name(user)} joined the table.", by=user)
    return membership, created


def membership_remove(*, membership: Membership, by: User | None = None) -> list[Character]:
    """Take a player's or a co-GM's seat away. Their characters stay in the campaign (the GM
    still sees them, with their whole history) but are retired: out of the party, as when the
    player leaves on their own (:func:`membership_leave`). Returns the characters retired.

    ``by``: who removes them, checked under the campaign's lock: someone who runs the table
    (the GM or a co-GM), and for a co-GM's seat the GM alone (docs/decisions.md, "The
    co-GM"). None when the caller has checked (a test, a staff tool).

    The campaign's invite link is renewed in the same transaction (when invites are on), so
    the link the removed player holds no longer seats them, nor anyone they pass it to; the
    GM's page shows the new one (docs/security.md, "A removed player").

    Raises MembershipError for the GM's own seat (a campaign always keeps its GM), a seat
    already gone, an archived campaign, or a ``by`` who may not remove that seat; nothing is
    written then.
    """
    if membership.is_lead_gm:
        raise MembershipError("The GM's seat cannot be removed; a campaign always keeps its GM.")
    with transaction.atomic():
        retired = _seat_close(membership, removed_by=by)
        record(campaign_id=membership.campaign_id, kind=Activity.Kind.MEMBER, action="remove",
               text=f"Removed {display_name(membership.user)} from the table.", by=by)
        # One UPDATE that reads the token where it is: revoked invites stay revoked.
        Campaign.objects.filter(pk=membership.campaign_id, invite_token__isnull=False).update(
            invite_token=new_invite_token())
    return retired


def membership_leave(*, membership: Membership) -> list[Character]:
    """A player leaves the campaign: their characters are retired (out of the party, kept with
    their rolls and ledger, and the GM can bring them back) and their seat is taken away.

    The invite link is left as it is: the player left of their own accord, so the link they
    hold may seat them again (unlike :func:`membership_remove`, where the GM sent them away).

    Args:
        membership: the leaving player's seat.

    Returns:
        The characters retired (those that were in the party), by name.

    A co-GM leaves the same way (their seat goes, their characters retire); to stay as a
    player they step down instead (:func:`membership_seat`).

    Raises:
        MembershipError: for the GM's seat (the GM hands the seat over or deletes the
            campaign instead; checked again under the campaign's lock, in case the seat was
            just handed to this player), a seat already gone, or an archived campaign.
            Nothing is written then.
    """
    if membership.is_lead_gm:
        raise MembershipError("The GM cannot leave the campaign: hand the GM seat to a player "
                              "first, or delete the campaign.")
    with transaction.atomic():
        retired = _seat_close(membership)
        record(campaign_id=membership.campaign_id, kind=Activity.Kind.MEMBER, action="leave",
               text=f"{display_name(membership.user)} left the table.", by=membership.user)
    return retired


def _seat_close(membership: Membership, *, removed_by: User | None = None) -> list[Character]:
    """Retire the seat's characters in its campaign and delete the seat; its holder's open
    pages stop listening once it commits. Call inside transaction.atomic().

    The campaign row is locked first, as every change of the GM seat locks it, and the seat
    is read again under it: a player who was just handed the GM seat, or a campaign just
    archived, is refused here rather than left without a GM or changed while read-only.
    ``removed_by``: someone else taking the seat away, whose own seat is read under the same
    lock (:func:`membership_remove`).

    Raises:
        MembershipError: the seat is gone, is the GM's now, or the campaign is archived; or
            ``removed_by`` no longer runs the table, or is a co-GM removing a co-GM.
    """
    locked = _lock_campaign(membership.campaign_id)
    _refuse_archived(locked)
    seat = Membership.objects.filter(pk=membership.pk).first()
    if seat is None:
        raise MembershipError("That seat is no longer at this table.")
    if seat.is_lead_gm:
        raise MembershipError("The GM's seat cannot be given up this way: hand the GM seat to "
                              "a player first, or delete the campaign.")
    if removed_by is not None:
        remover = _seat_of(locked, removed_by)
        if remover is None or not remover.is_gm:
            raise MembershipError(f"Only whoever runs {locked.name} can remove a member, and "
                                  "you no longer do.")
        if seat.is_co_gm and not remover.is_lead_gm:
            raise MembershipError("Only the GM can take a co-GM's seat away.")
    # The rows are locked in id order (as awards lock them), so that a roll, a spend or a GM's
    # change of one of them queues behind the retirement and then finds it out of play.
    characters = list(Character.objects.select_for_update(no_key=True).filter(
        campaign_id=membership.campaign_id, owner_id=membership.user_id).order_by("pk"))
    # Those already out of the party (retired, or dead by the GM's word) keep their status.
    retired = [character_retire(character=c, status=Character.Status.RETIRED,
                                by=membership.user)
               for c in characters if c.status == Character.Status.ACTIVE]
    membership.delete()
    announce_seat_closed(membership.campaign_id, membership.user_id)  # their open pages
    return sorted(retired, key=lambda c: c.name)


def _refuse_archived(campaign: Campaign) -> None:
    """Raise MembershipError when ``campaign`` (read under its row lock) is archived: a change
    that passed campaigns.archive just before the campaign was archived stops here."""
    if campaign.is_archived:
        raise MembershipError(f"{campaign.name} is archived: nothing in it can change until "
                              "its GM restores it.")


def _lock_campaign(pk: int, *, deleting: bool = False) -> Campaign:
    """Read the campaign row ``pk`` under a row lock; call inside transaction.atomic().

    FOR NO KEY UPDATE, as ``characters.ledger.lock_character``: rows that point at the
    campaign (a roll, a session) may still be inserted meanwhile. A roll holds its
    character's lock while it inserts, so with FOR UPDATE here a leave (campaign, then the
    characters) and a roll (character, then the campaign's key) could deadlock on
    PostgreSQL. Only a deletion (``deleting``) takes FOR UPDATE: the row is going away, so a
    row about to point at it must wait and then fail, not slip in."""
    return Campaign.objects.select_for_update(no_key=not deleting).get(pk=pk)


def _seat_of(campaign: Campaign, user: User) -> Membership | None:
    """``user``'s seat at ``campaign`` as it stands now, or None (one query)."""
    return Membership.objects.filter(campaign=campaign, user=user).first()


def _lock_as_gm(campaign: Campaign, by: User, *, deleting: bool = False,
                lead: bool = False) -> Campaign:
    """Re-read ``campaign`` under :func:`_lock_campaign`'s lock and check that ``by`` runs its
    table now, as its GM or a co-GM (a GM's form may have been sent after the seat was
    handed over); with ``lead``, that ``by`` holds the GM seat itself (the lead GM's own
    powers: docs/decisions.md, "The co-GM"). Call inside transaction.atomic().

    Raises:
        MembershipError: ``by`` does not hold such a seat (any more).
    """
    locked = _lock_campaign(campaign.pk, deleting=deleting)
    seat = _seat_of(locked, by)
    if seat is None or not (seat.is_lead_gm if lead else seat.is_gm):
        raise MembershipError(f"Only the GM of {locked.name} can do that, and you no longer "
                              "hold the GM seat." if lead else
                              f"Only whoever runs {locked.name} can do that, and you no "
                              "longer do.")
    return locked


def campaign_update(*, campaign: Campaign, name: str, description: str, starting_xp: int,
                    by: User, party_sheets: bool | None = None) -> Campaign:
    """Change the campaign's name, description, starting XP and whether the players see the
    party's sheets (the settings of the GM and the co-GMs).

    The starting XP applies to characters created from now on; characters already made keep
    the XP they have (their ledger is not rewritten).

    Args:
        campaign: the campaign to change.
        name: the new name (stripped here).
        description: a line or two, possibly empty (stripped here).
        starting_xp: XP each new character starts with (the form has checked its range).
        by: the GM or a co-GM making the change.
        party_sheets: whether the players may read each other's sheets
            (``Campaign.party_sheets``); None leaves it as it is.

    Returns:
        The campaign as stored now.

    Raises:
        MembershipError: ``by`` does not run the campaign's table.
    """
    with transaction.atomic():
        locked = _lock_as_gm(campaign, by)
        _refuse_archived(locked)
        before = _settings_facts(locked)
        locked.name = name.strip()
        locked.description = description.strip()
        locked.starting_xp = starting_xp
        if party_sheets is not None:
            locked.party_sheets = party_sheets
        # Only these columns: the system's data is changed by its own actions, under this lock.
        locked.save(update_fields=["name", "description", "starting_xp", "party_sheets"])
        changed = fact_changes(before, _settings_facts(locked))
        if changed:
            record(campaign_id=locked.pk, kind=Activity.Kind.CAMPAIGN, action="settings",
                   text=" ".join(_settings_sentence(*row) for row in changed), by=by,
                   changed=changed)
    return locked


SETTINGS_FACTS = {"name": "Name", "description": "Description", "starting_xp": "Starting XP",
                  "party_sheets": "Players see the party's sheets"}
"""How the activity log labels each setting :func:`campaign_update` changes."""


def _settings_facts(campaign: Campaign) -> dict[str, str]:
    """The campaign's settings as facts, label -> value (:data:`SETTINGS_FACTS`)."""
    return {SETTINGS_FACTS["name"]: campaign.name,
            SETTINGS_FACTS["description"]: campaign.description,
            SETTINGS_FACTS["starting_xp"]: str(campaign.starting_xp),
            SETTINGS_FACTS["party_sheets"]: "yes" if campaign.party_sheets else "no"}


def _settings_sentence(label: str, before: str, after: str) -> str:
    """One changed setting in words, for the activity entry of :func:`campaign_update`."""
    if label == SETTINGS_FACTS["name"]:
        return f"Renamed the campaign from {before} to {after}."
    if label == SETTINGS_FACTS["description"]:
        return "Cleared the description." if not after else "Changed the description."
    if label == SETTINGS_FACTS["party_sheets"]:
        return ("The players now see the party's sheets." if after == "yes" else
                "The players no longer see each other's sheets.")
    # What is left is the starting XP.
    return f"Changed the starting XP from {before} to {after}."


def readings_update(*, campaign: Campaign, values: Mapping[str, object], by: User
                    ) -> list[ReadingChange]:
    """Change the campaign's table readings (docs/rules.md, Table readings), as the GM or a
    co-GM chose them on the settings page, and record each change.

    In one transaction, under the campaign's row lock: the readings are checked by the
    system's rules (:meth:`systems.readings.ReadingsPart.readings_from`), stored as the ones
    away from the seed's (``Campaign.readings``), and one :class:`ReadingChange` is written
    per reading whose value changed. Rolls made from now on are made, and stored, under the
    new readings; rolls already made keep theirs (``Roll.readings``).

    Args:
        campaign: the campaign to change.
        values: ``{key: value}`` for some or all of the system's readings (a reading left
            out keeps its value).
        by: the GM or a co-GM.

    Returns:
        The changes written, in the system's order of its readings (empty when nothing
        changed).

    Raises:
        RuleError: an unknown reading or a value that is not one of its choices; nothing is
            written.
        MembershipError: ``by`` does not run the table, or the campaign is archived.
    """
    system = systems.for_campaign(campaign)
    with transaction.atomic():
        locked = _lock_as_gm(campaign, by)
        _refuse_archived(locked)
        before = system.readings_of(locked).values()
        after = system.readings_from({**before, **values}).values()
        changes = [ReadingChange(campaign=locked, key=key, before=before[key],
                                 after=after[key], changed_by=by)
                   for key in after if after[key] != before[key]]
        if changes:
            locked.readings = system.readings_from(after).changed()
            locked.save(update_fields=["readings"])
            ReadingChange.objects.bulk_create(changes)
            labels = [(system.reading_label(c.key, c.before), system.reading_label(c.key, c.after))
                      for c in changes]
            record(campaign_id=locked.pk, kind=Activity.Kind.CAMPAIGN, action="readings",
                   text="Changed the table readings. From now on: " + "; ".join(
                       f"{after[0]}: {after[1]}" for _, after in labels),
                   by=by, changed=[[after[0], before[1], after[1]]
                                   for before, after in labels])
    campaign.readings = locked.readings
    return changes


def campaign_handover(*, campaign: Campaign, to_membership: Membership, by: User
                      ) -> Membership:
    """Hand the GM seat to a player or a co-GM of the campaign: ``by`` (the GM) becomes a
    player, the chosen member becomes the GM, in one transaction. The lead GM's alone: a
    co-GM cannot hand the seat over.

    ``Campaign.created_by`` is left alone: it records who started the campaign, while every
    permission reads the GM's membership.

    Args:
        campaign: the campaign.
        to_membership: the seat of the player who becomes GM.
        by: the GM handing the seat over.

    Returns:
        The new GM's membership.

    Raises:
        MembershipError: ``by`` is not the GM, or ``to_membership`` is not (or no longer) a
            player's or a co-GM's seat at this campaign, or a former player's (a deleted
            account's).
    """
    with transaction.atomic():
        locked = _lock_as_gm(campaign, by, lead=True)
        _refuse_archived(locked)
        # of=("self",): the seats are locked, not their users' rows joined in.
        seats = {m.pk: m for m in Membership.objects.select_for_update(no_key=True, of=("self",))
                 .filter(campaign=locked).select_related("user")}
        new_gm = seats.get(to_membership.pk)
        # A former player (an account deleted, its seat kept in an archived campaign that was
        # restored since) can never log in: a campaign must not get them as its GM.
        if new_gm is None or new_gm.is_lead_gm or not new_gm.user.is_active:
            raise MembershipError("Choose one of the campaign's players: that seat is not a "
                                  "player's at this table (any more).")
        old_gm = next(m for m in seats.values() if m.is_lead_gm)
        # Demote first: the one_gm_per_campaign constraint allows one GM seat at any time.
        Membership.objects.filter(pk=old_gm.pk).update(role=Membership.Role.PLAYER)
        Membership.objects.filter(pk=new_gm.pk).update(role=Membership.Role.GM)
        new_gm.role = Membership.Role.GM
        # Both people's open pages reconnect on commit: the old GM's streams leave the GM-only
        # group (no more GM-only roll events), the new GM's join it.
        announce_seat_closed(locked.pk, old_gm.user_id, changed=True)
        announce_seat_closed(locked.pk, new_gm.user_id, changed=True)
        record(campaign_id=locked.pk, kind=Activity.Kind.MEMBER, action="handover",
               text=f"Handed the GM seat to {display_name(new_gm.user)}.", by=by)
    return new_gm


def membership_seat(*, membership: Membership, co_gm: bool, by: User) -> Membership:
    """Seat a player as a co-GM (``co_gm``), or a co-GM back as a player, in one transaction
    (docs/decisions.md, "The co-GM"). The GM does either; a co-GM may only step down
    themselves. A co-GM's characters stay theirs either way. Asking for the seat it already
    is changes nothing.

    The seat's holder's open pages reconnect on commit (as after a handover), so their
    streams join the groups of the seat as it now is: a new co-GM starts hearing GM-only
    events, a former one stops.

    Args:
        membership: the seat to change.
        co_gm: True to make it a co-GM's, False a player's.
        by: the GM, or the co-GM stepping down.

    Returns:
        The seat as stored now.

    Raises:
        MembershipError: ``by`` may not make that change (any more: read under the
            campaign's lock), the seat is gone or is the GM's own, it is a former player's
            (a deleted account's), or the campaign is archived. Nothing is written then.
    """
    with transaction.atomic():
        locked = _lock_campaign(membership.campaign_id)
        _refuse_archived(locked)
        seat = (Membership.objects.select_related("user")
                .filter(pk=membership.pk, campaign=locked).first())
        if seat is None:
            raise MembershipError("That seat is no longer at this table.")
        stepping_down = not co_gm and seat.user_id == by.pk and seat.is_co_gm
        mine = _seat_of(locked, by)
        if not stepping_down and (mine is None or not mine.is_lead_gm):
            raise MembershipError(f"Only the GM of {locked.name} can seat or unseat a co-GM.")
        if seat.is_lead_gm:
            raise MembershipError("That is the GM's own seat: hand it over to change it.")
        if co_gm and not seat.user.is_active:
            raise MembershipError("A former player cannot become a co-GM.")
        role = Membership.Role.CO_GM if co_gm else Membership.Role.PLAYER
        if seat.role != role:
            Membership.objects.filter(pk=seat.pk).update(role=role)
            seat.role = role
            announce_seat_closed(locked.pk, seat.user_id, changed=True)
            who = display_name(seat.user)
            text = (f"Seated {who} as co-GM." if co_gm else
                    f"{who} stepped down as co-GM." if stepping_down else
                    f"Seated {who} as a player again.")
            record(campaign_id=locked.pk, kind=Activity.Kind.MEMBER,
                   action="co-gm" if co_gm else "player", text=text, by=by)
    return seat


def campaign_invite_renew(*, campaign: Campaign, by: User) -> Campaign:
    """Issue a new invite link for ``campaign`` (whoever calls has checked that ``by`` runs
    its table): the old link stops working. Logged (``campaign``/``invite-renew``) in the same
    transaction, never with the link, which lets anyone join. Returns the campaign."""
    with transaction.atomic():
        campaign.invite_renew()
        record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, action="invite-renew",
               text="Issued a new invite link; the old one no longer works.", by=by)
    return campaign


def campaign_invite_revoke(*, campaign: Campaign, by: User) -> Campaign:
    """Switch ``campaign``'s invites off until a new link is issued, logged
    (``campaign``/``invite-revoke``) as :func:`campaign_invite_renew` is."""
    with transaction.atomic():
        campaign.invite_revoke()
        record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, action="invite-revoke",
               text="Revoked the invite link: nobody can join with it.", by=by)
    return campaign


def campaign_archive(*, campaign: Campaign, by: User) -> Campaign:
    """Archive the campaign: read-only for everyone from now on (campaigns.archive refuses
    every write but the GM's restore and delete), listed apart, still readable and
    exportable. Its invite link is revoked, so nobody joins an archived table.

    Archiving an archived campaign changes nothing (its date stays the first one).

    Args:
        campaign: the campaign to archive.
        by: its GM or a co-GM.

    Returns:
        The campaign as stored now.

    Raises:
        MembershipError: ``by`` does not run the campaign's table (its GM or a co-GM).
    """
    with transaction.atomic():
        locked = _lock_as_gm(campaign, by)
        if locked.archived_at is None:
            locked.archived_at = timezone.now()
            locked.invite_token = None
            locked.save(update_fields=["archived_at", "invite_token"])
            record(campaign_id=locked.pk, kind=Activity.Kind.CAMPAIGN, action="archive",
                   text="Archived the campaign: read-only until restored.", by=by)
    return locked


def campaign_restore(*, campaign: Campaign, by: User) -> Campaign:
    """Bring an archived campaign back into play: writable again. Invite links stay off
    until the GM issues a new one (the old link must not start working again).

    Args:
        campaign: the campaign to restore (restoring one not archived changes nothing).
        by: its GM or a co-GM.

    Returns:
        The campaign as stored now.

    Raises:
        MembershipError: ``by`` does not run the campaign's table (its GM or a co-GM).
    """
    with transaction.atomic():
        locked = _lock_as_gm(campaign, by)
        if locked.archived_at is not None:
            locked.archived_at = None
            locked.save(update_fields=["archived_at"])
            record(campaign_id=locked.pk, kind=Activity.Kind.CAMPAIGN, action="restore",
                   text="Restored the campaign: back in play.", by=by)
    return locked


@dataclass(frozen=True)
class CampaignContents:
    """What deleting a campaign takes with it, counted for the GM's confirmation page."""

    characters: int
    rolls: int
    ledger_entries: int
    sessions: int


def campaign_contents(campaign: Campaign) -> CampaignContents:
    """Count the campaign's characters, rolls (follow-ups included), XP ledger entries and
    sessions. Four queries."""
    return CampaignContents(
        characters=Character.objects.filter(campaign=campaign).count(),
        rolls=Roll.objects.filter(campaign=campaign).count(),
        ledger_entries=XpEntry.objects.filter(character__campaign=campaign).count(),
        sessions=campaign.sessions.count(),
    )


def campaign_delete(*, campaign: Campaign, by: User, as_staff: bool = False
                    ) -> CampaignContents:
    """Delete the campaign and everything in it, in one transaction: its seats, characters,
    sessions, roll requests, rolls and XP ledger entries (archived or not).

    This is the only way rows of the append-only logs disappear (core.appendonly: the
    deletion runs inside :func:`core.appendonly.erasing_logs`), and it takes all of them
    at once. The roll requests go first: a request points at the roll that answered it with
    a PROTECT key, which would stop the cascade. Every member's open pages stop listening.

    Args:
        campaign: the campaign to delete.
        by: its GM, never a co-GM (the view has checked the name typed to confirm), or a
            staff member.
        as_staff: ``by`` deletes it from the admin, whose own permission check (the model's
            delete permission) stands for the GM seat.

    Returns:
        What was deleted, counted just before.

    Raises:
        MembershipError: ``by`` is not the campaign's GM (and not ``as_staff``).
    """
    with transaction.atomic():
        if as_staff:
            locked = _lock_campaign(campaign.pk, deleting=True)
        else:
            locked = _lock_as_gm(campaign, by, deleting=True, lead=True)
        contents = campaign_contents(locked)
        members = list(locked.memberships.values_list("user_id", flat=True))
        pk = locked.pk
        with erasing_logs(f"campaign {pk} deleted by {'staff' if as_staff else 'its GM'}"):
            RequestedRoll.objects.filter(campaign_id=pk).delete()
            locked.delete()
        for user_id in members:
            announce_seat_closed(pk, user_id)
    return contents
