"""Crawling a world's pages as each of its people, and grouping what the pages send.

Each person starts where a person starts (the campaign list; the stranger at the invite link;
a visitor at the log-in and sign-up pages) and follows the site's links, a few pages per URL
pattern, so the sheet, the dashboard, the XP page, the roll dialog, a roll, the roll log, the
sessions, the creation page and the confirmation pages are all read. Every form and htmx
target found is grouped by where it goes (``Endpoint``), with the union of the controls the
pages offer and the people who were offered it.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

from django.test import Client
from django.urls import Resolver404, resolve

from tests.fuzz.endpoints import Control, Target, parse_page

NOT_CRAWLED = {
    "logout": "ends the session the crawl is using",
    "campaigns:campaign-events": "an event stream that stays open for an hour",
    # Images, not pages: no form or link in them to follow. Their GET is asked by the
    # authorization matrix and tests/history/test_luck_page.py.
    "history:campaign-luck-chart": "an SVG chart, drawn for its page's <img>",
    "history:character-luck-chart": "an SVG chart, drawn for its page's <img>",
}
"""Pattern names the crawl never GETs, with the reason."""

PAGES_PER_PATTERN = 6
PAGES_FOR = {
    # The history, luck and between-sessions pages are the same page for every character
    # and every filter, with the same forms (their filters): two of each (one, and its
    # filter as the page fills it in) say all the others would.
    "history:campaign-history": 2,
    "history:campaign-luck": 2,
    "history:character-history": 2,
    "history:character-luck": 2,
    "history:character-between": 2,
}
"""Patterns read fewer times than :data:`PAGES_PER_PATTERN`, with why."""
MAX_PAGES = 120


@dataclass
class Page:
    """A page the crawl read: who read it, its URL, pattern name and status; ``body`` the
    content of a download (anything but HTML), which a file field may be sent back."""

    role: str
    url: str
    pattern: str
    status: int
    body: bytes | None = None


@dataclass
class Endpoint:
    """Where pages send data, grouped: ``method``, ``pattern`` (namespaced URL name),
    ``action`` (the URL's ``action`` argument, if any), one concrete ``url``, the union of
    the ``controls`` and fixed ``extra`` values the pages offer, the ``urls`` each role was
    offered, and the pages it was found on. ``form`` is False for a page no form posts to (fuzzed
    because its view answers POST too)."""

    method: str
    pattern: str
    action: str
    url: str
    controls: dict[str, Control] = field(default_factory=dict)
    extra: dict[str, set[str]] = field(default_factory=dict)
    urls: dict[str, set[str]] = field(default_factory=dict)
    found_on: set[str] = field(default_factory=set)
    form: bool = True
    multipart: bool = False

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.method, self.pattern, self.action)

    def __str__(self) -> str:
        action = f" [{self.action}]" if self.action else ""
        return f"{self.method} {self.pattern}{action} {self.url}"


def pattern_of(url: str) -> tuple[str, dict[str, object]] | None:
    """The namespaced pattern name and kwargs of a site path, or None when nothing matches."""
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return None
    return match.view_name, match.kwargs


def crawl(clients: dict[str, Client], starts: dict[str, list[str]]) -> tuple[list[Page],
                                                                            list[Endpoint]]:
    """Read the pages each role can reach from its start URLs (see the module docstring).

    Returns the pages read and the endpoints their forms and htmx elements send to. Raises
    AssertionError, naming the page, when a page answers 500 or more.
    """
    pages: list[Page] = []
    endpoints: dict[tuple[str, str, str], Endpoint] = {}
    for role, client in clients.items():
        seen: set[str] = set()
        per_pattern: Counter[str] = Counter()
        queue = deque(starts.get(role, []))
        while queue and len(seen) < MAX_PAGES:
            url = queue.popleft()
            found = pattern_of(url)
            if url in seen or found is None:
                continue
            name, _ = found
            if name in NOT_CRAWLED or name.startswith("admin:"):
                continue
            if per_pattern[name] >= PAGES_FOR.get(name, PAGES_PER_PATTERN):
                continue
            seen.add(url)
            per_pattern[name] += 1
            response = client.get(url)
            assert response.status_code < 500, f"{role} reading {url}: {response.status_code}"
            page = Page(role, url, name, response.status_code)
            pages.append(page)
            if response.status_code in (301, 302, 303):
                queue.append(response["Location"])
                continue
            if "html" not in response.get("Content-Type", ""):
                if not response.streaming:
                    page.body = response.content
                continue
            targets, links = parse_page(response.content.decode(), url)
            for target in targets:
                _group(endpoints, target, role, url)
                if target.method == "GET":
                    # As a person would: open it, and submit it as the page fills it in
                    # (the XP page's "price" forms lead to the confirm-purchase forms).
                    queue.append(target.url)
                    query = default_query(target)
                    if query:
                        joiner = "&" if "?" in target.url else "?"
                        queue.append(f"{target.url}{joiner}{query}")
            queue.extend(links)
    return pages, list(endpoints.values())


def default_query(target: Target) -> str:
    """The query a GET form sends as the page fills it in: texts and hidden fields with
    their values, the first option of a select or radio group, checkboxes unticked."""
    pairs: list[tuple[str, str]] = []
    for name, control in target.controls.items():
        if control.kind in {"checkbox", "submit", "file"} or not control.values:
            continue
        pairs.append((name, control.values[0]))
    pairs.extend((name, sorted(values)[0]) for name, values in target.extra.items() if values)
    return urlencode(pairs)


def _group(endpoints: dict[tuple[str, str, str], Endpoint], target: Target, role: str,
           page: str) -> None:
    found = pattern_of(target.url)
    if found is None:
        return
    name, kwargs = found
    action = str(kwargs.get("action", ""))
    key = (target.method, name, action)
    endpoint = endpoints.get(key)
    if endpoint is None:
        endpoint = endpoints[key] = Endpoint(method=target.method, pattern=name, action=action,
                                             url=target.url)
    for control_name, control in target.controls.items():
        known = endpoint.controls.get(control_name)
        if known is None:
            endpoint.controls[control_name] = Control(control.name, control.kind,
                                                      list(control.values), control.multiple)
        else:
            known.values.extend(v for v in control.values if v not in known.values)
            known.multiple = known.multiple or control.multiple
    for extra_name, values in target.extra.items():
        endpoint.extra.setdefault(extra_name, set()).update(values)
    endpoint.urls.setdefault(role, set()).add(target.url)
    endpoint.found_on.add(page)
    endpoint.multipart = endpoint.multipart or target.multipart
