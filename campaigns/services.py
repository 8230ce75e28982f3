"""State changes of campaigns and their memberships (DESIGN.md: one named function per change)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction

from campaigns.live import announce, announce_seat_closed
from campaigns.models import Campaign, Membership, new_invite_token
from characters import systems

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

    from characters.systems import CampaignAction
    from rolls.models import Roll
    from rulesets.dice import Rng


class MembershipError(ValueError):
    """A membership change the rules do not allow; the message is fit to show the user."""


def campaign_create(*, name: str, ruleset: str, starting_xp: int, gm: AbstractBaseUser) -> Campaign:
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
            system_data=system.default_system_data() if system else {},
            created_by=gm,
            invite_token=new_invite_token(),
        )
        Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    return campaign


def membership_join(*, campaign: Campaign, user: AbstractBaseUser) -> tuple[Membership, bool]:
    """Seat ``user`` at the campaign as a player; returns ``(membership, created)``.

    Idempotent: a user who already has a seat (as player or GM) keeps it unchanged and
    ``created`` is False. The unique constraint on (campaign, user) settles a double submit.
    The caller checks the invite token; this function does not.
    """
    return Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER}
    )


def membership_remove(*, membership: Membership) -> None:
    """Take a player's seat away. Their characters stay in the campaign (the GM still sees
    them); only the player loses access.

    The campaign's invite link is renewed in the same transaction (when invites are on), so
    the link the removed player holds no longer seats them, nor anyone they pass it to; the
    GM's page shows the new one (docs/security.md, "A removed player").

    Raises MembershipError for the GM's own seat: a campaign always keeps its GM.
    """
    if membership.is_gm:
        raise MembershipError("The GM's seat cannot be removed; a campaign always keeps its GM.")
    with transaction.atomic():
        membership.delete()
        announce_seat_closed(membership.campaign_id, membership.user_id)  # their open pages
        # One UPDATE that reads the token where it is: revoked invites stay revoked.
        Campaign.objects.filter(pk=membership.campaign_id, invite_token__isnull=False).update(
            invite_token=new_invite_token())


def campaign_system_change(
    *, campaign: Campaign, action: CampaignAction, data: dict[str, Any], by: AbstractBaseUser,
    rng: Rng,
) -> tuple[Campaign, str, Roll | None]:
    """A GM change of the campaign's system data (grow or roll the tension pool, edit the
    skill list), all or nothing: lock the campaign row, let the system's action change
    ``system_data`` (RuleError refuses it and nothing is written), save, and announce
    ``campaignChanged`` after commit. Returns the campaign, the message and any roll made."""
    with transaction.atomic():
        # FOR NO KEY UPDATE, not FOR UPDATE: two changes of system_data still queue, but a
        # row that merely points at the campaign (a player's Roll, stored while that player's
        # character is locked) may be written meanwhile. With FOR UPDATE, an opportunity
        # (campaign, then the character for its plot point) and a roll (the character, then
        # the Roll's foreign-key check on the campaign) deadlocked on PostgreSQL
        # (tests/concurrency/test_shahquest.py). Ignored where the database has no row locks.
        locked = Campaign.objects.select_for_update(no_key=True).get(pk=campaign.pk)
        message, roll = action.apply(locked, data, by, rng)
        locked.save(update_fields=["system_data"])
        announce(locked.pk, "campaignChanged")
    return locked, message, roll
