"""``|roll_header``: a stored roll's pool in words, short, as its system reads it."""

from __future__ import annotations

from django import template

import systems
from rolls.models import Roll
from systems import RollHeader

register = template.Library()


@register.filter
def roll_header(roll: Roll, system: systems.SheetSystem | str | None = None) -> RollHeader:
    """The roll's short header and folded details (:meth:`systems.SheetSystem.roll_header`):
    ``{{ roll|roll_header:system }}`` prints the short line ("Precision + Driving · 7 dice ·
    diff 6"), ``{% with header=roll|roll_header:system %}{{ header.details }}`` the rest.

    ``system``: the roll's system where the page has it (a campaign's pages: its rolls are
    all of its system); without it the roll's ``ruleset`` names it, a column the sheet's
    recent rolls leave unread (reading it there would cost a query per roll).
    """
    if not isinstance(system, systems.SheetSystem):  # none given, or "" from a page without one
        system = systems.for_ruleset(roll.ruleset)
    return system.roll_header(roll)


@register.filter
def roll_readings(roll: Roll, system: systems.SheetSystem | str | None = None) -> str:
    """The table readings the roll was made under that can change a roll of its kind, where
    they differ from the seed's, in words (:meth:`systems.readings.ReadingsPart.readings_text`),
    one sentence each joined by "; "; "" for none. ``system`` as for :func:`roll_header`."""
    if not roll.readings:
        return ""
    if not isinstance(system, systems.SheetSystem):
        system = systems.for_ruleset(roll.ruleset)
    return "; ".join(system.readings_text(roll.readings, roll.kind))
