"""What the live-table benchmark (``benchmarks/tables.py``) reads from the pages it loads:
the live regions, the event stream's URL, the forms and the htmx headers, parsed with the
standard library's :class:`html.parser.HTMLParser`, as the browser would find them.

Nothing here knows a template: a live region is any element whose ``hx-trigger`` names an
``sse:`` event or ``liveSync``; its request is its ``hx-get`` (or ``hx-post``), with the
fields of the forms its ``hx-include`` names. A form is every ``<form>`` with its fields,
including those outside it that name it with ``form="..."``, and the values a browser would
send.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser

LIVE_SYNC = "liveSync"
"""The event static/js/live.js fires on the body when a dropped stream is open again."""


@dataclass
class Region:
    """A live region: what it asks for and when.

    Attributes:
        method: ``GET`` (``hx-get``) or ``POST`` (``hx-post``).
        url: the URL it asks.
        sse: the stream's event names that trigger it (``sse:rollMade`` gives ``rollMade``).
        local: the events from the body that trigger it (``rollMade from:body``: an htmx
            answer's ``HX-Trigger`` on this page), except ``liveSync``.
        live_sync: whether ``liveSync from:body`` triggers it (a reconnected stream).
        include: the ids of the forms its ``hx-include`` names; their fields go with it.
        element_id: its ``id`` (htmx sends it as ``HX-Trigger``), or "".
        version: the campaign's live version the page drew it at (``data-live-version``;
            None when it carries none): static/js/live.js asks with it (``If-None-Match``).
        sync: whether it is the reconnection's, which asks for every region
            (``data-live-sync``): its answer brings every region to its version.
    """

    method: str
    url: str
    sse: frozenset[str]
    local: frozenset[str]
    live_sync: bool
    include: tuple[str, ...]
    element_id: str = ""
    version: int | None = None
    sync: bool = False


@dataclass
class Field:
    """One control of a form, as the page drew it."""

    tag: str
    kind: str
    name: str
    value: str
    checked: bool = False
    disabled: bool = False
    options: list[tuple[str, bool]] = field(default_factory=list)
    """A select's options: (value, selected)."""
    element_id: str = ""
    formmethod: str = ""


@dataclass
class Form:
    """A form: where it posts (``hx-post``, else ``action``), its target and its fields."""

    element_id: str
    action: str
    target: str
    fields: list[Field] = field(default_factory=list)

    def submits(self) -> list[Field]:
        """Its enabled submit buttons (those that post: not a ``formmethod="get"`` one)."""
        return [f for f in self.fields if f.kind == "submit" and not f.disabled
                and f.formmethod.lower() != "get"]

    def values(self, *, button: Field | None = None, exclude: Iterable[str] = (),
               tick: dict[str, set[str]] | None = None,
               select: dict[str, str] | None = None) -> list[tuple[str, str]]:
        """The name/value pairs a browser sends (its "successful controls"): ``button`` the
        submit button pressed, ``tick`` boxes ticked besides the page's (by name, values),
        ``select`` a select's choice instead of the page's, ``exclude`` names left out."""
        tick = tick or {}
        select = select or {}
        excluded = set(exclude)
        data: list[tuple[str, str]] = []
        for control in self.fields:
            if not control.name or control.disabled or control.name in excluded:
                continue
            if control.kind == "submit":
                if control is button:
                    data.append((control.name, control.value))
            elif control.kind in ("checkbox", "radio"):
                if control.checked or control.value in tick.get(control.name, set()):
                    data.append((control.name, control.value or "on"))
            elif control.tag == "select":
                if control.name in select:
                    data.append((control.name, select[control.name]))
                    continue
                chosen = [value for value, selected in control.options if selected]
                if chosen or control.options:
                    data.append((control.name, (chosen or [control.options[0][0]])[0]))
            elif control.kind not in ("button", "reset", "file", "image"):
                data.append((control.name, control.value))
        return data

    def choices(self, rng: random.Random | None, *, boxes: int) -> list[tuple[str, str]]:
        """What a player who makes a choice sends: the page's values, and where the page
        chose nothing, ``boxes`` boxes of the first group of check boxes none of which is
        ticked (the first ones, or with ``rng`` the first and others at random), and each
        empty select's first real option."""
        groups: dict[str, list[Field]] = {}
        for control in self.fields:
            if control.kind == "checkbox" and control.name and not control.disabled:
                groups.setdefault(control.name, []).append(control)
        tick: dict[str, set[str]] = {}
        for name, members in groups.items():
            if len(members) > 1 and not any(member.checked for member in members):
                rest = members[1:boxes] if rng is None else rng.sample(
                    members[1:], min(boxes - 1, len(members) - 1))
                tick[name] = {member.value for member in [members[0], *rest]}
                break
        select = {}
        for control in self.fields:
            if control.tag == "select" and control.name and not control.disabled:
                chosen = [value for value, selected in control.options if selected]
                real = [value for value, _ in control.options if value]
                if (not chosen or not chosen[0]) and real:
                    select[control.name] = real[0]
        return self.values(tick=tick, select=select)


@dataclass
class Page:
    """Everything of a page the benchmark uses."""

    stream: str = ""
    """The ``sse-connect`` URL, or "" when the page is not live."""
    headers: dict[str, str] = field(default_factory=dict)
    """The body's ``hx-headers`` (the CSRF token htmx sends)."""
    regions: list[Region] = field(default_factory=list)
    forms: list[Form] = field(default_factory=list)
    timings: str = ""
    """The page's ``data-live-timings`` (JSON, ``benchmarks.browser.timings``), "" if none."""

    def form(self, element_id: str) -> Form | None:
        """The form with that id, or None."""
        return next((form for form in self.forms if form.element_id == element_id), None)


