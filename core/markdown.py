"""What users write (backstories, notes, GM notes, session recaps), rendered from Markdown.

Two kept libraries, each doing one job: markdown-it-py parses CommonMark (with tables and
strikethrough) into HTML, with raw HTML in the source turned off, so that ``<script>`` typed
into a backstory is shown as text; nh3 (the Rust ``ammonia`` sanitiser) then keeps only the
tags and attributes below and only ``http``, ``https`` and ``mailto`` links, so that nothing
the parser lets through (a ``javascript:`` link, an image pointing anywhere) can run or load.
Images are not kept at all: the Content Security Policy allows images from this site only,
and a picture in a note is not worth a tracking pixel in a fellow player's browser.
"""

from __future__ import annotations

from functools import cache

import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt

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


@cache
def _parser() -> MarkdownIt:
    # "js-default": CommonMark without raw HTML, with linkify off; tables and strikethrough
    # on, as players expect from the chat tools they use.
    return MarkdownIt("js-default").enable(["table", "strikethrough"])


def render_markdown(text: str) -> SafeString:
    """``text`` (Markdown, as the user typed it) as sanitised HTML, safe to put in a page.

    Args:
        text: the user's Markdown; an empty text gives an empty string.

    Returns:
        HTML holding only :data:`ALLOWED_TAGS` (headings two levels down: ``#`` is an
        ``h3``), links with ``rel="noopener noreferrer
        nofollow"`` and one of :data:`ALLOWED_SCHEMES` (or relative); never a script, a
        style block, an event handler or an image.
    """
    if not text.strip():
        return mark_safe("")
    parser = _parser()
    tokens = parser.parse(text)
    for token in tokens:
        # A user's "# Heading" sits inside a card under the page's own h1 and h2: shift it two
        # levels down (h1 -> h3 ... h4 and deeper -> h6) so the page's outline stays whole.
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + 2)}"
    html = parser.renderer.render(tokens, parser.options, {})
    cleaned = nh3.clean(
        html, tags=set(ALLOWED_TAGS), attributes={k: set(v) for k, v in
                                                  ALLOWED_ATTRIBUTES.items()},
        url_schemes=set(ALLOWED_SCHEMES), link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(cleaned)  # noqa: S308 - cleaned by nh3 just above
