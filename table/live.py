"""What the campaign's page draws of a change before anyone asks: a new roll's line in the
latest rolls (``campaign-rolls``), which travels with the roll's event (``core.live.drawing``;
docs/decisions.md, "The GM's dashboard and the live table").

The line of a roll is the same for everyone who hears its event (a GM-only roll is announced
to the GM alone, and the line shows nothing a member may not see), so it is drawn once, when
the roll commits, and a page whose list was current just before the roll puts it at the head
of the list and drops the last (static/js/live.js).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string

import systems
from core.live import Lines, drawing
from rolls.live import new_roll

ROLL_LINE = "table/campaign_detail.html#roll-line"
"""A roll's line in the latest rolls (``roll`` and ``system`` in its context)."""

LATEST_ROLLS = "campaign-rolls"
"""The region whose list the line joins (table.views.live_board)."""


def roll_line(*, event: str, subject: object = None, **_: Any
              ) -> Callable[[], Lines] | None:
    """A receiver of ``core.live.drawing``: for a top-level roll just stored (``rollMade``,
    its Roll as ``subject``), a function giving ``{"rollMade": {"campaign-rolls": its
    line}}`` (the name the campaign's page hears), drawn as the region draws it; None for
    anything else (a follow-up is no line of the list, and an announcement that names no
    roll leaves the pages to ask)."""
    roll = new_roll(event, subject)
    if roll is None:
        return None

    def draw() -> Lines:
        system = systems.for_ruleset(roll.ruleset)
        return {event: {LATEST_ROLLS: render_to_string(ROLL_LINE, {"roll": roll,
                                                                   "system": system})}}

    return draw


def connect() -> None:
    """Listen to ``core.live.drawing`` (table.apps)."""
    drawing.connect(roll_line, dispatch_uid="table.live.roll_line")
