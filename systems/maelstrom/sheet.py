"""Maelstrom's ``Character.sheet``: its shape, its readers and its writers (pure, no queries).

The sheet (a JSON object; jsonb keeps no key order, so every layout order comes from the
catalogue, :data:`rulesets.maelstrom.ATTRIBUTE_GROUPS` and ``ABILITY_GROUPS``)::

    {
      "attributes": {"Strength": 2, ...},          # all six, dots 1-5
      "abilities": {"Athletics": 0, ...},          # every catalogue ability, dots 0-5
      "specialties": [{"ability": "Driving", "name": "Motorcycles", "advanced": false}, ...],
                                                   # in the order acquired
      "merits_flaws": [{"kind": "merit", "name": "Huge Size", "points": 4, "detail": ""}],
                                                   # sorted by (kind, name)
      "willpower": {"permanent": 3, "current": 3},  # 1-10, current 0..permanent; at 0,
                                                   # "incapacitation_resolved": true once the
                                                   # character recovered by themselves;
                                                   # "wounds_ignored_in": the encounter turn
                                                   # a dot last ignored the wound penalty
      "health": {"bashing": 0, "lethal": 0, "aggravated": 0, "dead": false,
                 "huge_size": false}
    }

Ledger keys (``XpEntry.trait_key``): ``attribute:Strength``, ``ability:Driving``,
``specialty:Driving:Cars`` and ``willpower`` (Maelstrom rules.md, Character Progression).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulesets import maelstrom

SLUG = "maelstrom"

WILLPOWER_KEY = "willpower"
"""The ledger key of Willpower (Maelstrom rules.md, Willpower)."""

ATTRIBUTE = "attribute"
ABILITY = "ability"
SPECIALTY = "specialty"
MERIT = "merit"
GROUPS = {ATTRIBUTE: "attributes", ABILITY: "abilities"}
"""The sheet's key holding each kind of rated trait's dots."""
FLAW = "flaw"


def trait_key(kind: str, name: str = "", ability: str = "") -> str:
    """The ledger key of a trait.

    Args:
        kind: "attribute", "ability", "specialty" or "willpower".
        name: the trait's name (the specialty's own name for a specialty).
        ability: a specialty's ability.

    Returns:
        ``attribute:Strength``, ``ability:Driving``, ``specialty:Driving:Cars`` or
        ``willpower``.
    """
    if kind == WILLPOWER_KEY:
        return WILLPOWER_KEY
    if kind == SPECIALTY:
        return f"specialty:{ability}:{name}"
    return f"{kind}:{name}"


def trait_label(key: str) -> str:
    """A readable name for a ledger key: ``ability:Driving`` -> ``Driving``,
    ``specialty:Driving:Cars`` -> ``Driving: Cars``, ``willpower`` -> ``Willpower``."""
    if key == WILLPOWER_KEY:
        return "Willpower"
    parts = key.split(":")
    if parts[0] == SPECIALTY and len(parts) == 3:
        return f"{parts[1]}: {parts[2]}"
    return parts[-1]


def _merit_flaw(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {"kind": str(entry["kind"]), "name": str(entry["name"]),
            "points": int(entry["points"]), "detail": str(entry.get("detail", ""))}


def new_sheet(
    *,
    attributes: Mapping[str, int],
    abilities: Mapping[str, int],
    specialties: Iterable[tuple[str, str, bool]] = (),
    merits_flaws: Iterable[Mapping[str, Any]] = (),
    willpower: int = maelstrom.STARTING_WILLPOWER,
    huge_size: bool = False,
) -> dict[str, Any]:
    """A new character's sheet (Maelstrom rules.md, Traits / Willpower / Health).

    Args:
        attributes: dots (1-5) by attribute name; all six are needed (KeyError otherwise).
        abilities: dots (0-5) by ability name; a catalogue ability missing here gets 0 dots,
            a name the catalogue lacks is left out.
        specialties: ``(ability, name, advanced?)`` for each specialty owned, in the order
            acquired.
        merits_flaws: ``{"kind": "merit"|"flaw", "name", "points", "detail"?}`` each; stored
            sorted by (kind, name).
        willpower: permanent (and current) Willpower, 1-10.
        huge_size: the Huge Size merit's ninth health box.

    Returns:
        The sheet as a JSON object (the shape in this module's docstring); nothing is
        validated beyond the shape (the creation rules are the wizard's).
    """
    return {
        "attributes": {name: int(attributes[name]) for name in maelstrom.ATTRIBUTES},
        "abilities": {name: int(abilities.get(name, 0)) for name in maelstrom.ABILITIES},
        "specialties": [{"ability": ability, "name": name, "advanced": bool(advanced)}
                        for ability, name, advanced in specialties],
        "merits_flaws": sorted((_merit_flaw(m) for m in merits_flaws),
                               key=lambda m: (m["kind"], m["name"])),
        "willpower": {"permanent": willpower, "current": willpower},
        "health": {"bashing": 0, "lethal": 0, "aggravated": 0, "dead": False,
                   "huge_size": bool(huge_size)},
    }


def health(sheet: Mapping[str, Any]) -> maelstrom.HealthChart:
    """The health chart of ``sheet`` as the engine's value object (Maelstrom rules.md,
    Marking Damage). Raises RuleError when the counts do not fit the chart, KeyError when
    the sheet has no health."""
    track = sheet["health"]
    return maelstrom.HealthChart(
        bashing=track["bashing"], lethal=track["lethal"], aggravated=track["aggravated"],
        huge_size=bool(track.get("huge_size", False)), dead=bool(track.get("dead", False)),
    )


def set_health(sheet: dict[str, Any], chart: maelstrom.HealthChart) -> None:
    """Write ``chart`` into ``sheet["health"]`` in place (the caller saves the character)."""
    sheet["health"] = {"bashing": chart.bashing, "lethal": chart.lethal,
                       "aggravated": chart.aggravated, "dead": chart.dead,
                       "huge_size": chart.huge_size}


def willpower(sheet: Mapping[str, Any]) -> tuple[int, int]:
    """``(permanent, current)`` Willpower of ``sheet`` (Maelstrom rules.md, Willpower)."""
    track = sheet["willpower"]
    return int(track["permanent"]), int(track["current"])


def set_willpower(sheet: dict[str, Any], permanent: int, current: int) -> None:
    """Write Willpower into ``sheet`` in place (the caller saves the character). Any change
    of willpower ends a resolved incapacitation (:func:`incapacitation_resolved`): a dot
    recovered, or current Willpower back at 0, which incapacitates again.

    Raises:
        ValueError: a rank outside 0-10 or current above permanent (callers check the rules
            first, with a message a player reads; this is the guard).
    """
    if not 0 <= current <= permanent <= maelstrom.WILLPOWER_MAX:
        raise ValueError(f"willpower {current}/{permanent} out of range")
    turn = sheet["willpower"].get(WOUNDS_IGNORED_IN) if "willpower" in sheet else None
    sheet["willpower"] = {"permanent": permanent, "current": current,
                          **({WOUNDS_IGNORED_IN: turn} if turn else {})}


WOUNDS_IGNORED_IN = "wounds_ignored_in"
"""The key of ``sheet["willpower"]`` that records the encounter turn
(``systems.initiative.ENCOUNTER_TURN``, ``"<encounter id>:<round>"``) in which a dot last
ignored the wound penalty, kept under the table reading "once per turn" (Maelstrom rules.md,
Spending Willpower); absent: none. A change of Willpower keeps it."""


def wounds_ignored_in(sheet: Mapping[str, Any]) -> str | None:
    """The encounter turn in which a dot last ignored the wound penalty, or None."""
    turn = sheet["willpower"].get(WOUNDS_IGNORED_IN)
    return str(turn) if turn else None


def mark_wounds_ignored(sheet: dict[str, Any], turn: str) -> None:
    """Record in ``sheet`` that a dot ignored the wound penalty in ``turn`` (the caller
    saves the character)."""
    sheet["willpower"] = {**sheet["willpower"], WOUNDS_IGNORED_IN: turn}


INCAPACITATION_RESOLVED = "incapacitation_resolved"
"""The key of ``sheet["willpower"]`` that records a zero-willpower incapacitation resolved
without a dot (Maelstrom rules.md, Zero Willpower); absent means false."""


def incapacitation_resolved(sheet: Mapping[str, Any]) -> bool:
    """Whether ``sheet``'s character, at zero current Willpower, has resolved the
    incapacitation by themselves: "fully out of combat for at least one turn ... this only
    resolves the incapacitation and does not recover a dot of Willpower" (Maelstrom rules.md,
    Zero Willpower). False above zero dots, whatever is stored."""
    track = sheet["willpower"]
    return int(track["current"]) == 0 and track.get(INCAPACITATION_RESOLVED) is True


def resolve_incapacitation(sheet: dict[str, Any]) -> None:
    """Record in ``sheet`` that the zero-willpower incapacitation is resolved, Willpower
    unchanged (the caller checks current Willpower is 0 and saves the character)."""
    sheet["willpower"] = {**sheet["willpower"], INCAPACITATION_RESOLVED: True}


def trait_refs(sheet: Mapping[str, Any]) -> dict[str, maelstrom.TraitRef]:
    """Every attribute and ability of ``sheet`` by name, as the engine's pool references.

    Returns:
        ``{name: TraitRef(name, kind "attribute"|"ability", dots, group)}``, attributes
        first, then abilities, in the catalogue's order (groups: "Physical"/"Mental" for
        attributes, "Talents"/"Skills"/"Knowledges" for abilities); every catalogue
        ability is there, one the sheet lacks at 0 dots.
    """
    refs: dict[str, maelstrom.TraitRef] = {}
    attributes = sheet.get("attributes", {})
    for group, names in maelstrom.ATTRIBUTE_GROUPS.items():
        for name in names:
            if name in attributes:
                refs[name] = maelstrom.TraitRef(name=name, kind=ATTRIBUTE,
                                                dots=int(attributes[name]), group=group)
    # Every character has every ability of the catalogue, untrained at 0 dots (Maelstrom
    # rules.md, Abilities): one the sheet lacks reads as 0.
    abilities = sheet.get("abilities", {})
    for group, names in maelstrom.ABILITY_GROUPS.items():
        for name in names:
            refs[name] = maelstrom.TraitRef(name=name, kind=ABILITY,
                                            dots=int(abilities.get(name, 0)), group=group)
    return refs


def specialty_refs(sheet: Mapping[str, Any]) -> dict[str, maelstrom.SpecialtyRef]:
    """The specialties ``sheet`` owns, by label "Ability: Name", in the order acquired
    (Maelstrom rules.md, Specialties)."""
    return {
        f"{s['ability']}: {s['name']}": maelstrom.SpecialtyRef(
            name=s["name"], ability=s["ability"], advanced=bool(s.get("advanced", False)))
        for s in sheet.get("specialties", [])
    }


def has_merit(sheet: Mapping[str, Any], name: str) -> bool:
    """Whether ``sheet`` has the merit ``name`` (e.g. "Strong Bond", "Huge Size")."""
    return any(m.get("kind") == MERIT and m.get("name") == name
               for m in sheet.get("merits_flaws", []))


def is_dead(sheet: Mapping[str, Any]) -> bool:
    """Whether the character of ``sheet`` is dead (Maelstrom rules.md, Incapacitation and
    Death); a sheet without health is not."""
    return bool(sheet.get("health", {}).get("dead", False))
