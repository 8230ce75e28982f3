"""The quick roll reader every system shares (rulesets/notation.py), on a made-up notation.

Each system's own notation is tested through its ``quick_roll`` in test_quick_rolls.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from rulesets.errors import RuleError
from rulesets.notation import check_length, split_clauses

CLAUSES = (
    ("dice", re.compile(r"(?P<n>\d+)?\s*dice(?![a-z])")),
    ("modifier", re.compile(r"(?P<n>[-+]\s*\d+)")),
    ("target", re.compile(r"vs(?![a-z])\s*(?P<n>\d+)?")),
    ("loud", re.compile(r"loud(?![a-z])")),
)
EXAMPLE = "5 dice +1 vs 7"
RULE = "Test rules, Quick Rolls"


def _split(
    text: str, *, minus_signs: bool = True, check: Callable[[str, str], None] | None = None
) -> list[tuple[str, str, str | None]]:
    clauses = split_clauses(
        text,
        CLAUSES,
        example=EXAMPLE,
        rule=RULE,
        max_length=40,
        repeatable=frozenset({"modifier"}),
        minus_signs=minus_signs,
        check=check,
    )
    return [(name, part, match.groupdict().get("n")) for name, part, match in clauses]


def _refusal(text: str, *, minus_signs: bool = True) -> RuleError:
    with pytest.raises(RuleError) as error:
        _split(text, minus_signs=minus_signs)
    assert error.value.rule == RULE
    return error.value


def test_the_clauses_come_back_in_the_order_typed_with_their_matches() -> None:
    assert _split("5 Dice, +1 VS 7 loud") == [
        ("dice", "5 dice", "5"),
        ("modifier", "+1", "+1"),
        ("target", "vs 7", "7"),
        ("loud", "loud", None),
    ]


def test_the_first_clause_that_matches_wins_and_spaces_between_are_free() -> None:
    assert _split("5dice+1   vs7") == [
        ("dice", "5dice", "5"),
        ("modifier", "+1", "+1"),
        ("target", "vs7", "7"),
    ]


def test_a_minus_sign_or_en_dash_reads_as_minus_unless_turned_off() -> None:
    assert _split("5 dice \u22121 \u20132") == [
        ("dice", "5 dice", "5"),
        ("modifier", "-1", "-1"),
        ("modifier", "-2", "-2"),
    ]
    refused = _refusal("5 dice \u22121", minus_signs=False)
    assert refused.message == "'\u22121' is not understood: write e.g. '5 dice +1 vs 7'"


def test_an_unknown_part_is_quoted_with_its_number() -> None:
    refused = _refusal("5 dice vz 7")
    assert refused.message == "'vz 7' is not understood: write e.g. '5 dice +1 vs 7'"


def test_an_unknown_last_word_is_quoted_alone() -> None:
    assert _refusal("5 dice lol").message == "'lol' is not understood: write e.g. '5 dice +1 vs 7'"


def test_a_repeated_clause_is_refused_quoting_both() -> None:
    refused = _refusal("5 dice vs 6 vs 7")
    assert refused.message == "'vs 7' gives the target a second time ('vs 6' already did)"


def test_a_repeated_clause_without_a_number_is_refused_too() -> None:
    refused = _refusal("5 dice loud loud")
    assert refused.message == "'loud' gives the loud a second time ('loud' already did)"


def test_a_repeatable_clause_may_come_again() -> None:
    assert _split("5 dice +1 +2 -1") == [
        ("dice", "5 dice", "5"),
        ("modifier", "+1", "+1"),
        ("modifier", "+2", "+2"),
        ("modifier", "-1", "-1"),
    ]


def test_a_clause_without_its_number_is_refused() -> None:
    assert _refusal("5 dice vs").message == "'vs' needs a number: write e.g. '5 dice +1 vs 7'"
    assert _refusal("dice vs 7").message == "'dice' needs a number: write e.g. '5 dice +1 vs 7'"


def test_a_clause_whose_pattern_has_no_number_needs_none() -> None:
    assert _split("loud") == [("loud", "loud", None)]


def test_a_check_refuses_a_clause_before_the_generic_checks() -> None:
    def no_loud(name: str, part: str) -> None:
        if name == "loud":
            raise RuleError(f"{part!r}: no shouting", "Test rules, Manners")

    with pytest.raises(RuleError) as error:
        _split("5 dice loud loud", check=no_loud)  # the check speaks before the repeat
    assert (error.value.message, error.value.rule) == ("'loud': no shouting", "Test rules, Manners")
    seen: list[tuple[str, str]] = []
    _split("5 dice +1", check=lambda name, part: seen.append((name, part)))
    assert seen == [("dice", "5 dice"), ("modifier", "+1")]


def test_too_long_text_is_refused_before_anything_else() -> None:
    refused = _refusal("x" * 41)
    assert refused.message == (
        "the quick roll is 41 characters long, more than 40: write e.g. '5 dice +1 vs 7'"
    )
    assert _split("5 dice" + " " * 34) == [("dice", "5 dice", "5")]  # exactly 40 is fine


@pytest.mark.parametrize("text", ["", "   ", " , ,\t"])
def test_empty_text_is_refused(text: str) -> None:
    assert _refusal(text).message == "the quick roll is empty: write e.g. '5 dice +1 vs 7'"


def test_check_length_alone() -> None:
    check_length("a" * 10, max_length=10, example="3A", rule=RULE)
    with pytest.raises(RuleError) as error:
        check_length("a" * 11, max_length=10, example="3A", rule=RULE)
    assert error.value.message == (
        "the quick roll is 11 characters long, more than 10: write e.g. '3A'"
    )
    assert error.value.rule == RULE
