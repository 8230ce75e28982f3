"""The house's import rules (docs/architecture.md, "Layers"), derived from the code itself.

Every module of the project is read with ``ast`` (nothing is imported), its imports of the
project's own modules become the edges of a graph, and three rules are checked on it:

1. Imports run one way: a module imports only modules of its own layer or a lower one
   (:func:`layer`). The rules engine is at the bottom, the URLs at the top.
2. The graph has no cycle, inside a layer either.
3. No function-level import of the project's own modules: an import inside a function was
   how the old code dodged a cycle, and it hides an edge from this test.

Imports under ``if TYPE_CHECKING:`` are annotations only, never run, and are left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rulesets", "core", "accounts", "campaigns", "characters", "rolls", "systems",
            "table", "encounters", "equipment", "history", "chat", "transfer", "sheetkeeper")

LOWER = {
    # The models of an app, and what sits with them below the systems: who may see what,
    # the ledger's writer and the roll log's. Ordered campaigns < characters < rolls.
    "campaigns.models": 2, "campaigns.permissions": 2,
    "characters.models": 3, "characters.permissions": 3, "characters.ledger": 3,
    "rolls.models": 4, "rolls.log": 4, "rolls.rolled": 4,
    # A character's items, which the systems' equipment part reads (systems.equipment).
    "equipment.models": 4,
    # The activity log and its writer, which the roll log's writers below the services call.
    "history.models": 4, "history.log": 4,
}
LAYER_NAMES = {0: "rulesets", 1: "core", 2: "campaigns' models", 3: "characters' models",
               4: "rolls' models", 5: "systems", 6: "services and views", 7: "transfer",
               8: "urls, settings and commands"}


def layer(module: str) -> int:
    """The layer of a module (0 lowest); an import may only point to the same or a lower one.

    rulesets 0 <- core 1 <- models, permissions, ledger and roll log (campaigns 2, characters 3,
    rolls 4) <- systems 5 <- services, forms and views of the apps, the GM's table, and each
    system's demo and own pages (which compose the services) 6 <- transfer 7 <- urls, settings and
    management commands 8.
    """
    parts = module.split(".")
    if "management" in parts or parts[0] == "sheetkeeper":
        return 8
    if parts[0] == "rulesets":
        return 0
    if parts[0] == "core":
        return 1
    for name, number in LOWER.items():
        if module == name or module.startswith(name + "."):
            return number
    if parts[0] == "systems":
        # A system's demo, and its own pages (views and urls: Maelstrom's creation steps),
        # compose the services as the apps' views do.
        return 6 if parts[-1] in {"demo", "demos", "views", "urls"} else 5
    if parts[0] == "transfer":
        return 7
    return 6


def _modules() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            if "migrations" in relative.parts:
                continue
            parts = list(relative.parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


MODULES = dict(_modules())


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The project's modules an import statement names (``from a import b`` names ``a.b``
    when that is a module, else ``a``)."""
    found: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: resolve against this module's package
            package = module.split(".")
            if MODULES[module].name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([base] if base else [])])
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                 for alias in node.names]
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name.split(".")[0] in PACKAGES and name != module:
            found.append(name)
    return found


def _walk(module: str, tree: ast.AST) -> tuple[set[str], list[tuple[int, str]]]:
    """(modules imported at run time, [(line, module) imported inside a function])."""
    edges: set[str] = set()
    nested: list[tuple[int, str]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    visit(other, in_function)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                targets = _targets(module, child)
                edges.update(targets)
                if in_function:
                    nested.extend((child.lineno, target) for target in targets)
                continue
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or function)

    visit(tree, False)
    return edges, nested


GRAPH: dict[str, set[str]] = {}
NESTED: dict[str, list[tuple[int, str]]] = {}
for _name, _path in MODULES.items():
    GRAPH[_name], NESTED[_name] = _walk(_name, ast.parse(_path.read_text(), str(_path)))


def test_the_graph_covers_every_app() -> None:
    # A sanity check of the reader itself: a graph it failed to build would pass everything.
    assert {"systems.base", "characters.services", "rolls.log", "core.live"} <= set(GRAPH)
    assert "characters.models" in GRAPH["characters.services"]
    assert layer("rulesets.dice") < layer("core.live") < layer("campaigns.models")
    assert layer("rolls.log") < layer("systems.base") < layer("characters.services")


def test_imports_run_one_way_lowest_first() -> None:
    upward = sorted(
        f"{module} ({LAYER_NAMES[layer(module)]}) imports {target} "
        f"({LAYER_NAMES[layer(target)]})"
        for module, targets in GRAPH.items() for target in targets
        if layer(target) > layer(module)
    )
    assert upward == []


def test_no_module_imports_itself_back_through_others() -> None:
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH.get(module, ())):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)
    assert [" -> ".join(cycle) for cycle in cycles] == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_function_level_import_of_the_projects_modules(module: str) -> None:
    assert [f"line {line}: {target}" for line, target in NESTED[module]] == []


def test_no_view_module_imports_another_apps_views() -> None:
    # A view reaching into another app's views couples their pages; what two apps' pages
    # share (a card's context, a permission check) lives in a module of its own.
    crossing = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items() if module.rpartition(".")[2] == "views"
        for target in targets
        if target.rpartition(".")[2] == "views" and target.split(".")[0] != module.split(".")[0]
    )
    assert crossing == []


IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def test_every_type_ignore_names_its_error_and_says_why() -> None:
    # mypy --strict covers every app (make typecheck); where it is silenced, the line says
    # which error and why, so the next reader can tell a checker's gap from a real bug.
    bare = []
    for module, path in MODULES.items():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            found = IGNORE.search(line)
            if found and (not found["codes"] or not re.match(r"\s+#\s*\S", found["rest"])):
                bare.append(f"{module}:{number}: {line.strip()}")
    assert bare == []
