"""Compare the two dumps of ``facts.py`` (before and after the upgrade): exit 1 and name what
differs, else print what was compared.

``python compare.py before.json after.json [--allow TEXT ...]``: a page's visible text may
differ from before only by the fragments allowed (each an insertion), which the release
says it changes on purpose (moving Maelstrom onto the shared layer, its sheet's subtitle
names the system, as every other system's sheet does: ``--allow " · Maelstrom"``).
"""

from __future__ import annotations

import argparse
import difflib
import json
from typing import Any


def _load(path: str) -> dict[str, Any]:
    with open(path) as file:
        text = file.read()
    data: dict[str, Any] = json.loads(text[text.index('{"'):])  # after the shell's banner
    return data


def _changes(before: str, after: str) -> set[tuple[str, str, str]]:
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return {(op, before[i1:i2], after[j1:j2])
            for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--allow", action="append", default=[])
    args = parser.parse_args()
    before, after = _load(args.before), _load(args.after)
    failed = False
    for part in ("characters", "campaigns"):
        differ = [key for key in before[part] if before[part][key] != after[part].get(key)]
        print(f"{part}: {len(before[part])} compared, {len(differ)} differ {differ[:5]}")
        failed |= bool(differ) or set(before[part]) != set(after[part])
    allowed = {("insert", "", text) for text in args.allow}
    seen: set[tuple[str, str, str]] = set()
    for key, page in before["pages"].items():
        new = after["pages"][key]
        failed |= (page["status"], page["xp_status"]) != (new["status"], new["xp_status"])
        seen |= _changes(page["text"], new["text"])
    print(f"pages: {len(before['pages'])} compared; their text changed by {sorted(seen)}")
    failed |= bool(seen - allowed)
    balanced = all(c["xp"] == c["ledger_sums"] for c in after["characters"].values())
    rolls = sum(c["count"] for c in after["campaigns"].values())
    print(f"balances equal ledger sums after: {balanced}; rolls compared: {rolls}")
    return 1 if failed or not balanced else 0


if __name__ == "__main__":
    raise SystemExit(main())
