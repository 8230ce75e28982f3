"""An archived campaign is read-only for everyone: one middleware refuses every write to it.

A campaign's pages and rows are reached by a small set of URL parameters (the URL design of
docs/architecture.md, "URLs"): ``campaign_id``, ``character_id``, ``roll_id`` or
``roll_code``, or a bare ``pk`` after ``campaigns/``, ``characters/`` or ``rolls/``. Rather
than asking every view to remember the archive, the middleware finds the campaign of any
unsafe request (POST, PUT, PATCH, DELETE) from those parameters, before the view runs, and
refuses it when the campaign is archived: nothing is written, and the member is told why.
Only views marked with ``core.http.allowed_when_archived`` (the GM's restore and delete)
pass.

A request from someone who is not a member of the campaign is left to the view, whose
permission helper answers 404 as for any campaign: telling an outsider that a campaign is
archived would tell them it exists. Invite links stop working when a campaign is archived
(the archive revokes them), so nobody joins one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaigns.models import Membership

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

# How a URL's parameter reaches the campaign from a membership: a bare ``pk`` by the first
# segment of the route, the others by their name.
_PK_OWNERS = {"campaigns": "campaign_id", "characters": "campaign__characters__pk",
              "rolls": "campaign__rolls__pk"}
_NAMED = {"campaign_id": "campaign_id", "character_id": "campaign__characters__pk",
          "roll_id": "campaign__rolls__pk", "roll_code": "campaign__rolls__code"}


def archived_membership(user: Any, route: str, kwargs: dict[str, Any]) -> Membership | None:
    """The user's membership (its campaign loaded) of the archived campaign a URL is inside;
    None for a URL outside any campaign, a campaign that is not archived, a row that does not
    exist or a user who is not a member (the view answers 404 for those). One query, an
    ``EXISTS`` (every write pays it, and a campaign is almost never archived), two when the
    campaign is archived.

    Args:
        user: the signed-in user.
        route: the matched route (``ResolverMatch.route``), e.g.
            ``"characters/<int:pk>/xp/spend/"``.
        kwargs: the URL's parameters, e.g. ``{"pk": 7}``.
    """
    lookup = None
    for name, path in _NAMED.items():
        if name in kwargs:
            lookup = {path: kwargs[name]}
            break
    else:
        owner = _PK_OWNERS.get(route.split("/", 1)[0])
        if owner is not None and "pk" in kwargs:
            lookup = {owner: kwargs["pk"]}
    if lookup is None:
        return None
    archived = Membership.objects.filter(user=user, campaign__archived_at__isnull=False,
                                         **lookup)
    if not archived.exists():
        return None
    return archived.select_related("campaign").first()


class ArchivedCampaignMiddleware:
    """Refuse a member's write inside an archived campaign (403, nothing written), unless the
    view is marked ``allowed_when_archived``. An htmx request is sent to the campaign's page
    (``HX-Redirect``), where the message says why."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view: Any, args: Any,
                     kwargs: dict[str, Any]) -> HttpResponse | None:
        """None to let the view run; the refusal (403, or for htmx an ``HX-Redirect`` to the
        campaign's page) for a member's unsafe request inside an archived campaign."""
        if request.method in SAFE_METHODS or getattr(view, "allowed_when_archived", False):
            return None
        if not request.user.is_authenticated or request.resolver_match is None:
            return None
        membership = archived_membership(request.user, request.resolver_match.route, kwargs)
        if membership is None:
            return None
        campaign = membership.campaign
        text = (f"{campaign.name} is archived: it is read-only, and nothing was changed. "
                + ("You can restore it from its settings page." if membership.is_gm
                   else "Its GM can restore it."))
        messages.error(request, text)
        if getattr(request, "htmx", False):
            # htmx swaps no 4xx answer: it follows HX-Redirect to the campaign's page, which
            # shows the message. Nothing is rendered here, so the message is not used up.
            return HttpResponse(text, status=403, content_type="text/plain; charset=utf-8",
                                headers={"HX-Redirect": campaign.get_absolute_url()})
        return render(request, "campaigns/archived.html",
                      {"campaign": campaign, "membership": membership}, status=403)
