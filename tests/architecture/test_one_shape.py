"""One shape for every system (docs/architecture.md, "One sheet layer, a package per system"):
no code outside ``rulesets/`` and ``systems/`` names a system or branches on one.

The apps' Python and the shared templates are searched for the systems' slugs and display
names, and for the names of Maelstrom's old private storage (its ``Trait`` and ``MeritFlaw``
models, its track and dice columns, its own URLs), which came back every time a shortcut was
taken. Python is read with ``ast``: names, attributes, keywords and string constants count,
docstrings and comments do not (a docstring may give a system as an example; code may not
act on one). Templates count whole, apart from ``{# #}`` comments. Migrations are history
and are left out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesets.registry import RULESETS

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "campaigns", "characters", "core", "rolls", "table", "transfer",
        "sheetkeeper")
TEMPLATE_DIRS = (ROOT / "templates", *(ROOT / app / "templates" for app in APPS))

MAELSTROM_ONLY = (
    "Trait", "MeritFlaw", "trait_rows", "willpower_permanent", "willpower_current",
    "health_bashing", "health_lethal", "health_aggravated", "huge_size", "bonus_dice",
    "character-health", "character-willpower", "character-xp-bank", "roll-experience-die",
    "roll-willpower-spend",
)


def _pattern(words: set[str], flags: int = 0) -> str:
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return rf"(?<![\w-])(?{'i' if flags else ''}:{alternatives})(?![\w-])"


# The slugs and display names in any case ("Maelstrom rules.md", "maelstrom"); the old
# storage's names exactly ("trait" is an ordinary word, "Trait" was the model). A test-only
# system (tests/conftest.py) is not the apps' concern.
SYSTEMS = {word for ruleset in RULESETS.values() if not ruleset.package
           for word in (ruleset.slug, ruleset.name)}
PATTERN = re.compile(_pattern(SYSTEMS, re.IGNORECASE) + "|" + _pattern(set(MAELSTROM_ONLY)))


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (module, class, function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _where(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


def _python_hits(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(), str(path))
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, ast.keyword) and node.arg:
            texts = [node.arg]
        elif isinstance(node, ast.alias):
            texts = [node.name, node.asname or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            texts = [node.value]
        for text in texts:
            for match in PATTERN.finditer(text):
                yield f"{_where(path)}:{getattr(node, 'lineno', '?')}: {match[0]!r}"


def _template_hits(path: Path) -> Iterator[str]:
    text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.DOTALL)
    for match in PATTERN.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        yield f"{_where(path)}:{line}: {match[0]!r}"


def _python_files() -> list[Path]:
    return [path for app in APPS for path in sorted((ROOT / app).rglob("*.py"))
            if "migrations" not in path.parts]


def _template_files() -> list[Path]:
    return [path for folder in TEMPLATE_DIRS if folder.exists()
            for path in sorted(folder.rglob("*.html"))]


def test_the_search_would_find_a_system_named_in_code(tmp_path: Path) -> None:
    """The search itself: a slug in a string, a Maelstrom-only attribute and a display name in
    markup are found; the same words in a docstring or a template comment are not."""
    sample = tmp_path / "sample.py"
    sample.write_text('"""Maelstrom in a docstring is fine."""\n'
                      'x = "maelstrom"\ny = character.willpower_current\n')
    assert [hit.split(": ", 1)[1] for hit in _python_hits(sample)] == [
        "'maelstrom'", "'willpower_current'"]
    page = tmp_path / "sample.html"
    page.write_text("{# Genesys in a comment #}<p>Shattered World</p>")
    assert [hit.split(": ", 1)[1] for hit in _template_hits(page)] == ["'Shattered World'"]


@pytest.mark.parametrize("path", _python_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_app_module_names_a_system(path: Path) -> None:
    hits = list(_python_hits(path))
    assert not hits, "A system named outside rulesets/ and systems/:\n" + "\n".join(hits)


@pytest.mark.parametrize("path", _template_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_template_names_a_system(path: Path) -> None:
    hits = list(_template_hits(path))
    assert not hits, "A system named in a shared template:\n" + "\n".join(hits)
