"""Live events: what a service announces, and the Channels layer that carries it.

A service that changes state calls :func:`announce` inside its transaction; the event goes out
only after the transaction commits (``transaction.on_commit``), so nobody hears of a roll or a
damage mark that was rolled back. Events carry names and ids (``rollMade``,
``trackChanged-12``): a live page's stream then draws what changed with the page's own
permission-checked view, for its viewer (``campaigns.live``, ``core.regions.draw_heard``), or
the page asks that view itself. The one piece of content an event carries is content that
every page hearing the event would draw alike, offered by the app that owns the region
(:data:`drawing`): a new roll's line in the campaign's latest rolls and in its character's
recent rolls, which a page current just before the roll puts in place without asking.
The pages' stream is ``campaigns.live`` (docs/architecture.md, "The live table"); with
``REDIS_URL`` set the layer is :class:`RedisLayer`, so several server processes share events.

Two audiences, two groups: the players' pages hear the campaign's group, the GM's pages (and
a co-GM's, who sees what the GM sees) the GM's group, which hears every change (those the
players hear too, each with the GM's version, and the GM-only ones). Nothing sent to the
players' group says anything of a change hidden from them, not even as a number
(docs/security.md, "Hidden activity").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer  # type: ignore[import-untyped]  # channels ships no type hints (types-channels is not a dependency)
from channels_redis.core import RedisChannelLayer  # type: ignore[import-untyped]  # channels_redis ships no type hints
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.dispatch import Signal
from redis.asyncio import BlockingConnectionPool
from redis.asyncio.connection import parse_url
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

STREAM_SECONDS = 3600.0
"""A stream ends after an hour and the browser reconnects at once (catching up as after any
reconnection). Channel layers forget group members after a while (Redis: a day), so no
subscription may live forever."""

GROUP_EXPIRY_MARGIN_SECONDS = 300
"""How long past :data:`STREAM_SECONDS` a group entry is kept before Redis forgets it."""

HEALTH_CHECK_SECONDS = 15
"""A Redis connection unused this long is checked with a PING before it is used again."""

CLOSED_EVENT = "liveClosed"
"""The last frame of a stream whose viewer lost their seat: the page stops reconnecting."""

RESTART_EVENT = "liveRestart"
"""The last frame of a stream whose server is stopping (campaigns.live): the page reconnects
soon and often (static/js/live.js) rather than backing off, as the new server is moments
away."""

VERSION_EVENT = "liveVersion"
"""Sent after each change's own frames: ``{"version": n, "names": [...]}``, the campaign's
live version as the stream's viewer counts it once the change was committed
(campaigns.versions, :class:`Versions`). A page learns from it that its regions the change
did not concern are still current at ``n`` (static/js/live.js)."""

REGIONS_EVENT = "liveRegions"
"""Sent before a change's own frames by the stream of a live page (campaigns.live, its
``?page=``): ``{"version": n, "html": "..."}``, the page's regions that hear the change as
its view draws them for the stream's viewer at version ``n`` (core.regions.draw_heard). The
page puts them in place and asks nothing for them (static/js/live.js)."""

TIMINGS = {
    "FIRST_DELAY_MS": 1000,
    "MAX_DELAY_MS": 60_000,
    "HEALTHY_AFTER_MS": 30_000,
    "SYNC_SPREAD_MS": 3000,
    "RESTART_WINDOW_MS": 30_000,
    "RESTART_DELAY_MS": 1000,
}
"""How a live page reconnects and catches up, in milliseconds, carried by the page
(``<main data-live-timings>``, ``core.templatetags.live``) for static/js/live.js and the
benchmarks' pages alike. After a drop the page waits between half of a ceiling and all of it
("equal jitter"), the ceiling ``FIRST_DELAY_MS`` doubling with each failure in a row up to
``MAX_DELAY_MS``; a stream open ``HEALTHY_AFTER_MS`` starts the count again; for
``RESTART_WINDOW_MS`` after :data:`RESTART_EVENT` the ceiling stays ``RESTART_DELAY_MS``
(the new server is moments away). Once back, the page asks for every region at a random
moment within ``SYNC_SPREAD_MS``, so that pages dropped together do not catch up together."""

LAYER_ERRORS: tuple[type[BaseException], ...] = (RedisError, OSError)
"""What a channel layer raises when its server cannot be reached (redis-py wraps socket
errors in its ConnectionError and TimeoutError; a bare OSError is the in-memory layer's
never, a custom layer's maybe)."""

LAYER_WARNING_SECONDS = 60.0
"""After one warning that the channel layer cannot be reached, the same news from this
process's other streams is logged at debug level for this long: an outage of Redis with 500
pages open is one line in the log, not 500 (nor one per reconnection attempt)."""

_layer_warned = {"until": 0.0}


def layer_warning(message: str, *args: object, exc_info: bool = False) -> None:
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
    """The Channels group of a campaign's players' open pages (``campaign-7``), or of its
    GM's (``campaign-7-gm``), which hears every change of the campaign (:func:`announce`)."""
    return f"campaign-{campaign_id}-gm" if gm_only else f"campaign-{campaign_id}"


def seat_group_name(campaign_id: int, user_id: int) -> str:
    """The Channels group of one person's open pages of a campaign (``campaign-7-user-12``),
    which only :func:`announce_seat_closed` sends to."""
    return f"campaign-{campaign_id}-user-{user_id}"


Lines = dict[str, dict[str, str]]
"""The lines that travel with an event: ``{event name: {region id: the item's html}}``. Each
goes with the frame of the name its region hears: ``rollMade`` for the campaign's latest
rolls, ``rollMade-12`` for character 12's recent rolls."""


@dataclass(frozen=True)
class Versions:
    """A campaign's live versions just after a change (campaigns.versions), by audience.

    Attributes:
        players: the version a player's pages count (``Campaign.live_version``): it moves
            only for changes every member hears of.
        gm: the version the GM's pages count (``Campaign.page_version`` for the GM): it
            moves for every change, those only the GM hears of too.
    """

    players: int
    gm: int


Audience = tuple[str, Callable[[Versions], int] | None]
"""A group to send an event to, and which of the change's :class:`Versions` its pages
count (None: a message that carries no version)."""


def _send_on_commit(audiences: Sequence[Audience], message: dict[str, Any], what: object, *,
                    version: Callable[[], Versions | None] | None = None,
                    drawn: list[Callable[[], Lines]] | None = None) -> None:
    """Send ``message`` to each group of ``audiences`` once the current transaction commits
    (at once outside one); a layer that cannot be reached is logged, never raised.
    ``version``, if given, is asked then for the campaign's versions, and each group's
    message carries the one its pages count in its data (a group's message holds no other);
    ``drawn`` (:data:`drawing`'s answers) for the lines that go with it, drawn once for every
    group, as the message's ``lines`` (``{event name: {region id: html}}``; the stream sends
    each name's with that name's frame, as its ``prepend``), only when the version is
    known."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        now = version() if version is not None else None
        lines = _lines(drawn or [], what) if now is not None else {}
        sends = []
        for group, counts in audiences:
            sent = message
            if now is not None and counts is not None:
                sent = {**message, "data": {**message["data"], "version": counts(now)}}
                if lines:
                    sent["lines"] = lines
            sends.append((group, sent))
        _group_send(layer, sends, what)

    transaction.on_commit(send)


def _group_send(layer: Any, sends: list[tuple[str, dict[str, Any]]], what: object) -> None:
    """``layer.group_send(group, message)`` for each ``(group, message)`` of ``sends``, in
    order, from a committed change's callback: one trip to the event loop for them all (from
    a sync view, each ``async_to_sync`` call waits for a turn of the server's loop). A layer
    that cannot be reached is logged (:func:`layer_warning`), never raised; a group that
    fails does not keep the next from hearing."""

    async def send_all() -> None:
        for group, message in sends:
            try:
                await layer.group_send(group, message)
            except LAYER_ERRORS as exc:  # Redis down: one line a minute, no traceback
                layer_warning("could not announce %s to %s: %s: %s",
                              what, group, type(exc).__name__, exc)
            except Exception as exc:  # a live update must never undo a committed change
                # Throttled too: while Redis is down redis-py also fails in other ways (a
                # RuntimeError "no running event loop", for one), once per announcement.
                layer_warning("could not announce %s to %s: %s: %s",
                              what, group, type(exc).__name__, exc, exc_info=True)

    try:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the usual case: a sync view or service, no loop here
            async_to_sync(send_all)()
        else:  # committed from code running inside an event loop's thread
            loop.create_task(send_all())
    except Exception as exc:  # the trip to the loop itself failed: never fail the change
        layer_warning("could not announce %s: %s: %s", what, type(exc).__name__, exc,
                      exc_info=True)


def _lines(drawn: list[Callable[[], Lines]], what: object) -> Lines:
    """Every line of ``drawn`` (:data:`drawing`), by event name; one that fails is left out
    and logged: the pages then ask for that region, as for any event without its line."""
    lines: Lines = {}
    for draw in drawn:
        try:
            for name, regions in draw().items():
                lines.setdefault(name, {}).update(regions)
        except Exception:  # a committed change must still be announced
            logger.exception("could not draw the line of %s", what)
    return lines


drawing = Signal()
"""Sent by :func:`announce` with ``campaign_id``, ``event`` and ``subject`` (what the change
made, such as the Roll just stored; None when the service names nothing). A receiver that owns
a live region whose list the change extends by one item, drawn alike for every page that
hears the event, may answer with a function that gives :data:`Lines` (``{event name: {region
id: the item's html}}``, the name being one the region hears: ``event`` or
``event-<character id>``); it runs once the change has committed, and its lines travel with
the event, each on its name's frame (``data["prepend"]``: ``{region id: html}``). A page
whose region was current just before the change (the event's version minus one) puts the
item at the head of the region's ``data-live-list`` and asks nothing (static/js/live.js);
any other page asks as usual. Answer None for anything else.

What a line may hold: only what every member hearing the event may see (the event goes to
the players' group and the GM's, or to the GM's alone for a GM-only change). Each
announcement bumps by one the version of each audience that hears it, and no other
(campaigns.versions, :class:`Versions`), so a line is exactly the change from one version
to the next for every page that hears it."""

announced = Signal()
"""Sent by :func:`announce`, inside the change's transaction, with ``campaign_id`` and
``gm_only``: before the event itself is queued for the commit, so that a receiver's own
on-commit work (the campaign's live versions, campaigns.versions) is done before any page
hears of the change. A receiver may answer with a function giving the change's
:class:`Versions` once it has run (None if it could not)."""


def announce(
    campaign_id: int, event: str, *, character_id: int | None = None, gm_only: bool = False,
    subject: object = None,
) -> None:
    """Tell the campaign's open pages that something changed, once the transaction commits.

    Args:
        campaign_id: the campaign whose pages should hear it.
        event: the event's name, e.g. ``"rollMade"``, ``"trackChanged"``, ``"xpChanged"``.
        character_id: the character concerned; the event is then sent twice, as ``event``
            (for pages showing the whole party) and as ``event-<id>`` (for that sheet).
        gm_only: send to the GM's pages only (a GM-only roll): players never hear of it,
            and no version their pages count moves for it.
        subject: what the change made (the Roll just stored), for :data:`drawing`'s
            receivers, which may draw a line of it to travel with the event.

    The event goes to the GM's group with the GM's version and, unless ``gm_only``, to the
    players' group with theirs.

    Call it inside the ``transaction.atomic()`` block that makes the change; outside one,
    Django runs ``on_commit`` callbacks at once. A layer that cannot be reached is logged,
    never raised: the change itself is already safe in the database, and pages catch up on
    their next load.
    """
    # A receiver (campaigns.versions) may answer with the campaign's versions after the
    # change, known once it has run on commit, before the send. (Any: django-stubs types a
    # receiver's answer as str | None.)
    answers: list[Any] = [answer for _, answer in announced.send(
        sender=None, campaign_id=campaign_id, gm_only=gm_only)]
    versions: list[Callable[[], Versions | None]] = [a for a in answers if callable(a)]
    lines: list[Any] = [answer for _, answer in drawing.send(
        sender=None, campaign_id=campaign_id, event=event, subject=subject)]
    drawn: list[Callable[[], Lines]] = [a for a in lines if callable(a)]
    names = [event] if character_id is None else [event, f"{event}-{character_id}"]
    message = {
        "type": "campaign.event",
        "names": names,
        "data": {"campaign": campaign_id, "character": character_id},
    }
    audiences: list[Audience] = [(group_name(campaign_id, gm_only=True), _gm_version)]
    if not gm_only:
        audiences.insert(0, (group_name(campaign_id), _players_version))
    _send_on_commit(audiences, message, names,
                    version=versions[0] if versions else None, drawn=drawn)


def _players_version(versions: Versions) -> int:
    return versions.players


def _gm_version(versions: Versions) -> int:
    return versions.gm


def announce_seat_closed(campaign_id: int, user_id: int, *, changed: bool = False) -> None:
    """End every open event stream ``user_id`` has of the campaign, once the transaction that
    took their seat commits: each sends a last ``liveClosed`` frame and closes, and the page
    stops reconnecting (a reconnection would be refused with 404 anyway), so a removed player
    hears nothing more of the campaign.

    With ``changed`` the seat was not taken but changed (the GM seat handed over): the frame
    says so (``{"changed": true}``) and the page reconnects at once, so its new stream joins
    the groups of the seat as it is now (the old GM stops hearing GM-only events, the new one
    starts), and asks the person to reload to see the page as their seat now shows it.

    Like :func:`announce`, it never raises; call it where the seat is taken away or changed.
    """
    message = {"type": "campaign.close",
               "data": {"campaign": campaign_id, **({"changed": True} if changed else {})}}
    _send_on_commit([(seat_group_name(campaign_id, user_id), None)], message, CLOSED_EVENT)


class RedisLayer(RedisChannelLayer):  # type: ignore[misc]  # channels_redis ships no type hints: its layer is Any
    """channels_redis' Redis layer with connections fit for streams that idle for an hour and
    close by the hundred (``CHANNEL_LAYERS`` names it when ``REDIS_URL`` is set;
    docs/architecture.md, "The live table", says why).

    channels_redis waits for a message with a blocking ``BZPOPMIN`` of ``receive_timeout``
    seconds (its ``brpop_timeout``) and asks again when it times out, so a read must be
    allowed longer than the pop: a socket timeout no longer than it (redis-py 8's default is
    5 s, the pop's too) ends every idle receive with ``redis.exceptions.TimeoutError``. Every
    host's connections get ``socket_timeout`` = ``receive_timeout`` +
    :attr:`SOCKET_TIMEOUT_MARGIN` unless the host entry (or its URL's query) sets one, and a
    configured one that is not longer than ``receive_timeout`` is refused. The socket timeout
    stays finite so that a Redis that stops answering without closing the connection (a
    network partition) is noticed.

    Connections come from a :class:`redis.asyncio.BlockingConnectionPool` (one per event
    loop, as channels_redis keeps them): when all ``max_connections`` are busy, a command
    waits up to ``pool_timeout`` seconds for one instead of failing at once with
    ``MaxConnectionsError``, which would leave a closing stream's group entries behind.

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
            # redis-py types the URL's arguments as a few known keys; its query adds any other
            # connection argument (socket_timeout) too.
            from_url: Mapping[str, Any] = (
                parse_url(host["address"]) if "address" in host else {})
            if "socket_timeout" not in host and "socket_timeout" not in from_url:
                host["socket_timeout"] = receive_timeout + self.SOCKET_TIMEOUT_MARGIN
            host.setdefault("max_connections", max_connections)
            # A pooled connection idle this long is PINGed (and replaced if dead) before its
            # next command: after a Redis restart the pool may still hold connections the
            # server dropped, and a group_discard on one would fail and leave its entry behind.
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
