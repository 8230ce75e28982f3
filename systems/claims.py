"""What a system's check of a stored roll shares (:meth:`systems.SheetSystem.check_roll`): a
roll's claims held against what its rules engine makes of its dice, and the first difference
named in a GM's words.

An import writes ``Roll`` rows as the file holds them (docs/backup.md): the dice, the result
the engine worked out from them (successes, botches, symbols, totals, the summary) and the
verdict the log repeats (``Roll.outcome``, ``Roll.net``, ``Roll.summary``). A check rebuilds
the result from the stored pool and dice with the engine, as it would have been stored, and
hands both to :func:`require_claims`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from rolls.models import Roll
from rulesets.errors import RuleError
from systems.stored import require

__all__ = ["claimed_by", "listed", "require_claims", "require_follow_up", "shown", "verdict"]

_MISSING = object()

DEFAULT_WORDS = "it claims {field} {claimed}; {dice} give {derived}"
"""How a difference is named where the system gives no words for that field."""


SHOWN_MAX = 12
"""The most items of a list a refusal quotes (a chain of exploding tens may hold thousands)."""


def shown(value: object) -> str:
    """A stored value as a refusal quotes it: text in quotes ('botch'), ``true``/``false``,
    lists and objects as JSON ([1, 1]; a list of more than :data:`SHOWN_MAX` items by its
    first ones and its length: [10, 10, ..., 1, … 4000 in all]), "nothing" for a value that is
    missing."""
    if value is _MISSING:
        return "nothing"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list | tuple) and len(value) > SHOWN_MAX:
        first = ", ".join(shown(item) for item in value[:SHOWN_MAX - 2])
        return f"[{first}, … {len(value)} in all]"
    return json.dumps(value, ensure_ascii=False)


def listed(items: Sequence[str]) -> str:
    """Words for each die, joined by commas, at most :data:`SHOWN_MAX` of them quoted ("d10 7,
    d8 2, … 40 in all")."""
    if len(items) > SHOWN_MAX:
        return ", ".join(items[:SHOWN_MAX - 2]) + f", … {len(items)} in all"
    return ", ".join(items)


def verdict(outcome: str, net: int, summary: str) -> dict[str, Any]:
    """A roll's verdict as the log keeps it beside the result (``Roll.outcome``, ``Roll.net``,
    ``Roll.summary``, the summary cut to the column's 200 characters), under the keys
    :func:`require_claims` names them by: ``outcome``, ``net``, ``summary``."""
    return {"outcome": outcome, "net": net, "summary": summary[:200]}


def claimed_by(roll: Roll) -> dict[str, Any]:
    """What a stored roll claims: its ``result`` and its verdict (:func:`verdict`'s keys)."""
    return {"result": roll.result, **verdict(roll.outcome, roll.net, roll.summary)}


def _same(a: object, b: object) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, and a list is compared item by item."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _pattern(path: tuple[str | int, ...]) -> str:
    return ".".join("*" if isinstance(part, int) else part for part in path)


def _first_difference(claimed: object, derived: object, words: Mapping[str, str],
                      path: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """The path of the first value ``claimed`` holds that ``derived`` does not, in
    ``derived``'s order: the deepest one, unless ``words`` names one on the way."""
    if _same(claimed, derived):
        return None
    if path and _pattern(path) in words:
        return path
    if isinstance(claimed, dict) and isinstance(derived, dict):
        for key in [*derived, *(k for k in claimed if k not in derived)]:
            found = _first_difference(claimed.get(key, _MISSING), derived.get(key, _MISSING),
                                      words, (*path, key))
            if found is not None:
                return found
    if (isinstance(claimed, list) and isinstance(derived, list)
            and len(claimed) == len(derived)):
        for i, (a, b) in enumerate(zip(claimed, derived, strict=True)):
            found = _first_difference(a, b, words, (*path, i))
            if found is not None:
                return found
    return path


def _at(value: object, path: tuple[str | int, ...]) -> object:
    for part in path:
        if isinstance(part, int) and isinstance(value, list):
            value = value[part]
        elif isinstance(part, str) and isinstance(value, dict):
            value = value.get(part, _MISSING)
        else:
            return _MISSING
    return value


def require_claims(claimed: Mapping[str, Any], derived: Mapping[str, Any], *,
                   words: Mapping[str, str], dice: str, rule: str) -> None:
    """Refuse a roll whose stored claims differ from what its rules make of its dice.

    Args:
        claimed: what the roll stores (:func:`claimed_by`: ``{"result": ..., "outcome":
            ..., "net": ..., "summary": ...}``), as JSON values.
        derived: the same keys as the engine works them out from the stored pool and dice
            (the rebuilt result's ``as_dict()``, and :func:`verdict`).
        words: how the GM reads a difference, by the field's path (keys joined by dots,
            each list index as ``*``: ``"result.resolution.successes"``,
            ``"result.dice.*.symbols"``); each a sentence with ``{claimed}``, ``{derived}``
            (the values, :func:`shown`), ``{dice}``, ``{n}`` (the last list index, from 1)
            and ``{field}`` (the path, indexes from 1) to fill: ``"it claims {claimed}
            successes; {dice} give {derived}"``. A difference below a named path is named
            at it; elsewhere :data:`DEFAULT_WORDS`.
        dice: the roll's dice in words, the subject of "give": ``"its dice [1, 1]"``.
        rule: the rule the refusal cites (the engine's, where it resolves a roll).

    Raises:
        RuleError: the first difference, in ``derived``'s order: "it claims 9 successes;
            its dice [1, 1] give 0".
    """
    path = _first_difference(dict(claimed), dict(derived), words)
    if path is None:
        return
    indexes = [part for part in path if isinstance(part, int)]
    template = words.get(_pattern(path), DEFAULT_WORDS)
    field = ".".join(str(part + 1) if isinstance(part, int) else part for part in path)
    raise RuleError(template.format(claimed=shown(_at(claimed, path)),
                                    derived=shown(_at(derived, path)), dice=dice,
                                    n=indexes[-1] + 1 if indexes else "", field=field), rule)


def require_follow_up(roll: Roll, parent: Roll | None, *, of: Collection[str] | None,
                      rule: str) -> None:
    """Refuse a roll whose place in the log the app never gives one: a follow-up (``of``
    names the kinds of roll it follows up) with no roll it follows up, or one of another
    kind; and a roll that is no follow-up (``of`` is ``None``) that names one.

    Raises:
        RuleError: "a roll of kind 'Experience die' follows up a roll of kind 'Action' or
            'Willpower', not 'Soak'" and the like, citing ``rule``.
    """
    kind = _label(roll.kind)
    if of is None:
        require(parent is None, f"a roll of kind {kind!r} follows up no other roll, yet the "
                                "file names one it follows up", rule)
        return
    if parent is None:
        raise RuleError(f"a roll of kind {kind!r} follows up another roll, yet the file names "
                        "none", rule)
    require(parent.kind in of,
            f"a roll of kind {kind!r} follows up a roll of kind "
            f"{' or '.join(repr(_label(k)) for k in of)}, not {_label(parent.kind)!r}", rule)


def _label(kind: str) -> str:
    return Roll.KINDS.get(kind, kind)
