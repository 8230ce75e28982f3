"""The live table: every open page of a campaign hears what changed, within a second.

How it works (docs/architecture.md, "The live table"):

1. A service that changes state calls :func:`announce` inside its transaction. The event goes
   out only after the transaction commits (``transaction.on_commit``), so nobody hears of a
   roll or a damage mark that was rolled back.
2. :func:`campaign_events` is a Server-Sent Events stream, one per open page, subscribed to
   the campaign's group on the Channels layer (in memory in one process; Redis when
   ``REDIS_URL`` is set, so several server processes share events, through
   :class:`RedisLayer`). The GM's stream also hears the GM-only group, and every stream its
   viewer's seat group, which :func:`announce_seat_closed` uses to end the streams of a
   removed player.
3. Events carry names and ids, never content: ``rollMade``, ``trackChanged-12``. The page
   (htmx's SSE extension) reacts by asking its own view for the fresh fragment, so what a
   person sees is always what the permission-checked view shows them, read from the database.
   After a dropped connection the page reconnects with a growing, jittered delay and asks
   again for everything live (static/js/live.js): the database is the source of truth, the
   stream only says when to look.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.connection import parse_url
from redis.exceptions import RedisError

from campaigns.models import Membership
from campaigns.permissions import get_membership

logger = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies from closing an idle stream."""

RETRY_MILLISECONDS = 2000
"""How soon a bare EventSource reconnects after the stream drops (the SSE ``retry`` field).
Pages do not rely on it: static/js/live.js reconnects itself, with a growing, jittered delay."""

RETRY_AFTER_SECONDS = 10
"""The ``Retry-After`` of the 503 answered while the channel layer cannot be reached."""

STREAM_SECONDS = 3600.0
"""A stream ends after an hour and the browser reconnects at once (catching up as after any
reconnection). Channel layers forget group members after a while (Redis: a day), so no
subscription may live forever."""

GROUP_EXPIRY_MARGIN_SECONDS = 300
"""How long past :data:`STREAM_SECONDS` a group entry is kept before Redis forgets it."""

HEALTH_CHECK_SECONDS = 15
"""A Redis connection unused this long is checked with a PING before it is used again."""

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

CLOSED_EVENT = "liveClosed"
"""The last frame of a stream whose viewer lost their seat: the page stops reconnecting."""

LAYER_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
"""What a channel layer raises when its server cannot be reached (redis-py wraps socket
errors in its ConnectionError and TimeoutError; a bare OSError is the in-memory layer's
never, a custom layer's maybe)."""


LAYER_WARNING_SECONDS = 60.0
"""After one warning that the channel layer cannot be reached, the same news from this
process's other streams is logged at debug level for this long: an outage of Redis with 500
pages open is one line in the log, not 500 (nor one per reconnection attempt)."""

_layer_warned = {"until": 0.0}


def _layer_warning(message: str, *args: object, exc_info: bool = False) -> None:
    """Log that the channel layer cannot be reached: a warning, at most one per
    :data:`LAYER_WARNING_SECONDS` in this process, and debug lines in between.
    ``exc_info`` adds the traceback (an error that is not the layer's usual one)."""
    now = time.monotonic()
    if now < _layer_warned["until"]:
        logger.debug(message, *args, exc_info=exc_info or None)
        return
    _layer_warned["until"] = now + LAYER_WARNING_SECONDS
    logger.warning(message, *args, exc_info=exc_info or None)


def group_name(campaign_id: int, *, gm_only: bool = False) -> str:
    """The Channels group of a campaign's open pages (``campaign-7``), or of its GM's
    (``campaign-7-gm``)."""
    return f"campaign-{campaign_id}-gm" if gm_only else f"campaign-{campaign_id}"


def seat_group_name(campaign_id: int, user_id: int) -> str:
    """The Channels group of one person's open pages of a campaign (``campaign-7-user-12``),
    which only :func:`announce_seat_closed` sends to."""
    return f"campaign-{campaign_id}-user-{user_id}"


