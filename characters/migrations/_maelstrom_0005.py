"""The conversion characters 0005 runs, frozen: a Maelstrom character's old ``Trait`` and
``MeritFlaw`` rows and track columns as one ``Character.sheet``.

A copy of ``sheet_from_rows`` in systems/maelstrom/legacy.py and of the catalogue order it
reads (rulesets/maelstrom/catalogue.py), kept here so that the migration means the same
whatever the live code becomes: this module changes only with the migration, never with
them. Standard library only. Not a migration itself: Django's migration loader skips the
modules of a migrations package whose name begins with an underscore.

tests/systems/maelstrom/test_legacy_frozen.py runs it and the live module on the same rows
and compares their output byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ATTRIBUTES: tuple[str, ...] = (
    "Strength", "Precision", "Reflexes", "Perception", "Intelligence", "Wits",
)
"""The six attributes in the catalogue's order (Maelstrom rules.md, Attributes)."""

ABILITIES: tuple[str, ...] = (
    # Talents
    "Alertness", "Athletics", "Investigation", "Melee", "Performance", "Stealth",
    "Streetwise", "Technology",
    # Skills
    "Artistry", "Driving", "Firearms", "Heavy Weapons", "Piloting", "Remote Weapons",
    "Survival", "Tradecraft",
    # Knowledges
    "Computer Science", "Engineering", "Humanities", "Manufacturing", "Medicine", "Science",
    "Statecraft", "Navigation",
)
"""The 24 abilities in the catalogue's order, Talents, Skills, then Knowledges (Maelstrom
rules.md, Abilities)."""

CHARACTER_COLUMNS: tuple[str, ...] = (
    "willpower_permanent", "willpower_current", "health_bashing", "health_lethal",
    "health_aggravated", "dead", "huge_size",
)
"""The old ``Character`` columns :func:`sheet_from_rows` reads (its ``character`` argument)."""


def _int(value: Any) -> int:
    # Rows read back from a database: a boolean is never a rank.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def sheet_from_rows(
    character: Mapping[str, Any],
    traits: Iterable[Mapping[str, Any]],
    merits_flaws: Iterable[Mapping[str, Any]],
) -> dict[str, Any]:
    """A Maelstrom ``Character.sheet`` from the old columns and rows.

    Args:
        character: the old track columns (:data:`CHARACTER_COLUMNS`): ``willpower_permanent``
            and ``willpower_current`` (dots), ``health_bashing``, ``health_lethal``,
            ``health_aggravated`` (levels), ``dead`` and ``huge_size`` (booleans). Other keys
            are ignored.
        traits: the old ``Trait`` rows (``kind`` "attribute", "ability" or "specialty",
            ``name``, ``ability``, ``advanced``, ``dots``; other fields are ignored), the
            specialties in the order they were acquired (the rows by id).
        merits_flaws: the old ``MeritFlaw`` rows (``kind`` "merit" or "flaw", ``name``,
            ``points`` in XP, ``detail``).

    Returns:
        ``{"attributes": {name: dots}, "abilities": {name: dots}, "specialties":
        [{"ability", "name", "advanced"}], "merits_flaws": [{"kind", "name", "points",
        "detail"}], "willpower": {"permanent", "current"}, "health": {"bashing", "lethal",
        "aggravated", "dead", "huge_size"}}``. Every ability of :data:`ABILITIES` is present
        (0 dots where no row names it: Maelstrom rules.md, Abilities); the attributes of
        :data:`ATTRIBUTES` come first in its order, then any other attribute or ability as
        given; a specialty row at 0 dots was not owned and is left out (Maelstrom rules.md,
        Specialties); merits and flaws are sorted by (kind, name), a missing detail read as
        "" (Maelstrom rules.md, Merits and Flaws).

    Raises:
        KeyError: a column or a row's field is missing.
        ValueError: a rank, level or point count is not a whole number.
    """
    attributes: dict[str, int] = {}
    abilities: dict[str, int] = dict.fromkeys(ABILITIES, 0)
    specialties: list[dict[str, Any]] = []
    for row in traits:
        kind, name = str(row["kind"]), str(row["name"])
        dots = _int(row["dots"])
        if kind == "attribute":
            attributes[name] = dots
        elif kind == "ability":
            abilities[name] = dots
        elif dots > 0:
            specialties.append({"ability": str(row["ability"]), "name": name,
                                "advanced": bool(row["advanced"])})
    ordered = {name: attributes.pop(name) for name in ATTRIBUTES if name in attributes}
    merits = sorted(
        ({"kind": str(row["kind"]), "name": str(row["name"]), "points": _int(row["points"]),
          "detail": str(row["detail"] or "")} for row in merits_flaws),
        key=lambda row: (row["kind"], row["name"]),
    )
    return {
        "attributes": {**ordered, **attributes},
        "abilities": abilities,
        "specialties": specialties,
        "merits_flaws": merits,
        "willpower": {"permanent": _int(character["willpower_permanent"]),
                      "current": _int(character["willpower_current"])},
        "health": {"bashing": _int(character["health_bashing"]),
                   "lethal": _int(character["health_lethal"]),
                   "aggravated": _int(character["health_aggravated"]),
                   "dead": bool(character["dead"]),
                   "huge_size": bool(character["huge_size"])},
    }
