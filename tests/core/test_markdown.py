"""core.markdown: what users write, rendered from Markdown and sanitised (comrak, then nh3):
the formatting a note needs is kept, links get ``rel``, images go, only safe schemes link, an
empty text renders as nothing; every bomb renders sanitised and bounded, and a text is
rendered once however often it is shown."""

from __future__ import annotations

import re
from collections.abc import Iterator
from unittest import mock

import pytest
from django.core.cache import caches
from django.template import Context, Template
from django.utils.safestring import SafeString
from hypothesis import given, settings
from hypothesis import strategies as st

from core import markdown
from core.markdown import ALLOWED_TAGS, MAX_LENGTH, render, render_markdown
from tests.markdown_bombs import BY_NAME, bombs

REL = 'rel="noopener noreferrer nofollow"'


@pytest.mark.parametrize(("written", "html"), [
    ("**bold** and *italic*", "<p><strong>bold</strong> and <em>italic</em></p>"),
    ("~~struck~~", "<p><del>struck</del></p>"),
    ("`code`", "<p><code>code</code></p>"),
    # Two levels down, under the page's own h1 and the card's h2.
    ("# Title", "<h3>Title</h3>"),
    ("## Part", "<h4>Part</h4>"),
    ("###### Small", "<h6>Small</h6>"),
    ("> quoted", "<blockquote>\n<p>quoted</p>\n</blockquote>"),
    ("- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"),
    ("3. three\n4. four", '<ol start="3">\n<li>three</li>\n<li>four</li>\n</ol>'),
    ("```\nx = 1\n```", "<pre><code>x = 1\n</code></pre>"),
    ("line  \nbreak", "<p>line<br>\nbreak</p>"),
    ("---", "<hr>"),
    ("| a | b |\n|---|---|\n| 1 | 2 |", "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n"
     "</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>"),
])
def test_the_formatting_a_note_needs_is_kept(written, html) -> None:  # type: ignore[no-untyped-def]
    assert render_markdown(written).strip() == html


def test_only_the_allowed_tags_can_come_out() -> None:
    assert {"script", "style", "img", "iframe", "svg", "div", "span"}.isdisjoint(ALLOWED_TAGS)


@pytest.mark.parametrize(("written", "href"), [
    ("[site](https://example.com/a?b=1)", "https://example.com/a?b=1"),
    ("[plain](http://example.com)", "http://example.com"),
    ("<https://example.com>", "https://example.com"),
    ("[mail](mailto:gm@example.com)", "mailto:gm@example.com"),
    ("[here](/campaigns/1/)", "/campaigns/1/"),
])
def test_a_link_keeps_its_address_and_gets_rel(written, href) -> None:  # type: ignore[no-untyped-def]
    html = render_markdown(written)

    assert f'<a href="{href}" {REL}>' in html


def test_a_links_title_is_kept() -> None:
    assert 'title="The docs"' in render_markdown('[d](https://example.com "The docs")')


@pytest.mark.parametrize("written", [
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](&#106;avascript:alert(1))",
    "[x](vbscript:msgbox(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](file:///etc/passwd)",
    "[x][ref]\n\n[ref]: javascript:alert(1)",
    "<javascript:alert(1)>",
])
def test_a_dangerous_scheme_never_becomes_a_link(written) -> None:  # type: ignore[no-untyped-def]
    html = render_markdown(written).lower()

    assert "href" not in html
    assert "<a" not in html


def test_a_scheme_markdown_allows_but_the_sanitiser_does_not_is_shown_as_text() -> None:
    # ftp: passes the Markdown parser's own check; nh3 keeps http, https and mailto only.
    html = render_markdown("[file](ftp://example.com/f)")

    assert "ftp:" not in html and "href" not in html and "<a" not in html
    assert html.strip() == "<p>file</p>"


@pytest.mark.parametrize("written", [
    "![pixel](https://evil.example/track.png)",
    '![pixel](/static/img/favicon.svg "local")',
    "[![inner](https://evil.example/p.png)](https://example.com)",
])
def test_images_are_dropped(written) -> None:  # type: ignore[no-untyped-def]
    html = render_markdown(written)

    assert "<img" not in html and "evil.example/p" not in html and "track.png" not in html


