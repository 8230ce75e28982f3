"""What the table's memory asks of a system (:class:`HistoryPart`): a character's sheet as
facts in the system's words, which the activity log compares before and after each change
and the between-sessions page compares across sessions (docs/history.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from systems.part import SystemPart

if TYPE_CHECKING:
    from characters.models import Character
    from equipment.models import Item


def _label(key: str) -> str:
    return key.replace("_", " ").strip().capitalize() or key


def _flatten(value: Any, prefix: str, into: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            _flatten(inner, f"{prefix} · {_label(str(key))}" if prefix else _label(str(key)),
                     into)
    elif isinstance(value, list) and all(not isinstance(item, (dict, list)) for item in value):
        into[prefix] = ", ".join(str(item) for item in value)
    elif isinstance(value, list):
        for number, inner in enumerate(value, start=1):
            _flatten(inner, f"{prefix} {number}", into)
    elif value is None:
        into[prefix] = ""
    elif isinstance(value, bool):
        into[prefix] = "yes" if value else "no"
    else:
        into[prefix] = str(value)


@dataclass(kw_only=True)
class HistoryPart(SystemPart):
    """A character's sheet as facts, for the activity log and the between-sessions diff."""

    def sheet_facts(self, character: Character, sheet: dict[str, Any] | None = None
                    ) -> dict[str, str]:
        """The character's sheet (``sheet``, else ``character.sheet``) as facts: label ->
        value, both in the system's words ("Health" -> "Bruised, wound penalty -1",
        "Firearms" -> "3 dots"), in the order the sheet shows them. Every fact a change can
        move must be here: the between-sessions page rebuilds an earlier sheet by undoing
        the logged changes of these facts. The default flattens the stored sheet, each key
        path a label ("Attributes · Strength" -> "3"); a system gives its own words."""
        facts: dict[str, str] = {}
        _flatten(sheet if sheet is not None else character.sheet, "", facts)
        return facts

    def item_fact(self, item: Item) -> str:
        """What an inventory item's system details say (a weapon's rounds loaded), as the
        tail of its fact ("2 (spare); Rounds: 5"), so that a change of them is logged and an
        earlier sheet rebuilt with them; ``""`` for none. The default lists the stored
        details, each key a label ("Rounds: 5, Weapon: heavy"); a system gives its words."""
        facts: dict[str, str] = {}
        _flatten(item.details, "", facts)
        return ", ".join(f"{label}: {value}" for label, value in facts.items() if label)
