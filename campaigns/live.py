"""The live table: every open page of a campaign hears what changed, within a second.

How it works (docs/architecture.md, "The live table"):

1. A service that changes state calls :func:`announce` inside its transaction. The event goes
   out only after the transaction commits (``transaction.on_commit``), so nobody hears of a
   roll or a damage mark that was rolled back.
2. :func:`campaign_events` is a Server-Sent Events stream, one per open page, subscribed to
   the campaign's group on the Channels layer (in memory in one process; Redis when
   ``REDIS_URL`` is set, so several server processes share events). The GM's stream also
   hears the GM-only group.
3. Events carry names and ids, never content: ``rollMade``, ``trackChanged-12``. The page
   (htmx's SSE extension) reacts by asking its own view for the fresh fragment, so what a
   person sees is always what the permission-checked view shows them, read from the database.
   After a dropped connection the page asks again for everything live (static/js/live.js):
   the database is the source of truth, the stream only says when to look.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import HttpRequest, StreamingHttpResponse

from campaigns.models import Membership
from campaigns.permissions import get_membership

logger = logging.getLogger(__name__)

KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies from closing an idle stream."""

RETRY_MILLISECONDS = 2000
"""How soon a browser reconnects after the stream drops (the SSE ``retry`` field)."""

STREAM_SECONDS = 3600.0
"""A stream ends after an hour and the browser reconnects at once (catching up as after any
reconnection). Channel layers forget group members after a while (Redis: a day), so no
subscription may live forever."""


def group_name(campaign_id: int, *, gm_only: bool = False) -> str:
    """The Channels group of a campaign's open pages (``campaign-7``), or of its GM's
    (``campaign-7-gm``)."""
    return f"campaign-{campaign_id}-gm" if gm_only else f"campaign-{campaign_id}"


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
    group = group_name(campaign_id, gm_only=gm_only)

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
        except Exception:  # a live update must never undo or fail a committed change
            logger.exception("could not announce %s to %s", names, group)

    transaction.on_commit(send)


def _frame(event: str, data: dict[str, object]) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()


@login_required
async def campaign_events(request: HttpRequest, pk: int) -> StreamingHttpResponse:
    """The campaign's live events as a Server-Sent Events stream, for members only.

    Non-members (and unknown campaigns) get 404 like every other campaign URL; the GM's
    stream also carries GM-only events. The stream sends ``retry`` and a comment at once,
    a keepalive comment every :data:`KEEPALIVE_SECONDS`, and one frame per event name:
    ``event: rollMade`` / ``data: {"campaign": 7, "character": 12}``.
    """
    user = await request.auser()
    membership = await sync_to_async(_membership_then_release)(user, pk)
    groups = [group_name(pk)] + ([group_name(pk, gm_only=True)] if membership.is_gm else [])
    response = StreamingHttpResponse(_stream(groups), content_type="text/event-stream")
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


async def _stream(groups: list[str]) -> AsyncIterator[bytes]:
    layer = get_channel_layer()
    assert layer is not None, "CHANNEL_LAYERS is configured in settings"
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    loop = asyncio.get_running_loop()
    ends = loop.time() + STREAM_SECONDS
    try:
        yield f"retry: {RETRY_MILLISECONDS}\n: connected\n\n".encode()
        while loop.time() < ends:
            try:
                message = await asyncio.wait_for(layer.receive(channel), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield b": keepalive\n\n"
                continue
            for name in message.get("names", []):
                yield _frame(name, message.get("data", {}))
    finally:
        # Django cancels the stream when the browser goes away (http.disconnect).
        for group in groups:
            await layer.group_discard(group, channel)
