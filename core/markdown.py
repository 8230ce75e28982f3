"""What users write (backstories, notes, GM notes, session recaps), rendered from Markdown.

comrak (the Rust port of GitHub's cmark-gfm) parses CommonMark with tables and strikethrough
into HTML, raw HTML escaped; nh3 (the Rust ``ammonia`` sanitiser) then keeps only
:data:`ALLOWED_TAGS`, :data:`ALLOWED_ATTRIBUTES` and :data:`ALLOWED_SCHEMES` links
(docs/security.md, "What users write"). No image is kept: the Content Security Policy allows
images from this site only, and a picture in a note would be a tracking pixel in a fellow
player's browser.

Any text of at most :data:`MAX_LENGTH` characters renders within the bound of
docs/security.md, "Markdown bombs", however it was built to be slow (the bombs of
tests/markdown_bombs.py, timed by ``python -m benchmarks.markdown``). comrak's time grows with
the text's length on the known pathological inputs, except tables, whose rows it pads to the
header's width; and nh3's HTML parser takes time quadratic in how deeply elements nest. So,
around the two libraries:

* a text that could ask for more than :data:`TABLE_CELLS` table cells, or a table wider than
  :data:`TABLE_COLUMNS`, is parsed without tables (its pipes show as written);
* comrak's HTML, when longer than :data:`MAX_HTML` characters or nested deeper than
  :data:`MAX_DEPTH` elements, is put aside for the text as written, escaped, in paragraphs.

:func:`render_markdown` renders each text once: the HTML is kept in the ``markdown`` cache
(settings.CACHES) under a digest of the text and :data:`RENDERER`, so every later view of an
unchanged text is a cache hit, and a new text, or a new renderer, renders anew.
"""

from __future__ import annotations

import hashlib
import html
import re
from importlib.metadata import version
from itertools import accumulate

import comrak
import nh3
from django.core.cache import caches
from django.utils.safestring import SafeString, mark_safe

MAX_LENGTH = 20_000
"""The longest text a user may write in one Markdown field, in characters (about eight pages);
the forms refuse longer, so rendering stays fast."""

ALLOWED_TAGS = frozenset({
    "p", "br", "hr", "h3", "h4", "h5", "h6", "strong", "em", "s", "del", "code",
    "pre", "blockquote", "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
})
# No style attribute: the Content Security Policy refuses inline styles anyway (a table's
# column alignment is lost, nothing else).
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}
ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})

TABLE_COLUMNS = 64
"""The widest table rendered as a table, in columns: comrak's time per cell grows with the
table's width (docs/performance.md, "Markdown bombs"), and no note needs more."""

TABLE_CELLS = 20_000
"""The most table cells a text may ask for and keep its tables, counted as an upper bound:
the widest table's columns times the text's lines (every row is padded to its header's width,
so a short line can ask for as many cells as the header has)."""

MAX_HTML = 8 * MAX_LENGTH
"""The longest HTML the parser may give for one text, in characters: a text at
:data:`MAX_LENGTH` written for people gives at most about six times its length (a table of
one-character cells); more can only be amplification (rows padded to a wide header, one
reference used over and over), shown as written instead."""

MAX_DEPTH = 32
"""How deeply quotes, lists, emphasis and links may nest (a list in a quote in a list ... down
to the emphasis in a link), in elements, before the text is shown as written instead."""

RENDERER = "1:" + hashlib.sha256(repr((
    version("comrak"), version("nh3"), sorted(ALLOWED_TAGS), sorted(ALLOWED_SCHEMES),
    sorted((tag, sorted(names)) for tag, names in ALLOWED_ATTRIBUTES.items()),
    TABLE_COLUMNS, TABLE_CELLS, MAX_HTML, MAX_DEPTH,
)).encode()).hexdigest()[:16]
"""Part of every cache key, so no page shows HTML a different renderer made: the libraries'
versions, the allow-lists and the limits count in by themselves; raise the first number when
the code changes what a text renders to (the heading shift, the links dropped, a guard)."""

