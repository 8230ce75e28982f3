"""The rules engine is plain Python: no Django, no app imports (docs/architecture.md). Its
Django glue, apps.py and the odds command, is the only exception."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "rulesets"
FORBIDDEN = ("django", "campaigns", "characters", "rolls", "sheetkeeper")
MODULES = sorted(
    path for path in ENGINE.glob("*.py") if path.name not in {"apps.py"}
)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_an_engine_module_imports_no_django_and_no_app(path: Path) -> None:
    bad = {name for name in _imports(path) if name.split(".")[0] in FORBIDDEN}
    assert bad == set()


def test_all_five_systems_have_a_module() -> None:
    names = {path.stem for path in MODULES}
    assert {"maelstrom", "shahquest", "shattered_world", "genesys", "three_d6"} <= names
