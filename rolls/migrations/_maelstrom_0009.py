"""The conversions rolls 0009 runs, frozen: an old Maelstrom roll row's dice columns as its
``Roll.result``, and an old request's pool columns as its ``RequestedRoll.data`` and
``description``.

A copy of ``is_full_result``, ``result_from_columns``, ``result_as_stored`` and
``request_from_columns`` in systems/maelstrom/legacy.py, and of the engine's reading of a
stored roll that ``result_from_columns`` calls (``RollResult.from_dict`` and ``as_dict``,
``ActionPool.from_dict`` and ``as_dict``, ``resolve``, ``RollResult.summary`` in
rulesets/maelstrom/rolling.py and pools.py, the typed reads of rulesets/stored.py), kept here
so that the migration means the same whatever the live code becomes: this module changes
only with the migration, never with them. Standard library only. Not a migration itself:
Django's migration loader skips the modules of a migrations package whose name begins with
an underscore.

tests/systems/maelstrom/test_legacy_frozen.py runs it and the live module on the same rows
and compares their output byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SOURCE = "Maelstrom rules.md"
"""The book every :class:`Unreadable` cites."""

DIE_SIDES = 10
"""Maelstrom rolls ten-sided dice only (Maelstrom rules.md, Resolving the Result)."""

DIFFICULTY_MIN, DIFFICULTY_MAX = 2, 10
"""The difficulty's range (Maelstrom rules.md, Difficulty)."""

POOL_KINDS: tuple[str, ...] = ("action", "willpower", "soak")
"""The kinds of pool a stored roll may hold (Maelstrom rules.md, Dice Pool)."""

ROLL_COLUMNS: tuple[str, ...] = ("pool", "dice", "bonus_dice", "experience_die")
"""The old ``Roll`` columns :func:`result_from_columns` reads."""


def _rule(section: str) -> str:
    return f"{SOURCE}, {section}"


_STORED_RULE = _rule("Resolving the Result")


