"""The text sweep: every text field of every form, with each character the rule for text
refuses and with text it takes (docs/security.md, "Text"; core.text).

For each POST endpoint the crawl found (:func:`tests.fuzz.plan.fuzz_plan`) and each text
control it offers (a text input or a text box), the form is filled in as a person would (each
field its first offered value, as :func:`tests.fuzz.payloads.sweep` does), with that one field
holding:

1. **each refused character**, inside ordinary words: nothing holding it may be stored (a
   form that accepts the rest stores the rest, never the character), and the answer is not a
   500;
2. **text the rule takes** (other scripts, an emoji, a combining accent; tabs and line breaks
   in a text box), in every text field at once: when the form stores it, the page the person
   lands on opens, and the campaign's export imports back to the same document;
3. in the text boxes people write Markdown in, the endpoints and boxes taking turns, **each
   Markdown bomb**
   (tests/markdown_bombs.py): stored, the page that renders it opens within the fuzz's bound
   (the benchmark measures the renderer's own bound, docs/performance.md).

Each request runs in a transaction rolled back after it, so one field's text never meets
another's.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from campaigns.models import Campaign
from tests.fuzz.checks import (
    SLOW_SECONDS,
    Table,
    _pages_still_open,
    _request_time,
    changes,
    crash_text,
    send,
    snapshot,
    stored_rows,
)
from tests.fuzz.crawl import Endpoint
from tests.fuzz.endpoints import Control
from tests.fuzz.payloads import Payload
from tests.markdown_bombs import BOMBS
from transfer.export import document_json, export_campaign
from transfer.format import MARKDOWN_FIELDS
from transfer.imports import import_campaign

REFUSED_EVERYWHERE = ("\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\x9b",
                      "\u202e", "\u2066")
"""Characters no text may hold: bell, backspace, vertical tab, form feed, escape, delete,
next line (C1), a C1 control sequence introducer, the right-to-left override and a
left-to-right isolate (one of each kind core.text names)."""

REFUSED_IN_A_LINE = ("\t", "\n", "\r", "\u2028")
"""What a line refuses on top: tab, line feed, carriage return, line separator."""

HOSTILE = ("Vex\x07Rook\x1b[31m\x0cthe\x85Bold\x08\x0b\x7f\x9b", "Vex\u202eRook\u2066ok")
"""What each text field is sent, in one text: every character above (tests/core/test_text.py
checks each against the rule on its own; here each field is shown to keep it). Not NUL:
Django's own validator refuses it in every field, so a text holding it would be refused
whatever the project's rule said (the random fuzz sends NUL alone)."""

LINE_BREAKING = "Vex\tQzj\nWjq\rKxz\u2028"
"""What each line is sent on top: a tab, line ends and a separator."""

TAKEN_LINE = "Ysolde — 龍の娘 مرحبا 😀 Zoë (e\u0301)"
"""A line the rule takes: other scripts, right-to-left letters, an emoji, a combining mark."""

TAKEN_TEXT = "Ysolde\tof the Coast\n\n- 龍の娘\n- مرحبا 😀\r\n> e\u0301"
"""Multi-line text the rule takes: a tab and line breaks among the line's characters."""

MARKDOWN = frozenset(name for names in MARKDOWN_FIELDS.values() for name in names)
"""The text boxes people write Markdown in (transfer.format.MARKDOWN_FIELDS, by the form
field's name): each takes every Markdown bomb."""

TEXT_KINDS = frozenset({"text", "search", "textarea"})
"""The controls a person types text into that a form stores as text."""
NOT_STORED = frozenset({"login", "password_reset"})
"""Endpoints whose text is looked up, never stored (checked by their own tests)."""


