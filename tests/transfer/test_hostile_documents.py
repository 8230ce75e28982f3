"""Hostile import files, generated (Sheetkeeper issue 14, section 2): genuine exports of every
system, mutated: nested deep, made wide, given huge or control-laden text, wrong types, dates
far off either way, unknown keys, dropped keys, repeated rows, numbers out of range.

The genuine files are each system's exports and its files of format versions 1 and 2
(tests/transfer/v1/, tests/transfer/v2/), which an import still reads (Maelstrom's trait rows
and dice columns, a session's notes among them). For every file: the import either refuses it
with a :class:`TransferError` and writes nothing, or accepts it; then its export is at most
:data:`GROWTH` times the file's size and imports again to the same document. Nothing else
may happen: any other exception is what a page would answer with a 500. The examples are
derived from each test's name (``derandomize``), so every run, CI's included, makes the same
ones. Run on SQLite and on PostgreSQL (``DATABASE_URL``), where a NUL or an out-of-range
number used to be a database error.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign
from rulesets import registry
from tests.transfer.conftest import counts, put
from tests.transfer.test_round_trip import comparable
from transfer.export import document_json, export_campaign, export_character
from transfer.imports import import_campaign, import_character
from transfer.schema import MAX_DEPTH
from transfer.validate import TransferError, read_document

SYSTEMS = [slug for slug, ruleset in registry.RULESETS.items() if ruleset.selectable]
V1 = Path(__file__).parent / "v1"
V2 = Path(__file__).parent / "v2"
GROWTH = 4
"""The most an accepted file may grow by being imported and exported again (the export is
indented, a file may be compact: a genuine compact export grows 1.6 times)."""

HOSTILE_SETTINGS = settings(
    max_examples=40, deadline=None, database=None, print_blob=False, derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
"""40 files per system, no deadline, no example database, the same files every run."""

DEEP = "@@deep@@"
"""Stands for a deeply nested value in the document, spliced into its text: a value nested
thousands deep cannot be written by ``json.dumps`` (recursion), only read."""

Path = tuple[str | int, ...]


def nodes(value: Any, path: Path = ()) -> list[tuple[Path, Any]]:
    """Every (path, value) of a document, its root first, without recursion."""
    out: list[tuple[Path, Any]] = []
    stack = [(path, value)]
    while stack:
        where, node = stack.pop()
        out.append((where, node))
        if isinstance(node, dict):
            stack.extend(((*where, k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend(((*where, i), v) for i, v in enumerate(node))
    return out


def is_time(value: Any) -> bool:
    return isinstance(value, str) and len(value) >= 10 and value[4:5] == "-" and \
        value[7:8] == "-" and value[:4].isdigit()


ODD_VALUES = st.sampled_from([
    None, True, False, 0, -1, 7, 2**31, 2**63, 10**30, 1.5, float("inf"), "", " ", "x",
    "\x00", [], [1], {}, {"a": 1}, "2099-01-01T00:00:00+00:00",
])
CONTROL = st.sampled_from(["\x00", "\x01", "\x1b", "\x7f", "\x85", "\ud800", "\t", "\n",
                           "\r", "\u2028", "\u200b", "é", "\U0001f3b2"])
FAR_TIMES = st.sampled_from([
    "0001-01-01T00:00:00+00:00", "1000-06-01T12:00:00+00:00", "1899-12-31T23:59:59+00:00",
    "1970-01-01T00:00:00+00:00", "2099-01-01T12:00:00+00:00", "9999-12-31T23:59:59+00:00",
    "0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "2025-02-30T00:00:00+00:00",
    "2025-01-01T00:00:00", "0001-01-01", "9999-12-31", "2099-01-01",
])


@st.composite
def mutated(draw: st.DrawFn, genuine: list[dict[str, Any]]) -> tuple[str, bytes]:
    """A hostile file made from one of the ``genuine`` documents: what was done, and the
    file's bytes (indented as exports are, or compact)."""
    document = copy.deepcopy(draw(st.sampled_from(genuine)))
    done: list[str] = []
    deep = ""
    for _ in range(draw(st.integers(0, 3))):
        everything = nodes(document)
        path, value = draw(st.sampled_from(everything))
        containers = [(p, v) for p, v in everything if isinstance(v, dict | list)]
        how = draw(st.sampled_from(["deep", "wide", "huge", "control", "type", "time",
                                    "unknown", "drop", "repeat", "number"]))
        if how == "deep":
            where, node = draw(st.sampled_from(containers))
            depth = draw(st.sampled_from([MAX_DEPTH, MAX_DEPTH + 1, 100, 900, 5_000]))
            kind = draw(st.sampled_from(["{", "["]))
            deep = (('{"x":' * depth + "0" + "}" * depth) if kind == "{"
                    else "[" * depth + "]" * depth)
            if isinstance(node, dict):
                node["notes" if draw(st.booleans()) else next(iter(node), "notes")] = DEEP
            else:
                node.append(DEEP)
            done.append(f"{depth} deep at {where}")
        elif how == "wide":
            where, node = draw(st.sampled_from(containers))
            count = draw(st.sampled_from([201, 5_000, 20_001]))
            if isinstance(node, dict):
                node.update({f"k{i}": i for i in range(count)})
            else:
                node.extend([node[0] if node else 0] * count)
            done.append(f"{count} wide at {where}")
        elif how == "huge" and path:
            size = draw(st.sampled_from([201, 10_001, 20_001, 300_000]))
            put(document, path, draw(st.sampled_from(["x", "é", "\U0001f3b2"])) * size)
            done.append(f"{size} characters at {path}")
        elif how == "control" and path and isinstance(value, str):
            char = draw(CONTROL)
            at = draw(st.integers(0, len(value)))
            put(document, path, value[:at] + char + value[at:])
            done.append(f"{char!r} in {path}")
        elif how == "control" and path:
            parent_path, key = path[:-1], path[-1]
            parent = dict(nodes(document))[parent_path]
            if isinstance(parent, dict):
                parent[f"{key}{draw(CONTROL)}"] = parent.pop(key)
                done.append(f"control character in the key {path}")
        elif how == "type" and path:
            put(document, path, draw(ODD_VALUES))
            done.append(f"odd value at {path}")
        elif how == "time":
            times = [p for p, v in everything if p and is_time(v)]
            if times:
                where = draw(st.sampled_from(times))
                put(document, where, draw(FAR_TIMES))
                done.append(f"far time at {where}")
        elif how == "unknown":
            where, node = draw(st.sampled_from(containers))
            if isinstance(node, dict):
                node[draw(st.sampled_from(["extra", "", "__proto__", "id", "pk"]))] = 1
                done.append(f"unknown key at {where}")
        elif how == "drop":
            keyed = [(p, v) for p, v in containers if isinstance(v, dict) and v]
            if keyed:
                where, node = draw(st.sampled_from(keyed))
                node.pop(draw(st.sampled_from(sorted(node))))
                done.append(f"key dropped at {where}")
        elif how == "repeat":
            lists = [(p, v) for p, v in containers if isinstance(v, list) and v]
            if lists:
                where, node = draw(st.sampled_from(lists))
                node.append(copy.deepcopy(draw(st.sampled_from(node))))
                done.append(f"entry repeated at {where}")
        elif how == "number":
            numbers = [p for p, v in everything if p and type(v) is int]
            if numbers:
                where = draw(st.sampled_from(numbers))
                put(document, where, draw(st.sampled_from([-1, 0, 99, 32_768, -(2**31),
                                                           2**53, 2**53 + 1])))
                done.append(f"number changed at {where}")
    # As exports are written, or compact; ASCII-escaped, a lone surrogate reaches the schema.
    style = draw(st.sampled_from(["indented", "compact", "ascii"]))
    text = (document_json(document) if style == "indented"
            else json.dumps(document, ensure_ascii=style == "ascii"))
    if deep:
        text = text.replace(json.dumps(DEEP), deep)
    return "; ".join(done) or "genuine", text.encode("utf-8", "surrogatepass")