def _send_on_commit(group: str, message: dict[str, Any], what: object) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside
    one); a layer that cannot be reached is logged, never raised."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # the usual case: a sync view or service, no loop here
                async_to_sync(layer.group_send)(group, message)
            else:  # committed from code running inside an event loop's thread
                loop.create_task(layer.group_send(group, message))
        except LAYER_ERRORS as exc:  # Redis down: one line a minute, no traceback
            _layer_warning("could not announce %s to %s: %s: %s",
                           what, group, type(exc).__name__, exc)
        except Exception as exc:  # a live update must never undo or fail a committed change
            # Throttled too: while Redis is down redis-py also fails in other ways (make
            # faults saw RuntimeError 'no running event loop' 454 times in a 30 s outage).
            _layer_warning("could not announce %s to %s: %s: %s",
                           what, group, type(exc).__name__, exc, exc_info=True)

    transaction.on_commit(send)


def announce(
    campaign_id: int, event: str, *, character_id: int | None = None, gm_only: bool = False
) -> None:
    """Tell the campaign's open pages that something changed, once the transaction commits.

    Args:
        campaign_id: the campaign whose pages should hear it.
        event: the event's name, e.g. ``"rollMade"``, ``"trackChanged"``, ``"xpChanged"``.
        character_id: the character concerned; the event is then sent twice, as ``event``
            (for pages showing the whole party) and as ``event-<id>`` (for that sheet).
        gm_only: send to the GM's pages only (a GM-only roll): players never hear of it.

    Call it inside the ``transaction.atomic()`` block that makes the change; outside one,
    Django runs ``on_commit`` callbacks at once. A layer that cannot be reached is logged,
    never raised: the change itself is already safe in the database, and pages catch up on
    their next load.
    """
    names = [event] if character_id is None else [event, f"{event}-{character_id}"]
    message = {
        "type": "campaign.event",
        "names": names,
        "data": {"campaign": campaign_id, "character": character_id},
    }
    _send_on_commit(group_name(campaign_id, gm_only=gm_only), message, names)


def announce_seat_closed(campaign_id: int, user_id: int) -> None:
    """End every open event stream ``user_id`` has of the campaign, once the transaction that
    took their seat commits: each sends a last ``liveClosed`` frame and closes, and the page
    stops reconnecting (a reconnection would be refused with 404 anyway). Without it a removed
    player's open pages kept hearing the campaign's event names until they dropped.

    Like :func:`announce`, it never raises; call it where the seat is taken away.
    """
    message = {"type": "campaign.close", "data": {"campaign": campaign_id}}
    _send_on_commit(seat_group_name(campaign_id, user_id), message, CLOSED_EVENT)


