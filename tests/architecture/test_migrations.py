"""Migrations import no live code: every module of every project app's migrations package
(the migrations, and the frozen modules beside them whose names begin with an underscore,
which Django's migration loader skips) imports only the standard library, Django, and modules
inside a migrations package.

A migration that imported the apps, ``core``, ``rulesets`` or ``systems`` would change its
meaning whenever that code changed, and an old database would be upgraded by rules it never
had; a data migration carries its conversion as it was instead (characters 0005 and
rolls 0009 carry theirs in ``_maelstrom_0005.py`` and ``_maelstrom_0009.py``).

Modules are read with ``ast``, nothing imported. Every import counts, at the top, inside a
function or under ``if TYPE_CHECKING:``; so does an import by name at run time
(``import_module``, ``__import__``), which this reading could not follow.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import apps
from django.db.migrations.loader import MigrationLoader

ROOT = Path(__file__).resolve().parents[2]

ALLOWED_ROOTS = frozenset(sys.stdlib_module_names) | {"django"}
"""The top-level packages a migration may import besides the migrations packages."""

DYNAMIC = {"import_module", "__import__"}
"""The functions that import a module named at run time."""


def _is_project(path: Path) -> bool:
    return path.is_relative_to(ROOT) and "site-packages" not in path.parts


def _packages() -> dict[str, Path]:
    """Every project app's migrations package that exists: dotted name -> folder (the apps of
    Django's registry whose code is in this tree, their packages as ``MIGRATION_MODULES``
    would move them)."""
    packages = {}
    for config in apps.get_app_configs():
        if not _is_project(Path(config.path).resolve()):
            continue
        name, _ = MigrationLoader.migrations_module(config.label)
        if name is None:
            continue
        folder = ROOT.joinpath(*name.split("."))
        if (folder / "__init__.py").is_file():
            packages[name] = folder
    return packages


PACKAGES = _packages()


def _modules() -> Iterator[tuple[str, Path]]:
    for package, folder in sorted(PACKAGES.items()):
        for path in sorted(folder.glob("*.py")):
            yield (package if path.stem == "__init__" else f"{package}.{path.stem}"), path


MODULES = dict(_modules())


def _in_a_migrations_package(name: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in PACKAGES)


def _allowed(name: str) -> bool:
    return name.split(".")[0] in ALLOWED_ROOTS or _in_a_migrations_package(name)


def _imported(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement imports, relative ones resolved against
    ``module``: ``from a import b`` imports ``a.b``, a module or a name of ``a``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([base] if base else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def _called(node: ast.Call) -> str:
    function = node.func
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return ""


def live_imports(module: str, path: Path) -> list[str]:
    """``"line N: name"`` for every import of ``path`` (the module ``module``) outside the
    standard library, Django and the migrations packages, and for every import by name at
    run time."""
    tree = ast.parse(path.read_text(), str(path))
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found += [f"line {node.lineno}: {name}"
                      for name in _imported(module, is_package, node) if not _allowed(name)]
        elif isinstance(node, ast.Call) and _called(node) in DYNAMIC:
            found.append(f"line {node.lineno}: {_called(node)}(...)")
    return sorted(found, key=lambda hit: int(hit.split(":")[0].removeprefix("line ")))


def test_the_reader_finds_every_migrations_package() -> None:
    # A reader that found nothing would pass everything.
    assert {"accounts.migrations", "campaigns.migrations", "characters.migrations",
            "core.migrations", "rolls.migrations"} <= set(PACKAGES)
    assert {"characters.migrations.0005_maelstrom_sheet", "characters.migrations._maelstrom_0005",
            "rolls.migrations.0009_maelstrom_results",
            "rolls.migrations._maelstrom_0009"} <= set(MODULES)
    # And no migrations package of the tree is missed (an app left out of the registry).
    top = [folder for folder in ROOT.iterdir()
           if (folder / "__init__.py").is_file() and folder.name != "tests"]
    tree = {".".join(path.parent.relative_to(ROOT).parts)
            for folder in top for path in folder.rglob("migrations/__init__.py")}
    assert tree == set(PACKAGES)


def test_the_reader_would_find_live_code_imported(tmp_path: Path) -> None:
    sample = tmp_path / "0099_sample.py"
    sample.write_text(
        "from __future__ import annotations\n"
        "import json\n"
        "from typing import TYPE_CHECKING\n"
        "from django.db import migrations\n"
        "from . import _frozen\n"
        "from ._frozen import convert\n"
        "from characters.migrations._maelstrom_0005 import sheet_from_rows\n"
        "from systems.maelstrom import legacy\n"            # 8
        "import rulesets.errors\n"                          # 9
        "from .. import models\n"                           # 10
        "import pytest\n"                                   # 11
        "if TYPE_CHECKING:\n"
        "    from rolls.models import Roll\n"               # 13
        "def forward(apps, schema_editor):\n"
        "    from core import live\n"                       # 15
        "    importlib.import_module('systems.maelstrom')\n"  # 16
    )

    assert live_imports("characters.migrations.0099_sample", sample) == [
        "line 8: systems.maelstrom.legacy", "line 9: rulesets.errors",
        "line 10: characters.models", "line 11: pytest", "line 13: rolls.models.Roll",
        "line 15: core.live", "line 16: import_module(...)"]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_migration_imports_live_code(module: str) -> None:
    hits = live_imports(module, MODULES[module])
    assert hits == [], (
        f"{module} imports live code: a migration imports only the standard library, Django "
        "and modules of a migrations package; carry the conversion in the migration, or in "
        "a frozen module beside it whose name begins with an underscore")
