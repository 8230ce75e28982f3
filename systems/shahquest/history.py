"""A Shahquest sheet as facts (``SheetSystem.sheet_facts``; docs/history.md): what the
activity log compares before and after each change ("Physical stress: d6 -> d8") and the
between-sessions page compares across sessions, in the sheet's words and order.

Every value a sheet action, an XP purchase or the GM can move is a fact here: plot points,
what waits for the next roll (Shahquest wiki, Activate Opportunity die), the stress effect
just taken whose type a plot point may still change (Change Stress Type), stress and trauma
of each type with the day the next trauma recovery may be tried (Stress and Trauma; Stressing
Out and Trauma), then every feature by the sheet's groups: its dice, a skill's
specializations, a power set's powers, special effects and limits with their text. A fact
with nothing to say is left out (the log reads a missing fact as ``""``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets import shahquest as sq
from systems.shahquest.sheet import (
    TEXT_TYPES,
    TYPE_LABELS,
    USE_LABELS,
    _stress_of,
    feature_dice,
    next_roll_push_die,
    next_roll_step_up,
    stress_taken,
    trauma_recovery,
)

__all__ = ["sheet_facts"]

_TEXT_LABELS = {"sfx": "SFX", "limit": "Limit"}


def _stress_words(line: sq.StressLine) -> str:
    """"none", "d8", or "d12, stressed out" (the die stays at d12 until recovered)."""
    if line.stress is None:
        return "none"
    return f"d{line.stress}" + (", stressed out" if line.stressed_out else "")


def _trauma_words(line: sq.StressLine, next_recovery: str) -> str:
    """"none", "d6", "d6, next recovery from 8 May 2026" or "taken out (trauma past d12)"."""
    if line.taken_out:
        return "taken out (trauma past d12)"
    if line.trauma is None:
        return "none"
    return f"d{line.trauma}" + (f", next recovery from {next_recovery}" if next_recovery
                                else "")


def _add(facts: dict[str, str], label: str, value: str) -> None:
    """Add a fact; a second fact of the same label (two features of one name on an imported
    sheet) stays a fact of its own, "<label> (2)"."""
    unique, number = label, 2
    while unique in facts:
        unique = f"{label} ({number})"
        number += 1
    facts[unique] = value


def sheet_facts(sheet: Mapping[str, Any]) -> dict[str, str]:
    """The facts of a stored Shahquest sheet (the shape in :mod:`systems.shahquest.sheet`),
    label -> value, in the order the sheet page shows them:

    - "Plot points" -> "2";
    - "Next roll" -> "a stepped up push die (d8)", "a step up of one die", or both joined by
      "and" (only while one waits);
    - "Stress just taken" -> "d6 physical" (only while a plot point may change its type);
    - for each stress type, "Physical stress" -> "none", "d8" or "d12, stressed out", and
      "Physical trauma" -> "none", "d6", "d6, next recovery from 8 May 2026" or "taken out
      (trauma past d12)";
    - each feature under its group's title: "Affiliations · Solo" -> "2d8",
      "Attributes · Coordination" -> "d10", "Skills · Physical" -> "d8" and its
      specializations "Skills · Physical · Athletics" -> "spreads" (or "steps up"),
      "Quirks · I've got your back" -> "d8", "Resources · Grappling hook" -> "d6", and per
      power set "Power sets · Thief's luck · Shadow step" -> "d6", "Power sets · Thief's
      luck · SFX Vanish" and "... · Limit Bright light" -> their text ("no description"
      when blank); a feature of a type the page does not group (a stored complication,
      asset, stress or trauma feature) last, "Complication · Cornered" -> "d6".

    Pure: reads the sheet alone (no query, no clock), so the same sheet always gives the
    same facts. Raises RuleError for a stored track, reward or day the sheet's checks refuse.
    """
    facts: dict[str, str] = {"Plot points": str(int(sheet.get("plot_points", 0)))}
    waiting = [words for waits, words in ((next_roll_push_die, "a stepped up push die (d8)"),
                                          (next_roll_step_up, "a step up of one die"))
               if waits(sheet)]
    if waiting:
        facts["Next roll"] = " and ".join(waiting)
    taken = stress_taken(sheet)
    if taken is not None:
        facts["Stress just taken"] = f"d{taken[1]} {taken[0]}"
    track, days = _stress_of(sheet), trauma_recovery(sheet)
    for kind in sq.STRESS_TYPES:
        line = track.line(kind)
        facts[f"{kind.capitalize()} stress"] = _stress_words(line)
        day = days.get(kind)
        facts[f"{kind.capitalize()} trauma"] = _trauma_words(
            line, sq.day_text(day) if day else "")
    entries = [entry for entry in sheet.get("features", []) if isinstance(entry, Mapping)]
    for kind, title in TYPE_LABELS.items():
        if kind == "power_set":
            sets = dict.fromkeys(str(e.get("power_set") or "") for e in entries
                                 if e["type"] in ("power_set", *TEXT_TYPES))
            for name in sets:
                in_set = [e for e in entries if str(e.get("power_set") or "") == name]
                for entry in (e for e in in_set if e["type"] == "power_set"):
                    _add(facts, f"{title} · {name} · {entry['name']}", feature_dice(entry))
                for text_type, word in _TEXT_LABELS.items():
                    for entry in (e for e in in_set if e["type"] == text_type):
                        _add(facts, f"{title} · {name} · {word} {entry['name']}",
                             str(entry.get("text") or "").strip() or "no description")
            continue
        for entry in (e for e in entries if e["type"] == kind):
            label = f"{title} · {entry['name']}"
            _add(facts, label, feature_dice(entry))
            for spec in entry.get("specializations", []) if kind == "skill" else []:
                _add(facts, f"{label} · {spec['name']}",
                     USE_LABELS.get(spec.get("use", ""), "learned"))
    shown = {*TYPE_LABELS, *TEXT_TYPES}
    for entry in (e for e in entries if e["type"] not in shown):
        kind = str(entry["type"]).replace("_", " ").capitalize()
        _add(facts, f"{kind} · {entry['name']}", feature_dice(entry))
    return facts
