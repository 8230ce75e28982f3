"""Finding what to fuzz: the URLconf's POST endpoints, and the forms and htmx targets of the
rendered pages.

``post_patterns()`` walks ``django.urls.get_resolver()`` and keeps every pattern whose view
accepts POST: a function view limited by ``require_POST``/``require_http_methods`` to a list
with POST in it, a class-based view with a ``post`` method, or a view with no limit at all
(it answers POST like GET, so random POSTs must not break it either).

``parse_page()`` reads a page's ``<form>``s (``action``, ``hx-post``, ``hx-get``, a button's
``formaction``/``hx-post``, inputs outside the form tied to it by ``form="id"``, ``hx-vals``)
and its bare ``hx-get``/``hx-post`` elements (the odds box, the live regions), and its links,
so a crawl can follow them.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

from django.urls import URLPattern, URLResolver, get_resolver

HTTP_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"}


@dataclass(frozen=True)
class Pattern:
    """One URL pattern: its namespaced ``name`` (``characters:character-action``), its
    route (``characters/<int:pk>/sheet/<slug:action>/``) and the methods its view accepts
    (``None``: not limited)."""

    name: str
    route: str
    methods: frozenset[str] | None

    @property
    def accepts_post(self) -> bool:
        return self.methods is None or "POST" in self.methods


def _allowed_methods(callback: Callable[..., Any]) -> frozenset[str] | None:
    """The methods a view accepts, read from its decorators; None when nothing limits it.

    ``require_http_methods`` keeps its list in the closure of the wrapper it returns; every
    decorator here uses ``functools.wraps``, so ``__wrapped__`` leads through the stack.
    """
    view_class = getattr(callback, "view_class", None)
    if view_class is not None:
        return frozenset(m.upper() for m in view_class.http_method_names
                         if hasattr(view_class, m)) | {"OPTIONS"}
    func: Any = callback
    seen = set()
    while func is not None and id(func) not in seen:
        seen.add(id(func))
        try:
            nonlocals = inspect.getclosurevars(func).nonlocals
        except TypeError:
            nonlocals = {}
        methods = nonlocals.get("request_method_list")
        if isinstance(methods, (list, tuple, set, frozenset)) and set(methods) <= HTTP_METHODS:
            return frozenset(methods)
        func = getattr(func, "__wrapped__", None)
    return None


def _walk(resolver: URLResolver, prefix: str, namespace: str) -> Iterator[Pattern]:
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _walk(entry, route, inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}{entry.name}" if entry.name else f"{namespace}<{route}>"
            yield Pattern(name=name, route=route, methods=_allowed_methods(entry.callback))


def all_patterns() -> list[Pattern]:
    """Every pattern of the URLconf, admin included."""
    return list(_walk(get_resolver(), "", ""))


def post_patterns() -> list[Pattern]:
    """The patterns whose view accepts POST (see the module docstring)."""
    return [p for p in all_patterns() if p.accepts_post]


# --- pages ----------------------------------------------------------------------------------

@dataclass
class Control:
    """A named control: ``kind`` is the input type (``text``, ``number``, ``checkbox``,
    ``radio``, ``hidden``, ``file``...) or ``select``/``textarea``; ``values`` what the page
    offers (an option, a checkbox's value, a text's current value)."""

    name: str
    kind: str
    values: list[str] = field(default_factory=list)
    multiple: bool = False


@dataclass
class Target:
    """Somewhere a page sends data: ``method`` (GET/POST) and ``url`` (path and query), the
    ``controls`` it sends by name, ``extra`` fixed values (``hx-vals``, a submit button's
    name and value), and whether it goes by htmx (``htmx``) and/or plain HTML (``plain``)."""

    method: str
    url: str
    controls: dict[str, Control] = field(default_factory=dict)
    extra: dict[str, list[str]] = field(default_factory=dict)
    htmx: bool = False
    plain: bool = False
    multipart: bool = False


@dataclass
class _Form:
    attrs: dict[str, str]
    controls: list[tuple[str, Control]] = field(default_factory=list)
    buttons: list[dict[str, str]] = field(default_factory=list)


class _PageParser(HTMLParser):
    """Collects forms (with their controls and buttons), free controls tied to a form by
    id, bare htmx elements and links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[_Form] = []
        self.by_id: dict[str, _Form] = {}
        self.orphans: list[tuple[str, str, Control]] = []  # (form id, name, control)
        self.orphan_buttons: list[tuple[str, dict[str, str]]] = []
        self.htmx_elements: list[dict[str, str]] = []
        self.links: list[str] = []
        self._stack: list[_Form] = []
        self._select: tuple[_Form | str | None, Control] | None = None

    def _owner(self, attrs: dict[str, str]) -> _Form | str | None:
        if attrs.get("form"):
            return attrs["form"]
        return self._stack[-1] if self._stack else None

    def _add(self, owner: _Form | str | None, control: Control) -> None:
        if isinstance(owner, _Form):
            owner.controls.append((control.name, control))
        elif isinstance(owner, str):
            self.orphans.append((owner, control.name, control))

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attr_list}
        if tag == "form":
            form = _Form(attrs)
            self.forms.append(form)
            self._stack.append(form)
            if attrs.get("id"):
                self.by_id[attrs["id"]] = form
            return
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag == "button" or (tag == "input" and attrs.get("type") in {"submit", "image"}):
            owner = self._owner(attrs)
            if isinstance(owner, _Form):
                owner.buttons.append(attrs)
            elif isinstance(owner, str):
                self.orphan_buttons.append((owner, attrs))
            elif attrs.get("hx-post") or attrs.get("hx-get"):
                self.htmx_elements.append(attrs)
            return
        if tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text").lower()
            if kind in {"reset", "button"}:
                return
            values = [attrs["value"]] if "value" in attrs else []
            if kind in {"checkbox", "radio"} and not values:
                values = ["on"]
            if attrs.get("placeholder"):
                values.append(attrs["placeholder"])  # an example of what a person types
            self._add(self._owner(attrs), Control(attrs["name"], kind, values))
            return
        if tag == "textarea" and attrs.get("name"):
            self._add(self._owner(attrs), Control(attrs["name"], "textarea"))
            return
        if tag == "select" and attrs.get("name"):
            control = Control(attrs["name"], "select", multiple="multiple" in attrs)
            self._select = (self._owner(attrs), control)
            self._add(self._select[0], control)
            return
        if tag == "option" and self._select is not None:
            self._select[1].values.append(attrs.get("value", ""))
            return
        if not self._stack and (attrs.get("hx-get") or attrs.get("hx-post")):
            self.htmx_elements.append(attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self._stack:
            self._stack.pop()
        elif tag == "select":
            self._select = None


def _merge(into: dict[str, Control], name: str, control: Control) -> None:
    """Controls sharing a name (a checkbox group, radios) become one, with every value."""
    known = into.get(name)
    if known is None:
        into[name] = Control(name, control.kind, list(control.values), control.multiple)
        return
    known.values.extend(v for v in control.values if v not in known.values)
    if control.kind == "checkbox" or known.kind == "checkbox":
        known.multiple = True


def _hx_vals(attrs: dict[str, str]) -> dict[str, list[str]]:
    try:
        values = json.loads(attrs.get("hx-vals", "") or "{}")
    except ValueError:
        return {}
    return {str(k): [str(v)] for k, v in values.items()} if isinstance(values, dict) else {}


def parse_page(html: str, page_url: str) -> tuple[list[Target], list[str]]:
    """The targets a page sends data to, and the links it shows (site paths only).

    A form yields one target per distinct destination: its ``action`` (or the page itself,
    as a browser does) with its ``method``, its ``hx-post``/``hx-get``, and each button's
    ``formaction``/``hx-post`` with the button's own name and value.
    """
    parser = _PageParser()
    parser.feed(html)
    for form_id, name, control in parser.orphans:
        if form_id in parser.by_id:
            parser.by_id[form_id].controls.append((name, control))
    for form_id, button in parser.orphan_buttons:
        if form_id in parser.by_id:
            parser.by_id[form_id].buttons.append(button)
    path = page_url
    targets: list[Target] = []
    for form in parser.forms:
        controls: dict[str, Control] = {}
        for name, control in form.controls:
            _merge(controls, name, control)
        attrs = form.attrs
        multipart = attrs.get("enctype", "") == "multipart/form-data" or any(
            c.kind == "file" for c in controls.values())
        destinations: list[tuple[str, str, bool, dict[str, list[str]]]] = []
        plain_method = (attrs.get("method") or "get").upper()
        destinations.append((plain_method, attrs.get("action") or path, False, {}))
        for verb in ("post", "get"):
            if attrs.get(f"hx-{verb}"):
                destinations.append((verb.upper(), attrs[f"hx-{verb}"], True, _hx_vals(attrs)))
        for button in form.buttons:
            pressed = {button["name"]: [button.get("value", "")]} if button.get("name") else {}
            elsewhere = False
            if button.get("formaction"):
                method = (button.get("formmethod") or plain_method).upper()
                destinations.append((method, button["formaction"], False, pressed))
                elsewhere = True
            for verb in ("post", "get"):
                if button.get(f"hx-{verb}"):
                    destinations.append((verb.upper(), button[f"hx-{verb}"], True,
                                         {**_hx_vals(attrs), **pressed}))
                    elsewhere = True
            if pressed and not elsewhere:
                # A named submit button of the form itself: one more value its name may send.
                _merge(controls, button["name"],
                       Control(button["name"], "submit", [button.get("value", "")]))
        for method, url, is_htmx, extra in destinations:
            targets.append(Target(method=method, url=url, controls=dict(controls),
                                  extra=extra, htmx=is_htmx, plain=not is_htmx,
                                  multipart=multipart))
    for attrs in parser.htmx_elements:
        for verb in ("post", "get"):
            if attrs.get(f"hx-{verb}"):
                targets.append(Target(method=verb.upper(), url=attrs[f"hx-{verb}"],
                                      extra=_hx_vals(attrs), htmx=True))
    links = [href for href in parser.links if _is_site_path(href)]
    return targets, links


def _is_site_path(href: str) -> bool:
    parts = urlsplit(href)
    return not parts.scheme and not parts.netloc and href.startswith("/")
