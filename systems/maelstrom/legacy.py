"""Maelstrom's data in the storage of format version 1 (docs/backup.md, "Format version 1"),
turned into the shared storage's shapes.

In that storage a Maelstrom character keeps its traits in ``Trait`` rows, its merits and flaws
in ``MeritFlaw`` rows and its tracks in seven ``Character`` columns; a character's roll keeps
its faces in the ``Roll.dice``, ``bonus_dice`` and ``experience_die`` columns (its
``result`` is ``{}``); a roll request keeps its pool in the ``RequestedRoll.kind``,
``traits``, ``difficulty`` and ``threshold`` columns. The functions here convert one such
row at a time into ``Character.sheet``, ``Roll.result`` and ``RequestedRoll.data`` /
``description`` (the shapes are described in the module docstring of
:mod:`systems.maelstrom.sheet` and in docs/architecture.md).

They take plain mappings (an object of a version-1 export file), for the version-1 import
of ``transfer``; the data migrations that made the same conversion of a database (characters
0005, rolls 0009) carry frozen copies of their own. Pure: no queries, no Django. They convert
faithfully and check nothing beyond what they must read: a sheet with a bad value comes out
with the same bad value, for the system's check of stored data (:mod:`systems.maelstrom.
checks`) to refuse.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulesets import maelstrom

SHEET_KEYS: tuple[str, ...] = (
    "attributes", "abilities", "specialties", "merits_flaws", "willpower", "health",
)
"""The keys of a Maelstrom ``Character.sheet``."""

CHARACTER_COLUMNS: tuple[str, ...] = (
    "willpower_permanent", "willpower_current", "health_bashing", "health_lethal",
    "health_aggravated", "dead", "huge_size",
)
"""The old ``Character`` columns :func:`sheet_from_rows` reads (its ``character`` argument)."""

ROLL_COLUMNS: tuple[str, ...] = ("pool", "dice", "bonus_dice", "experience_die")
"""The old ``Roll`` columns :func:`result_from_columns` reads."""

REQUEST_COLUMNS: tuple[str, ...] = ("kind", "traits", "difficulty", "threshold")
"""The old ``RequestedRoll`` columns :func:`request_from_columns` reads (besides ``data`` and
``description``, which a described system's request already filled)."""


def _int(value: Any) -> int:
    # Rows read back from a database or a JSON file: a boolean is never a rank.
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
            ``name``, ``ability``, ``advanced``, ``dots``; ``group`` and ``position`` are
            not needed, the catalogue lays the sheet out), the specialties in the order
            they were acquired (pass the rows by id).
        merits_flaws: the old ``MeritFlaw`` rows (``kind`` "merit" or "flaw", ``name``,
            ``points`` in XP, ``detail``).

    Returns:
        ``{"attributes": {name: dots}, "abilities": {name: dots}, "specialties":
        [{"ability", "name", "advanced"}], "merits_flaws": [{"kind", "name", "points",
        "detail"}], "willpower": {"permanent", "current"}, "health": {"bashing", "lethal",
        "aggravated", "dead", "huge_size"}}``. Every ability of the catalogue is present (0
        dots where no row names it, as the old rows were made: Maelstrom rules.md,
        Abilities); attributes and abilities not in the catalogue are kept as given (for the
        checks to refuse); a specialty row at 0 dots was not owned and is left out
        (Maelstrom rules.md, Specialties); merits and flaws are sorted by (kind, name) as the
        old rows were ordered (Maelstrom rules.md, Merits and Flaws).

    Raises:
        KeyError: a column or a row's field is missing.
        ValueError: a rank, level or point count is not a whole number.
    """
    attributes: dict[str, int] = {}
    abilities: dict[str, int] = {name: 0 for names in maelstrom.ABILITY_GROUPS.values()
                                 for name in names}
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
    # The catalogue's order first, so the dict reads like the sheet where order is kept.
    ordered = {name: attributes.pop(name) for name in maelstrom.ATTRIBUTES if name in attributes}
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


def is_full_result(result: object) -> bool:
    """Whether a stored ``Roll.result`` already holds a whole
    :meth:`rulesets.maelstrom.RollResult.as_dict` (an NPC's quick roll keeps it so in
    format version 1), so that :func:`result_from_columns` has nothing to add."""
    return isinstance(result, Mapping) and result.get("system") == "maelstrom" and all(
        key in result for key in ("pool", "dice", "bonus_dice", "experience_die",
                                  "resolution"))


def result_from_columns(roll: Mapping[str, Any]) -> dict[str, Any]:
    """The ``Roll.result`` of an old Maelstrom roll row: the engine's
    :meth:`rulesets.maelstrom.RollResult.as_dict` of its pool and faces.

    The resolution and summary are recomputed by the engine from the pool and the faces
    (:meth:`rulesets.maelstrom.RollResult.from_dict`, Maelstrom rules.md, Resolving the
    Result), as every read of a stored roll recomputes them, so ``RollResult.from_dict`` of
    the answer reads back the same outcome, net successes and botches. For a follow-up the
    faces are the whole roll's: an experience die's row holds its parent's dice and bonus
    dice and its ``experience_die``; a willpower spend's row holds its parent's faces, so its
    result is the parent's (its own ``outcome``, ``net`` and ``summary`` columns say what the
    spend made of it).

    Args:
        roll: the old columns :data:`ROLL_COLUMNS`: ``pool`` (the
            :meth:`rulesets.maelstrom.ActionPool.as_dict`), ``dice``, ``bonus_dice`` and
            ``experience_die`` (lists of d10 faces). Other keys are ignored.

    Returns:
        ``{"system": "maelstrom", "pool", "dice", "bonus_dice", "experience_die",
        "resolution": {"successes", "removed_by_threshold", "botches", "net", "outcome"},
        "summary"}``.

    Raises:
        KeyError: a column is missing.
        rulesets.errors.RuleError: the pool or a face cannot be read (a face outside
            1-10, a missing pool field; cited to Maelstrom rules.md, Resolving the Result).
    """
    stored = {key: roll[key] for key in ROLL_COLUMNS}
    return maelstrom.RollResult.from_dict(stored).as_dict()


def result_as_stored(roll: Mapping[str, Any]) -> dict[str, Any]:
    """The ``Roll.result`` of an old roll row that the engine cannot read back (a damaged
    pool or face, which no roll made here has), kept as stored rather than lost: the
    columns :data:`ROLL_COLUMNS` as they are, and the resolution and summary the row
    recorded (``botches``, ``net``, ``outcome``, ``summary``; the successes are the net,
    none removed, as far as the row tells).

    Returns:
        The same keys as :func:`result_from_columns`.

    Raises:
        KeyError: a column is missing.
    """
    return {
        "system": "maelstrom",
        "pool": roll["pool"],
        "dice": roll["dice"],
        "bonus_dice": roll["bonus_dice"],
        "experience_die": roll["experience_die"],
        "resolution": {"successes": roll["net"], "removed_by_threshold": 0,
                       "botches": roll["botches"], "net": roll["net"],
                       "outcome": roll["outcome"]},
        "summary": roll["summary"],
    }


def request_from_columns(row: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """A request's ``RequestedRoll.data`` and ``description`` from its old columns.

    A request that already has ``data`` (a described system's) is returned as it is. An old
    Maelstrom request becomes the roll dialog's POST data that answers it, the values as
    strings: ``{"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "7",
    "threshold": "0"}`` (``"trait": []`` for a Willpower request); its description is the
    request in words: "Precision + Driving, difficulty 7, threshold 1" (the threshold only
    when set), "Willpower, difficulty 8".

    Args:
        row: the old columns :data:`REQUEST_COLUMNS` (``kind`` "action" or "willpower",
            ``traits`` a list of trait names, ``difficulty`` and ``threshold`` whole
            numbers), with ``data`` and ``description`` when the row has them.

    Returns:
        ``(data, description)``.

    Raises:
        KeyError: a column is missing.
        ValueError: the difficulty or threshold is not a whole number.
    """
    if row.get("data"):
        return dict(row["data"]), str(row.get("description") or "")
    kind = str(row["kind"])
    traits = [str(name) for name in row["traits"]]
    difficulty, threshold = _int(row["difficulty"]), _int(row["threshold"])
    data = {"kind": kind, "trait": traits, "difficulty": str(difficulty),
            "threshold": str(threshold)}
    what = " + ".join(traits) if kind == "action" else kind.capitalize()
    text = f"{what}, difficulty {difficulty}"
    return data, text + (f", threshold {threshold}" if threshold else "")
