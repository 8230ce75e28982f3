"""What every view shares: the request type of a signed-in person, and the one choice between
a fragment and the whole page.

docs/architecture.md, "Pages and partials": a plain request gets the whole page, an htmx
request the partial of the box that changed (``"<page>#<partial>"``,
django-template-partials).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_htmx.middleware import HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """The request a ``@login_required`` view receives: ``user`` is a real ``User``, and
    ``htmx`` is django-htmx's details (the middleware sets it on every request).

    Used as an annotation only (``request: AuthenticatedHttpRequest``); Django never builds
    one, it narrows ``HttpRequest`` for mypy."""

    user: User
    htmx: HtmxDetails


def render_page(request: HttpRequest, page: str, partial: str, context: Mapping[str, Any],
                *, status: int = 200) -> HttpResponse:
    """The partial ``partial`` of template ``page`` for an htmx request, the whole ``page``
    for any other.

    Args:
        request: the request; its ``htmx`` attribute decides.
        page: a template name, e.g. ``"characters/xp.html"``.
        partial: a ``{% partialdef %}`` of that page, named after the DOM id it replaces,
            e.g. ``"xp-panel"``.
        context: the template context (both renderings get the same).
        status: the HTTP status of either answer.

    Returns:
        The rendered response.
    """
    htmx = getattr(request, "htmx", False)
    name = f"{page}#{partial}" if htmx else page
    return render(request, name, dict(context), status=status)


def allowed_when_archived(view: Any) -> Any:
    """Mark a view whose writes an archived campaign still takes (its restore and its
    deletion, the GM's): ``campaigns.archive.ArchivedCampaignMiddleware`` lets it through.

    Returns the view itself, marked (as ``csrf_exempt`` marks one)."""
    view.allowed_when_archived = True
    return view


def safe_next_page(request: HttpRequest) -> str | None:
    """The page a plain POST asks to come back to (its ``next`` field, a path of this
    site), or None when it names none or one elsewhere: the field is the client's, so an
    address off the site (``//evil.example/``, ``https://evil.example/``) is not followed."""
    url = request.POST.get("next", "")
    if url.startswith("/") and url_has_allowed_host_and_scheme(
            url, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return url
    return None
