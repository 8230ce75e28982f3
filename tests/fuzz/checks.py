"""Sending one fuzzed request and judging the answer.

The rules (Sheetkeeper issue 7, "Bad input"):

- the status is never 500 or more;
- refused (a 4xx, a form shown again, an error message) means nothing was written: every row
  of the apps' tables and the user's session are as they were;
- refused means a person is told why: a message (Django's messages framework), a form error,
  an error partial (``role="alert"``, ``errorlist``), or an error page with text (a 404, or
  django-axes' 429 for a locked-out log-in);
- accepted means the change is whole: each character's XP balance equals its ledger's sums,
  no bank is negative, no roll or ledger entry was edited or deleted (they are append-only),
  and the pages that show the campaign still open afterwards;
- a GET never writes;
- nothing takes more than ``SLOW_SECONDS`` of the processor to answer (a request a stranger
  to the rules can make must not tie a worker up; :func:`_request_time` says how it is
  measured).

Each example runs inside a savepoint that is rolled back, so every example starts from the
same world and hypothesis' shrinking replays it exactly.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import sys
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.messages import constants, get_messages
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django.db.models import Model, Sum
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from characters.ledger import banked_xp
from characters.models import Character
from tests.fuzz.crawl import Endpoint
from tests.fuzz.payloads import Payload, payloads, queries, sweep

MAX_EXAMPLES = 25
SLOW_SECONDS = 5.0
TRACKED_APPS = ("core", "campaigns", "characters", "rolls", "encounters", "equipment",
                "transfer")
"""Apps whose every table is compared before and after a request (with the users)."""
APPEND_ONLY = ("characters.XpEntry", "rolls.Roll")
OUTCOMES: defaultdict[str, Counter[str]] = defaultdict(Counter)
"""Endpoint -> how its examples ended ("302 written", "200 refused"); with FUZZ_VERBOSE=1 in
the environment, each endpoint's line on stderr shows them and its time, to judge whether
the examples reach past the form's validation."""
FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES, deadline=None, database=None, print_blob=False,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
"""25 examples per endpoint, no deadline (a request takes what it takes; SLOW_SECONDS judges
it), and no example database: the package writes nothing outside the test database. The
examples are derived from the test's name (derandomize), so every run, CI's included, sends
the same ones and a failure reproduces; widen the search locally with a larger MAX_EXAMPLES."""


# --- what a request may change -----------------------------------------------------------------

def tracked_models() -> list[type[Model]]:
    """The user model and every model of :data:`TRACKED_APPS` that is installed (the
    transfer app's too, once it has any)."""
    models: list[type[Model]] = [get_user_model()]
    for label in TRACKED_APPS:
        if apps.is_installed(label):
            models.extend(apps.get_app_config(label).get_models())
    return models


def snapshot(client: Client) -> dict[str, Any]:
    """Every row of the tracked tables (all columns as the database holds them, by primary
    key) and the client's session data (messages aside: they are how a refusal speaks).

    Plain SQL, one query a table, as the authorization matrix reads its world
    (tests/security/urlmap.py): each example takes two snapshots, and building the ORM's
    queries was most of the fuzz's time. Columns come back undecoded (JSON as its text):
    :func:`stored_rows` decodes them where the values themselves are searched."""
    rows: dict[str, Any] = {}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for model in tracked_models():
            table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
            cursor.execute(f"SELECT {pk}, * FROM {table} ORDER BY {pk}")  # noqa: S608
            rows[model._meta.label] = {row[0]: row[1:] for row in cursor.fetchall()}
    rows["session"] = sorted((key, repr(value)) for key, value in client.session.items()
                             if key != "_messages")
    # When the session was last saved: a wizard step sent again with the data it already
    # holds is accepted (saved, same data), not a refusal that forgot to say why.
    rows["session saved"] = (Session.objects.filter(session_key=client.session.session_key)
                             .values_list("expire_date", flat=True).first())
    return rows


