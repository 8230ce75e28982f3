"""A page's live regions, and the answer that redraws some of them alone.

A live page (a sheet, the campaign's page, the settings page) has regions that its event
stream says changed (``trackChanged-12``, ``rollMade``...; campaigns/live.py). Each region
asks its own page again with ``?live=<id>&live=<id>``: the page's view checks the viewer as
it does for the page, builds only what those regions show, and :func:`render_regions`
renders each region alone, from the ``{% partialdef %}`` named after its DOM id, never the
whole page. After a dropped stream reconnects, the page asks once for all its regions
(static/js/live.js, ``liveSync``).

What is live on a page is declared once, in Python (:class:`LivePage`): the view that builds
the page gives its template the hidden elements to draw (``templates/_live.html``) and
answers only the region ids the same declaration names, so a template and its view cannot
disagree on what may be asked. An archived campaign's pages declare no region: nothing on
them changes (its middleware refuses every write), and a region drawn alone would keep the
controls that the page's ``read_only`` filter drops.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import logging
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar
from urllib.parse import urlencode

from django.contrib.auth import SESSION_KEY
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.middleware.csrf import get_token
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import Resolver404, ResolverMatch, resolve
from django_htmx.middleware import HtmxDetails

logger = logging.getLogger(__name__)

View = TypeVar("View", bound=Callable[..., HttpResponse])

DRAWN_HEADER = "Live-Drawn"
"""The header of a change's answer that also redrew some of its page's live regions:
``Live-Drawn: 42 card-12``, the campaign's live version and the ids
(:func:`drawn`)."""

HEARS_HEADER = "Live-Hears"
"""The header of every region answer that says what each event the page hears redraws:
``Live-Hears: rollMade=campaign-rolls trackChanged-12=card-12,live-regions``
(:attr:`LivePage.hears`). A stream is told it by its page's URL (``&hears=``,
templates/base.html), reads it again from each drawing (:func:`draw_heard`: a page whose
regions changed) and asks the view nothing about a change none of them would draw for."""

LIVE_PARAMETER = "live"
"""The query parameter naming the regions asked for: ``?live=card-12&live=campaign-rolls``."""

HEARD_PARAMETER = "heard"
"""The query parameter naming events heard: ``?heard=rollMade&heard=rollMade-12`` asks for
every region of the page that hears one of them (:meth:`LivePage.hearing`), as the stream
draws them for its page (:func:`draw_heard`)."""

LINED_PARAMETER = "lined"
"""The query parameter naming regions left out of a ``?heard=`` answer: those whose change
came as a line with the event (``core.live.drawing``), which the page puts in place itself
when it is current, and otherwise asks for."""

CACHE = "regions"
"""The cache alias that keeps drawn regions (settings.CACHES: each server process its own, in
memory, bounded): :func:`recall` and :func:`render_regions` with a ``seat``."""

TOKEN_MARK = "csrf-token-of-the-asking-browser"
"""What a cached region holds where its forms' CSRF token goes: a token belongs to the
browser that asks (its cookie), not to the seat, so each answer puts the asker's in its place
(:func:`_answer`)."""


@dataclass(frozen=True)
class LiveRegion:
    """A part of a page that redraws itself when one of ``events`` arrives.

    Attributes:
        events: the stream's event names it listens for, e.g. ``("trackChanged-12",)``.
        ids: the DOM ids it redraws, each also the name of the ``{% partialdef %}`` that
            draws it, e.g. ``("health-track", "willpower-track")``.
    """

    events: tuple[str, ...]
    ids: tuple[str, ...]


@dataclass(frozen=True)
class LivePage:
    """What is live on one page, as one viewer sees it.

    Attributes:
        url: the page's own URL (its view answers the region requests).
        regions: each region with its events.
        sync: the ids asked for, in one request, after a reconnection; by default every
            region's ids. A page whose region holds others (the dashboard's party holds its
            cards) names only the outer one.
        version: the campaign's live version the page is drawn at, as its viewer counts it
            (``Campaign.page_version``: a player's never moves for a change hidden from
            players; campaigns.versions): each element carries it, and static/js/live.js
            sends the version it holds with each ask (:func:`unchanged`).
    """

    url: str
    regions: tuple[LiveRegion, ...]
    sync: tuple[str, ...] = field(default=())
    version: int = 0

    @property
    def ids(self) -> tuple[str, ...]:
        """Every region id of the page, in order, once each: what a request may ask for."""
        return tuple(dict.fromkeys(i for region in self.regions for i in region.ids))

    def hearing(self, names: Iterable[str]) -> list[str]:
        """The ids of every region that hears one of the event ``names``, in the page's
        order, once each (``[]`` when none does)."""
        heard = set(names)
        return list(dict.fromkeys(i for region in self.regions
                                  if heard.intersection(region.events) for i in region.ids))

    @cached_property
    def hears(self) -> str:
        """Each event the page's regions hear, with the ids it redraws, as
        :data:`HEARS_HEADER` carries it: ``"rollMade=campaign-rolls trackChanged-12=card-12"``
        (``""`` for a page without regions)."""
        return " ".join(f"{event}={','.join(self.hearing([event]))}"
                        for event in dict.fromkeys(e for r in self.regions for e in r.events))

    @property
    def sync_ids(self) -> tuple[str, ...]:
        """The ids the reconnection asks for."""
        return self.sync or self.ids

    def url_for(self, ids: Iterable[str]) -> str:
        """The page's URL asking for ``ids`` alone: ``/characters/12/?live=a&live=b``."""
        return f"{self.url}?{urlencode([(LIVE_PARAMETER, i) for i in ids])}"

    def elements(self) -> list[dict[str, str]]:
        """What ``templates/_live.html`` draws, one hidden element per region and one for
        the reconnection: ``{"url", "trigger", "select", "sync"}`` each (htmx's ``hx-get``,
        ``hx-trigger`` and ``hx-select-oob``; whether it is the reconnection's, which asks
        for every region); none for a page without regions."""
        if not self.regions:
            return []
        drawn = [{"url": self.url_for(region.ids),
                  "trigger": ", ".join(f"sse:{event}" for event in region.events),
                  "select": _selector(region.ids), "sync": ""}
                 for region in self.regions]
        drawn.append({"url": self.url_for(self.sync_ids), "trigger": "liveSync from:body",
                      "select": _selector(self.sync_ids), "sync": "sync"})
        return drawn


