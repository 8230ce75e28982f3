"""A campaign's live versions: one more each time anything its open pages show changes, so
that a live region asked at the version its page already holds answers 304
(core/regions.py).

Every change a page can see is announced (``core.live.announce``; tests/core/
test_no_stale_page.py checks every write path), so the versions follow the announcements:
:func:`bump_on_commit` runs on ``core.live.announced`` and adds one to one of the campaign's
two counters once the change's transaction commits, before the event itself goes out:
``live_version`` for a change every member may see, ``hidden_version`` for one only the GM's
pages show (a GM-only roll). A player's pages are drawn at ``live_version``, the GM's at the
sum of both (``Campaign.page_version``), so each viewer's version goes up by exactly one per
change that viewer hears of, and nothing a player's page can read moves for a change hidden
from players (docs/security.md, "Hidden activity"): a player whose stream went 24,
25, 26 while the GM rolled in secret learns nothing from the numbers.

Why after the commit and not inside the change's transaction: an UPDATE of the campaign's
row inside every write would hold that row's lock until the commit, serialising a
campaign's writes, and a service that announces and then locks another row (an award to
the whole party, a character at a time) would deadlock against a roll that locked its
character first. After the commit, it is one short statement of its own. What that costs:
for a moment after the commit the version is still the old one, so a region drawn then
carries the new content under the old version; it is drawn again at the next ask (its
event comes after the bump), never the other way round. A page's version is read before its
content (in the query that checks the viewer), so content is never older than the version
it is labelled with.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.apps import apps
from django.db import connection, transaction

from core.live import Versions, announced

logger = logging.getLogger(__name__)

_bumped: ContextVar[dict[int, Versions]] = ContextVar("bumped")
"""Campaign id -> the versions the last bump made in this context (a request's thread or
task): what :func:`bumped` reads."""


def bump_on_commit(*, campaign_id: int, gm_only: bool = False,
                   **_: Any) -> Callable[[], Versions | None]:
    """Add one to ``campaign_id``'s live version, or to its hidden version when the change
    is ``gm_only`` (shown on the GM's pages alone), once the current transaction commits (at
    once outside one). A receiver of ``core.live.announced``.

    Returns:
        A function giving the versions after the bump once it has run (None before, or if
        it failed): ``core.live.announce`` puts each audience's in its event
        (``liveVersion``).
    """
    bumped: dict[str, Versions] = {}
    column = "hidden_version" if gm_only else "live_version"

    def bump() -> None:
        try:
            # One statement that also reads the new versions back (RETURNING: PostgreSQL,
            # and SQLite from 3.35), rather than an update and a read another change could
            # slip between. The row's lock orders two bumps, so each reads both counters as
            # its own change left them: the GM's sum goes up by exactly one per bump.
            table = apps.get_model("campaigns", "Campaign")._meta.db_table
            with connection.cursor() as cursor:
                cursor.execute(_BUMP.format(table=table, column=column), [campaign_id])
                row = cursor.fetchone()
        except Exception:  # a committed change must not fail for its version
            # Left as it was, the version would let a page that missed the change keep it
            # until the campaign's next change: said loudly, the change itself is safe.
            logger.exception("could not bump the live version of campaign %s", campaign_id)
            return
        if row is not None:
            versions = Versions(players=int(row[0]), gm=int(row[0]) + int(row[1]))
            bumped["versions"] = versions
            _bumped.set({**_bumped.get({}), campaign_id: versions})

    transaction.on_commit(bump)
    return lambda: bumped.get("versions")


_BUMP = ("UPDATE {table} SET {column} = {column} + 1 WHERE id = %s "
         "RETURNING live_version, hidden_version")
"""The bump, formatted with the campaign model's table (read from the app registry: this
module is imported by ``campaigns.apps`` before the models are ready) and the column it
adds one to (one of the two names above, never input)."""


def bumped(campaign_id: int, since: int, *, is_gm: bool) -> int | None:
    """The version, as the GM's pages count it (``is_gm``) or as a player's do, that a
    change committed in this context (a view's own request) brought ``campaign_id`` to, if
    it is later than ``since`` (the version the view read before the change, with its
    viewer's check: ``Campaign.page_version`` for the same viewer); None when nothing this
    request did bumped it.

    A view that answers a change with fresh regions of its page labels them with it
    (:func:`core.regions.drawn`): drawn after the commit and the bump, they show at least
    what that version holds. A value left from an earlier request of the same thread (the
    test client) is at most the current version, so it can only label regions as older than
    they are: a page then asks once more than it needed to, never less.
    """
    versions = _bumped.get({}).get(campaign_id)
    if versions is None:
        return None
    version = versions.gm if is_gm else versions.players
    return version if version > since else None


def connect() -> None:
    """Listen to ``core.live.announced`` (campaigns.apps)."""
    announced.connect(bump_on_commit, dispatch_uid="campaigns.versions.bump_on_commit")
