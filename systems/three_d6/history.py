"""A 3d6 sheet as facts in the sheet's own words, for the activity log and the
between-sessions page (docs/history.md; ``HistoryPart.sheet_facts``).

The facts follow the sheet top to bottom (systems/three_d6/sheet.html): each trait with its
modifier, followed by its two subtraits, under the campaign's names for them; then health
and level. XP (available, earned) is every system's fact (``history.facts``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from systems.three_d6.sheet import HEALTH_START, LEVEL_START, SLOT_GROUPS, signed

_TRACKS = ("Health", "Level")
"""The tracks' labels, which no trait's name takes."""


def _whole(value: object, default: int) -> int:
    """A stored whole number, ``default`` where it is missing or not one (the sheet's
    readers read a damaged value the same way)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def sheet_facts(sheet: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str]:
    """A 3d6 sheet (``{"modifiers": {slot: int}, "level": int, "health": {"current",
    "max"}}``, :mod:`systems.three_d6.sheet`) as facts, label -> value, in the sheet's order:

    - each trait then its two subtraits, by the campaign's name for it (``names``: slot ->
      name, :func:`systems.three_d6.sheet.names`), with its modifier as the sheet writes it:
      "Power" -> "+3", "Might" -> "0";
    - "Health" -> "7 of 10" (current of maximum health points);
    - "Level" -> "2".

    A name the campaign gives two slots stays two facts ("Power", "Power (2)"), and a trait
    the campaign names "Health" or "Level" is "Health (2)" beside the track. Every value
    a track action (health, the GM's level and maximum health) or an XP purchase (a
    modifier) can move is one of these. No query.
    """
    modifiers = sheet.get("modifiers")
    modifiers = modifiers if isinstance(modifiers, Mapping) else {}
    facts: dict[str, str] = {}
    for trait, subtraits in SLOT_GROUPS:
        for slot in (trait, *subtraits):
            label = name = names.get(slot, slot)
            number = 2
            while label in facts or label in _TRACKS:
                label = f"{name} ({number})"
                number += 1
            facts[label] = signed(_whole(modifiers.get(slot), 0))
    track = sheet.get("health")
    track = track if isinstance(track, Mapping) else {}
    maximum = _whole(track.get("max"), HEALTH_START)
    facts["Health"] = f"{_whole(track.get('current'), maximum)} of {maximum}"
    facts["Level"] = str(_whole(sheet.get("level"), LEVEL_START))
    return facts