def by_event(hears: Iterable[tuple[str, Iterable[str]]]) -> tuple[LiveRegion, ...]:
    """Regions from ``(event, ids)`` pairs: one region per event, asking for every id that
    event redraws (each once, in order), so that one event makes one request.

    >>> by_event([("rollMade", ["rolls"]), ("partyChanged", ["party"]),
    ...           ("partyChanged", ["rolls"])])[1]
    LiveRegion(events=('partyChanged',), ids=('party', 'rolls'))
    """
    ids: dict[str, dict[str, None]] = {}
    for event, redrawn in hears:
        ids.setdefault(event, {}).update(dict.fromkeys(redrawn))
    return tuple(LiveRegion((event, ), tuple(found)) for event, found in ids.items())


def _selector(ids: Iterable[str]) -> str:
    return ",".join(f"#{i}" for i in ids)


def etag(version: int) -> str:
    """The ``ETag`` of regions drawn at a campaign's live ``version``: ``"v42"``."""
    return f'"v{version}"'


def unchanged(request: HttpRequest, version: int) -> HttpResponse | None:
    """304 Not Modified when the request's ``If-None-Match`` is the campaign's current live
    ``version`` for the viewer (``Campaign.page_version``; static/js/live.js sends the
    version its page holds for the regions asked): nothing the viewer's pages show has
    changed since (campaigns.versions), so nothing is built or rendered. None otherwise.
    Call it after the viewer's check, before anything the regions read is built; the version
    must have been read before their content (it comes with the viewer's check)."""
    if request.headers.get("If-None-Match") != etag(version):
        return None
    response = HttpResponseNotModified()
    response["ETag"] = etag(version)
    response["Cache-Control"] = "no-store"
    return response


