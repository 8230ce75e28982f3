"""The activity log's pages: the table's history (``history:campaign-history``) and a
character's (``history:character-history``), newest first, 50 entries a page.

Pages follow each other by keyset, not by number: "Older" asks for the entries before the last
one shown (``?before=<code>``), "Newer" for those after the first (``?after=<code>``), so the
thousandth page is read from the index as the first is, and an entry written while someone
reads does not shift the next page. The cursor is an entry's random ``code``, never its id
(docs/security.md, "Hidden activity"); an unknown or unreadable code starts from the newest.

Who sees what (``Activity.objects.visible_to``): the GM and co-GMs everything; a player
nothing GM-only, and of the entries about a character only those about one whose sheet they
may read, and rolls. A character's history is open to whoever may open its sheet
(``characters.permissions.get_character`` with ``party``). A non-member gets 404.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.models import Campaign, Session
from campaigns.permissions import get_membership
from characters.models import Character
from characters.permissions import get_character, party_may_read, viewer_is_gm
from history.between import day_start, session_end
from history.models import Activity, ActivityQuerySet

if TYPE_CHECKING:
    from django.http import HttpResponse

    from core.http import AuthenticatedHttpRequest

PAGE = 50
"""Entries a page."""


def session_span(session: Session) -> tuple[datetime.datetime, datetime.datetime]:
    """A session's span: its date, from midnight to midnight in the site's time zone
    (``TIME_ZONE``), as aware datetimes ``(start, end)``, end excluded (a date at either end
    of the calendar held within it: ``history.between.day_start``)."""
    return day_start(session.date), session_end(session.date)


def _code(raw: str) -> UUID | None:
    try:
        return UUID(hex=raw)
    except ValueError:
        return None


def _page(entries: ActivityQuerySet, query: Any) -> dict[str, Any]:
    """One page of ``entries`` (already filtered for the viewer) from the cursor in
    ``query`` (``before`` or ``after``, an entry's code): its entries newest first, and the
    cursors of the pages around it (``older``, ``newer``: ``""`` when there is none)."""
    before, after = _code(query.get("before", "")), _code(query.get("after", ""))
    cursor = before or after
    anchor = (entries.filter(code=cursor).values("created_at", "pk").first()
              if cursor is not None else None)
    if anchor is not None and after:
        newer_than = (Q(created_at__gt=anchor["created_at"])
                      | Q(created_at=anchor["created_at"], pk__gt=anchor["pk"]))
        rows = list(entries.filter(newer_than).order_by("created_at", "id")[:PAGE + 1])
        more_newer = len(rows) > PAGE
        rows = rows[:PAGE][::-1]
        has_older = True
    else:
        if anchor is not None:
            entries = entries.filter(Q(created_at__lt=anchor["created_at"])
                                     | Q(created_at=anchor["created_at"], pk__lt=anchor["pk"]))
        rows = list(entries.order_by("-created_at", "-id")[:PAGE + 1])
        has_older = len(rows) > PAGE
        rows = rows[:PAGE]
        more_newer = anchor is not None
    return {
        "entries": rows,
        "older": rows[-1].code.hex if rows and has_older else "",
        "newer": rows[0].code.hex if rows and more_newer else "",
    }


def _filters(request: AuthenticatedHttpRequest, campaign: Campaign, entries: ActivityQuerySet,
             characters: list[Character] | None) -> tuple[ActivityQuerySet, dict[str, Any]]:
    """The page's filters, read from the query string (an unknown value is no filter):
    ``character`` (one of ``characters``, on the table's history), ``kind``
    (``Activity.Kind``) and ``session`` (a session of the campaign: the entries of its
    date). Returns the filtered entries and the filters' context."""
    query = request.GET
    sessions = list(Session.objects.filter(campaign=campaign))
    chosen: dict[str, str] = {}
    if characters is not None:
        by_pk = {str(c.pk): c for c in characters}
        if query.get("character", "") in by_pk:
            chosen["character"] = query["character"]
            entries = entries.filter(character_id=int(query["character"]))
    if query.get("kind", "") in Activity.Kind.values:
        chosen["kind"] = query["kind"]
        entries = entries.filter(kind=query["kind"])
    by_session = {str(s.pk): s for s in sessions}
    if query.get("session", "") in by_session:
        chosen["session"] = query["session"]
        start, end = session_span(by_session[query["session"]])
        entries = entries.filter(created_at__gte=start, created_at__lt=end)
    context = {"characters": characters or [], "kinds": Activity.Kind.choices,
               "sessions": sessions, "chosen": chosen,
               "filter_query": "&".join(f"{key}={value}" for key, value in chosen.items())}
    return entries, context


def _readable(campaign: Campaign, user_id: int, is_gm: bool) -> list[Character]:
    """The characters whose history the viewer may filter by: every one for the GM; a
    player's own and, where the party's sheets are shown, the party's."""
    characters = list(Character.all_objects.filter(campaign=campaign).order_by("name", "id"))
    for character in characters:
        character.campaign = campaign  # party_may_read asks it: no query per character
    if is_gm:
        return characters
    return [c for c in characters
            if (c.owner_id == user_id and not c.is_npc) or party_may_read(c)]


@require_GET
@login_required
def campaign_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table's history: every change at the table the viewer may see, newest first,
    filterable by character, kind and session."""
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    entries = Activity.objects.filter(campaign=campaign).visible_to(
        user_id=request.user.pk, is_gm=membership.is_gm, party_sheets=campaign.party_sheets)
    characters = _readable(campaign, request.user.pk, membership.is_gm)
    entries, filters = _filters(request, campaign, entries, characters)
    entries = entries.select_related("character", "actor", "roll")
    # A roll names its character to every member; its history is linked only where the
    # viewer may open it (a party-mate's behind closed sheets, an NPC's, would be a 404).
    context = {"campaign": campaign, "character": None, "is_gm": membership.is_gm,
               "linked": {c.pk for c in characters}, **filters, **_page(entries, request.GET)}
    return render(request, "history/history.html", context)


@require_GET
@login_required
def character_history(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A character's history: every change of it the viewer may see, newest first,
    filterable by kind and session. Open to whoever may open its sheet."""
    character = get_character(request.user, pk, party=True)
    campaign = character.campaign
    is_gm = viewer_is_gm(character)
    entries = Activity.objects.filter(character=character)
    if not is_gm:
        entries = entries.filter(gm_only=False)
    entries, filters = _filters(request, campaign, entries, None)
    entries = entries.select_related("character", "actor", "roll")
    context = {"campaign": campaign, "character": character, "is_gm": is_gm,
               **filters, **_page(entries, request.GET)}
    return render(request, "history/history.html", context)