@pytest.mark.parametrize(("written", "escaped"), [
    ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
    ("<b onclick='x()'>b</b>", "&lt;b onclick='x()'&gt;b&lt;/b&gt;"),
    ("<style>body { display: none }</style>", "&lt;style&gt;body { display: none }&lt;/style&gt;"),
])
def test_raw_html_is_shown_as_text(written, escaped) -> None:  # type: ignore[no-untyped-def]
    # Inline HTML is text in a paragraph; a line that opens an HTML block is text on its own.
    assert render_markdown(written).strip() in (escaped, f"<p>{escaped}</p>")


@pytest.mark.parametrize("written", ["", "   ", "\n\n\t"])
def test_an_empty_text_renders_as_nothing(written) -> None:  # type: ignore[no-untyped-def]
    html = render_markdown(written)

    assert html == ""
    assert isinstance(html, SafeString)


def test_the_template_filter_renders_none_as_nothing_and_text_as_markup() -> None:
    template = Template("{% load text %}[{{ empty|markdown }}][{{ note|markdown }}]")

    page = template.render(Context({"empty": None, "note": "*hi*"}))

    assert page == "[][<p><em>hi</em></p>\n]"


# Bombs: whatever a text was built to do, what comes out is sanitised and bounded. How long it
# takes is measured by benchmarks/markdown.py (docs/performance.md), not here.

