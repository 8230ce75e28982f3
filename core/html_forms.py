"""Rewriting the forms of a rendered fragment: dropping every control that writes (the pages
of an archived campaign, which takes no write), and giving every form that writes a hidden
field (a page that must be returned to after a plain POST).

Why the rendered HTML and not each template: the forms are the rule systems' own (a sheet's
track controls, a party card's buttons, a system's panel), which a shared page includes
without knowing them; one rewrite there covers every system (docs/architecture.md, "An
archived campaign is read-only").

The rewrite parses the fragment with the standard library's ``html.parser`` and copies what
it keeps byte for byte: only the spans of the elements dropped go, and a hidden field is only
inserted after a form's start tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.utils.html import format_html

WRITE_METHODS = frozenset({"post", "put", "patch", "delete"})
"""The HTTP methods that write (a form's ``method``, a button's ``formmethod``)."""

HTMX_WRITES = frozenset(f"{prefix}hx-{method}" for prefix in ("", "data-")
                        for method in WRITE_METHODS)
"""The htmx attributes that make an element send a write (``hx-post``, ``data-hx-post``...)."""

VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                           "meta", "source", "track", "wbr"})
"""Elements without content or end tag (the HTML standard's void elements)."""

EMPTIED_GO = frozenset({"details", "div", "li", "p"})
"""Wrappers that go when the drop leaves them holding nothing (a row of buttons, a
disclosure whose summary opens onto nothing); a table's cells stay, to keep its columns."""


@dataclass
class _Element:
    tag: str
    attrs: dict[str, str]
    start: int
    start_end: int
    parent: int | None
    end: int | None = None
    text: bool = False
    children: list[int] = field(default_factory=list)


class _Scanner(HTMLParser):
    """The fragment's elements, with where each starts and ends in it (offsets into the
    string) and its place in the tree."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self._source = html
        self._line_starts = [0, *(m.end() for m in re.finditer("\n", html))]
        self.elements: list[_Element] = []
        self._open: list[int] = []

    def _here(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._here()
        start_end = start + len(self.get_starttag_text() or "")
        parent = self._open[-1] if self._open else None
        element = _Element(tag=tag, attrs={k: v or "" for k, v in attrs}, start=start,
                           start_end=start_end, parent=parent)
        self.elements.append(element)
        index = len(self.elements) - 1
        if parent is not None:
            self.elements[parent].children.append(index)
        if tag in VOID_ELEMENTS:
            element.end = start_end
        else:
            self._open.append(index)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:  # <div/>: ends where it starts.
            index = self._open.pop()
            self.elements[index].end = self.elements[index].start_end

    def handle_endtag(self, tag: str) -> None:
        opened = [self.elements[i].tag for i in self._open]
        if tag not in opened:
            return  # a stray end tag, as a browser ignores it
        start = self._here()
        end = self._source.index(">", start) + 1
        # Elements left open inside (an unclosed <p>) end where their parent does.
        while True:
            index = self._open.pop()
            closed = self.elements[index]
            closed.end = end if closed.tag == tag else start
            if closed.tag == tag:
                return

    def handle_data(self, data: str) -> None:
        if data.strip() and self._open:
            self.elements[self._open[-1]].text = True

    def handle_entityref(self, name: str) -> None:
        self.handle_data("&")

    def handle_charref(self, name: str) -> None:
        self.handle_data("&")


def _scan(html: str) -> list[_Element]:
    scanner = _Scanner(html)
    scanner.feed(html)
    scanner.close()
    for element in scanner.elements:
        if element.end is None:  # never closed: it runs to the end, as a browser reads it
            element.end = len(html)
    return scanner.elements


def _writes(element: _Element, write_form_ids: set[str]) -> bool:
    """Whether the element sends a write: a form that posts, an element with ``hx-post``
    (or another write of htmx), a button that posts whatever its form does, or a control
    of a posting form placed outside it (``form="roll-form"``)."""
    attrs = element.attrs
    return ((element.tag == "form" and attrs.get("method", "get").lower() in WRITE_METHODS)
            or not HTMX_WRITES.isdisjoint(attrs)
            or attrs.get("formmethod", "").lower() in WRITE_METHODS
            or ("form" in attrs and attrs["form"] in write_form_ids))


def drop_writes(html: str) -> str:
    """``html`` without anything that writes, for a page that may only be read (the pages
    of an archived campaign).

    Dropped, with their content: every form that posts, every element that sends a write
    through htmx (``hx-post``...), every button or input that posts on its own
    (``formmethod="post"``) and every control that belongs to a dropped form from outside it
    (``form="roll-form"``, as a sheet's trait checkboxes do). A wrapper (:data:`EMPTIED_GO`)
    that held nothing but such controls goes too, so no row of buttons is left empty and no
    disclosure opens onto nothing. Everything else is kept byte for byte: what a form shows
    must sit outside it to survive (a track's value beside its buttons, not inside their
    form).

    Args:
        html: a rendered fragment (a template's output).

    Returns:
        The fragment, as a plain ``str`` (the caller marks it safe if its input was).
    """
    if "<" not in html:
        return html
    elements = _scan(html)
    write_form_ids = {e.attrs["id"] for e in elements
                      if e.tag == "form" and "id" in e.attrs and _writes(e, set())}
    dropped = {i for i, e in enumerate(elements) if _writes(e, write_form_ids)}
    # Inner elements first (they come later), so that a wrapper emptied inside another
    # empties it too. One with an id stays: a live refresh may look for it.
    for index in reversed(range(len(elements))):
        element = elements[index]
        body = [c for c in element.children if elements[c].tag != "summary"]
        if (element.tag in EMPTIED_GO and "id" not in element.attrs and not element.text
                and body and all(c in dropped for c in body)):
            dropped.add(index)
    spans = sorted((elements[i].start, elements[i].end or elements[i].start_end)
                   for i in dropped)
    kept: list[str] = []
    position = 0
    for start, end in spans:
        if start < position:  # inside a span already dropped
            continue
        kept.append(html[position:start])
        position = end
    kept.append(html[position:])
    return "".join(kept)


def add_hidden_field(html: str, name: str, value: str) -> str:
    """``html`` with ``<input type="hidden" name=name value=value>`` first in every form
    that posts (so that a plain POST carries it: where to return, for one), escaped.

    Args:
        html: a rendered fragment.
        name: the field's name.
        value: its value (escaped here).

    Returns:
        The fragment, as a plain ``str`` (the caller marks it safe if its input was).
    """
    if "<form" not in html.lower():
        return html
    hidden = format_html('<input type="hidden" name="{}" value="{}">', name, value)
    points = [e.start_end for e in _scan(html)
              if e.tag == "form" and e.attrs.get("method", "get").lower() in WRITE_METHODS]
    parts: list[str] = []
    position = 0
    for point in points:
        parts += [html[position:point], hidden]
        position = point
    parts.append(html[position:])
    return "".join(parts)
