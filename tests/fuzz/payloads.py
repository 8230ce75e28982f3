"""Random request data built by hypothesis from the real field names a page offers.

Half the examples send what a person using the page could send (each field one of the values
the page offers, a placeholder, or a plausible value) with up to two fields broken; in the
other half every field is, at random: left out, sent once or several times (a list), with a
value the page offers, a plausible one, or a hostile one (huge and negative numbers, floats,
"NaN", unicode, NUL, long text, whitespace, the empty string, another field's value). Extra
fields with random names ride along. A file field gets random bytes, random JSON, or a
download the pages offered (cut short, overwritten, or one value in it changed), under a
random name and content type.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import strategies as st

from tests.fuzz.endpoints import Control

HOSTILE_NUMBERS = ["0", "-1", "-0", "1.5", "1e309", "NaN", "inf", "-inf", " 3 ", "0x10",
                   "1_000", "٣", "²", "①", "１２", "+7", "99999999999999999999999", str(2**63),
                   str(-(2**63) - 1), str(2**31), str(2**15)]
"""Numbers a form may mishandle: floats, non-finite, other numerals (Python's int() reads
"٣" and "１２", but not "²" or "①", which str.isdigit() calls digits), values past 16, 32 and
64 bits."""

NAMES = ["pk", "id", "character", "campaign", "owner", "sheet", "xp_available", "role", "is_gm",
         "from", "next", "answers", "action", "step", "preview", "key", "expected_cost", "die",
         "amount", "kind", "name", "gm_only", "page", "csrfmiddlewaretoken"]
"""Field names that mean something to some view, sent where they don't belong."""


@dataclass
class Payload:
    """One request's data: ``fields`` as (name, value) pairs in order (a name may repeat),
    ``files`` name -> upload, whether to send it by ``htmx`` and ``multipart``."""

    fields: list[tuple[str, str]] = field(default_factory=list)
    files: dict[str, SimpleUploadedFile] = field(default_factory=dict)
    htmx: bool = False
    multipart: bool = True

    def as_data(self) -> dict[str, Any]:
        """The fields (and files) as the test client's ``data`` (lists for repeated names)."""
        data: dict[str, Any] = {}
        for name, value in self.fields:
            data.setdefault(name, []).append(value)
        data.update(self.files)
        return data

    def __repr__(self) -> str:
        files = {name: (f.name, f.size, f.content_type) for name, f in self.files.items()}
        return (f"Payload(htmx={self.htmx}, multipart={self.multipart}, fields={self.fields!r}"
                + (f", files={files!r}" if files else "") + ")")


def repeated(text: str, times: int) -> str:
    """``text`` ``times`` times over."""
    return text * times


HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=300),
    st.sampled_from(["", " ", "\x00", "\u202e", "😀" * 5, "<script>alert(1)</script>",
                     "'; DROP TABLE x; --", "../../etc/passwd", "{{ 7|add:7 }}", "None",
                     "null", "[]", "{}", "true", "\r\n"]),
    st.builds(repeated, st.sampled_from(["x", "é", "d", "9", "\x00"]),
              st.integers(200, 5000)),
)
"""Text a form may mishandle: any unicode, NUL, right-to-left marks, markup, template and
SQL syntax, words that mean something in JSON, and very long strings."""

ANY_NUMBER = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.integers().map(str))
PLAUSIBLE = {
    "number": st.integers(-5, 40).map(str),
    "date": st.dates().map(lambda d: d.isoformat()),
    "choice": st.just("on"),
    "text": st.text(alphabet="abcdefghij KLM-'", min_size=1, max_size=20),
}


def _plausible(control: Control) -> st.SearchStrategy[str]:
    if control.kind in {"number", "range"}:
        return PLAUSIBLE["number"]
    if control.kind == "date":
        return PLAUSIBLE["date"]
    if control.kind in {"checkbox", "radio", "submit"}:
        return PLAUSIBLE["choice"]
    return PLAUSIBLE["text"]


def suffixed(value: str, suffix: str) -> str:
    """``value`` with ``suffix`` appended (an offered value, altered)."""
    return value + suffix


def digits_swapped(value: str, digits: str) -> str:
    """``value`` with every digit replaced by ``digits``."""
    return "".join(digits if ch.isdigit() else ch for ch in value)


def _mutated(values: list[str]) -> st.SearchStrategy[str]:
    """A value the page offers, altered: a suffix, its numbers swapped, its case changed."""
    base = st.sampled_from(values)
    return st.one_of(
        st.builds(suffixed, base, st.sampled_from(["0", ":", ":999", " ", "x", "-1"])),
        st.builds(digits_swapped, base, st.sampled_from(["0", "9", "99999", "²", "٣"])),
        base.map(str.upper),
    )


