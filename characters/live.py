"""What a character's sheet draws of a change before anyone asks: a new roll's line in the
sheet's recent rolls (``recent-rolls``), which travels with the roll's event
(``core.live.drawing``), as the latest rolls' line does on the campaign's page (table.live).

The line of a roll is the same for everyone who hears its event (a character's roll is never
GM-only, and the box draws nothing by viewer), so it is drawn once, when the roll commits,
rather than each open page of the sheet (the roller's, a second tab, the GM looking at it)
reading and drawing the whole box again (five rolls, their follow-ups, each one's dice). A
sheet whose box was current just before the roll puts the line at the head of the list and
drops the last (static/js/live.js); any other page asks for the box (docs/decisions.md, "The
GM's dashboard and the live table").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string

import systems
from core.live import Lines, drawing
from rolls.live import new_roll

RECENT_ROLLS_REGION = "recent-rolls"
"""The sheet's recent-rolls region (characters.views.live_sheet), whose list the line joins."""


def recent_roll_line(*, event: str, subject: object = None, **_: Any
                     ) -> Callable[[], Lines] | None:
    """A receiver of ``core.live.drawing``: for a character's top-level roll just stored
    (``rollMade``, its Roll as ``subject``), a function giving ``{"rollMade-<character id>":
    {"recent-rolls": its line}}`` (the name the character's sheet hears), drawn by the
    system's own sheet as its recent-rolls region draws each roll
    (``characters/_recent_rolls.html``, its ``recent-roll`` partial, with whatever the sheet
    passes it, such as the dice); None for anything else (a follow-up changes a line
    already shown, an NPC's roll is on no sheet, and an announcement that names no roll
    leaves the pages to ask)."""
    roll = new_roll(event, subject)
    if roll is None or roll.character_id is None:
        return None

    def draw() -> Lines:
        system = systems.for_ruleset(roll.ruleset)
        # Without the template's leading lines (its comment, its loads): the item alone.
        html = render_to_string(
            f"{system.template('sheet.html')}#{RECENT_ROLLS_REGION}",
            {"recent_roll_line": roll, "system": system,
             "roll_template": system.template("_roll.html")},
        ).strip()
        return {f"{event}-{roll.character_id}": {RECENT_ROLLS_REGION: html}}

    return draw


def connect() -> None:
    """Listen to ``core.live.drawing`` (characters.apps)."""
    drawing.connect(recent_roll_line, dispatch_uid="characters.live.recent_roll_line")