CACHE = "markdown"
"""The alias in settings.CACHES that keeps rendered HTML."""

_EXTENSIONS = comrak.ExtensionOptions()
_EXTENSIONS.table = True
_EXTENSIONS.strikethrough = True
_WITHOUT_TABLES = comrak.ExtensionOptions()
_WITHOUT_TABLES.strikethrough = True
# Raw HTML escaped (shown as text), not passed through; comrak's own link check, which leaves
# javascript:, vbscript:, file: and data: addresses empty, stays on (unsafe_ off).
_RENDER = comrak.RenderOptions()
_RENDER.escape = True

_TAGS = set(ALLOWED_TAGS)
_ATTRIBUTES = {tag: set(names) for tag, names in ALLOWED_ATTRIBUTES.items()}
_SCHEMES = set(ALLOWED_SCHEMES)

# A line that could be a table's delimiter row, once a quote's ">" and indentation are
# counted in: pipes, dashes, colons and spaces only. Possessive, so a long line of them that
# ends otherwise is scanned once, not once per starting point.
_DELIMITER_ROW = re.compile(r"^(?:[^\S\n]|[>|:\-])*+$", re.MULTILINE)
_DASHES = re.compile(r"-+")
_LINE_ENDS = re.compile(r"\r\n?|\n")
_BLANK_LINES = re.compile(r"\n(?:[^\S\n]*\n)+")
# The elements comrak nests without bound: quotes, lists and their items, emphasis,
# strikethrough, links. The others add a few levels at most (a paragraph or a heading, a
# table's four, pre and code), and leaving them out keeps a long table quick to scan.
_NESTING = re.compile(r"<(/?)(?:blockquote|ul|ol|li|em|strong|del|a)[\s>]")
_STEP = {"": 1, "/": -1}
_LINK = re.compile(r'<a href="([^"]*)"[^>]*>|</a>')
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


def render_markdown(text: str) -> SafeString:
    """``text`` (Markdown, as the user typed it) as sanitised HTML, safe to put in a page;
    rendered once, then taken from the ``markdown`` cache while the text is unchanged.

    Args:
        text: the user's Markdown; an empty text gives an empty string.

    Returns:
        As :func:`render`.
    """
    if not text.strip():
        return mark_safe("")
    cache = caches[CACHE]
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    key = f"markdown:{RENDERER}:{digest}"
    rendered = cache.get(key)
    if not isinstance(rendered, str):
        rendered = render(text)
        cache.set(key, rendered)
    return mark_safe(rendered)  # noqa: S308 - cleaned by nh3 in render()


def render(text: str) -> str:
    """``text`` as sanitised HTML, rendered now (no cache): what :func:`render_markdown` keeps.

    Args:
        text: the user's Markdown, of any length (the forms keep it to :data:`MAX_LENGTH`).

    Returns:
        HTML holding only :data:`ALLOWED_TAGS` (headings two levels down: ``#`` is an
        ``h3``), links with ``rel="noopener noreferrer nofollow"`` and one of
        :data:`ALLOWED_SCHEMES` (or relative); never a script, a style block, an event handler
        or an image. A link to any other address is shown as its text. A text the guards of
        this module's docstring stop is shown as written, in paragraphs.
    """
    if not text.strip():
        return ""
    # A lone surrogate cannot cross into comrak (the database refuses them too, but a page
    # must open whatever an old row holds).
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    extensions = _EXTENSIONS if _tables_fit(text) else _WITHOUT_TABLES
    parsed = _parse(text, extensions)
    if len(parsed) > MAX_HTML or _depth(parsed) > MAX_DEPTH:
        parsed = _as_written(text)
    else:
        if "<h" in parsed:
            parsed = _shift_headings(parsed)
        if "<a " in parsed:
            parsed = _drop_other_links(parsed)
    return nh3.clean(parsed, tags=_TAGS, attributes=_ATTRIBUTES, url_schemes=_SCHEMES,
                     link_rel="noopener noreferrer nofollow")


