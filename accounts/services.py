"""State changes of accounts: deleting one's own account, changing its email or display name,
asking for a password-reset link (docs/architecture.md, "State changes have names": one named
function per change).

An account is anonymised rather than deleted (docs/accounts.md, "Deleting an account"): the
characters, rolls and XP ledger entries a user made point at their row, and those are the
table's history, which no one may rewrite by leaving.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session as LoginSession
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from accounts import addresses
from accounts.forms import FORMER_PLAYER_PREFIX
from accounts.tasks import address_mail, password_reset_mail
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_delete
from characters.models import Character
from characters.services import character_retire
from core import housekeeping
from core.live import announce_seat_closed
from core.templatetags.text import display_name
from history.log import record
from history.models import Activity

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.db.models import QuerySet

FORMER_PLAYER_NAME = "Former player"
"""The display name of a deleted account: what the table reads beside its characters and
rolls from then on."""


class AccountError(ValueError):
    """An account change the rules do not allow; the message is fit to show the user."""


ACCOUNT_FIELDS = frozenset({"first_name"})
"""What :func:`account_update` may change: the account page's display name. (The address
changes only by its confirmation link: :func:`address_confirm`.)"""


@dataclass
class DeletionPlan:
    """What deleting a user's account would do, read before they confirm.

    Attributes:
        blocking: campaigns the user is GM of that have other members: while there is one,
            the account cannot be deleted (the seat is handed over or the campaign deleted
            first).
        deleted: campaigns where the user is the only member (their own, GM alone): deleted
            with everything in them.
        retired: the user's characters in play in other campaigns: they become retired
            characters of a former player and stay with their tables.
        archived: archived campaigns the user plays in: they stay as they were archived
            (the seat, the characters as they stood), the player shown as a former player.
    """

    blocking: list[Campaign] = field(default_factory=list)
    deleted: list[Campaign] = field(default_factory=list)
    retired: list[Character] = field(default_factory=list)
    archived: list[Campaign] = field(default_factory=list)


def account_deletion_plan(*, user: User) -> DeletionPlan:
    """What :func:`account_delete` would do to ``user``'s account now; writes nothing.

    Returns:
        A :class:`DeletionPlan`, each list ordered by name.
    """
    plan = DeletionPlan()
    campaigns = list(_gm_campaigns(user).order_by("name", "pk"))
    counts = _member_counts(campaigns)
    for campaign in campaigns:
        (plan.blocking if counts[campaign.pk] > 1 else plan.deleted).append(campaign)
    gone = {c.pk for c in plan.deleted}
    plan.retired = [c for c in Character.objects.filter(owner=user, status=Character.Status.ACTIVE)
                    .select_related("campaign").order_by("name", "pk")
                    if c.campaign_id not in gone and not c.campaign.is_archived]
    plan.archived = list(Campaign.objects.filter(memberships__user=user, archived_at__isnull=False)
                         .exclude(pk__in=gone).order_by("name", "pk"))
    return plan


def account_delete(*, user: User) -> None:
    """Delete ``user``'s account, keeping every table's history, all or nothing.

    In one transaction: the campaigns where the user is the only member are deleted with
    everything in them (``campaigns.services.campaign_delete``); their characters in play in
    every other campaign are retired (``characters.services.character_retire``), staying with
    their rolls and ledgers; their seats are taken away (each logged in its campaign's
    activity as a leaving); an archived campaign is read-only for
    everyone (campaigns/archive.py), so there the seat and the characters stay exactly as
    archived; and their row is anonymised rather
    than deleted: login name ``former-player-<id>``, display name "Former player", no email,
    an unusable password, inactive. Then every login session of theirs is deleted, so every
    device is logged out, and django-axes' records of their login name are cleared.

    Args:
        user: the signed-in user deleting their own account (the caller has checked their
            password).

    Raises:
        AccountError: before writing anything, while the user is GM of a campaign that has
            other members (its name, and what to do first).
    """
    old_username = user.get_username()
    with transaction.atomic():
        # Lock order, one for every path: campaigns, then seats, then characters, then user
        # rows. A handover, a leave, a removal and a campaign's deletion each lock the campaign
        # row first and its seats after; a roll, a purchase or any change of a character
        # locks the character, then writes rows whose foreign keys point at its user (the
        # check takes a share lock on the user's row). So the user's row is locked last
        # here: taken first, a roll holding its character would wait on it for its roll's
        # foreign key while this waited on the character, and PostgreSQL would end one of
        # the two as a deadlock. The campaigns go first so that the seats are read under
        # their locks: a GM seat just handed to this user is seen (and refuses the
        # deletion) rather than deleted, which would leave that campaign without a GM.
        seated_in = Membership.objects.filter(user=user).values("campaign")
        # FOR NO KEY UPDATE, as campaigns.services._lock_campaign: a roll (which holds its
        # character's lock) may still insert rows pointing at the campaign.
        list(Campaign.objects.select_for_update(no_key=True).filter(pk__in=seated_in)
             .order_by("pk"))
        seats = list(Membership.objects.select_for_update().filter(user=user).order_by("pk"))
        # The GM's own seats: a co-GM's goes like a player's (docs/decisions.md, "The co-GM").
        gm_of = [seat.campaign_id for seat in seats if seat.is_lead_gm]
        # The GM's campaigns again, now FOR UPDATE: a join through an invite link (its
        # foreign-key check on the campaign) waits until the members are counted, so no
        # campaign is deleted under a player who just sat down.
        locked = list(Campaign.objects.select_for_update().filter(pk__in=gm_of).order_by("pk"))
        counts = _member_counts(locked)
        blocking = sorted((c for c in locked if counts[c.pk] > 1), key=lambda c: c.name)
        if blocking:
            names = ", ".join(c.name for c in blocking)
            raise AccountError(
                f"You are the GM of {names}, where others play. Hand the GM seat to another "
                "member or delete the campaign first; then delete your account.")
        # Locked in id order (as a player leaving locks them), so a roll or a spend of one
        # finishes first, or queues behind the retirement and then finds it out of play.
        characters = list(Character.objects.select_for_update(no_key=True).filter(
            owner=user).order_by("pk"))
        # Last, the user's row: from here no new seat or character can point at it (their
        # foreign-key checks wait for FOR UPDATE), and a second submit of this form queues.
        locked_user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not locked_user.is_active:
            return  # a second submit, behind the first: the account is deleted already
        if (Membership.objects.filter(user=user).exclude(pk__in=[s.pk for s in seats]).exists()
                or Character.objects.filter(owner=user)
                .exclude(pk__in=[c.pk for c in characters]).exists()):
            # A join or a new character committed between the reads above and this lock:
            # nothing is written, and the user tries again with the table as it now is.
            raise AccountError("You joined a campaign or made a character while deleting "
                               "your account, so nothing was deleted. Try again.")
        for campaign in locked:
            campaign_delete(campaign=campaign, by=user)
        gone = {campaign.pk for campaign in locked}  # their seats and characters went with them
        # Those already out of the party (retired, or dead by the GM's word) keep their
        # status. An archived campaign keeps the seat and the characters as archived (read-only for
        # everyone, as leaving it is refused); the anonymised row shows as a former player.
        archived = set(Campaign.objects.filter(pk__in=seated_in, archived_at__isnull=False)
                       .values_list("pk", flat=True))
        for character in characters:
            if (character.status == Character.Status.ACTIVE
                    and character.campaign_id not in gone | archived):
                character_retire(character=character, status=Character.Status.RETIRED, by=user)
        taken = [seat for seat in seats if seat.campaign_id not in gone | archived]
        for seat in taken:
            # A leaving like any other (campaigns.services.membership_leave), under the name
            # the table knew, before the row is anonymised.
            record(campaign_id=seat.campaign_id, kind=Activity.Kind.MEMBER, action="leave",
                   text=f"{display_name(locked_user)} left the table: their account was "
                        "deleted.", by=locked_user)
            announce_seat_closed(seat.campaign_id, user.pk)  # their open pages
        Membership.objects.filter(pk__in=[seat.pk for seat in taken]).delete()
        _anonymise(locked_user)
        _forget_logins(old_username)
    _end_login_sessions(user.pk)


def account_update(*, user: User, **fields: str) -> User:
    """Change the signed-in user's own display name (``first_name``), writing that column and
    nothing else.

    The row is read again under its lock and must still be an active account: a form sent
    from a page opened before :func:`account_delete` anonymised the account carries a stale
    ``request.user`` (old login name, email and password hash, active), and saving that
    whole object would bring the deleted account back over the former player's row.

    Args:
        user: the signed-in user (``request.user``, possibly read before a deletion).
        **fields: new values of :data:`ACCOUNT_FIELDS`, checked by the caller's form, e.g.
            ``first_name="Robert the Bold"``.

    Returns:
        The user's row as stored now.

    Raises:
        ValueError: a field that is not in :data:`ACCOUNT_FIELDS`.
        AccountError: the account was deleted meanwhile; nothing is written.
    """
    unknown = set(fields) - ACCOUNT_FIELDS
    if unknown:
        raise ValueError(f"account_update cannot change {', '.join(sorted(unknown))}")
    with transaction.atomic():
        # Conflicts with the FOR UPDATE account_delete takes on the row, so the two queue: an
        # update either lands before the anonymising (which then overwrites it) or finds the
        # row inactive. NO KEY: rows pointing at the user (a roll) may be written meanwhile.
        locked = (get_user_model().objects.select_for_update(no_key=True)
                  .filter(pk=user.pk, is_active=True).first())
        if locked is None:
            raise AccountError("This account was deleted, so nothing was saved.")
        for name, value in fields.items():
            setattr(locked, name, value)
        locked.save(update_fields=list(fields))
    return locked


def password_reset_request(*, email: str, domain: str, use_https: bool) -> None:
    """Queue the password-reset mail for ``email`` (:func:`accounts.tasks.password_reset_mail`,
    which finds the accounts and writes the links), whether or not an account has it.

    The request does the same work for every address, one row added to the task queue, and
    never looks the address up, so its answer takes the same time for a known address as
    for an unknown one: nothing in it tells whether an account exists (the worker sends the
    mail; docs/performance.md, "The password-reset request's time").

    Args:
        email: the address typed on the reset page, a valid address (Django's
            ``PasswordResetForm`` checked it).
        domain: the host the request came to, ``request.get_host()`` (one of
            ``ALLOWED_HOSTS``, with its port if it had one): the link points there.
        use_https: ``request.is_secure()``: the link's scheme.
    """
    password_reset_mail.enqueue(email=email, domain=domain, use_https=use_https)
    # The queue gains a row per request: its finished rows are pruned, off this path.
    housekeeping.prune_when_due()


def _gm_campaigns(user: User) -> QuerySet[Campaign]:
    """The campaigns ``user`` is GM of."""
    seats = Membership.objects.filter(user=user, role=Membership.Role.GM).values("campaign")
    return Campaign.objects.filter(pk__in=seats)


def _member_counts(campaigns: list[Campaign]) -> dict[int, int]:
    """How many members (the GM included) each campaign has, by id; a former player's seat
    (an account deleted while the campaign was archived) is not a member who plays there."""
    rows = (Membership.objects.filter(campaign__in=campaigns, user__is_active=True)
            .values("campaign")
            .annotate(n=Count("pk")).values_list("campaign", "n"))
    return {campaign.pk: 0 for campaign in campaigns} | dict(rows)


def _anonymise(user: User) -> None:
    """Turn ``user``'s row into a former player's: nothing of the person is left on it."""
    username = f"{FORMER_PLAYER_PREFIX}{user.pk}"
    user_model = get_user_model()
    # Sign-up refuses the prefix, but an account made before it may hold the name.
    if user_model.objects.filter(username=username).exclude(pk=user.pk).exists():
        username = f"{username}-{timezone.now():%Y%m%d%H%M%S}"
    user.username = username
    user.first_name = FORMER_PLAYER_NAME
    user.last_name = ""
    user.email = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _forget_logins(username: str) -> None:
    """Delete django-axes' records (failed attempts, the login logs) of ``username``."""
    for name in ("AccessAttempt", "AccessFailureLog", "AccessLog"):
        apps.get_model("axes", name)._default_manager.filter(username=username).delete()


