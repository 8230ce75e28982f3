"""One reader for the JSON-stored data that every system's ``from_dict()`` rebuilds from.

Stored rolls, pools and tracks come back from the database as plain JSON values. Each
``from_dict()`` wraps its mapping in a :class:`Stored` that names the rule section to cite,
then reads typed fields from it; a missing or mistyped field raises
:class:`~rulesets.errors.RuleError` naming the field, e.g. "stored 'dice' is not a list".
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass

from rulesets.errors import RuleError


@dataclass(frozen=True)
class Stored:
    """Typed reads from a stored mapping, each failure cited to one rule section.

    Args:
        data: the stored mapping, as decoded from JSON.
        rule: the seed section every :class:`RuleError` cites, e.g.
            "Maelstrom rules.md, Resolving the Result".
    """

    data: Mapping[builtins.str, object]
    rule: builtins.str

    def _error(self, message: builtins.str) -> RuleError:
        return RuleError(message, self.rule)

    def value(self, key: builtins.str) -> object:
        """The stored value under ``key``, of any type (``None`` included).

        Args:
            key: the field's name.

        Returns:
            The value as stored.

        Raises:
            RuleError: the field is missing ("stored data is missing 'key'").
        """
        if key not in self.data:
            raise self._error(f"stored data is missing {key!r}")
        return self.data[key]

    def int(self, key: builtins.str) -> builtins.int:
        """The stored integer under ``key``; ``true``/``false`` are refused.

        Args:
            key: the field's name.

        Returns:
            The integer.

        Raises:
            RuleError: the field is missing, or is not an integer.
        """
        value = self.value(key)
        # bool is a subclass of int, but a stored true/false is never a number.
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._error(f"stored {key!r} is not an integer")
        return value

    def bool(self, key: builtins.str) -> builtins.bool:
        """The stored ``true`` or ``false`` under ``key``.

        Args:
            key: the field's name.

        Returns:
            The flag.

        Raises:
            RuleError: the field is missing, or is not true or false.
        """
        value = self.value(key)
        if not isinstance(value, bool):
            raise self._error(f"stored {key!r} is not true or false")
        return value

    def str(self, key: builtins.str) -> builtins.str:
        """The stored text under ``key``.

        Args:
            key: the field's name.

        Returns:
            The text.

        Raises:
            RuleError: the field is missing, or is not text.
        """
        value = self.value(key)
        if not isinstance(value, str):
            raise self._error(f"stored {key!r} is not text")
        return value

    def list(self, key: builtins.str) -> builtins.list[object]:
        """The stored list under ``key`` (a tuple is accepted too), items unchecked.

        Args:
            key: the field's name.

        Returns:
            A new list of the items.

        Raises:
            RuleError: the field is missing, or is not a list.
        """
        value = self.value(key)
        if not isinstance(value, list | tuple):
            raise self._error(f"stored {key!r} is not a list")
        return builtins.list(value)

    def strs(self, key: builtins.str) -> tuple[builtins.str, ...]:
        """The stored list of text under ``key``.

        Args:
            key: the field's name.

        Returns:
            The texts, in order.

        Raises:
            RuleError: the field is missing, is not a list, or holds something not text.
        """
        items = self.list(key)
        if not all(isinstance(item, str) for item in items):
            raise self._error(f"stored {key!r} is not a list of text")
        return tuple(builtins.str(item) for item in items)

    def ints(self, key: builtins.str) -> tuple[builtins.int, ...]:
        """The stored list of integers under ``key`` (e.g. dice faces); true/false refused.

        Args:
            key: the field's name.

        Returns:
            The integers, in order.

        Raises:
            RuleError: the field is missing, is not a list, or holds something not an integer.
        """
        result: builtins.list[builtins.int] = []
        for item in self.list(key):
            if isinstance(item, bool) or not isinstance(item, int):
                raise self._error(f"stored {key!r} is not a list of integers")
            result.append(item)
        return tuple(result)

    def mapping(self, key: builtins.str) -> Mapping[builtins.str, object]:
        """The stored mapping under ``key`` (e.g. a roll's pool).

        Args:
            key: the field's name.

        Returns:
            The mapping, as stored.

        Raises:
            RuleError: the field is missing, or is not a mapping.
        """
        value = self.value(key)
        if not isinstance(value, Mapping):
            raise self._error(f"stored {key!r} is not a mapping")
        return value

    def mappings(self, key: builtins.str) -> tuple[Mapping[builtins.str, object], ...]:
        """The stored list of mappings under ``key`` (e.g. one mapping a die).

        Args:
            key: the field's name.

        Returns:
            The mappings, in order.

        Raises:
            RuleError: the field is missing, is not a list, or holds something not a mapping.
        """
        result: builtins.list[Mapping[builtins.str, object]] = []
        for item in self.list(key):
            if not isinstance(item, Mapping):
                raise self._error(f"stored {key!r} is not a list of mappings")
            result.append(item)
        return tuple(result)
