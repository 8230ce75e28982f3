"""The invite box's context, shared by the GM's dashboard (``table.views``) and the invite
views (``campaigns.views``) that answer with it: only the GM's ever holds the link."""

from __future__ import annotations

from django.http import HttpRequest

from campaigns.models import Campaign


def invite_context(request: HttpRequest, campaign: Campaign, is_gm: bool) -> dict[str, object]:
    """What the invite box needs; only the GM's context ever holds the link."""
    if not is_gm:
        return {"show_invite": False, "invite_link": None}
    path = campaign.invite_url()
    return {
        "show_invite": True,
        "invite_link": request.build_absolute_uri(path) if path else None,
    }
