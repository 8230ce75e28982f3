"""A Maelstrom sheet as facts in the sheet's own words, for the activity log and the
between-sessions page (docs/history.md; ``HistoryPart.sheet_facts``).

The facts follow the sheet top to bottom (systems/maelstrom/sheet.html): the attributes in
their groups, the abilities in theirs, each with its specialties, Willpower, the health chart,
then the merits and flaws. XP (available, earned) is every system's fact
(``history.facts``); XP banked in a trait is the ledger's, not the sheet's, and moves with
XP available.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulesets import maelstrom
from systems.maelstrom.sheet import (
    ABILITY,
    FLAW,
    MERIT,
    health,
    incapacitation_resolved,
    trait_refs,
    willpower,
)


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def health_text(chart: maelstrom.HealthChart) -> str:
    """The health chart in words, as the sheet heads it: "Healthy", "Bruised (1 bashing)",
    "Injured (1 lethal, 3 bashing), wound penalty -2", "Incapacitated (8 bashing),
    unconscious", "Dead (2 aggravated, 6 lethal)"; a Huge Size chart says "9 boxes"
    (Maelstrom rules.md, Marking Damage, Wound Penalties, Incapacitation and Death)."""
    marked = [f"{getattr(chart, kind)} {kind}" for kind in ("aggravated", "lethal", "bashing")
              if getattr(chart, kind)]
    text = chart.level_name + (f" ({', '.join(marked)})" if marked else "")
    if chart.wound_penalty:
        text += f", wound penalty -{chart.wound_penalty}"
    if chart.incapacitated and not chart.dead:
        text += ", unconscious"
    if chart.huge_size:
        text += f", {chart.boxes} boxes"
    return text


def willpower_text(sheet: Mapping[str, Any]) -> str:
    """Current of permanent Willpower, "3 of 5"; at zero, "0 of 5, incapacitated" or "0 of 5,
    incapacitation resolved" (Maelstrom rules.md, Willpower, Zero Willpower)."""
    permanent, current = willpower(sheet)
    text = f"{current} of {permanent}"
    if current == 0:
        text += (", incapacitation resolved" if incapacitation_resolved(sheet)
                 else ", incapacitated")
    return text


def sheet_facts(sheet: Mapping[str, Any]) -> dict[str, str]:
    """A Maelstrom sheet (the shape of :mod:`systems.maelstrom.sheet`) as facts, label ->
    value, in the sheet's order:

    - every attribute, then every ability (the catalogue's groups and order), by name, with
      its dots: "Precision" -> "3", "Medicine" -> "0";
    - after its ability, each specialty, by name: "Driving: Cars" -> "general specialty",
      "Firearms: Extreme Range" -> "advanced specialty";
    - "Willpower" -> "3 of 5" (:func:`willpower_text`);
    - "Health" -> "Injured (1 lethal, 3 bashing), wound penalty -2" (:func:`health_text`);
    - each merit and flaw, with its detail: "Merit: Huge Size" -> "4 XP", "Flaw: Addict
      (nicotine)" -> "+1 XP".

    Every value a track action, an XP purchase or the GM's grant can move is one of these
    (what only the sheet's machinery reads, as the encounter turn a dot last ignored the wound
    penalty in, is left out). No query.
    """
    facts: dict[str, str] = {}
    specialties: dict[str, list[Mapping[str, Any]]] = {}
    for specialty in sheet.get("specialties", []):
        specialties.setdefault(str(specialty["ability"]), []).append(specialty)
    for ref in trait_refs(sheet).values():
        facts[ref.name] = str(ref.dots)
        if ref.kind != ABILITY:
            continue
        # The sheet lists an ability's specialties by name.
        for specialty in sorted(specialties.get(ref.name, []), key=lambda s: str(s["name"])):
            kind = "advanced" if specialty.get("advanced") else "general"
            facts[f"{ref.name}: {specialty['name']}"] = f"{kind} specialty"
    if "willpower" in sheet:
        facts["Willpower"] = willpower_text(sheet)
    if "health" in sheet:
        facts["Health"] = health_text(health(sheet))
    rows = sorted(sheet.get("merits_flaws", []),
                  key=lambda m: (m.get("kind") != MERIT, str(m.get("name")),
                                 str(m.get("detail") or "")))
    for row in rows:
        kind = "Merit" if row.get("kind") == MERIT else "Flaw"
        detail = f" ({row['detail']})" if row.get("detail") else ""
        label = f"{kind}: {row.get('name')}{detail}"
        number = 2
        while label in facts:  # the same merit twice stays two facts
            label = f"{kind}: {row.get('name')}{detail} ({number})"
            number += 1
        points = int(row.get("points", 0))
        facts[label] = f"+{points} XP" if row.get("kind") == FLAW else f"{points} XP"
    return facts
