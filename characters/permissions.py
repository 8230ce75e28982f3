"""Who may see and change a character. Views load every character through these helpers.

The rule (docs/decisions.md, "Who sees what"): the GM sees and edits every character of the
campaign; a player sees and edits only their own characters; anyone who is not a member gets
404, so the character's existence does not leak. Campaign-wide helpers are in
``campaigns.permissions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import OuterRef, Subquery
from django.http import Http404
from django.shortcuts import get_object_or_404

from campaigns.models import Membership
from characters.models import Character
from rulesets.registry import RULESETS

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    AnyUser = User | AnonymousUser


def get_character(user: AnyUser, character_id: int) -> Character:
    """A character the user may see and edit: their own, or any in a campaign they GM.

    One query: the character with its campaign and owner, and the viewer's role in the
    campaign as ``character.viewer_role`` ("gm", "player", or None for a non-member; read it
    with :func:`viewer_is_gm`). Raises Http404 for anyone else, and for a former player whose
    membership was removed, and for a character of a rule system this server does not play
    (as :func:`campaigns.permissions.get_membership`).

    For anyone but the GM, ``character.gm_notes`` is blanked on the returned instance (the
    row keeps them): the GM's private notes never enter a player's context. Every service
    re-reads the row under its lock and saves named columns only, so the blank is never
    written back.
    """
    if not user.is_authenticated:
        raise Http404("No such character.")
    role = Membership.objects.filter(campaign=OuterRef("campaign_id"), user=user)
    character = get_object_or_404(
        Character.objects.select_related("campaign", "owner")
        .annotate(viewer_role=Subquery(role.values("role")[:1])),
        pk=character_id, campaign__ruleset__in=list(RULESETS),
    )
    viewer_role = character.viewer_role  # type: ignore[attr-defined]  # django-stubs: get_object_or_404 drops the annotate() attribute
    if viewer_role == Membership.Role.GM:
        return character
    if viewer_role is not None and character.owner_id == user.pk:
        # Forbidden data never enters the context (docs/character-life.md, "The GM's notes
        # never reach a player"), so no template slip or new partial can show the GM's notes
        # to the owner. Blanked rather than deferred: a deferred field is loaded from the
        # database as soon as something reads it.
        character.gm_notes = ""
        return character
    raise Http404("No such character.")


def get_character_as_gm(user: AnyUser, character_id: int) -> Character:
    """A character of a campaign the user GMs (:func:`get_character`, so its GM's notes
    kept); Http404 for everyone else, its owner included, so a player never learns that a
    GM-only page exists."""
    character = get_character(user, character_id)
    if not viewer_is_gm(character):
        raise Http404("No such page.")
    return character


def viewer_is_gm(character: Character) -> bool:
    """True when the character was loaded by :func:`get_character` for its campaign's GM."""
    return getattr(character, "viewer_role", None) == Membership.Role.GM
