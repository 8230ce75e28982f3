"""The GM's NPC quick roll notation: the reading every system's ``quick_roll`` shares.

A quick roll is a short line of clauses, e.g. "5 dice diff 7 threshold 1" (Maelstrom) or
"d8+1 vs 6" (Shattered World). Each system names its clauses and what they mean; this module
only reads the line: the length guard, the clean-up (any case, commas as spaces), the split
into clauses, and the refusals every system words the same way (a part not understood, a
clause given twice, a clause without its number). The messages quote the part as cleaned up,
e.g. "'dif 7' is not understood: write e.g. '5 dice diff 7 threshold 1'".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from rulesets.errors import RuleError

_BAD_PART = re.compile(r"\S+(?:\s+[-+]?\d+)?")
"""What a "not understood" message quotes: the word where no clause matches, with a number
after it if there is one ("dif 7")."""

_MINUS_SIGNS = {ord("\u2212"): "-", ord("\u2013"): "-"}
"""The minus sign and the en dash, which phones and word processors type for "-"."""


def check_length(text: str, *, max_length: int, example: str, rule: str) -> None:
    """Refuse a quick roll longer than ``max_length`` characters (a typing-mistake guard).

    Args:
        text: the quick roll as typed, before any clean-up.
        max_length: the longest text accepted, the module's ``QUICK_ROLL_MAX_LENGTH``.
        example: a notation example the message suggests, e.g. ``"5 dice diff 7"``.
        rule: the rule the error names, e.g. "Maelstrom rules.md, Dice Pool".

    Raises:
        RuleError: the text is too long; e.g. "the quick roll is 201 characters long, more
            than 200: write e.g. '5 dice diff 7 threshold 1'".
    """
    if len(text) > max_length:
        raise RuleError(
            f"the quick roll is {len(text)} characters long, more than {max_length}: "
            f"write e.g. {example!r}",
            rule,
        )


def split_clauses(
    text: str,
    clauses: Sequence[tuple[str, re.Pattern[str]]],
    *,
    example: str,
    rule: str,
    max_length: int,
    repeatable: Collection[str] = frozenset(),
    minus_signs: bool = True,
    check: Callable[[str, str], None] | None = None,
) -> list[tuple[str, str, re.Match[str]]]:
    """Split a quick roll into its clauses, refusing what no system accepts.

    The text is checked by :func:`check_length`, then lower-cased, commas are read as spaces
    and runs of white space as one space. From the start, each clause is the first of
    ``clauses`` whose pattern matches there (so order them most specific first); the spaces
    after it are skipped. Several entries may share a name, e.g. two spellings of the dice.

    A clause whose pattern has a group named ``n`` needs that number: "diff" without one is
    refused. A pattern without that group (a flag such as "specialty") needs none.

    Args:
        text: the quick roll as typed, e.g. ``"5 dice diff 7"``.
        clauses: (name, pattern) pairs; the name is what a repeat message calls the clause,
            e.g. ``("difficulty", re.compile(r"diff(?![a-z])\\s*(?P<n>[-+]?\\d+)?"))``. The
            patterns see lower-case text.
        example: a notation example the messages suggest, e.g. ``"5 dice diff 7"``.
        rule: the rule every error here names, e.g. "Maelstrom rules.md, Dice Pool".
        max_length: the longest text accepted, the module's ``QUICK_ROLL_MAX_LENGTH``.
        repeatable: names of clauses that may come more than once, e.g. ``{"modifier"}``.
        minus_signs: read the minus sign (U+2212) and the en dash (U+2013) as "-"; False
            leaves them as typed.
        check: called with (name, the clause as typed) for each clause as it is read, before
            the repeat and number checks; it raises :class:`RuleError` to refuse a clause
            with the system's own message (Maelstrom's "any die but a d10").

    Returns:
        The clauses in the order typed, each as (name, the clause as typed and stripped,
        its match on the cleaned-up text).

    Raises:
        RuleError: the text is too long or empty, a part matches no clause ("'dif 7' is not
            understood: write e.g. ..."), a clause not in ``repeatable`` comes twice ("'diff
            7' gives the difficulty a second time ('diff 6' already did)"), or a clause lacks
            its number ("'diff' needs a number: write e.g. ..."); or whatever ``check``
            raises.
    """
    check_length(text, max_length=max_length, example=example, rule=rule)
    lowered = text.lower().replace(",", " ")
    if minus_signs:
        lowered = lowered.translate(_MINUS_SIGNS)
    clean = " ".join(lowered.split())
    if not clean:
        raise RuleError(f"the quick roll is empty: write e.g. {example!r}", rule)
    found: list[tuple[str, str, re.Match[str]]] = []
    seen: dict[str, str] = {}
    position = 0
    while position < len(clean):
        hit = next(
            (
                (name, match)
                for name, pattern in clauses
                if (match := pattern.match(clean, position)) is not None
            ),
            None,
        )
        if hit is None:
            bad = _BAD_PART.match(clean, position)
            part = bad.group() if bad is not None else clean[position:]
            raise RuleError(f"{part!r} is not understood: write e.g. {example!r}", rule)
        name, match = hit
        part = match.group().strip()
        if check is not None:
            check(name, part)
        if name in seen and name not in repeatable:
            raise RuleError(
                f"{part!r} gives the {name} a second time ({seen[name]!r} already did)", rule
            )
        if "n" in match.re.groupindex and match.group("n") is None:
            raise RuleError(f"{part!r} needs a number: write e.g. {example!r}", rule)
        seen[name] = part
        found.append((name, part, match))
        position = match.end()
        while position < len(clean) and clean[position] == " ":
            position += 1
    return found
