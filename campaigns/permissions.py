"""Who may see and change what. Views load every object through these helpers.

The rule (docs/decisions.md, "Who sees what"): the GM sees and edits every character of the
campaign; a player sees and edits only their own characters; anyone who is not a member gets
404 for everything in the campaign, so its existence does not leak.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Campaign, Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from characters.models import Character

    AnyUser = AbstractBaseUser | AnonymousUser


def get_membership(user: AnyUser, campaign_id: int) -> Membership:
    """The user's membership of the campaign, with the campaign loaded.

    Raises Http404 when the campaign does not exist or the user is not a member.
    """
    if not user.is_authenticated:
        raise Http404("No such campaign.")
    return get_object_or_404(
        Membership.objects.select_related("campaign"), campaign_id=campaign_id, user=user
    )


def get_campaign_as_gm(user: AnyUser, campaign_id: int) -> Campaign:
    """The campaign if the user is its GM; Http404 for everyone else (players included)."""
    membership = get_membership(user, campaign_id)
    if not membership.is_gm:
        raise Http404("No such campaign.")
    return membership.campaign


def get_character(user: AnyUser, character_id: int) -> Character:
    """A character the user may see and edit: their own, or any in a campaign they GM.

    One query: the character with its campaign and owner, and the viewer's role in the
    campaign as ``character.viewer_role`` ("gm", "player", or None for a non-member; read it
    with :func:`viewer_is_gm`). Raises Http404 for anyone else, and for a former player whose
    membership was removed.
    """
    from characters.models import Character

    if not user.is_authenticated:
        raise Http404("No such character.")
    role = Membership.objects.filter(campaign=OuterRef("campaign_id"), user=user)
    character = get_object_or_404(
        Character.objects.select_related("campaign", "owner")
        .annotate(viewer_role=Subquery(role.values("role")[:1])),
        pk=character_id,
    )
    if character.viewer_role == Membership.Role.GM:
        return character
    if character.viewer_role is not None and character.owner_id == user.pk:
        return character
    raise Http404("No such character.")


def viewer_is_gm(character: Character) -> bool:
    """True when the character was loaded by :func:`get_character` for its campaign's GM."""
    return getattr(character, "viewer_role", None) == Membership.Role.GM


def is_gm(user: AnyUser, campaign_id: int) -> bool:
    """True when the user is the GM of the campaign."""
    return (
        user.is_authenticated
        and Membership.objects.filter(
            campaign_id=campaign_id, user=user, role=Membership.Role.GM
        ).exists()
    )