def value_for(control: Control) -> st.SearchStrategy[str]:
    """One value for ``control``: offered, plausible, altered or hostile."""
    offered = [v for v in control.values if isinstance(v, str)]
    choices: list[st.SearchStrategy[str]] = [_plausible(control), HOSTILE_TEXT, ANY_NUMBER]
    if offered:
        # The page's own values come first and twice: hypothesis favours early branches when
        # shrinking, so a failure shrinks towards the data a real user would send.
        choices = [st.sampled_from(offered), st.sampled_from(offered), _mutated(offered),
                   *choices]
    return st.one_of(choices)


def _values(control: Control) -> st.SearchStrategy[list[str]]:
    """Nothing (the field left out), one value, or several (a list where one was expected,
    or a checkbox group)."""
    one = value_for(control)
    return st.one_of(st.just([]), one.map(lambda v: [v]),
                     st.lists(one, min_size=2, max_size=4))


def _as_offered(control: Control) -> st.SearchStrategy[list[str]]:
    """What a person using the page could send: one of the offered values (a checkbox group:
    any of its boxes), or a plausible value where the page offers none."""
    offered = [v for v in control.values if isinstance(v, str)]
    if control.kind == "checkbox":
        return st.lists(st.sampled_from(offered or ["on"]), unique=True,
                        max_size=len(offered) if control.multiple else 1)
    if offered:
        return st.sampled_from(offered).map(lambda v: [v])
    return _plausible(control).map(lambda v: [v])


def _json_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                        st.text(max_size=20))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
        max_leaves=12)


class _Delete:
    def __repr__(self) -> str:
        return "DELETE"


DELETE = _Delete()
"""Marks a key or item to delete in :func:`json_changed`."""


def _json_paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            paths += _json_paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            paths += _json_paths(value, (*prefix, index))
    return paths


def json_changed(document: Document, path: tuple[Any, ...], value: Any) -> bytes:
    """``document`` with the value at ``path`` replaced by ``value`` (removed for
    :data:`DELETE`), as JSON bytes."""
    doc = copy.deepcopy(document.content)
    if not path:
        return json.dumps(None if value is DELETE else value).encode()
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return json.dumps(doc).encode()


def cut(data: bytes, at: int) -> bytes:
    """The first ``at`` bytes of ``data`` (an upload cut short)."""
    return data[:at]


def overwritten(data: bytes, at: int, junk: bytes) -> bytes:
    """``data`` with ``junk`` written over it at ``at``."""
    return data[:at] + junk + data[at + len(junk):]


@dataclass(frozen=True)
class Document:
    """A JSON download the pages offered, decoded; its repr stays short in failure reports
    (the changed path and value are what matter there)."""

    number: int
    content: Any = field(compare=False)

    def __repr__(self) -> str:
        return f"Document(download #{self.number})"


def _documents(downloads: list[bytes]) -> list[Document]:
    documents = []
    for number, data in enumerate(downloads):
        try:
            documents.append(Document(number, json.loads(data)))
        except ValueError:
            continue
    return documents


def _file_bytes(downloads: list[bytes], *, as_offered: bool) -> st.SearchStrategy[bytes]:
    """An upload's content. As offered: one of the pages' own downloads, as it is or (when
    JSON) with one value anywhere in the document replaced by a random one or deleted, so
    the file gets past the format check into the import's rules. Otherwise also: random
    bytes or JSON, hostile constants, and downloads cut short or overwritten with junk."""
    structured = [
        st.builds(json_changed, st.just(doc), st.sampled_from(_json_paths(doc.content)),
                  st.one_of(st.just(DELETE), _json_values(),
                            st.sampled_from([-1, 10**20, "", None, [], {}, True, 1.5])))
        for doc in _documents(downloads)
    ]
    garbage: list[st.SearchStrategy[bytes]] = [
        st.binary(max_size=2000),
        _json_values().map(lambda v: json.dumps(v).encode()),
        st.sampled_from([b"", b"\x00" * 64, b"\xff\xfe\x00", b"{", b"[]", b"null",
                         b"{\"version\": 99}", b"\xef\xbb\xbf{}", b"A" * 200_000]),
    ]
    if not downloads:
        return st.one_of(garbage)
    sample = st.sampled_from(downloads)
    offered = [sample, *structured]
    if as_offered:
        return st.one_of(offered)
    size = max(len(d) for d in downloads)
    return st.one_of(*offered, st.builds(cut, sample, st.integers(0, size)),
                     st.builds(overwritten, sample, st.integers(0, size),
                               st.binary(min_size=1, max_size=8)), *garbage)


def _upload(downloads: list[bytes], *, as_offered: bool) -> st.SearchStrategy[
        SimpleUploadedFile]:
    return st.builds(
        SimpleUploadedFile,
        name=st.sampled_from(["export.sheetkeeper.json", "x", "a.exe", "ü.json",
                              "../../x.json", "x" * 200 + ".json"]),
        content=_file_bytes(downloads, as_offered=as_offered),
        content_type=st.sampled_from(["application/json", "text/plain",
                                      "application/octet-stream", "image/png", ""]),
    )


