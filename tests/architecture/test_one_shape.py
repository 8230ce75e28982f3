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
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulesets.registry import RULESETS

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "campaigns", "characters", "core", "rolls", "table", "encounters",
        "equipment", "transfer", "sheetkeeper")
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


def _python_hits(path: Path, pattern: re.Pattern[str] = PATTERN) -> Iterator[str]:
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
            for match in pattern.finditer(text):
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


# --- A system's rules, ledger kinds and styles are declared in its package -------------------

SHARED_CSS = sorted((ROOT / "static" / "css").glob("*.css"))
SYSTEM_TEMPLATES = {slug: sorted((ROOT / "systems" / slug / "templates").rglob("*.html"))
                    for slug in RULESETS if (ROOT / "systems" / slug).is_dir()}


def _system_words() -> set[str]:
    """Each system's own kinds of roll and of ledger entry and the sheet parts its stored
    bounds keep (rulesets.registry): words only that system's code should hold."""
    return {word for ruleset in RULESETS.values()
            for word in (*(value for value, _ in ruleset.roll_kinds),
                         *(value for value, _ in ruleset.ledger_kinds),
                         *(bound.part for bound in ruleset.stored_bounds))}


def _classes(css: str) -> set[str]:
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    css = re.sub(r"\{[^{}]*\}", "{}", css)  # declarations: "0.5pt" is no class
    return set(re.findall(r"\.(-?[a-zA-Z_][\w-]*)", css))


def _used_in(css_class: str, text: str) -> bool:
    """Whether markup uses the class: by name, or by a prefix a template completes inside a
    class attribute (``class="outcome-{{ roll.outcome }}"``)."""
    if re.search(rf"(?<![\w-]){re.escape(css_class)}(?![\w-])", text):
        return True
    prefixes = re.findall(r'class="[^"]*?([\w-]+-)\{\{', text)
    return any(css_class.startswith(prefix) for prefix in prefixes)


@functools.cache
def _system_markup() -> dict[str, str]:
    return {slug: "".join(p.read_text() for p in files) for slug, files in SYSTEM_TEMPLATES.items()}


@functools.cache
def _shared_markup() -> str:
    files = [*_template_files(), *_python_files(), *sorted((ROOT / "static" / "js").glob("*.js"))]
    return "".join(path.read_text() for path in files)


def test_the_shared_models_name_no_system_kind_or_rule() -> None:
    """characters/models.py, rolls/models.py and campaigns/models.py read each system's
    kinds of roll and ledger entry and its stored bounds from the registry; they name none
    of them."""
    system_words = _system_words()
    assert system_words, "the registry declares some system words"
    words = re.compile(_pattern(system_words, re.IGNORECASE))
    hits = [hit for path in (ROOT / "characters/models.py", ROOT / "rolls/models.py",
                             ROOT / "campaigns/models.py")
            for hit in _python_hits(path, words)]
    assert not hits, "A system's word in a shared model:\n" + "\n".join(hits)


@pytest.mark.parametrize("path", SHARED_CSS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_shared_stylesheet_styles_no_single_system(path: Path) -> None:
    """Every class a shared stylesheet styles is used by shared markup or by two systems or
    more; one system's classes live in its own stylesheet (css/systems/<slug>.css)."""
    shared, by_system = _shared_markup(), _system_markup()
    alone = sorted(
        f"{css_class} ({', '.join(users)})"
        for css_class in _classes(path.read_text()) if not _used_in(css_class, shared)
        for users in [[slug for slug, text in by_system.items() if _used_in(css_class, text)]]
        if len(users) == 1)
    assert not alone, f"{_where(path)} styles one system's classes:\n" + "\n".join(alone)


# --- A system is told whether the viewer runs the table, never reads the seat ----------------

SEAT_NAMES = {"Membership", "is_lead_gm", "get_campaign_as_lead_gm"}
"""The seat's model and the lead GM's powers: the shared views' business, not a system's."""
SEAT_IN_TEMPLATES = re.compile(r"\b(?:membership\.|is_lead_gm\b)")


def _seat_hits(path: Path) -> Iterator[str]:
    """Where a system's module reads a seat: the names of :data:`SEAT_NAMES`, or a
    ``.role`` attribute (a membership's role)."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        name = (node.id if isinstance(node, ast.Name) else node.attr
                if isinstance(node, ast.Attribute) else node.name
                if isinstance(node, ast.alias) else "")
        if name in SEAT_NAMES or (isinstance(node, ast.Attribute) and node.attr == "role"):
            yield f"{_where(path)}:{getattr(node, 'lineno', '?')}: {name!r}"


def test_the_seat_search_would_find_a_system_reading_a_seat(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from campaigns.models import Membership\n"
                      "if membership.role == 'gm': pass\n")
    assert sorted(hit.split(": ", 1)[1] for hit in _seat_hits(sample)) == [
        "'Membership'", "'role'"]


def test_no_system_reads_the_seat() -> None:
    """A system's code and templates are handed ``is_gm`` (whoever runs the table: the GM or
    a co-GM) and never read a seat, so a co-GM is answered alike in every system and the
    authorization matrix asks the co-GM's column in one system's campaign per URL
    (tests/security/test_authorization_matrix.py)."""
    package = ROOT / "systems"
    hits = [hit for path in sorted(package.rglob("*.py")) if "migrations" not in path.parts
            for hit in _seat_hits(path)]
    hits += [f"{_where(path)}: {match[0]!r}" for path in sorted(package.rglob("*.html"))
             for match in SEAT_IN_TEMPLATES.finditer(path.read_text())]
    assert not hits, "A system reads the seat (it should be handed is_gm):\n" + "\n".join(hits)
