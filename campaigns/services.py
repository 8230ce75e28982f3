"""State changes of campaigns and their memberships (DESIGN.md: one named function per change)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

import systems
from campaigns.models import Campaign, Membership, new_invite_token
from core.live import announce_seat_closed

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
    return campaign


def membership_join(*, campaign: Campaign, user: User) -> tuple[Membership, bool]:
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
