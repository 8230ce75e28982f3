"""Who may see and change a character. Views load every character through these helpers.

The rule (docs/decisions.md, "Who sees what"): the GM and the co-GMs see and edit every
character of the campaign; a player sees and edits only their own characters, and reads their
party-mates' sheets where the campaign allows it; anyone who is not a member gets 404, so
the character's existence does not leak. Campaign-wide helpers are in
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


def get_character(user: AnyUser, character_id: int, *, party: bool = False) -> Character:
    """A character the user may see and edit: their own, or any in a campaign they GM (as
    its GM or a co-GM); with ``party``, also a party-mate's to read (:func:`party_may_read`,
    marked :func:`viewer_reads_only`: the sheet page alone asks for it).

    One query: the character with its campaign and owner, and the viewer's role in the
    campaign as ``character.viewer_role`` ("gm", "co_gm", "player", or None for a
    non-member; read it with :func:`viewer_is_gm`). Raises Http404 for anyone else, and for
    a former player whose membership was removed, and for a character of a rule system this
    server does not play (as :func:`campaigns.permissions.get_membership`).

    For anyone but the GM and the co-GMs, ``character.gm_notes`` is blanked on the returned
    instance (the row keeps them): the GM's private notes never enter a player's context.
    Every service re-reads the row under its lock and saves named columns only, so the blank
    is never written back.

    An NPC (``is_npc``) is the table's, not its owner's: only whoever runs the table opens
    it; a player gets 404 for it whatever the GM has revealed (docs/npcs.md: the players
    see a revealed NPC's name and tracks on the campaign's page, never its sheet).
    """
    if not user.is_authenticated:
        raise Http404("No such character.")
    role = Membership.objects.filter(campaign=OuterRef("campaign_id"), user=user)
    character = get_object_or_404(
        Character.all_objects.select_related("campaign", "owner")
        .annotate(viewer_role=Subquery(role.values("role")[:1])),
        pk=character_id, campaign__ruleset__in=list(RULESETS),
    )
    viewer_role = character.viewer_role  # type: ignore[attr-defined]  # django-stubs: get_object_or_404 drops the annotate() attribute
    if viewer_role in Membership.GM_SEATS:
        return character
    if viewer_role is not None and character.owner_id == user.pk and not character.is_npc:
        # Forbidden data never enters the context (docs/character-life.md, "The GM's notes
        # never reach a player"), so no template slip or new partial can show the GM's notes
        # to the owner. Blanked rather than deferred: a deferred field is loaded from the
        # database as soon as something reads it.
        character.gm_notes = ""
        return character
    if viewer_role is not None and party and party_may_read(character):
        # A party-mate reads the sheet, nothing the owner wrote for themselves nor the GM's
        # notes (docs/decisions.md, "The party's sheets"), blanked as above.
        character.gm_notes = character.notes = character.backstory = ""
        character.viewer_reads_only = True  # type: ignore[attr-defined]  # read by viewer_reads_only
        return character
    raise Http404("No such character.")


def party_may_read(character: Character) -> bool:
    """Whether a player of ``character``'s campaign may read its sheet although it is not
    theirs: the campaign shows the party's sheets (``Campaign.party_sheets``) and it is a
    player character that has joined the party (not an NPC, nor an import the GM has not
    accepted). Retired and dead characters stay readable, as their owner's do. No query."""
    return (character.campaign.party_sheets and not character.is_npc
            and character.review not in (Character.Review.PENDING, Character.Review.REFUSED))


def viewer_reads_only(character: Character) -> bool:
    """True when :func:`get_character` gave ``character`` to a party-mate, who may read its
    sheet and change nothing."""
    return getattr(character, "viewer_reads_only", False) is True


def get_character_as_gm(user: AnyUser, character_id: int) -> Character:
    """A character of a campaign the user GMs (:func:`get_character`, so its GM's notes
    kept); Http404 for everyone else, its owner included, so a player never learns that a
    GM-only page exists."""
    character = get_character(user, character_id)
    if not viewer_is_gm(character):
        raise Http404("No such page.")
    return character


def viewer_is_gm(character: Character) -> bool:
    """True when the character was loaded by :func:`get_character` for someone who runs its
    campaign's table: its GM or a co-GM."""
    return getattr(character, "viewer_role", None) in Membership.GM_SEATS