class RedisLayer(RedisChannelLayer):
    """channels_redis' Redis layer with connections fit for streams that idle for an hour and
    close by the hundred (``CHANNEL_LAYERS`` names it when ``REDIS_URL`` is set).

    channels_redis waits for a message with a blocking ``BZPOPMIN`` of ``receive_timeout``
    seconds (its ``brpop_timeout``, 5) and simply asks again when it times out. redis-py 8
    gives every connection a 5 s socket timeout by default, which expired before Redis's
    empty answer arrived: every idle receive raised ``redis.exceptions.TimeoutError`` after
    5 s. Here every host's connections get ``socket_timeout`` = ``receive_timeout`` +
    :attr:`SOCKET_TIMEOUT_MARGIN` unless the host entry (or its URL's query) sets one, and a
    configured one that is not longer than ``receive_timeout`` is refused. The socket timeout
    stays finite so that a Redis that stops answering without closing the connection (a
    network partition) is noticed.

    Connections come from a :class:`redis.asyncio.BlockingConnectionPool` (one per event
    loop, as channels_redis keeps them): when all ``max_connections`` are busy, a command
    waits up to ``pool_timeout`` seconds for one instead of failing at once with
    ``MaxConnectionsError`` (500 streams closing together left 600 of their 750 group
    entries behind in tests/campaigns/test_live_redis.py).

    Args:
        receive_timeout: seconds of one blocking pop (Redis accepts fractions; tests shorten
            it together with ``socket_timeout``).
        pool_timeout: seconds a command waits for a free connection before failing with
            redis-py's ``ConnectionError``.
        max_connections: connections per host and event loop (a host entry may override it).
        **kwargs: channels_redis' own (``hosts``, ``prefix``, ``expiry``, ``group_expiry``,
            ``capacity``...). A host entry may carry any redis-py connection argument.

    Raises:
        ImproperlyConfigured: ``receive_timeout`` is not above 0, or a host's
            ``socket_timeout`` is not longer than it.
    """

    SOCKET_TIMEOUT_MARGIN = 5.0
    """How much longer than a blocking pop a read may take before the connection counts as
    dead: Redis answers an expired pop within its timer's resolution (0.1 s at ``hz 10``)."""

    def __init__(
        self,
        *,
        receive_timeout: float = 5,
        pool_timeout: float = 10,
        max_connections: int = 50,
        **kwargs: Any,
    ) -> None:
        if receive_timeout <= 0:  # BZPOPMIN 0 blocks for ever: no socket timeout would do
            raise ImproperlyConfigured("CHANNEL_LAYERS: receive_timeout must be above 0 s")
        # A stream lives at most STREAM_SECONDS, so an entry older than that (plus a margin)
        # belongs to a stream that could not leave (its process died, Redis was down when it
        # ended): channels_redis drops it at the group's next send instead of after a day.
        kwargs.setdefault("group_expiry", int(STREAM_SECONDS) + GROUP_EXPIRY_MARGIN_SECONDS)
        super().__init__(**kwargs)
        self.brpop_timeout = receive_timeout
        self.pool_timeout = pool_timeout
        for host in self.hosts:
            from_url = parse_url(host["address"]) if "address" in host else {}
            if "socket_timeout" not in host and "socket_timeout" not in from_url:
                host["socket_timeout"] = receive_timeout + self.SOCKET_TIMEOUT_MARGIN
            host.setdefault("max_connections", max_connections)
            # A pooled connection idle this long is PINGed (and replaced if dead) before its
            # next command: after a Redis restart the pool still held connections the server
            # had dropped, and the next group_discard on one failed (make faults: 26 group
            # entries left behind when the streams closed after the outage).
            host.setdefault("health_check_interval", HEALTH_CHECK_SECONDS)
            timeout = from_url.get("socket_timeout", host.get("socket_timeout"))
            if timeout is not None and timeout <= receive_timeout:
                raise ImproperlyConfigured(
                    f"CHANNEL_LAYERS: socket_timeout ({timeout} s) must be longer than "
                    f"receive_timeout ({receive_timeout} s), the blocking pop's, or every "
                    "idle receive fails with a timeout"
                )

    def create_pool(self, index: int) -> Any:
        """The connection pool of host ``index``: a blocking pool (Sentinel hosts keep
        channels_redis' own)."""
        host = dict(self.hosts[index])
        if "master_name" in host:
            return super().create_pool(index)
        if "address" in host:
            address = host.pop("address")
            return BlockingConnectionPool.from_url(address, timeout=self.pool_timeout, **host)
        return BlockingConnectionPool(timeout=self.pool_timeout, **host)


