"""The live table's stream: :func:`campaign_events`, one Server-Sent Events stream per open
page of a campaign (docs/architecture.md, "The live table").

A stream hears its audience's group on the Channels layer (in memory in one process; Redis
through :class:`core.live.RedisLayer` when ``REDIS_URL`` is set): a player's the players'
group, the GM's the GM's group, which carries every change with the GM's version
(core.live.Versions); and its viewer's seat group, where
:func:`core.live.announce_seat_closed` ends it. Events carry names and ids (``rollMade``,
``trackChanged-12``), and only the lines every page hearing the event would draw alike
(``core.live.drawing``). The stream of a live page (``?page=<its path>``) also brings the
regions a change redraws, drawn by the page's own permission-checked view for the stream's
viewer (``liveRegions``, :func:`core.regions.draw_heard`); a page asks that view for
anything else, and after a dropped connection reconnects and asks for everything live
(static/js/live.js). The database is the source of truth; the stream only says when to
look.

When the server process is asked to stop, every open stream of it ends at once
(:func:`core.stopping.stopping`): uvicorn waits for requests in flight and never tells the
application, so an open stream would otherwise hold every restart up for the whole graceful
timeout. The page reconnects by itself, to the next server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer  # type: ignore[import-untyped]  # channels ships no type hints (types-channels is not a dependency)
from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpResponse, StreamingHttpResponse

from campaigns.models import Membership
from campaigns.permissions import get_membership
from core.http import AuthenticatedHttpRequest
from core.live import (
    CLOSED_EVENT,
    LAYER_ERRORS,
    REGIONS_EVENT,
    RESTART_EVENT,
    STREAM_SECONDS,
    VERSION_EVENT,
    group_name,
    layer_warning,
    seat_group_name,
)
from core.regions import Drawn, draw_heard, live_page, parse_hears
from core.stopping import stopping

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

logger = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies from closing an idle stream."""

RETRY_MILLISECONDS = 2000
"""How soon a bare EventSource reconnects after the stream drops (the SSE ``retry`` field).
Pages do not rely on it: static/js/live.js reconnects itself, with a growing, jittered delay."""

RETRY_AFTER_SECONDS = 10
"""The ``Retry-After`` of the 503 answered while the channel layer cannot be reached."""

LAYER_ATTEMPTS = 3
"""How often a stream tries to join or leave a group before it gives up (a new stream is
then answered 503; a leave is kept for later)."""

LAYER_RETRY_SECONDS = 0.2
"""The pause between two attempts."""

MAX_DEFERRED_LEAVES = 10_000
"""At most this many group entries a process remembers to take out later (:func:`_leave`)."""

_deferred_leaves: set[tuple[str, str]] = set()
"""(group, channel) pairs whose stream ended while the layer was out of reach: the next
stream this process subscribes takes them out (:func:`_leave_deferred`)."""


