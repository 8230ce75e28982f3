"""Who may see and change a campaign. Views load every object through these helpers (a
character's own are in ``characters.permissions``).

The rule (docs/decisions.md, "Who sees what"): the GM and any co-GM see and edit every
character of the campaign; a player sees and edits only their own characters; anyone who is
not a member gets 404 for everything in the campaign, so its existence does not leak.

Two GM seats, two names (docs/decisions.md, "The co-GM"): ``get_campaign_as_gm`` and
``is_gm`` let in whoever runs the table (the GM or a co-GM); ``get_campaign_as_lead_gm`` the
GM alone, for the lead GM's own powers (deleting the campaign, handing the seat over,
seating or unseating a co-GM).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Campaign, Membership
from rulesets.registry import RULESETS

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    AnyUser = User | AnonymousUser


def get_membership(user: AnyUser, campaign_id: int) -> Membership:
    """The user's membership of the campaign, with the campaign loaded.

    Raises Http404 when the campaign does not exist, the user is not a member, or the
    campaign's rule system is not one this server plays (a row from elsewhere: its pages
    could not be drawn, so it is as good as absent).
    """
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    return get_object_or_404(
        Membership.objects.select_related("campaign"), campaign_id=campaign_id, user=user,
        campaign__ruleset__in=list(RULESETS),
    )


def get_campaign_as_gm(user: AnyUser, campaign_id: int) -> Campaign:
    """The campaign if the user runs its table (its GM or a co-GM: ``Membership.is_gm``);
    Http404 for everyone else (players included)."""
    membership = get_membership(user, campaign_id)
    if not membership.is_gm:
        raise Http404("No such campaign.")
    return membership.campaign


def get_campaign_as_lead_gm(user: AnyUser, campaign_id: int) -> Campaign:
    """The campaign if the user holds its GM seat itself (``Membership.is_lead_gm``); Http404
    for everyone else, a co-GM included: the lead GM's own pages (deleting the campaign,
    handing the seat over) do not exist for them."""
    membership = get_membership(user, campaign_id)
    if not membership.is_lead_gm:
        raise Http404("No such campaign.")
    return membership.campaign


def is_gm(user: AnyUser, campaign_id: int) -> bool:
    """True when the user runs the campaign's table: its GM or a co-GM."""
    return (
        user.is_authenticated
        and Membership.objects.filter(
            campaign_id=campaign_id, user=user, role__in=Membership.GM_SEATS
        ).exists()
    )