def _base(endpoint: Endpoint) -> dict[str, str]:
    """The form as a person fills it in: each field its first offered value that is not
    empty (checkboxes and buttons left out), the fixed values the page sends."""
    controls = dict(endpoint.controls)
    for name, values in endpoint.extra.items():
        controls.setdefault(name, Control(name, "hidden", sorted(values)))
    controls.pop("csrfmiddlewaretoken", None)
    return {name: next((v for v in c.values if v), c.values[0])
            for name, c in controls.items()
            if c.values and c.kind not in {"file", "checkbox", "submit"}}


def text_fields(endpoint: Endpoint) -> list[Control]:
    """The text controls of ``endpoint`` the sweep fills."""
    if endpoint.pattern in NOT_STORED:
        return []
    return [c for name, c in sorted(endpoint.controls.items()) if c.kind in TEXT_KINDS]


def holds(value: Any, text: str) -> bool:
    """Whether any text in ``value`` (a row's column: a string, or JSON) holds ``text``."""
    if isinstance(value, str):
        return text in value
    if isinstance(value, dict):
        return any(holds(k, text) or holds(v, text) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(holds(item, text) for item in value)
    return False


def _with_before(value: str, char: str) -> str:
    """``char`` as ``value`` holds it, with the three characters before it."""
    at = value.index(char)
    return value[max(0, at - 3):at + 1]


def _stored(rows: dict[str, Any], text: str) -> list[str]:
    """The rows that hold ``text`` somewhere, as "characters.Character #3"."""
    found = []
    for label, table in rows.items():
        if isinstance(table, dict):
            found += [f"{label} #{pk}" for pk, row in table.items() if holds(row, text)]
    return found


def _post(table: Table, role: str, url: str, fields: dict[str, str], *, htmx: bool) -> Any:
    table.reseed()
    table.clients[role].cookies.pop("messages", None)
    return send(table.clients[role], "POST", url,
                Payload(fields=sorted(fields.items()), htmx=htmx, multipart=False))


def _round_trip(campaign: Campaign) -> list[str]:
    """What differs between the campaign's export and the export of that file imported back
    (empty when nothing does): the rolls and activity entries an import marks imported
    aside."""
    document = json.loads(document_json(export_campaign(Campaign.objects.get(pk=campaign.pk))))
    gm = Campaign.objects.get(pk=campaign.pk).created_by
    # A copy goes in: the import maps the roll ids its system data holds in place.
    again = json.loads(document_json(export_campaign(import_campaign(
        copy.deepcopy(document), gm, keep_users=True))))
    for row in [*document.get("rolls", []), *document.get("activity", [])]:
        row["imported"] = True
    return [_first_difference(document.get(key), again.get(key), key)
            for key in sorted(set(document) | set(again))
            if key != "exported_at" and document.get(key) != again.get(key)]


def _first_difference(old: Any, new: Any, path: str) -> str:
    """Where two JSON values first differ, with both values there: "campaign.name: 'a' !=
    'b'"."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                return _first_difference(old.get(key), new.get(key), f"{path}.{key}")
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return f"{path}: {json.dumps(old)[:200]} != {json.dumps(new)[:200]}"


def markdown_boxes(endpoint: Endpoint) -> list[Control]:
    """The text boxes of ``endpoint`` people write Markdown in."""
    return [c for c in text_fields(endpoint) if c.kind == "textarea" and c.name in MARKDOWN]


def sweep_text(table: Table, endpoint: Endpoint, campaign: Campaign,
               bombs: Sequence[str] = BOMBS) -> list[str]:
    """Run the sweep of the module docstring on ``endpoint``, its Markdown boxes taking
    ``bombs`` in turns. Returns the broken rules, one line each (empty when every request
    kept them)."""
    broken: list[str] = []
    fields = text_fields(endpoint)
    # One role and URL: the first in order (the text rule does not depend on who posts).
    for role, url in sorted((role, url) for role, found in endpoint.urls.items()
                            for url in found if role in table.clients)[:1]:
        base = _base(endpoint)
        for i, control in enumerate(fields):
            box = control.kind == "textarea"
            value = "".join(HOSTILE) if box else "".join((*HOSTILE, LINE_BREAKING))
            refused = REFUSED_EVERYWHERE if box else REFUSED_EVERYWHERE + REFUSED_IN_A_LINE
            where = f"{role} POST {url} {control.name}={value!r}"
            with transaction.atomic():
                response = _post(table, role, url, {**base, control.name: value},
                                 htmx=i % 2 == 1)
                if response.status_code >= 500:
                    broken.append(f"{where} answered {response.status_code}\n"
                                  f"{crash_text(response)[:2000]}")
                else:
                    # Each refused character with the letters before it: line breaks are
                    # stored elsewhere in the world (a recap), these never are.
                    rows = stored_rows()
                    broken += [f"{where} stored {char!r} in {', '.join(stored)}"
                               for char in refused
                               if (stored := _stored(rows, _with_before(value, char)))]
                transaction.set_rollback(True)
        # What the rule takes: every text field at once.
        taken = {c.name: TAKEN_TEXT if c.kind == "textarea" else TAKEN_LINE for c in fields}
        broken += _taken(table, role, url, {**base, **taken}, campaign,
                         f"{role} POST {url} every text field with text the rule takes")
        # A bomb is punctuation the rule takes (the round trip above carries such text): what
        # it tests is the page that renders it, so it goes where Markdown is written. One
        # renderer draws every such box, so the bombs take turns among the boxes: each bomb
        # once, each box some of them.
        boxes = markdown_boxes(endpoint)
        broken += [line for i, bomb in enumerate(bombs) if boxes
                   for box in [boxes[i % len(boxes)]]
                   for line in _bomb(table, role, url, {**base, box.name: bomb},
                                     f"{role} POST {url} {box.name}={bomb[:30]!r}...")]
    return broken


def _bomb(table: Table, role: str, url: str, data: dict[str, str], where: str) -> list[str]:
    """Post a bomb; when the form takes it (a redirect), the page it lands on, which renders
    it, opens within the fuzz's bound."""
    broken = []
    with transaction.atomic():
        response = _post(table, role, url, data, htmx=False)
        if response.status_code >= 500:
            broken.append(f"{where} answered {response.status_code}\n"
                          f"{crash_text(response)[:2000]}")
        elif response.status_code in (301, 302, 303):
            with _request_time() as shown:
                page = table.clients[role].get(response["Location"])
            if page.status_code >= 500 or shown() >= SLOW_SECONDS:
                broken.append(f"{where}: {response['Location']} answered {page.status_code} "
                              f"in {shown():.1f} s of the processor")
        transaction.set_rollback(True)
    return broken


def _taken(table: Table, role: str, url: str, data: dict[str, str], campaign: Campaign,
           where: str) -> list[str]:
    """Post ``data``; when the form stores it, the landing page opens within the fuzz's
    bound and the campaign's export imports back the same."""
    broken = []
    with transaction.atomic():
        before = snapshot(table.clients[role])
        with _request_time() as elapsed:
            response = _post(table, role, url, data, htmx=False)
        written = changes(before, snapshot(table.clients[role]))
        if response.status_code >= 500:
            broken.append(f"{where} answered {response.status_code}\n"
                          f"{crash_text(response)[:2000]}")
        elif elapsed() >= SLOW_SECONDS:
            broken.append(f"{where} took {elapsed():.1f} s of the processor")
        elif [line for line in written if not line.startswith("session")]:
            with _request_time() as shown:
                try:
                    _pages_still_open(response, table.clients[role], url, where, written)
                except AssertionError as failure:
                    broken.append(str(failure)[:2000])
            if shown() >= SLOW_SECONDS:
                broken.append(f"{where}: the page it lands on took {shown():.1f} s")
            if differs := _round_trip(campaign):
                broken.append(f"{where} was stored, and the campaign's export imports back "
                              f"different at {differs}")
        transaction.set_rollback(True)
    return broken
