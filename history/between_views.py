"""The between-sessions page: a character as it stood at the end of one session, and what
changed from there to another session or to now (docs/history.md, "Between sessions")."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, QueryDict
from django.views.decorators.http import require_safe

from campaigns.models import Session
from characters.permissions import get_character, viewer_is_gm
from core.http import AuthenticatedHttpRequest, render_page
from history.between import between, last_session, session_end

PAGE = "history/between.html"
NOW = "now"
"""The ``to`` of the page's query that means the sheet as it stands."""


def _chosen(query: QueryDict, sessions: Sequence[Session], default: Session | None
            ) -> tuple[Session | None, Session | None]:
    """The sessions the query names (``from``: a session's id; ``to``: a session's id, or
    ``now`` for ``None``), earliest first; an unknown or malformed value is the default
    (``from``: ``default``, else the latest session; ``to``: now), as the roll log's filter
    is."""
    by_id = {str(session.pk): session for session in sessions}
    start = by_id.get(query.get("from", "")) or default or (sessions[0] if sessions else None)
    end = by_id.get(query.get("to", NOW))
    if start is not None and end is not None and end.date < start.date:
        start, end = end, start
    return start, end


@require_safe
@login_required
def character_between(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A character at the end of one session of its campaign, and what changed from there to
    the end of another or to now (``?from=<session id>&to=<session id or "now">``; by
    default the latest session before today, and now). Whoever may read the sheet
    (``get_character(..., party=True)``); everyone else gets 404. A GM-only change reaches
    the GM's copy alone (:mod:`history.between`). HTMX gets the ``between`` partial."""
    character = get_character(request.user, pk, party=True)
    is_gm = viewer_is_gm(character)
    sessions = list(Session.objects.filter(campaign_id=character.campaign_id)
                    .order_by("-date", "-created_at", "-id"))
    default = last_session(character.campaign_id) if sessions else None
    start, end = _chosen(request.GET, sessions, default)
    diff = (between(character, session_end(start.date),
                    session_end(end.date) if end is not None else None, gm=is_gm)
            if start is not None else None)
    context = {"character": character, "sessions": sessions, "start": start, "end": end,
               "between": diff, "is_gm": is_gm, "now": NOW}
    return render_page(request, PAGE, "between", context)
