"""What several Maelstrom test modules do to a sheet: set its tracks as a starting state, read
its current Willpower."""

from __future__ import annotations

import copy

from characters.models import Character
from systems.maelstrom import sheet
from tests.helpers import fresh

TRACKS = {
    "willpower_permanent": ("willpower", "permanent"),
    "willpower_current": ("willpower", "current"),
    "health_bashing": ("health", "bashing"),
    "health_lethal": ("health", "lethal"),
    "health_aggravated": ("health", "aggravated"),
    "dead": ("health", "dead"),
}
"""The tracks :func:`set_tracks` writes: name -> (part of the sheet, key)."""


def set_tracks(character: Character, **tracks: object) -> None:
    """Write track values straight into the stored sheet (``willpower_current=0``,
    ``health_lethal=2``, ``dead=True``...), as a test's starting state, not a rule's move."""
    stored = copy.deepcopy(Character.objects.get(pk=character.pk).sheet)
    for name, value in tracks.items():
        part, key = TRACKS[name]
        stored[part][key] = value
    Character.objects.filter(pk=character.pk).update(sheet=stored)


def current_willpower(character: Character) -> int:
    """The character's current Willpower as stored now."""
    return sheet.willpower(fresh(character).sheet)[1]