def file_size(document: dict[str, Any]) -> int:
    return len(document_json(document).encode("utf-8", "surrogatepass"))


@pytest.mark.parametrize("ruleset", SYSTEMS)
def test_hostile_files_are_refused_or_come_back_the_same(demo: list[Campaign],
                                                         ruleset: str) -> None:
    campaign = next(c for c in demo if c.ruleset == ruleset)
    characters = list(campaign.characters.order_by("pk"))
    genuine = [export_campaign(campaign), *(export_character(c) for c in characters),
               *(json.loads(path.read_text()) for folder in (V1, V2)
                 for path in sorted(folder.glob(f"{ruleset}-*.sheetkeeper.json")))]
    player = characters[0].owner
    gm = campaign.created_by

    def load(document: Any) -> Any:
        if isinstance(document, dict) and document.get("kind") == "campaign":
            imported = import_campaign(document, gm)
            return export_campaign(imported)
        return export_character(import_character(document, campaign, player))

    @HOSTILE_SETTINGS
    @given(mutated(genuine))
    def run(case: tuple[str, bytes]) -> None:
        what, raw = case
        before = counts()
        try:
            document = read_document(raw)
            exported = load(document)
        except TransferError:
            assert counts() == before, f"a refused file wrote rows ({what})"
            return
        grown = file_size(exported) / len(raw)
        assert grown <= GROWTH, f"the export is {grown:.1f} times the file ({what})"
        again = load(json.loads(document_json(exported)))
        assert comparable(again) == comparable(exported), f"not the same again ({what})"

    run()