@pytest.mark.parametrize("name", BY_NAME)
def test_a_bomb_renders_sanitised_and_bounded(name) -> None:  # type: ignore[no-untyped-def]
    html = render(BY_NAME[name])

    assert set(re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", html)) <= ALLOWED_TAGS
    assert len(html) <= markdown.MAX_HTML
    assert markdown._depth(html) <= markdown.MAX_DEPTH
    assert all(markdown._linkable(href) for href in re.findall(r'href="([^"]*)"', html))


@pytest.mark.parametrize("name", BY_NAME)
def test_a_bombs_html_grows_as_its_text_does(name) -> None:  # type: ignore[no-untyped-def]
    # Twice the text, at most about twice the HTML: no bomb amplifies with its length.
    half = render(bombs(MAX_LENGTH // 2)[name])

    assert len(render(BY_NAME[name])) <= 2 * len(half) + 1_000


def test_a_table_as_wide_as_the_limit_is_a_table_and_a_wider_one_is_text() -> None:
    def table(columns: int) -> str:
        return "|" + "a|" * columns + "\n|" + "-|" * columns + "\n|" + "1|" * columns

    assert "<table>" in render(table(markdown.TABLE_COLUMNS))
    wider = render(table(markdown.TABLE_COLUMNS + 1))
    assert "<table>" not in wider and "|a|a|" in wider


def test_rows_a_table_would_pad_past_the_cell_budget_leave_the_text_without_tables() -> None:
    html = render(BY_NAME["padded table"])

    assert "<table>" not in html and "<td>" not in html


@st.composite
def _tables(draw: st.DrawFn) -> str:
    """A text full of tables and near-tables: a header of some width, a delimiter row of that
    width or another, rows of any width, in a quote or a list or neither, with any line ends."""
    def row(cells: list[str]) -> str:
        return draw(st.sampled_from(["", "|"])) + "|".join(cells) + draw(
            st.sampled_from(["", "|", " |"]))

    def table() -> list[str]:
        width = draw(st.integers(1, 6))
        dashes = draw(st.sampled_from([width, width, draw(st.integers(1, 6))]))
        return [row(draw(st.lists(st.sampled_from(["a", "", " b ", "\\|", "`|`"]),
                                  min_size=width, max_size=width))),
                row(draw(st.lists(st.sampled_from(["-", " --", ":-", "-: ", ":-:"]),
                                  min_size=dashes, max_size=dashes))),
                *(row(draw(st.lists(st.sampled_from(["x", "", "y|z"]), max_size=8)))
                  for _ in range(draw(st.integers(0, 5))))]

    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        prefix = draw(st.sampled_from(["", "> ", "  ", "- ", "> > ", "\t", "1. "]))
        lines += [prefix + line for line in table()]
        lines += draw(st.lists(st.sampled_from(["", "-", "text", "> ", "|"]), max_size=2))
    ends = draw(st.lists(st.sampled_from(["\n", "\r", "\r\n"]), min_size=len(lines),
                         max_size=len(lines)))
    return "".join(line + end for line, end in zip(lines, ends, strict=True))


@given(_tables())
@settings(max_examples=300, deadline=None)
def test_the_table_bound_is_never_less_than_what_comrak_makes(text: str) -> None:
    parsed = markdown._parse(text, markdown._EXTENSIONS)
    widest, cells = markdown._table_bound(text)

    assert len(re.findall(r"<t[dh][\s>]", parsed)) <= cells
    assert all(len(re.findall(r"<th[\s>]", head)) <= widest
               for head in parsed.split("</thead>")[:-1])


def test_nesting_past_the_limit_is_shown_as_written() -> None:
    quotes = markdown.MAX_DEPTH
    assert render("> " * quotes + "deep").count("<blockquote>") == quotes
    html = render("> " * (quotes + 1) + "deeper")

    assert html == "<p>" + "&gt; " * (quotes + 1) + "deeper</p>"


def test_html_past_the_limit_is_shown_as_written_with_its_paragraphs_and_breaks(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(markdown, "MAX_HTML", 40)
    html = render("# A *long* title\r\nand a line\n\n  \n<b>& more</b>")

    assert html == ("<p># A *long* title<br>\nand a line</p>\n"
                    "<p>&lt;b&gt;&amp; more&lt;/b&gt;</p>")


# Single characters that mean something to Markdown or to HTML, and a few longer pieces.
_PIECES = st.sampled_from([*"[]()!<>*_~`\\|-:#&;\"' \t\n\r1.a\u2028\x00\ud800😀", "http://x",
                           "javascript:", "<a href=", "&#x6a;", "```", "    ", "- ", "](",
                           "[x]: "])


@given(st.lists(_PIECES, max_size=80).map("".join))
@settings(max_examples=300, deadline=None)
def test_any_text_renders_to_allowed_tags_and_links_only(text: str) -> None:
    html = render(text)

    assert set(re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", html)) <= ALLOWED_TAGS
    assert all(markdown._linkable(href) for href in re.findall(r'<a [^>]*href="([^"]*)"', html))
    assert html.count("<a ") == html.count("</a>")


def test_a_lone_surrogate_an_old_row_may_hold_renders_as_a_replacement_character() -> None:
    assert render("a\ud800b").strip() == "<p>a\ufffdb</p>"


# Rendered once per change: the cache.

@pytest.fixture
def parses() -> Iterator[mock.MagicMock]:
    """The ``markdown`` cache emptied (it is this process's memory) and every call of the
    parser counted."""
    caches[markdown.CACHE].clear()
    with mock.patch.object(markdown, "_parse", wraps=markdown._parse) as parse:
        yield parse
    caches[markdown.CACHE].clear()


def test_a_text_is_parsed_once_however_often_it_is_shown(parses) -> None:  # type: ignore[no-untyped-def]
    shown = [render_markdown(BY_NAME["[!["]) for _ in range(3)]

    assert parses.call_count == 1
    assert shown[0] == shown[1] == shown[2] == render(BY_NAME["[!["])
    assert all(isinstance(html, SafeString) for html in shown)


def test_a_changed_text_is_parsed_anew_and_the_old_one_is_still_kept(parses) -> None:  # type: ignore[no-untyped-def]
    assert render_markdown("*before*").strip() == "<p><em>before</em></p>"
    assert render_markdown("*after*").strip() == "<p><em>after</em></p>"
    render_markdown("*before*")

    assert parses.call_count == 2


def test_a_new_renderer_parses_every_text_anew(parses, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    render_markdown("*note*")
    monkeypatch.setattr(markdown, "RENDERER", markdown.RENDERER + "+next")
    render_markdown("*note*")

    assert parses.call_count == 2


def test_the_template_filter_shows_a_text_from_the_cache(parses) -> None:  # type: ignore[no-untyped-def]
    template = Template("{% load text %}{{ note|markdown }}")

    pages = [template.render(Context({"note": "*hi*"})) for _ in range(2)]

    assert pages == ["<p><em>hi</em></p>\n"] * 2
    assert parses.call_count == 1


def test_a_sheet_shown_again_parses_nothing_until_its_backstory_changes(
        parses, bobs_character, bob, client_for) -> None:  # type: ignore[no-untyped-def]
    bobs_character.backstory = BY_NAME["[!["]
    bobs_character.save()
    client = client_for(bob)

    assert client.get(bobs_character.get_absolute_url()).status_code == 200
    first = parses.call_count
    assert client.get(bobs_character.get_absolute_url()).status_code == 200
    assert parses.call_count == first

    bobs_character.backstory = "*A new past.*"
    bobs_character.save()
    page = client.get(bobs_character.get_absolute_url())

    assert "<em>A new past.</em>" in page.content.decode()
    assert parses.call_count == first + 1