def _cache_key(request: HttpRequest, version: int, seat: Hashable) -> str:
    """Where the answer to ``request`` at ``version`` for ``seat`` is kept: the whole path
    and query (which regions, and anything else the view reads from the query), the version
    and the seat, hashed."""
    raw = repr((request.get_full_path(), version, seat)).encode()
    return "live:" + hashlib.sha256(raw).hexdigest()


def _answer(request: HttpRequest, html: str, version: int, hears: str) -> HttpResponse:
    """A region answer of ``html`` (drawn with :data:`TOKEN_MARK`) for ``request``'s browser,
    at ``version``, its page hearing ``hears`` (:attr:`LivePage.hears`)."""
    if TOKEN_MARK in html:  # get_token also renews the browser's CSRF cookie: only if used
        html = html.replace(TOKEN_MARK, get_token(request))
    response = HttpResponse(html)
    response["ETag"] = etag(version)
    response["Cache-Control"] = "no-store"
    response[HEARS_HEADER] = hears
    return response


def recall(request: HttpRequest, version: int, seat: Hashable) -> HttpResponse | None:
    """The regions ``request`` asks for as :func:`render_regions` drew them for the same
    ``seat`` at the same ``version`` (the campaign's live version as the viewer counts it),
    or None when none are kept. Call it after the viewer's check and :func:`unchanged`,
    before anything the regions read is built.

    Why a kept answer is never stale: every change a page can see moves the version its
    viewer counts (campaigns.versions; tests/core/test_no_stale_page.py checks every write
    path), and ``seat`` holds whatever else decides what the viewer may see (who they are,
    their seat, the campaign's own switches), so the same key draws the same answer. A
    region drawn just after a change's commit and before its bump holds that change under the
    older version, as an answer drawn then always has: newer than its label, never older.
    """
    kept = caches[CACHE].get(_cache_key(request, version, seat))
    return None if kept is None else _answer(request, kept[0], version, kept[1])


def drawn(response: HttpResponse, version: int | None, ids: Iterable[str]) -> HttpResponse:
    """Label the answer to a change with the live regions it redraws out of band and the
    campaign's live ``version`` they were drawn at (the version the change itself brought,
    ``campaigns.versions.bumped``): ``Live-Drawn: 42 card-12``.

    The page that made the change hears its event on its stream too, usually before this
    answer arrives (the event goes out at the commit, the answer after it is rendered).
    static/js/live.js holds such an event's request back until the page's own change has
    its answer, and then asks nothing for a region this header says is drawn at the
    event's version or later. Nothing is labelled when ``version`` is None (the change
    bumped nothing, or its bump failed): the page then asks as for any event.

    Returns the response, for chaining.
    """
    names = list(ids)
    if version is not None and names:
        response[DRAWN_HEADER] = " ".join([str(version), *names])
    return response


def asks_regions(request: HttpRequest) -> bool:
    """Whether a request asks for some live regions alone (``?live=`` or ``?heard=``) rather
    than for the whole page."""
    return LIVE_PARAMETER in request.GET or HEARD_PARAMETER in request.GET


def asked_regions(request: HttpRequest, page: LivePage) -> list[str] | None:
    """The region ids a request asks for, each once, in order: those named (``?live=...``),
    then those of ``page`` that hear an event named (``?heard=...``,
    :meth:`LivePage.hearing`) but not named by ``?lined=``; None when it asks for the whole
    page (:func:`asks_regions`)."""
    if not asks_regions(request):
        return None
    lined = set(request.GET.getlist(LINED_PARAMETER))
    heard = [i for i in page.hearing(request.GET.getlist(HEARD_PARAMETER)) if i not in lined]
    return list(dict.fromkeys([*request.GET.getlist(LIVE_PARAMETER), *heard]))


def no_regions(page: LivePage) -> HttpResponse:
    """The answer to a request that asks for no region of ``page`` (a ``?heard=`` event none
    of them hears, or only their lines): empty, at the page's version. The sheet and the
    campaign's page give it before building their context (the settings page, whose regions
    are one panel, builds its own first); :func:`draw_heard` sends nothing for it."""
    response = HttpResponse("")
    response["ETag"] = etag(page.version)
    response["Cache-Control"] = "no-store"
    response[HEARS_HEADER] = page.hears
    return response