def _parse(text: str, extensions: comrak.ExtensionOptions) -> str:
    """comrak's HTML for ``text``; the one call to the parser (the tests count them)."""
    return comrak.render_markdown(text, extension_options=extensions, render_options=_RENDER)


def _tables_fit(text: str) -> bool:
    """Whether ``text`` asks for at most :data:`TABLE_CELLS` cells, in tables at most
    :data:`TABLE_COLUMNS` wide (:func:`_table_bound`)."""
    widest, cells = _table_bound(text)
    return widest <= TABLE_COLUMNS and cells <= TABLE_CELLS


def _table_bound(text: str) -> tuple[int, int]:
    """Upper bounds, never less than comrak makes, of the widest table in ``text`` and of the
    cells of all its tables together: ``(columns, cells)``.

    A table's width is its delimiter row's cell count (the header must match it), and each
    cell of a delimiter row is one run of dashes (``---``, ``:-:``); every row, header
    included, is one line and is padded or cut to that width; so no text makes more cells
    than its widest delimiter row's runs of dashes times its lines.
    """
    # A carriage return ends a line for comrak as a line feed does ("\r\n" counts twice here).
    lines = text.replace("\r", "\n")
    widest = max((len(_DASHES.findall(row)) for row in _DELIMITER_ROW.findall(lines)),
                 default=0)
    return widest, widest * (lines.count("\n") + 1)


def _depth(parsed: str) -> int:
    """How deeply the quotes, lists, emphasis and links of ``parsed`` (comrak's well-formed
    HTML) nest, in elements."""
    return max(accumulate(map(_STEP.__getitem__, _NESTING.findall(parsed))), default=0)


def _as_written(text: str) -> str:
    """``text`` escaped, as paragraphs at its blank lines with its line breaks kept."""
    paragraphs = _BLANK_LINES.split(_LINE_ENDS.sub("\n", html.escape(text.strip(), quote=False)))
    return "\n".join("<p>" + part.replace("\n", "<br>\n") + "</p>" for part in paragraphs)


def _shift_headings(parsed: str) -> str:
    # A user's "# Heading" sits inside a card under the page's own h1 and h2: shift it two
    # levels down (h1 -> h3 ... h4 and deeper -> h6) so the page's outline stays whole. The
    # highest levels first, so no heading moves twice; with raw HTML escaped, every "<hN>" in
    # comrak's HTML is a heading it made.
    for old, new in ((5, 6), (4, 6), (3, 5), (2, 4), (1, 3)):
        parsed = parsed.replace(f"<h{old}>", f"<h{new}>").replace(f"</h{old}>", f"</h{new}>")
    return parsed


def _drop_other_links(parsed: str) -> str:
    """``parsed`` with each link whose address the sanitiser would not keep (comrak leaves a
    javascript: one empty; an ftp: one nh3 would strip) replaced by its text. Links never
    nest, so each opening tag's end is the next ``</a>``."""
    dropping = False

    def keep_or_drop(tag: re.Match[str]) -> str:
        nonlocal dropping
        if tag[1] is None:  # "</a>"
            closing_a_dropped_link, dropping = dropping, False
            return "" if closing_a_dropped_link else tag[0]
        dropping = not _linkable(html.unescape(tag[1]))
        return "" if dropping else tag[0]

    return _LINK.sub(keep_or_drop, parsed)


def _linkable(address: str) -> bool:
    """Whether nh3 keeps ``address``: one of :data:`ALLOWED_SCHEMES`, or relative and not
    empty (an empty one is comrak's mark of an address it refused)."""
    scheme = _SCHEME.match(address)
    if scheme is not None:
        return scheme[1].lower() in ALLOWED_SCHEMES
    return address != ""
