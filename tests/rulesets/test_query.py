"""Odds queries are checked the same way for every system (rulesets/query.py)."""

from __future__ import annotations

import pytest

from rulesets.errors import RuleError
from rulesets.query import Parameter, read_query

PARAMETERS = (
    Parameter("dice", int, None, "d10s in the pool"),
    Parameter("difficulty", int, 6, "2 to 10"),
    Parameter("specialty", bool, False, "exploding tens"),
)


def test_defaults_fill_what_the_query_leaves_out() -> None:
    assert read_query({"dice": 5}, PARAMETERS) == {"dice": 5, "difficulty": 6, "specialty": False}


def test_a_batch_line_may_carry_its_system() -> None:
    assert read_query({"system": "maelstrom", "dice": 2}, PARAMETERS)["dice"] == 2


def test_a_required_parameter_must_be_given() -> None:
    with pytest.raises(RuleError, match="'dice' is required"):
        read_query({}, PARAMETERS)


def test_an_unknown_parameter_is_named() -> None:
    with pytest.raises(RuleError, match="unknown parameter 'dificulty'"):
        read_query({"dice": 5, "dificulty": 7}, PARAMETERS)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"dice": True}, "dice must be a whole number, not True"),
        ({"dice": "5"}, "dice must be a whole number, not '5'"),
        ({"dice": 5, "specialty": 1}, "specialty must be true or false, not 1"),
    ],
)
def test_a_value_of_the_wrong_type_is_named(query: dict[str, object], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        read_query(query, PARAMETERS)