def payloads(controls: dict[str, Control], extra: dict[str, set[str]],
             downloads: list[bytes] | None = None) -> st.SearchStrategy[Payload]:
    """Random requests for a form with ``controls`` (and fixed ``extra`` values such as
    ``hx-vals`` or a pressed button), sent with or without ``HX-Request``. The field
    strategies are built once here: building them for every example costs more than the
    request."""
    everything = dict(controls)
    for name, values in extra.items():
        everything.setdefault(name, Control(name, "hidden", sorted(values)))
    # The test client does not check CSRF tokens (Django's, tested upstream): left out.
    everything.pop("csrfmiddlewaretoken", None)
    fields = [(name, _as_offered(c), _values(c)) for name, c in everything.items()
              if c.kind != "file"]
    files = [(name, _upload(downloads or [], as_offered=True),
              _upload(downloads or [], as_offered=False))
             for name, c in everything.items() if c.kind == "file"]
    extra_names = st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=12),
                            st.sampled_from(sorted(everything) or ["x"]).map(lambda n: n + "[]"))
    strays = st.lists(st.tuples(extra_names, _values(Control("stray", "text"))), max_size=3)

    @st.composite
    def build(draw: st.DrawFn) -> Payload:
        payload = Payload(htmx=draw(st.booleans()))
        # Half the examples are what a person could send with one or two fields broken, so
        # they get past the form to the rules and the writes; the others are random
        # throughout. Failures shrink towards the first kind: the data a person would send.
        as_offered = draw(st.booleans().map(lambda b: not b))
        names = [f[0] for f in fields] + [f[0] for f in files]
        broken = set(draw(st.lists(st.sampled_from(names or ["x"]), max_size=2))
                     ) if as_offered else set()
        for name, offered, anything in fields:
            strategy = offered if as_offered and name not in broken else anything
            payload.fields.extend((name, value) for value in draw(strategy))
        for name, offered_upload, any_upload in files:
            if as_offered and name not in broken:
                payload.files[name] = draw(offered_upload)
            elif draw(st.booleans()):
                payload.files[name] = draw(any_upload)
        for name, values in draw(strays):
            payload.fields.extend((name, value) for value in values)
        payload.multipart = bool(payload.files) or draw(st.booleans())
        return payload

    return build()


def queries(controls: dict[str, Control], extra: dict[str, set[str]]
            ) -> st.SearchStrategy[Payload]:
    """Random query-string data for a GET target (no files)."""
    plain = {n: c for n, c in controls.items() if c.kind != "file"}

    def as_query(payload: Payload) -> Payload:
        payload.multipart = False
        return payload

    return payloads(plain, extra).map(as_query)


SWEEP = ("²", "99999999999999999999999")
"""The sharpest numbers: one str.isdigit() accepts and int() refuses, and one no column and
no dice pool can hold."""
SWEEP_FIELDS = 30


def sweep(controls: dict[str, Control], extra: dict[str, set[str]]) -> list[Payload]:
    """Requests as a person would fill the form in (each field its first offered value that
    is not empty),
    each with one field replaced by one of :data:`SWEEP` or by an offered value with digits
    among other characters with "²" for its digits, plain and by htmx: the fields a view
    may read by hand (hidden ones, and any whose offered values hold digits) first, at most
    :data:`SWEEP_FIELDS` of them. Random examples rarely hit one field with one value; these
    run every time, before them."""
    everything = dict(controls)
    for name, values in extra.items():
        everything.setdefault(name, Control(name, "hidden", sorted(values)))
    everything.pop("csrfmiddlewaretoken", None)
    # The first value that is not empty: "No skill" or "None" options rarely make a pool.
    base = {name: next((v for v in c.values if v), c.values[0]) for name, c in everything.items()
            if c.values and c.kind not in {"file", "checkbox", "submit"}}
    numeric = [name for name, c in everything.items() if c.kind != "file" and (
        c.kind == "hidden" or any(ch.isdigit() for v in c.values for ch in v))]
    numeric.sort(key=lambda n: everything[n].kind != "hidden")
    requests: list[Payload] = []
    for name in numeric[:SWEEP_FIELDS]:
        # "step-6" -> "step-²": an offered value's shape kept, its number unreadable.
        shaped = sorted({digits_swapped(v, SWEEP[0]) for v in everything[name].values
                         if v.strip("0123456789") and any(ch.isdigit() for ch in v)})[:2]
        for value in (*SWEEP, *shaped):
            fields = [(n, v) for n, v in base.items() if n != name] + [(name, value)]
            requests.append(Payload(fields=fields, htmx=len(requests) % 2 == 1,
                                    multipart=False))
    return requests