class Unreadable(ValueError):
    """An old roll row the engine's reading refuses: a missing or mistyped field of the roll
    or its pool, an unknown pool kind, a difficulty, threshold or automatic successes out of
    range, a face outside 1-10.

    Args:
        message: what is wrong, e.g. "dice must show 1 to 10, not 11", "stored 'kind' is
            not text".
        rule: the rule cited, e.g. "Maelstrom rules.md, Resolving the Result".
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message, rule)
        self.message = message
        self.rule = rule


# --- Typed reads of a stored mapping, each failure cited to one rule -----------------------


def _value(data: Mapping[str, Any], key: str, rule: str) -> Any:
    if key not in data:
        raise Unreadable(f"stored data is missing {key!r}", rule)
    return data[key]


def _read_int(data: Mapping[str, Any], key: str, rule: str) -> int:
    value = _value(data, key, rule)
    # bool is a subclass of int, but a stored true/false is never a number.
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unreadable(f"stored {key!r} is not an integer", rule)
    return value


def _read_bool(data: Mapping[str, Any], key: str, rule: str) -> bool:
    value = _value(data, key, rule)
    if not isinstance(value, bool):
        raise Unreadable(f"stored {key!r} is not true or false", rule)
    return value


def _read_str(data: Mapping[str, Any], key: str, rule: str) -> str:
    value = _value(data, key, rule)
    if not isinstance(value, str):
        raise Unreadable(f"stored {key!r} is not text", rule)
    return value


def _read_list(data: Mapping[str, Any], key: str, rule: str) -> list[Any]:
    value = _value(data, key, rule)
    if not isinstance(value, list | tuple):
        raise Unreadable(f"stored {key!r} is not a list", rule)
    return list(value)


def _read_strs(data: Mapping[str, Any], key: str, rule: str) -> list[str]:
    items = _read_list(data, key, rule)
    if not all(isinstance(item, str) for item in items):
        raise Unreadable(f"stored {key!r} is not a list of text", rule)
    return [str(item) for item in items]


def _read_ints(data: Mapping[str, Any], key: str, rule: str) -> list[int]:
    result: list[int] = []
    for item in _read_list(data, key, rule):
        if isinstance(item, bool) or not isinstance(item, int):
            raise Unreadable(f"stored {key!r} is not a list of integers", rule)
        result.append(item)
    return result


def _read_mapping(data: Mapping[str, Any], key: str, rule: str) -> Mapping[str, Any]:
    value = _value(data, key, rule)
    if not isinstance(value, Mapping):
        raise Unreadable(f"stored {key!r} is not a mapping", rule)
    return value


# --- The engine's reading of a stored roll ---------------------------------------------------


def _pool(data: Mapping[str, Any]) -> dict[str, Any]:
    """A stored pool read field by field and written back whole: ``{"kind", "dice",
    "difficulty", "threshold", "exploding", "wound_penalty", "traits", "specialties",
    "automatic_successes", "experience_die_allowed", "notes"}`` in that order."""
    kind = _read_str(data, "kind", _STORED_RULE)
    if kind not in POOL_KINDS:
        raise Unreadable(f"unknown pool kind {kind!r}", _rule("Dice Pool"))
    return {
        "kind": kind,
        "dice": _read_int(data, "dice", _STORED_RULE),
        "difficulty": _read_int(data, "difficulty", _STORED_RULE),
        "threshold": _read_int(data, "threshold", _STORED_RULE),
        "exploding": _read_bool(data, "exploding", _STORED_RULE),
        "wound_penalty": _read_int(data, "wound_penalty", _STORED_RULE),
        "traits": _read_strs(data, "traits", _STORED_RULE),
        "specialties": _read_strs(data, "specialties", _STORED_RULE),
        "automatic_successes": _read_int(data, "automatic_successes", _STORED_RULE),
        "experience_die_allowed": _read_bool(data, "experience_die_allowed", _STORED_RULE),
        "notes": _read_strs(data, "notes", _STORED_RULE),
    }


def _check_faces(dice: Sequence[int], what: str) -> None:
    for face in dice:
        if not 1 <= face <= DIE_SIDES:
            raise Unreadable(f"{what} must show 1 to {DIE_SIDES}, not {face}",
                             _rule("Resolving the Result"))


def _resolve(*, dice: Sequence[int], bonus_dice: Sequence[int], difficulty: int,
             threshold: int, automatic_successes: int) -> dict[str, Any]:
    """``{"successes", "removed_by_threshold", "botches", "net", "outcome"}`` of a roll
    (Maelstrom rules.md, Resolving the Result, Steps 2-4, and Threshold): successes are the
    faces at ``difficulty`` or more on the dice and bonus dice plus the automatic ones; the
    threshold removes up to ``threshold`` of them; each 1 on the regular dice is a botch and
    cancels one remaining success; net > 0 is a success, more botches than remaining
    successes a botch, anything else a failure."""
    if not DIFFICULTY_MIN <= difficulty <= DIFFICULTY_MAX:
        raise Unreadable(
            f"difficulty must be between {DIFFICULTY_MIN} and {DIFFICULTY_MAX}, not {difficulty}",
            _rule("Difficulty"),
        )
    if threshold < 0:
        raise Unreadable(f"threshold cannot be negative ({threshold})", _rule("Threshold"))
    if automatic_successes < 0:
        raise Unreadable("automatic successes cannot be negative", _rule("Rolling Willpower"))
    _check_faces(dice, "dice")
    _check_faces(bonus_dice, "bonus dice")
    successes = (
        sum(1 for face in dice if face >= difficulty)
        + sum(1 for face in bonus_dice if face >= difficulty)
        + automatic_successes
    )
    removed = min(threshold, successes)
    remaining = successes - removed
    botches = sum(1 for face in dice if face == 1)
    net = max(0, remaining - botches)
    if net > 0:
        outcome = "success"
    elif botches > remaining:
        outcome = "botch"
    else:
        outcome = "failure"
    return {"successes": successes, "removed_by_threshold": removed, "botches": botches,
            "net": net, "outcome": outcome}


def _summary(resolution: Mapping[str, Any]) -> str:
    """"2 successes", "1 success", "Failure" or "Botch (2 botches)"."""
    net, outcome = resolution["net"], resolution["outcome"]
    if outcome == "success":
        return f"{net} success{'es' if net != 1 else ''}"
    if outcome == "botch":
        botches = resolution["botches"]
        return f"Botch ({botches} botch{'es' if botches != 1 else ''})"
    return "Failure"


# --- The conversions -------------------------------------------------------------------------


def _int(value: Any) -> int:
    # Rows read back from a database: a boolean is never a rank.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def is_full_result(result: object) -> bool:
    """Whether a stored ``Roll.result`` already holds a whole result (an NPC's quick roll
    stored it so), with the keys ``system`` ("maelstrom"), ``pool``, ``dice``,
    ``bonus_dice``, ``experience_die`` and ``resolution``, so that
    :func:`result_from_columns` has nothing to add."""
    return isinstance(result, Mapping) and result.get("system") == "maelstrom" and all(
        key in result for key in ("pool", "dice", "bonus_dice", "experience_die",
                                  "resolution"))


def result_from_columns(roll: Mapping[str, Any]) -> dict[str, Any]:
    """The ``Roll.result`` of an old Maelstrom roll row: its pool and faces, the resolution
    and summary recomputed from them (Maelstrom rules.md, Resolving the Result). For a
    follow-up the faces are the whole roll's: an experience die's row holds its parent's
    dice and bonus dice and its ``experience_die``; a willpower spend's row holds its
    parent's faces, so its result is the parent's.

    Args:
        roll: the old columns :data:`ROLL_COLUMNS`: ``pool`` (a stored pool, the keys of
            :func:`_pool`), ``dice``, ``bonus_dice`` and ``experience_die`` (lists of d10
            faces). Other keys are ignored.

    Returns:
        ``{"system": "maelstrom", "pool", "dice", "bonus_dice", "experience_die",
        "resolution": {"successes", "removed_by_threshold", "botches", "net", "outcome"},
        "summary"}``; the experience die counts as a bonus die (it never botches).

    Raises:
        KeyError: a column is missing.
        Unreadable: the pool or a face cannot be read.
    """
    stored = {key: roll[key] for key in ROLL_COLUMNS}
    pool = _pool(_read_mapping(stored, "pool", _STORED_RULE))
    dice = _read_ints(stored, "dice", _STORED_RULE)
    bonus = _read_ints(stored, "bonus_dice", _STORED_RULE)
    experience = _read_ints(stored, "experience_die", _STORED_RULE)
    resolution = _resolve(dice=dice, bonus_dice=bonus + experience,
                          difficulty=pool["difficulty"], threshold=pool["threshold"],
                          automatic_successes=pool["automatic_successes"])
    return {
        "system": "maelstrom",
        "pool": pool,
        "dice": dice,
        "bonus_dice": bonus,
        "experience_die": experience,
        "resolution": resolution,
        "summary": _summary(resolution),
    }


def result_as_stored(roll: Mapping[str, Any]) -> dict[str, Any]:
    """The ``Roll.result`` of an old roll row that :func:`result_from_columns` refuses, kept
    as stored rather than lost: the columns :data:`ROLL_COLUMNS` as they are, and the
    resolution and summary the row recorded (``botches``, ``net``, ``outcome``,
    ``summary``; the successes are the net, none removed, as far as the row tells).

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

    A request that already has ``data`` is returned as it is. An old Maelstrom request
    becomes the roll dialog's POST data that answers it, the values as strings: ``{"kind":
    "action", "trait": ["Precision", "Driving"], "difficulty": "7", "threshold": "0"}``
    (``"trait": []`` for a Willpower request); its description reads "Precision + Driving,
    difficulty 7, threshold 1" (the threshold only when set), "Willpower, difficulty 8".

    Args:
        row: the old columns ``kind`` ("action" or "willpower"), ``traits`` (a list of
            trait names), ``difficulty`` and ``threshold`` (whole numbers), with ``data``
            and ``description`` when the row has them.

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