def _frame(event: str, data: dict[str, object]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


def _frames(message: dict[str, Any]) -> bytes:
    """An event's frames, written at once: one per name (``rollMade``, ``rollMade-12``),
    then ``liveVersion`` when the event has a version. The lines drawn for it
    (``core.live.drawing``, the message's ``lines``: ``{name: {region id: html}}``) go each
    with the frame of the name its region hears, as ``prepend``: the latest rolls' line with
    ``rollMade``, which the campaign's page hears, the recent rolls' with ``rollMade-12``,
    which character 12's sheet hears."""
    data = message.get("data", {})
    names = message.get("names", [])
    lines = message.get("lines") or {}
    frames = [_frame(name, {**data, "prepend": lines[name]} if lines.get(name) else data)
              for name in names]
    if "version" in data:
        frames.append(_frame(VERSION_EVENT, {"version": data["version"], "names": names}))
    return b"".join(frames)


@login_required
async def campaign_events(
    request: AuthenticatedHttpRequest, pk: int
) -> HttpResponse | StreamingHttpResponse:
    """The campaign's live events as a Server-Sent Events stream, for members only.

    Non-members (and unknown campaigns) get 404 like every other campaign URL; the stream
    of a seat that runs the table (the GM's or a co-GM's: ``Membership.is_gm``) also carries
    GM-only events, and every event's version as the GM's pages count it. The stream sends
    ``retry`` and a comment at once, a keepalive comment every :data:`KEEPALIVE_SECONDS`,
    and one frame per event name: ``event: rollMade`` /
    ``data: {"campaign": 7, "character": 12, "version": 42}`` (each name's also with the
    lines drawn for the regions that hear it, ``"prepend"``), then ``liveVersion``. With
    ``?page=<path>`` naming a live page of this site (:func:`core.regions.live_page`), each
    change's frames come after ``liveRegions``, that page's regions which the change
    redraws, drawn for the viewer by the page's own view (:func:`_stream`).
    When the viewer loses their seat it sends ``event: liveClosed`` and ends; when the server
    is asked to stop it ends without a word (the page reconnects).

    While the channel layer cannot be reached the answer is 503 with ``Retry-After`` (a
    warning, at most one a minute per process): the browser's EventSource then stops, and
    static/js/live.js tries again later. A layer lost mid-stream ends the stream the same way.
    """
    user = await request.auser()
    membership = await sync_to_async(_membership_then_release)(user, pk)
    # One audience's group each: the GM's carries every change the players' does, with the
    # GM's version, so a GM's stream in both would hear each change twice.
    groups = [group_name(pk, gm_only=membership.is_gm), seat_group_name(pk, membership.user_id)]
    path = request.GET.get("page", "")
    page = live_page(path) if path else None
    # What the page's regions hear, as the page was drawn (LivePage.hears): only which
    # changes the stream asks the view about, never what it may draw.
    hears = parse_hears(request.GET["hears"]) if "hears" in request.GET else None
    draw: Drawing | None = None
    if page is not None:
        async def draw(names: list[str], lined: list[str]) -> Drawn | None:
            return await sync_to_async(draw_heard)(request, user, page, path, names, lined)
    stream = _stream(groups, draw, hears)
    try:
        first = await anext(stream)  # subscribes: an unreachable layer shows here
    except LAYER_ERRORS as exc:
        layer_warning("live events for campaign %s unavailable: %s: %s",
                       pk, type(exc).__name__, exc)
        unavailable = HttpResponse(
            "Live updates are unavailable for the moment; the page itself works.\n",
            status=503, content_type="text/plain; charset=utf-8",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-cache"},
        )
        # Said above; Django would add an ERROR line for every reconnection attempt.
        unavailable._has_been_logged = True  # type: ignore[attr-defined]  # django-stubs: Django's private flag (read by django.utils.log.log_response) is not in the stubs
        return unavailable
    response = StreamingHttpResponse(_resume(first, stream), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response


def _membership_then_release(user: User | AnonymousUser, campaign_id: int) -> Membership:
    """The viewer's membership (Http404 for anyone else), then let go of the database
    connection: a stream may stay open for hours and must not hold one all that time.
    A connection inside a transaction belongs to that transaction's owner and is left alone.
    """
    membership = get_membership(user, campaign_id)
    if not connection.in_atomic_block:
        connection.close()
    return membership


async def _resume(
    first: bytes, stream: AsyncGenerator[bytes, None]
) -> AsyncIterator[bytes]:
    """``first`` (already taken from ``stream``), then the rest of ``stream``, which is
    closed (leaving its groups) however this one ends."""
    try:
        yield first
        async for frame in stream:
            yield frame
    finally:
        await stream.aclose()


Drawing = Callable[[list[str], list[str]], Awaitable[Drawn | None]]
"""Draws the stream's page's regions that hear one of an event's names, but not those whose
line came with it, or None (:func:`core.regions.draw_heard`)."""


async def _stream(groups: list[str], draw: Drawing | None = None,
                  hears: Mapping[str, frozenset[str]] | None = None,
                  ) -> AsyncGenerator[bytes, None]:
    """Subscribe a new channel to ``groups``, then yield SSE frames until the stream's time
    is up, the viewer's seat is closed, the layer is lost (:func:`layer_warning`) or the
    server process is asked to stop (:func:`core.stopping.stopping`). The first frame comes
    after the subscription, so an unreachable layer raises before it. However the stream
    ends (Django cancels it when the browser goes away), the channel leaves its groups.

    With ``draw``, each change's frames come after the regions it redraws on the stream's
    page (``liveRegions``: ``{"version": 42, "html": "..."}``), so that the page has them
    without asking; not those whose line comes with the change (``core.live.drawing``).
    ``hears``: what each event the page hears redraws, as the page said when it was drawn
    (None: the first change asks the view)."""
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is configured in settings"
    channel = await layer.new_channel()
    joined: list[str] = []
    receiving: asyncio.Future[dict[str, Any]] | None = None
    stopped: asyncio.Future[None] | None = None
    subscribed = warned = False
    try:
        # uvicorn waits for this request to finish before it stops, and never tells it that
        # it is stopping: the stream watches for the stop itself (already done if a
        # keep-alive connection brought this request in while the server drains).
        stopped = stopping()
        for group in groups:
            joined.append(group)  # even if group_add fails midway, it may have landed
            await _attempts(layer.group_add, group, channel)
        subscribed = True
        await _leave_deferred(layer)
        yield f"retry: {RETRY_MILLISECONDS}\n: connected\n\n".encode()
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_SECONDS
        while (left := ends - loop.time()) > 0:
            # One receive stays pending across keepalives: cancelling it every keepalive
            # (asyncio.wait_for) would cut the layer's blocking pop short and make
            # channels_redis drop and reopen its connection each time.
            if receiving is None:
                receiving = asyncio.ensure_future(layer.receive(channel))
            done, _ = await asyncio.wait({receiving, stopped},
                                         timeout=min(KEEPALIVE_SECONDS, left),
                                         return_when=asyncio.FIRST_COMPLETED)
            if stopped in done:
                # The page reconnects soon and often: the next server is moments away. An
                # event that came with the stop is caught up after the reconnection.
                yield _frame(RESTART_EVENT, {})
                return
            if not done:
                yield b": keepalive\n\n"
                continue
            message, receiving = receiving.result(), None
            if message.get("type") == "campaign.close":
                yield _frame(CLOSED_EVENT, message.get("data", {}))
                return
            if draw is not None and "version" in message.get("data", {}):
                names = list(message.get("names", []))
                lines = message.get("lines") or {}
                lined = [region for name in lines for region in lines[name]]
                # Most of a campaign's changes concern another sheet, or only a roll's line:
                # the view is not asked about them. What a page's regions hear changes only
                # with a change the page hears (the dashboard's live-regions hears a new
                # card's character), whose drawing says what it hears from then on. A page
                # the view refused, or a session that ended, hears nothing more here.
                if hears is None or set().union(*(hears.get(n, ()) for n in names)) - set(lined):
                    drawn = await draw(names, lined)
                    hears = drawn.hears if drawn is not None else hears  # a failure may pass
                    if drawn is not None and drawn.html:
                        yield _frame(REGIONS_EVENT, {"version": drawn.version,
                                                     "html": drawn.html})
            yield _frames(message)
    except LAYER_ERRORS as exc:
        if not subscribed:
            raise  # the view answers 503 and logs it
        warned = True
        layer_warning("live stream of %s ended, its channel layer lost: %s: %s",
                       groups[0], type(exc).__name__, exc)
    finally:
        if stopped is not None:
            stopped.cancel()  # forgotten by core.stopping
        if receiving is not None:
            await _cancel(receiving)
        await _leave(layer, joined, channel, quiet=warned or not subscribed)


async def _cancel(receiving: asyncio.Future[Any]) -> None:
    """Cancel a pending ``layer.receive`` and wait until it has stopped, cancelling again as
    needed: channels_redis loses a cancellation that lands just as its per-channel lock is
    handed over (channels_redis 4.3 on Python 3.11), and its receive then waits in Redis for
    ever, never leaving."""
    while not receiving.done():
        receiving.cancel()
        await asyncio.wait({receiving}, timeout=0.1)
    if not receiving.cancelled():
        with contextlib.suppress(*LAYER_ERRORS):
            receiving.result()  # retrieved, so asyncio does not report it


async def _leave(layer: Any, groups: list[str], channel: str, *, quiet: bool) -> None:
    """Take ``channel`` out of ``groups``. A layer that cannot be reached is logged once
    (:func:`layer_warning`; at debug level when the stream already said so): Redis forgets
    the entry after the layer's ``group_expiry`` anyway, and events sent to it meanwhile only
    expire unread."""
    for index, group in enumerate(groups):
        try:
            await _attempts(layer.group_discard, group, channel)
        except LAYER_ERRORS as exc:
            (logger.debug if quiet else layer_warning)(
                "live stream could not leave %s: %s: %s", groups, type(exc).__name__, exc)
            if len(_deferred_leaves) < MAX_DEFERRED_LEAVES:
                _deferred_leaves.update((g, channel) for g in groups[index:])
            return


async def _attempts(command: Callable[[str, str], Awaitable[None]], group: str,
                    channel: str) -> None:
    """Run a group command (``group_add``, ``group_discard``) up to :data:`LAYER_ATTEMPTS`
    times, :data:`LAYER_RETRY_SECONDS` apart: a connection that failed is dropped from the
    pool, so the next attempt gets another. Right after a Redis restart several pooled
    connections are dead and Redis may still be loading its data. Raises the last attempt's
    layer error."""
    for attempt in range(1, LAYER_ATTEMPTS + 1):
        try:
            await command(group, channel)
            return
        except LAYER_ERRORS:
            if attempt == LAYER_ATTEMPTS:
                raise
            await asyncio.sleep(LAYER_RETRY_SECONDS)


async def _leave_deferred(layer: Any) -> None:
    """Take out the group entries of streams that ended while the layer was out of reach
    (:func:`_leave` keeps them), now that a subscription has just reached it, so that a
    stream cut by an outage is not a member of its groups until the group's expiry. An entry
    that still cannot be taken out is kept for the next time."""
    while _deferred_leaves:
        group, channel = _deferred_leaves.pop()
        try:
            await layer.group_discard(group, channel)
        except LAYER_ERRORS:
            _deferred_leaves.add((group, channel))
            return
