"""Shahquest's checks of stored data: a character's sheet (:func:`check_sheet`) and the
campaign's tension pool (:func:`check_system_data`), as an import or a hand-edited row may
bring them; the system's ``check_sheet`` and ``check_system_data`` call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets import shahquest as sq
from rulesets.errors import RuleError
from systems import require, stored_int
from systems.shahquest.sheet import MAX_PLOT_POINTS, RULE_PLOT_POINTS, TEXT_TYPES, _stress_of
from systems.shahquest.tension import _TENSION, MAX_TENSION_DICE, tension_state

# --- a stored sheet's check (SheetSystem.check_sheet) -------------------------------------------


def _stored_feature(entry: Mapping[str, Any], **extra: Any) -> sq.Feature:
    # Unlike _engine_feature, nothing is coerced: a stored count of "2" or a missing type
    # reaches the engine's check as it is and is refused there, not read as 2.
    # Stored JSON, unchecked on purpose (Any): a missing type or die (None) reaches the
    # engine's check, which refuses it.
    kind: Any = entry.get("type")
    die: Any = entry.get("die")
    return sq.Feature(type=kind, name=entry["name"], die=die,
                      count=entry.get("count") or 1, **extra)


def check_sheet(sheet: Mapping[str, Any]) -> None:
    """:meth:`~systems.shahquest.system.Shahquest.check_sheet`: every feature named (no
    colon, which separates the XP ledger's keys) and checked by the engine's
    :func:`rulesets.shahquest.check_feature` with each of its specializations (Shahquest
    wiki, Feature Types; Dice, Step Up, Step Down, and Spreads); special effects and limits
    (text) each in a power set; plot points 0 to
    :data:`~systems.shahquest.sheet.MAX_PLOT_POINTS` (Shahquest wiki, Plot Points); the
    stress track as :func:`~systems.shahquest.sheet.stress_track` reads it (Shahquest wiki,
    Stress and Trauma).

    Raises:
        RuleError: the first value refused (see :meth:`SheetSystem.check_sheet`).
    """
    features: Any = sheet.get("features")  # stored JSON: require() refuses a non-list
    require(isinstance(features, list), "the sheet's features must be a list")
    for entry in features:
        require(isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and entry["name"].strip() != "" and ":" not in entry["name"],
                f"a feature needs a name without a colon: {entry!r}")
        kind = entry.get("type")
        if kind in TEXT_TYPES:  # power-set text, no die
            require(isinstance(entry.get("power_set"), str),
                    f"the {kind} {entry['name']!r} belongs to a power set")
            continue
        sq.check_feature(_stored_feature(entry))
        specializations = entry.get("specializations", [])
        require(isinstance(specializations, list),
                f"the specializations of {entry['name']!r} must be a list")
        for spec in specializations:
            require(isinstance(spec, dict) and isinstance(spec.get("name"), str),
                    f"a specialization of {entry['name']!r} needs a name")
            sq.check_feature(_stored_feature(entry, specialization=spec["name"],
                                             specialization_use=spec.get("use", "")))
    stored_int(sheet.get("plot_points", 0), "Plot points", 0, MAX_PLOT_POINTS,
               RULE_PLOT_POINTS)
    _stress_of(sheet)


# --- the campaign's stored tension pool (SheetSystem.check_system_data) ------------------------


def check_system_data(system_data: Mapping[str, Any]) -> None:
    """Refuse stored tension-pool data the moves of :mod:`systems.shahquest.actions` could
    never leave (the sheet layer's ``check_system_data``): it must read as
    :func:`~systems.shahquest.tension.tension_state` reads it.

    Args:
        system_data: a would-be ``Campaign.system_data`` (missing keys read as the defaults).

    Raises:
        RuleError: a pool, starting pool or dice set aside that is not a list of step dice,
            or a starting pool of more than
            :data:`~systems.shahquest.tension.MAX_TENSION_DICE` dice (Shahquest wiki, Tension
            Pool; Using the Tension Pool).
    """
    state = tension_state(system_data)
    # The starting pool passes through tension-start, which caps it; the pool itself may grow
    # past it one opportunity at a time, as at the table.
    if len(state["starting"]) > MAX_TENSION_DICE:
        raise RuleError(f"a starting tension pool of {len(state['starting'])} dice is more "
                        f"than the {MAX_TENSION_DICE} Sheetkeeper allows", _TENSION)
