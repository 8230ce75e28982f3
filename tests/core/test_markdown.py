"""core.markdown: what users write, rendered from Markdown and sanitised (markdown-it-py, then
nh3): the formatting a note needs is kept, links get ``rel``, images go, only safe schemes
link, and an empty text renders as nothing."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils.safestring import SafeString

from core.markdown import ALLOWED_TAGS, render_markdown

REL = 'rel="noopener noreferrer nofollow"'


@pytest.mark.parametrize(("written", "html"), [
    ("**bold** and *italic*", "<p><strong>bold</strong> and <em>italic</em></p>"),
    ("~~struck~~", "<p><s>struck</s></p>"),
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


def test_a_scheme_markdown_allows_but_the_sanitiser_does_not_loses_its_address() -> None:
    # ftp: passes the Markdown parser's own check; nh3 keeps http, https and mailto only.
    html = render_markdown("[file](ftp://example.com/f)")

    assert "ftp:" not in html and "href" not in html
    assert f"<a {REL}>file</a>" in html


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
    assert render_markdown(written).strip() == f"<p>{escaped}</p>"


@pytest.mark.parametrize("written", ["", "   ", "\n\n\t"])
def test_an_empty_text_renders_as_nothing(written) -> None:  # type: ignore[no-untyped-def]
    html = render_markdown(written)

    assert html == ""
    assert isinstance(html, SafeString)


def test_the_template_filter_renders_none_as_nothing_and_text_as_markup() -> None:
    template = Template("{% load text %}[{{ empty|markdown }}][{{ note|markdown }}]")

    page = template.render(Context({"empty": None, "note": "*hi*"}))

    assert page == "[][<p><em>hi</em></p>\n]"
