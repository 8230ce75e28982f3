"""The rules engine is plain Python: no Django, no app imports (docs/architecture.md). Its
Django glue, apps.py and the odds command, is the only exception."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulesets import registry
from tests.conftest import TEST_ONLY_SYSTEMS

ENGINE = Path(__file__).resolve().parents[2] / "rulesets"
FORBIDDEN = ("django", "core", "accounts", "campaigns", "characters", "rolls", "systems", "table",
             "transfer", "sheetkeeper")
MODULES = sorted(
    path for path in ENGINE.rglob("*.py")
    if path.name != "apps.py" and "management" not in path.relative_to(ENGINE).parts
)


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ENGINE)))
def test_an_engine_module_imports_no_django_and_no_app(path: Path) -> None:
    bad = {name for name in _imports(path) if name.split(".")[0] in FORBIDDEN}
    assert bad == set()


def test_every_registered_system_has_an_engine_package() -> None:
    packages = {path.parent.name for path in MODULES if path.name == "__init__.py"}
    # The tests' own system keeps its engine with its tests (tests/tally/rules.py).
    assert set(registry.RULESETS) - set(TEST_ONLY_SYSTEMS) <= packages