_FORM_ID = re.compile(r"#([A-Za-z][\w-]*)|\[form=['\"]?([\w-]+)['\"]?\]")


def _trigger(spec: str) -> tuple[set[str], set[str], bool]:
    """An ``hx-trigger``'s stream events, body events and whether it hears ``liveSync``."""
    sse: set[str] = set()
    local: set[str] = set()
    live_sync = False
    for part in spec.split(","):
        words = part.split()
        if not words:
            continue
        name = words[0]
        if name.startswith("sse:"):
            sse.add(name[4:])
        elif "from:body" in words[1:]:
            if name == LIVE_SYNC:
                live_sync = True
            else:
                local.add(name)
    return sse, local, live_sync


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._form: Form | None = None
        self._select: Field | None = None
        self._textarea: Field | None = None
        self._outside: list[tuple[str, Field]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if "sse-connect" in a:
            self.page.stream = a["sse-connect"]
        if "data-live-timings" in a and not self.page.timings:
            self.page.timings = a["data-live-timings"]
        if tag == "body" and a.get("hx-headers"):
            self.page.headers = {str(k): str(v) for k, v in
                                 json.loads(a["hx-headers"]).items()}
        trigger = a.get("hx-trigger", "")
        if "sse:" in trigger or LIVE_SYNC in trigger:
            sse, local, live_sync = _trigger(trigger)
            method, url = ("POST", a["hx-post"]) if "hx-post" in a else ("GET",
                                                                          a.get("hx-get", ""))
            include = tuple(one or two for one, two in _FORM_ID.findall(a.get("hx-include",
                                                                                "")))
            if url:
                self.page.regions.append(Region(
                    method, url, frozenset(sse), frozenset(local), live_sync, include,
                    a.get("id", ""),
                    int(a["data-live-version"]) if "data-live-version" in a else None,
                    "data-live-sync" in a))
        if tag == "form":
            self._form = Form(a.get("id", ""), a.get("hx-post") or a.get("action", ""),
                              a.get("hx-target", ""))
            self.page.forms.append(self._form)
            return
        if tag not in ("input", "select", "textarea", "button", "option"):
            return
        if tag == "option":
            if self._select is not None:
                self._select.options.append((a.get("value", ""), "selected" in a))
            return
        kind = a.get("type", "submit" if tag == "button" else "text").lower()
        control = Field(tag, kind, a.get("name", ""), a.get("value", ""),
                        checked="checked" in a, disabled="disabled" in a,
                        element_id=a.get("id", ""), formmethod=a.get("formmethod", ""))
        if tag == "select":
            self._select = control
        elif tag == "textarea":
            self._textarea = control
        if a.get("form"):
            self._outside.append((a["form"], control))
        elif self._form is not None:
            self._form.fields.append(control)

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea.value += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def finish(self) -> Page:
        for form_id, control in self._outside:
            form = self.page.form(form_id)
            if form is not None:
                form.fields.append(control)
        return self.page


def parse_page(html: str) -> Page:
    """The live regions, stream, htmx headers and forms of a page (or of a fragment)."""
    parser = _Parser()
    parser.feed(html)
    parser.close()
    return parser.finish()


def hx_trigger_names(header: str | None) -> set[str]:
    """The event names of an ``HX-Trigger`` answer header (a JSON object or a list)."""
    if not header:
        return set()
    if header.lstrip().startswith("{"):
        try:
            return {str(name) for name in json.loads(header)}
        except ValueError:
            return set()
    return {name.strip() for name in header.split(",") if name.strip()}


class _Inputs(HTMLParser):
    def __init__(self, name: str) -> None:
        super().__init__(convert_charrefs=True)
        self.name = name
        self.values: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "input" and a.get("name") == self.name:
            self.values.append(a.get("value", ""))


def hidden_value(html: str, name: str) -> str | None:
    """The value of the first input called ``name`` in ``html`` (the next ``submission``
    token a roll's answer hands its dialog out of band), or None.

    Only the tag that names it is parsed (from its ``<`` to its ``>``): a roll's answer is
    some kilobytes of HTML, and parsing all of it was a fifth of the generator's CPU."""
    at = html.find(f'name="{name}"')
    if at < 0:
        return None
    start, end = html.rfind("<", 0, at), html.find(">", at)
    if start < 0 or end < 0:
        return None
    parser = _Inputs(name)
    parser.feed(html[start:end + 1])
    parser.close()
    return parser.values[0] if parser.values else None


_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "source", "track", "wbr"})


@dataclass
class Drawn:
    """What a piece of HTML draws, as static/js/live.js reads an answer or the regions a
    stream pushes: every id in it; each top-level element's id with the ids nested in it;
    and the ids of the elements that hold a ``data-live-list`` (where ``putLines`` puts an
    event's line)."""

    ids: set[str] = field(default_factory=set)
    tops: dict[str, set[str]] = field(default_factory=dict)
    listed: set[str] = field(default_factory=set)


class _Drawn(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str | None] = []
        self.drawn = Drawn()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        element_id = names.get("id")
        if "data-live-list" in names:
            self.drawn.listed.update(i for i in self.open if i)
        if element_id:
            self.drawn.ids.add(element_id)
            if not self.open:
                self.drawn.tops[element_id] = set()
            elif self.open[0]:
                self.drawn.tops[self.open[0]].add(element_id)
        if tag not in _VOID:
            self.open.append(element_id)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.open:
            self.open.pop()


def drawn(html: str) -> Drawn:
    """What ``html`` (a page, a region answer, a ``liveRegions`` frame) draws."""
    parser = _Drawn()
    parser.feed(html)
    return parser.drawn
