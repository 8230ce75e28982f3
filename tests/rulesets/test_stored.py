"""The shared reader for JSON-stored data: each typed read, and the error each one raises."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rulesets.errors import RuleError
from rulesets.stored import Stored

RULE = "Test rules, Stored Data"

STORED = Stored(
    {
        "nothing": None,
        "count": 3,
        "flag": False,
        "label": "Aria",
        "items": [1, "two"],
        "pair": (4, 5),
        "notes": ["a", "b"],
        "dice": [6, 1],
        "pool": {"dice": 2},
        "sides": [{"face": 1}, {"face": 2}],
    },
    RULE,
)


def test_each_reader_returns_the_stored_value_in_its_type() -> None:
    assert STORED.value("nothing") is None
    assert STORED.int("count") == 3
    assert STORED.bool("flag") is False
    assert STORED.str("label") == "Aria"
    assert STORED.list("items") == [1, "two"]
    assert STORED.list("pair") == [4, 5]  # a tuple reads as a list too
    assert STORED.strs("notes") == ("a", "b")
    assert STORED.ints("dice") == (6, 1)
    assert STORED.ints("pair") == (4, 5)
    assert STORED.mapping("pool") == {"dice": 2}
    assert STORED.mappings("sides") == ({"face": 1}, {"face": 2})


@pytest.mark.parametrize(
    ("read", "value", "message"),
    [
        (Stored.int, "3", "stored 'x' is not an integer"),
        (Stored.int, True, "stored 'x' is not an integer"),
        (Stored.bool, 1, "stored 'x' is not true or false"),
        (Stored.str, 7, "stored 'x' is not text"),
        (Stored.list, "1, 2", "stored 'x' is not a list"),
        (Stored.strs, ["a", 1], "stored 'x' is not a list of text"),
        (Stored.ints, [1, "2"], "stored 'x' is not a list of integers"),
        (Stored.ints, [1, False], "stored 'x' is not a list of integers"),
        (Stored.mapping, [], "stored 'x' is not a mapping"),
        (Stored.mappings, [{}, 2], "stored 'x' is not a list of mappings"),
    ],
)
def test_a_mistyped_field_is_refused_with_the_field_named_and_the_rule_cited(
    read: Callable[[Stored, str], object], value: object, message: str
) -> None:
    with pytest.raises(RuleError) as caught:
        read(Stored({"x": value}, RULE), "x")
    assert caught.value.message == message
    assert caught.value.rule == RULE


@pytest.mark.parametrize(
    "read",
    [
        Stored.value,
        Stored.int,
        Stored.bool,
        Stored.str,
        Stored.list,
        Stored.strs,
        Stored.ints,
        Stored.mapping,
        Stored.mappings,
    ],
)
def test_every_reader_refuses_a_missing_field_with_the_same_message(
    read: Callable[[Stored, str], object],
) -> None:
    with pytest.raises(RuleError) as caught:
        read(Stored({}, RULE), "dice")
    assert caught.value.message == "stored data is missing 'dice'"
    assert caught.value.rule == RULE


def test_a_list_reader_refuses_a_value_that_is_not_a_list_before_its_items() -> None:
    for read in (Stored.strs, Stored.ints, Stored.mappings):
        with pytest.raises(RuleError) as caught:
            read(Stored({"x": "abc"}, RULE), "x")
        assert caught.value.message == "stored 'x' is not a list"
