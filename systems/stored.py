"""The small readers every system's checks of stored data share (``SheetPart.check_sheet``,
``PanelPart.check_system_data``, ``RollingPart.check_roll``): each returns the value when it
has the shape the rules allow, else raises ``RuleError`` naming what is wrong."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from rulesets.errors import RuleError

RULE_STORED = "Sheetkeeper export format"
"""What a refusal of a stored value's *shape* cites (a list where a list belongs, a whole
number, an object): no game rule states it, the stored shape does, and an export carries
that shape verbatim (docs/backup.md, "The file")."""


def is_whole_number(value: object) -> TypeGuard[int]:
    """Whether a stored JSON value is an integer; ``true``/``false`` are not (JSON booleans
    decode to ``bool``, a subclass of ``int``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require(condition: bool, message: str, rule: str = RULE_STORED) -> None:
    """Raise ``RuleError(message, rule)`` unless ``condition`` holds."""
    if not condition:
        raise RuleError(message, rule)


def stored_int(value: object, what: str, low: int, high: int, rule: str = RULE_STORED
               ) -> int:
    """``value`` when it is a whole number from ``low`` to ``high``, else RuleError
    ("<what> must be a whole number from <low> to <high>, not <value>") citing ``rule``."""
    if is_whole_number(value) and low <= value <= high:
        return value
    raise RuleError(f"{what} must be a whole number from {low} to {high}, not {value!r}", rule)


def stored_names(value: object, what: str) -> list[str]:
    """``value`` when it is a list of strings, else RuleError ("<what> must be a list of
    names")."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    raise RuleError(f"{what} must be a list of names", RULE_STORED)


def stored_object(data: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
    """``data[key]`` when it is a JSON object, else RuleError ("<what> ('<key>') must be an
    object, not <value>"; a missing key reads as ``None``)."""
    value = data.get(key)
    if isinstance(value, dict):
        return value
    raise RuleError(f"{what} ({key!r}) must be an object, not {value!r}", RULE_STORED)