def render_regions(
    request: HttpRequest, page: LivePage, asked: Sequence[str],
    templates: Sequence[str], context: Mapping[str, Any], *,
    own: Mapping[str, tuple[str, Mapping[str, Any]]] | None = None,
    seat: Hashable = None, finish: Callable[[str], str] | None = None,
) -> HttpResponse:
    """The regions ``asked`` of ``page``, each rendered alone, one after the other.

    Args:
        request: the request (its template context processors run).
        page: the page's live declaration; only its :attr:`LivePage.ids` may be asked.
        asked: the region ids (from :func:`asked_regions`).
        templates: where the partials are, e.g. ``["systems/maelstrom/sheet.html",
            "systems/_sheet.html"]``: each region is the partial of its id in the first
            template that defines one.
        context: the context the regions read (the view's, for those regions only).
        own: regions drawn by a template of their own, with a context of their own (a
            party card: ``{"card-12": ("characters/_party_card.html", {"card": ...})}``).
        seat: what, besides the page's version, decides what the viewer sees (their user
            id, their seat, the campaign's switches): given, the answer is kept for
            :func:`recall` under the request's path, the version and the seat.
        finish: a last change of the drawn HTML, kept with it (a party-mate's copy of a
            sheet drops its controls).

    Returns:
        200 with the regions' HTML, its ``ETag`` the page's :attr:`LivePage.version`
        (``Cache-Control: no-store``: the browser keeps no copy; static/js/live.js keeps the
        version), its forms holding the asking browser's CSRF token.

    Raises:
        Http404: an id the page does not declare, as for any other thing this viewer
            cannot see.
    """
    allowed = set(page.ids)
    unknown = [i for i in asked if i not in allowed]
    if unknown:
        raise Http404("No such live region on this page.")
    # Drawn with a mark where the CSRF token goes (the context's csrf_token comes before
    # the context processors'), so that what is kept fits any browser of the seat.
    token = {"csrf_token": TOKEN_MARK}
    parts = []
    for region in asked:
        if own and region in own:
            name, own_context = own[region]
            parts.append(get_template(name).render({**own_context, **token}, request))
        else:
            # live_redrawn: live elements drawn in an answer claim no version (the answer
            # holds only some regions); each asks at what the page holds for its URL.
            parts.append(_region_template(region, templates).render(
                {**context, **token, "live_redrawn": True}, request))
    html = "".join(parts)
    if finish is not None:
        html = finish(html)
    if seat is not None:
        caches[CACHE].set(_cache_key(request, page.version, seat), (html, page.hears))
    return _answer(request, html, page.version, page.hears)


def _region_template(region: str, templates: Sequence[str]) -> Any:
    """The partial named ``region`` in the first of ``templates`` that has one."""
    for name in templates:
        try:
            return get_template(f"{name}#{region}")
        except TemplateDoesNotExist:
            continue
    raise TemplateDoesNotExist(f"no partial {region!r} in {', '.join(templates)}")


def answers_regions(view: View) -> View:
    """Mark ``view`` as a live page's, which answers ``?live=`` and ``?heard=`` with its
    regions alone: only such a page's regions are drawn by a stream (:func:`live_page`)."""
    view.answers_regions = True  # type: ignore[attr-defined]  # a mark on the function, read by live_page
    return view


def live_page(path: str) -> ResolverMatch | None:
    """The view of the live page at ``path`` (``/characters/12/``), as the URLconf resolves
    it, or None when ``path`` is not a path of this site whose view answers regions
    (:func:`answers_regions`): what a stream's ``?page=`` names is the browser's word, and
    draws nothing else."""
    if not path.startswith("/") or path.startswith("//") or "?" in path:
        return None
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match if getattr(match.func, "answers_regions", False) else None


def _same_session(stream: HttpRequest, user: Any) -> bool:
    """Whether the session the stream opened with still exists and holds ``user``: read
    afresh (one query), as a logout or a login flushes it."""
    key = stream.session.session_key
    if key is None:
        return False
    now = type(stream.session)(session_key=key)
    return bool(now.get(SESSION_KEY) == str(user.pk))


