"""Odds queries: the parameters each system's odds take, checked the same way everywhere.

Every rules module declares ``ODDS_PARAMETERS`` (a tuple of :class:`Parameter`) and
``odds_query(query) -> dict``. The ``odds`` management command builds its flags from those
declarations (``--threshold`` for ``threshold``, ``--td`` for ``td``), and a ``--batch`` line is
the same query as a JSON object, so the two faces can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rulesets.errors import RuleError

QUERY_RULE = "odds query"
"""The ``rule`` of a :class:`RuleError` about the query's shape rather than a game rule."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of a system's odds query.

    Attributes:
        name: the key in a batch line and the flag without dashes, e.g. ``"difficulty"``.
        kind: ``int``, ``str`` or ``bool`` (a bool flag takes no value on the command line).
        default: the value when the query leaves it out; ``None`` makes it required.
        help: one line for ``--help``, with units, e.g. "d10s in the pool".
    """

    name: str
    kind: type
    default: int | str | bool | None
    help: str

    @property
    def required(self) -> bool:
        """Whether the query must give this parameter (it has no default)."""
        return self.default is None


def read_query(
    query: Mapping[str, object], parameters: Sequence[Parameter]
) -> dict[str, int | str | bool]:
    """Check a query's keys and value types and fill in the defaults.

    Values are only type-checked here; each system's ``odds`` checks the ranges (a difficulty
    of 11, a d7) and names the rule.

    Args:
        query: parameter name -> value, e.g. ``{"dice": 5, "specialty": True}``. A ``"system"``
            key is ignored (a batch line carries it).
        parameters: the system's ``ODDS_PARAMETERS``.

    Returns:
        A new dict with every parameter: the query's value or the default.

    Raises:
        RuleError: an unknown key, a missing required parameter, or a value of the wrong type
            (``true`` for a number, ``"5"`` for a number, 5 for a flag); the message names
            the key and the value.
    """
    known = {parameter.name: parameter for parameter in parameters}
    for key in query:
        if key != "system" and key not in known:
            names = ", ".join(known)
            raise RuleError(f"unknown parameter {key!r}; this system takes {names}", QUERY_RULE)
    values: dict[str, int | str | bool] = {}
    for parameter in parameters:
        if parameter.name not in query or query[parameter.name] is None:
            if parameter.default is None:
                raise RuleError(f"{parameter.name!r} is required ({parameter.help})", QUERY_RULE)
            values[parameter.name] = parameter.default
            continue
        value = query[parameter.name]
        # bool is a subclass of int: a JSON true must not pass as the number 1.
        if type(value) is not parameter.kind:
            raise RuleError(
                f"{parameter.name} must be {_KIND_NAMES[parameter.kind]}, not {value!r}",
                QUERY_RULE,
            )
        assert isinstance(value, int | str | bool)
        values[parameter.name] = value
    return values


_KIND_NAMES: dict[type, str] = {int: "a whole number", str: "text", bool: "true or false"}