def _frame(event: str, data: dict[str, object]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


@login_required
async def campaign_events(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's live events as a Server-Sent Events stream, for members only.

    Non-members (and unknown campaigns) get 404 like every other campaign URL; the GM's
    stream also carries GM-only events. The stream sends ``retry`` and a comment at once,
    a keepalive comment every :data:`KEEPALIVE_SECONDS`, and one frame per event name:
    ``event: rollMade`` / ``data: {"campaign": 7, "character": 12}``. When the viewer loses
    their seat it sends ``event: liveClosed`` and ends.

    While the channel layer cannot be reached the answer is 503 with ``Retry-After`` (a
    warning, at most one a minute per process): the browser's EventSource then stops, and
    static/js/live.js tries again later. A layer lost mid-stream ends the stream the same way.
    """
    user = await request.auser()
    membership = await sync_to_async(_membership_then_release)(user, pk)
    groups = [group_name(pk), seat_group_name(pk, user.pk)]
    if membership.is_gm:
        groups.append(group_name(pk, gm_only=True))
    stream = _stream(groups)
    try:
        first = await anext(stream)  # subscribes: an unreachable layer shows here
    except LAYER_ERRORS as exc:
        _layer_warning("live events for campaign %s unavailable: %s: %s",
                       pk, type(exc).__name__, exc)
        unavailable = HttpResponse(
            "Live updates are unavailable for the moment; the page itself works.\n",
            status=503, content_type="text/plain; charset=utf-8",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-cache"},
        )
        # Said above; Django would add an ERROR line for every reconnection attempt.
        unavailable._has_been_logged = True  # type: ignore[attr-defined]
        return unavailable
    response = StreamingHttpResponse(_resume(first, stream), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    return response


def _membership_then_release(user: object, campaign_id: int) -> Membership:
    """The viewer's membership (Http404 for anyone else), then let go of the database
    connection: a stream may stay open for hours and must not hold one all that time.
    A connection inside a transaction belongs to that transaction's owner and is left alone.
    """
    membership = get_membership(user, campaign_id)  # type: ignore[arg-type]
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


async def _stream(groups: list[str]) -> AsyncGenerator[bytes, None]:
    """Subscribe a new channel to ``groups``, then yield SSE frames until the stream's time
    is up, the viewer's seat is closed, or the layer is lost (:func:`_layer_warning`). The
    first frame comes after the subscription, so an unreachable layer raises before it.
    However the stream ends (Django cancels it when the browser goes away), the channel
    leaves its groups."""
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is configured in settings"
    channel = await layer.new_channel()
    joined: list[str] = []
    receiving: asyncio.Future[dict[str, Any]] | None = None
    subscribed = warned = False
    try:
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
            done, _ = await asyncio.wait({receiving}, timeout=min(KEEPALIVE_SECONDS, left))
            if not done:
                yield b": keepalive\n\n"
                continue
            message, receiving = receiving.result(), None
            if message.get("type") == "campaign.close":
                yield _frame(CLOSED_EVENT, message.get("data", {}))
                return
            for name in message.get("names", []):
                yield _frame(name, message.get("data", {}))
    except LAYER_ERRORS as exc:
        if not subscribed:
            raise  # the view answers 503 and logs it
        warned = True
        _layer_warning("live stream of %s ended, its channel layer lost: %s: %s",
                       groups[0], type(exc).__name__, exc)
    finally:
        if receiving is not None:
            await _cancel(receiving)
        await _leave(layer, joined, channel, quiet=warned or not subscribed)


async def _cancel(receiving: asyncio.Future[Any]) -> None:
    """Cancel a pending ``layer.receive`` and wait until it has stopped, cancelling again as
    needed: channels_redis loses a cancellation that lands just as its per-channel lock is
    handed over (seen with channels_redis 4.3 on Python 3.11, about one close in four right
    after an event), and its receive then waits in Redis for ever, never leaving."""
    while not receiving.done():
        receiving.cancel()
        await asyncio.wait({receiving}, timeout=0.1)
    if not receiving.cancelled():
        with contextlib.suppress(*LAYER_ERRORS):
            receiving.result()  # retrieved, so asyncio does not report it


async def _leave(layer: Any, groups: list[str], channel: str, *, quiet: bool) -> None:
    """Take ``channel`` out of ``groups``. A layer that cannot be reached is logged once
    (:func:`_layer_warning`; at debug level when the stream already said so): Redis forgets
    the entry after the layer's ``group_expiry`` anyway, and events sent to it meanwhile only
    expire unread."""
    for index, group in enumerate(groups):
        try:
            await _attempts(layer.group_discard, group, channel)
        except LAYER_ERRORS as exc:
            (logger.debug if quiet else _layer_warning)(
                "live stream could not leave %s: %s: %s", groups, type(exc).__name__, exc)
            if len(_deferred_leaves) < MAX_DEFERRED_LEAVES:
                _deferred_leaves.update((g, channel) for g in groups[index:])
            return


async def _attempts(command: Callable[[str, str], Awaitable[None]], group: str,
                    channel: str) -> None:
    """Run a group command (``group_add``, ``group_discard``) up to :data:`LAYER_ATTEMPTS`
    times, :data:`LAYER_RETRY_SECONDS` apart: a connection that failed is dropped from the
    pool, so the next attempt gets another. Right after a Redis restart several pooled
    connections are dead and Redis may still be loading its data (make faults: two streams
    opened in the 0.3 s after Redis answered again were refused 503). Raises the last
    attempt's layer error."""
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
    (:func:`_leave` keeps them), now that a subscription has just reached it. Without this,
    every stream open when Redis went down stayed a member of its groups until the group's
    expiry. An entry that still cannot be taken out is kept for the next time."""
    while _deferred_leaves:
        group, channel = _deferred_leaves.pop()
        try:
            await layer.group_discard(group, channel)
        except LAYER_ERRORS:
            _deferred_leaves.add((group, channel))
            return