@dataclass(frozen=True)
class Drawn:
    """What a stream's page drew for a change (:func:`draw_heard`).

    Attributes:
        version: the campaign's live version the regions were drawn at (the answer's
            ``ETag``), as the viewer counts it.
        html: the regions' HTML, one after the other; ``""`` when none hears the change.
        hears: what each event the page hears redraws now (:data:`HEARS_HEADER`):
            ``{"trackChanged-12": frozenset({"health-track", ...})}``.
    """

    version: int
    html: str
    hears: Mapping[str, frozenset[str]]


REFUSED = Drawn(version=0, html="", hears={})
"""What :func:`draw_heard` gives when nothing may be drawn for the stream any more: it
draws nothing and hears nothing."""


def draw_heard(stream: HttpRequest, user: Any, page: ResolverMatch, path: str,
               names: Sequence[str], lined: Iterable[str] = ()) -> Drawn | None:
    """The regions of the live page at ``path`` that hear one of the event ``names``, but
    not those of ``lined`` (their change came as a line with the event), as its view draws
    them for the stream's viewer (the same as the page's own ``?heard=`` answer);
    :data:`REFUSED` when the stream's session no longer holds ``user`` (a logout, another
    person's login in that browser, an expiry) or the view refuses (a seat lost, a character
    gone: 404, 403, a redirect to log in); None when it fails (logged), which may pass. The
    page then asks, as for any event it was brought nothing for.

    ``stream`` is the stream's own request, whose cookies (the CSRF token its forms get) and
    user (``user``, read when the stream opened) the drawing reuses; of its session only the
    row is read again, to see that it still holds ``user`` (one query), not the user. The
    view checks the viewer as it does for every request. Run it in a thread
    (``sync_to_async``); the database connection is given back after each drawing, as a
    stream holds none while it waits."""
    query = urlencode([*((HEARD_PARAMETER, name) for name in names),
                       *((LINED_PARAMETER, region) for region in lined)])
    asked = copy.copy(stream)
    # Cached from the stream's own request (headers, GET) or set by its middleware for it.
    for cached in ("headers", "GET", "htmx", "resolver_match", "_cached_user"):
        asked.__dict__.pop(cached, None)
    asked.method = "GET"
    asked.path = asked.path_info = path
    asked.META = {**stream.META, "REQUEST_METHOD": "GET", "PATH_INFO": path,
                  "QUERY_STRING": query, "HTTP_HX_REQUEST": "true"}
    asked.META.pop("HTTP_IF_NONE_MATCH", None)
    asked.GET = QueryDict(query)
    asked.user = user
    asked.resolver_match = page
    asked.htmx = HtmxDetails(asked)  # type: ignore[attr-defined]  # django-htmx's middleware sets it on every request
    try:
        if not _same_session(stream, user):
            return REFUSED
        response = page.func(asked, *page.args, **page.kwargs)
    except (Http404, PermissionDenied):
        return REFUSED
    except DatabaseError as exc:  # the database away: every page says so already
        logger.warning("could not draw the regions of %s: %s: %s", path, type(exc).__name__, exc)
        return None
    except Exception:  # a stream must outlive one failed drawing: the page asks instead
        logger.exception("could not draw the regions of %s hearing %s", path, names)
        return None
    finally:
        if not connection.in_atomic_block:
            with contextlib.suppress(DatabaseError):
                connection.close()
    tag = response.get("ETag", "")
    if response.status_code != 200 or not tag.startswith('"v') or HEARS_HEADER not in response:
        return REFUSED
    html = response.content.decode()
    return Drawn(int(tag[2:-1]), html if html.strip() else "", parse_hears(response[HEARS_HEADER]))


def parse_hears(value: str) -> dict[str, frozenset[str]]:
    """What :attr:`LivePage.hears` says, as a map: ``"rollMade=campaign-rolls
    trackChanged-12=card-12,live-regions"`` gives ``{"rollMade": frozenset({"campaign-rolls"}),
    ...}``; anything else in it is left out."""
    return {event: frozenset(ids.split(",")) for event, _, ids in
            (pair.partition("=") for pair in value.split()) if event and ids}