def stored_rows() -> dict[str, dict[Any, tuple[Any, ...]]]:
    """Every row of the tracked tables as the ORM reads it (JSON decoded, so text stored
    inside a JSON column is found as written), by model label and primary key."""
    return {model._meta.label: {row[0]: row for row in
                                model._base_manager.order_by("pk").values_list()}
            for model in tracked_models()}


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What differs between two snapshots, one line per table: "characters.Character: 1
    changed" (empty when nothing did)."""
    lines = []
    for label in sorted(set(before) | set(after)):
        old, new = before.get(label), after.get(label)
        if old == new:
            continue
        if label == "session":
            lines.append("session data changed")
            continue
        if label == "session saved":
            lines.append("session saved again")
            continue
        old, new = old or {}, new or {}
        added = len(set(new) - set(old))
        removed = len(set(old) - set(new))
        changed = sum(1 for pk in set(old) & set(new) if old[pk] != new[pk])
        lines.append(f"{label}: {added} added, {removed} removed, {changed} changed")
    return lines


def invariants(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Broken rules of a whole change: the ledger and the append-only logs."""
    broken = []
    for label in APPEND_ONLY:
        old, new = before.get(label, {}), after.get(label, {})
        for pk, row in old.items():
            if pk not in new:
                broken.append(f"{label} {pk} was deleted (append-only)")
            elif new[pk] != row:
                broken.append(f"{label} {pk} was edited (append-only): {row} -> {new[pk]}")
    for character in Character.objects.all():
        sums = character.xp_entries.aggregate(available=Sum("available_delta"),
                                              total=Sum("total_delta"))
        if character.xp_available != (sums["available"] or 0):
            broken.append(f"{character}: xp_available {character.xp_available} but the "
                          f"ledger sums to {sums['available']}")
        if character.xp_total != (sums["total"] or 0):
            broken.append(f"{character}: xp_total {character.xp_total} but the ledger sums "
                          f"to {sums['total']}")
        negative = {k: v for k, v in banked_xp(character).items() if v <= 0}
        if negative:
            broken.append(f"{character}: banks at zero or below {negative}")
    return broken


# --- what a response says ----------------------------------------------------------------------

class _MessageParser(HTMLParser):
    """Text inside elements that speak to the person (``role="alert"`` or ``"status"``, a
    ``class`` of ``errorlist``, ``error`` or ``message``; never a ``hidden`` one, such as the
    live-updates status line); ``errors`` keeps what is an error (alert, errorlist)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth: list[tuple[str, bool, bool]] = []  # (tag, speaks, is error)
        self.said: list[str] = []
        self.errors: list[str] = []
        self.all_text: list[str] = []

    VOID = {"br", "hr", "img", "input", "meta", "link", "source", "wbr", "col", "area"}

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        attrs = {k: v or "" for k, v in attr_list}
        classes = set(attrs.get("class", "").split())
        error = attrs.get("role") == "alert" or "errorlist" in classes or "error" in classes
        speaks = error or bool(classes & {"message", "messages"}) or attrs.get("role") == "status"
        if "hidden" in attrs:
            speaks = error = False
        inherited = self.depth[-1] if self.depth else ("", False, False)
        self.depth.append((tag, speaks or inherited[1], error or inherited[2]))

    def handle_endtag(self, tag: str) -> None:
        while self.depth:
            if self.depth.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        text = data.strip()
        if not text:
            return
        self.all_text.append(text)
        if self.depth and self.depth[-1][1]:
            self.said.append(text)
            if self.depth[-1][2]:
                self.errors.append(text)


@dataclass
class Said:
    """What a response tells its reader: ``messages`` (framework, with levels), ``text`` in
    the page's message and error elements, ``errors`` the part of it that is an error, and
    ``page_text`` (all visible text, for error pages)."""

    messages: list[tuple[int, str]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    page_text: str = ""

    @property
    def anything(self) -> bool:
        return bool(self.messages or self.text)

    @property
    def an_error(self) -> bool:
        return bool(self.errors) or any(level >= constants.ERROR for level, _ in self.messages)


def said(response: Any) -> Said:
    """Read what ``response`` tells the person (see :class:`Said`)."""
    result = Said()
    request = getattr(response, "wsgi_request", None)
    if request is not None and hasattr(request, "_messages"):
        result.messages = [(m.level, str(m)) for m in get_messages(request)]
    if "html" in response.get("Content-Type", "") and not getattr(response, "streaming", False):
        parser = _MessageParser()
        parser.feed(response.content.decode(errors="replace"))
        result.text, result.errors = parser.said, parser.errors
        result.page_text = " ".join(parser.all_text)
    return result


# --- sending -------------------------------------------------------------------------------

def send(client: Client, method: str, url: str, payload: Payload) -> Any:
    """Send ``payload`` to ``url`` as a browser or htmx would (multipart or urlencoded for a
    POST, the query string for a GET). Never follows a redirect."""
    headers = {"HX-Request": "true"} if payload.htmx else {}
    if method == "GET":
        query = urlencode(payload.fields)
        joiner = "&" if "?" in url else "?"
        return client.get(f"{url}{joiner}{query}" if query else url, headers=headers)
    if payload.multipart:
        return client.post(url, payload.as_data(), headers=headers)
    return client.post(url, urlencode(payload.fields),
                       content_type="application/x-www-form-urlencoded", headers=headers)


def crash_text(response: Any) -> str:
    """The last lines of the traceback behind a 500, when the test client caught one."""
    exc_info = getattr(response, "exc_info", None)
    if not exc_info:
        return ""
    lines = [line for line in "".join(traceback.format_exception(*exc_info)).splitlines()
             if line.strip(" ^~")]  # the caret lines under each frame say nothing new
    return "\n".join(lines[-10:])


@dataclass
class Table:
    """A world being fuzzed: its ``clients`` by role (``raise_request_exception=False``),
    the downloads the crawl saw (file fields may get them back), and ``reseed`` to put the
    dice back at the start of every example."""

    clients: dict[str, Client]
    downloads: list[bytes]
    reseed: Callable[[], None]


@contextlib.contextmanager
def _request_time() -> Iterator[Callable[[], float]]:
    """The processor time of the block, in seconds (call the yielded function after it).

    This thread's CPU time, where the test client runs the view, with the cyclic garbage
    collector paused: wall-clock time counts whatever else the machine does (a character
    creation POST took 19 s of it while two cores were shared with a load test), and a full
    collection of everything earlier tests left in the process counts the suite, not the
    request (the same POST took 11 s of CPU on its first call and milliseconds when
    hypothesis replayed it). What the request leaves is collected after the block."""
    collecting = gc.isenabled()
    gc.disable()
    started = time.thread_time()
    spent: list[float] = []
    try:
        yield lambda: spent[0]
    finally:
        spent.append(time.thread_time() - started)
        if collecting:
            gc.enable()


def check_post(table: Table, endpoint: Endpoint, role: str, url: str, payload: Payload) -> None:
    """Send one fuzzed POST and assert the rules of the module docstring.

    Raises AssertionError naming the endpoint, the status and what broke.
    """
    client = table.clients[role]
    table.reseed()
    client.cookies.pop("messages", None)  # only this request's messages count
    where = f"{role} POST {url}"
    with transaction.atomic():
        before = snapshot(client)
        with _request_time() as elapsed_time:
            response = send(client, "POST", url, payload)
        elapsed = elapsed_time()
        status = response.status_code
        assert status < 500, f"{where} answered {status}\n{crash_text(response)}"
        assert elapsed < SLOW_SECONDS, f"{where} took {elapsed:.1f} s of the processor"
        after = snapshot(client)
        written = changes(before, after)
        # Unchanged rows keep every invariant the world was built with.
        broken = invariants(before, after) if written else []
        assert not broken, f"{where} ({status}) broke: {broken}"
        told = said(response)
        OUTCOMES[str(endpoint)][f"{status} {'written' if written else 'refused'}"] += 1
        # An htmx preview, where the page's form offers one (the creation wizard's XP total),
        # shows what a submit would do: it must write nothing, and it answers with the
        # preview, not a message.
        preview = (payload.htmx and ("preview" in endpoint.controls or "preview" in endpoint.extra)
                   and any(name == "preview" and value for name, value in payload.fields))
        if preview:  # (the session may be saved again: the draft is read from it)
            rows = [line for line in written if line != "session saved again"]
            assert not rows, f"{where} previewed but wrote: {rows}"
        elif written:
            assert status < 400, f"{where} refused with {status} but wrote: {written}"
            assert not told.an_error, (
                f"{where} ({status}) said {told.errors or told.messages} but wrote: {written}")
            _pages_still_open(response, client, url, where, written)
        elif endpoint.form:
            silent = not told.anything and not (status >= 400 and told.page_text)
            assert not silent, (f"{where} refused ({status}) without a word: nothing written, "
                                "no message, no form error")
        transaction.set_rollback(True)


OWNER_PAGE = re.compile(r"^/(?:characters|rolls|campaigns)/\d+/")


def _pages_still_open(response: Any, client: Client, url: str, where: str,
                      written: list[str]) -> None:
    """After a change, the page a person lands on opens without a 500: the redirect's target,
    or (for htmx) the page owning the URL (``/characters/7/sheet/pool/`` -> the sheet)."""
    page = response["Location"] if response.status_code in (301, 302, 303) else None
    if page is None or not page.startswith("/"):
        owner = OWNER_PAGE.match(url)
        page = owner.group(0) if owner else None
    if page is None:
        return
    shown = client.get(page)
    assert shown.status_code < 500, (
        f"after {where} wrote {written}, {page} answered {shown.status_code}\n"
        f"{crash_text(shown)}")


def check_get(table: Table, endpoint: Endpoint, role: str, url: str, payload: Payload) -> None:
    """Send one fuzzed GET: never a 500, never slow, never a write."""
    client = table.clients[role]
    table.reseed()
    client.cookies.pop("messages", None)
    where = f"{role} GET {url}"
    with transaction.atomic():
        before = snapshot(client)
        with _request_time() as elapsed_time:
            response = send(client, "GET", url, payload)
        elapsed = elapsed_time()
        assert response.status_code < 500, (
            f"{where} answered {response.status_code}\n{crash_text(response)}")
        assert elapsed < SLOW_SECONDS, f"{where} took {elapsed:.1f} s of the processor"
        written = changes(before, snapshot(client))
        OUTCOMES[str(endpoint)][f"{response.status_code}"] += 1
        assert not written, f"{where} ({response.status_code}) wrote: {written}"
        transaction.set_rollback(True)


def fuzz(table: Table, endpoint: Endpoint) -> str:
    """Run :data:`MAX_EXAMPLES` random requests at ``endpoint``, as each role the pages
    offered it to. Returns "" when every one kept the rules, else the failure with
    hypothesis' minimal example."""
    targets = sorted((role, url) for role, urls in endpoint.urls.items() for url in urls
                     if role in table.clients)
    if not targets:
        return ""
    check = check_get if endpoint.method == "GET" else check_post
    make = queries if endpoint.method == "GET" else payloads
    data = make(endpoint.controls, endpoint.extra, *(
        [] if endpoint.method == "GET" else [table.downloads]))

    @FUZZ_SETTINGS
    @given(target=st.sampled_from(targets), payload=data)
    def examples(target: tuple[str, str], payload: Payload) -> None:
        check(table, endpoint, target[0], target[1], payload)

    # One field at a time with the sharpest numbers, before the random ones, taking turns
    # among the roles, each at the URL most roles share (the player's own character rather
    # than one only the GM sees, whose form may differ).
    shared = Counter(url for _, url in targets)
    turns = sorted({role: max(sorted(urls), key=lambda u: shared[u])
                    for role, urls in endpoint.urls.items() if role in table.clients}.items())
    for index, payload in enumerate(sweep(endpoint.controls, endpoint.extra)):
        examples = example(target=turns[index % len(turns)], payload=payload)(examples)

    started = time.monotonic()
    try:
        examples()
    except Exception as exc:  # every failure is reported, with its minimal example
        notes = "\n".join(getattr(exc, "__notes__", []))
        return f"{endpoint}:\n{exc}\n{notes}".rstrip()
    finally:
        if os.environ.get("FUZZ_VERBOSE"):
            seen = ", ".join(f"{n} {what}" for what, n in sorted(OUTCOMES.pop(str(endpoint),
                                                                             {}).items()))
            print(f"{time.monotonic() - started:6.1f}s {endpoint}: {seen}", file=sys.stderr)
    return ""
