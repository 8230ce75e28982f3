"""How a rule's citation reads for a player (rulesets.errors.citation, docs/rules.md): a
book's rule names the book and its section, with no file names; a decision of ours says it is
Sheetkeeper's ruling, never passing as the book's."""

from __future__ import annotations

import pytest

from rulesets import registry
from rulesets.errors import BOOKS, RuleError, citation


@pytest.mark.parametrize(("rule", "reads"), [
    ("Maelstrom rules.md, Spending Experience", "Maelstrom rules, Spending Experience"),
    ("Shahquest wiki, Plot Points", "Shahquest wiki, Plot Points"),
    ("Genesys dice pool, Impossible Tasks", "Genesys rules, Impossible Tasks"),
    ("3d6 Rolls and Tests, Test Difficulty", "3d6 rules, Test Difficulty"),
    ("Shattered World Core Engine, Universal Buy-Ins",
     "Shattered World Core Engine, Universal Buy-Ins"),
])
def test_a_books_rule_names_the_book_and_section_without_file_names(rule: str,
                                                                    reads: str) -> None:
    assert citation(rule) == reads


@pytest.mark.parametrize(("rule", "reads"), [
    ("3d6 sheet decision, Health", "Sheetkeeper's ruling for 3d6, Health"),
    ("House rule, Shahquest advancement (docs/systems/shahquest.md)",
     "Sheetkeeper's ruling, Shahquest advancement"),
    ("docs/decisions.md, Retired and dead characters",
     "Sheetkeeper's ruling, Retired and dead characters"),
    ("Roll requests", "Sheetkeeper's ruling, Roll requests"),
    ("odds query", "Sheetkeeper's ruling, odds query"),
    ("Sheetkeeper export format", "Sheetkeeper export format"),
])
def test_a_decision_of_ours_is_labelled_as_ours(rule: str, reads: str) -> None:
    assert citation(rule) == reads
    assert ".md" not in citation(rule) and "docs/" not in citation(rule)


def test_a_rule_error_reads_as_the_message_then_the_citation_and_keeps_the_raw_tag() -> None:
    error = RuleError("Mara Quill is already at 0 health.", "3d6 sheet decision, Health")

    assert str(error) == "Mara Quill is already at 0 health. (Sheetkeeper's ruling for 3d6, Health)"
    assert error.rule == "3d6 sheet decision, Health"


def test_every_registered_engine_cites_a_book() -> None:
    """A new system's ``SOURCE`` needs its line in BOOKS, or its rules would read as ours."""
    for ruleset in registry.RULESETS.values():
        if ruleset.module is None:
            continue
        source = getattr(ruleset.module, "SOURCE", None)
        assert source in BOOKS, f"{ruleset.slug}: add its SOURCE {source!r} to BOOKS"
