"""docs/rules.md lists every worked example of the seeds with the test that checks it; this
keeps that table true: every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\|.*\| (tests/[\w/]+\.py)::(\w+) \|$")


def _rows() -> list[tuple[str, str]]:
    text = (ROOT / "docs" / "rules.md").read_text()
    return [match.groups() for line in text.splitlines() if (match := ROW.match(line))]


def _test_names(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_the_worked_examples_table_names_only_tests_that_exist() -> None:
    rows = _rows()
    assert len(rows) >= 100, "the table of worked examples lost its rows"
    missing = [f"{path}::{name}" for path, name in rows if name not in _test_names(path)]
    assert missing == []


def test_every_system_has_worked_examples_in_the_table() -> None:
    files = {path for path, _ in _rows()}
    for slug in ("maelstrom", "shahquest", "shattered_world", "genesys", "three_d6"):
        assert any(slug in path for path in files), slug