def _end_login_sessions(user_id: int) -> None:
    """Delete every stored login session of the user, so that every device is logged out.

    The sessions are signed blobs with no user column, so each live one is decoded; an
    unusable password and an inactive account would refuse them anyway (the session's
    password hash no longer matches, and ``ModelBackend`` loads no inactive user), so this is
    the belt to those braces, and runs after the commit, outside the transaction.
    """
    doomed = [s.pk for s in LoginSession.objects.filter(expire_date__gt=timezone.now())
              if s.get_decoded().get("_auth_user_id") == str(user_id)]
    LoginSession.objects.filter(pk__in=doomed).delete()


def address_change_request(*, user: User, email: str, domain: str, use_https: bool) -> None:
    """Queue the mail that lets ``email`` become ``user``'s address
    (:func:`accounts.tasks.address_mail`: a confirming link, or a note to the address's
    owner that it is in use), without looking the address up, so that the answer is the
    same, in the same time, whether or not another account has it. Nothing is stored.

    Args:
        user: the account (just signed up, or signed in on its account page).
        email: the address typed, a valid address (the form checked it).
        domain: ``request.get_host()``, where the link points; use_https:
            ``request.is_secure()``, the link's scheme.
    """
    address_mail.enqueue(user_id=user.pk, email=email, domain=domain, use_https=use_https)


def address_confirm(*, token: str) -> User:
    """Set the address a confirmation link carries on its account (accounts.addresses).

    Args:
        token: the link's token, as the mail gave it.

    Returns:
        The account, its address now the link's.

    Raises:
        addresses.LinkError: a link this site did not sign or that expired; an account
            deleted since; a link made before the account's address changed; or an address
            another account took meanwhile. Nothing is written.
    """
    confirmation = addresses.read_token(token)
    with transaction.atomic():
        locked = (get_user_model().objects.select_for_update(no_key=True)
                  .filter(pk=confirmation.user_id, is_active=True).first())
        if locked is None:
            raise addresses.LinkError("The account this link was for has been deleted.")
        if locked.email.lower() == confirmation.email.lower():
            return locked  # the link followed twice: done already
        if locked.email != confirmation.was:
            raise addresses.LinkError("This link is from before the account's address last "
                                      "changed, so it no longer works. Add the address again "
                                      "on your account page for a new one.")
        try:
            with transaction.atomic():
                locked.email = confirmation.email
                locked.save(update_fields=["email"])
        except IntegrityError:  # the unique index on the lower-cased address
            raise addresses.LinkError("Another account has this address now, so it cannot "
                                      "be this account's as well.") from None
    return locked
