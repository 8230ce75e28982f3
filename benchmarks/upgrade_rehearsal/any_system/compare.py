"""Compare two dumps of ``benchmarks/upgrade_rehearsal/any_system/facts.py``: every value but
the pages' text must be equal; the pages' text changes are listed (word by word) so that each
can be put down to a template change.

    python benchmarks/upgrade_rehearsal/any_system/compare.py before.json after.json \
        [--allow-insert WORDS ...]

Exit 0 when every value is equal and every text change is an allowed insertion
(``benchmarks/upgrade_rehearsal/any_system/rehearse.sh`` runs it with ``--allow-insert Menu``)."""
import argparse
import difflib
import json


def load(path):
    with open(path) as file:
        text = file.read()
    return json.loads(text[text.index("{"):])


def walk(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                out.append(f"{path}/{key}: only {'after' if key not in a else 'before'}")
            else:
                walk(a[key], b[key], f"{path}/{key}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            walk(x, y, f"{path}[{i}]", out)
    elif a != b or type(a) is not type(b):
        out.append(f"{path}: {a!r} -> {b!r}")


parser = argparse.ArgumentParser()
parser.add_argument("before")
parser.add_argument("after")
parser.add_argument("--allow-insert", action="append", default=[])
args = parser.parse_args()
before, after = load(args.before), load(args.after)
failed = False
for part in sorted(set(before) | set(after)):
    if part == "pages":
        continue
    diffs = []
    walk(before.get(part), after.get(part), part, diffs)
    size = len(before.get(part) or ())
    print(f"{part}: {size} compared, {len(diffs)} differ")
    for d in diffs[:20]:
        print("   ", d)
    failed |= bool(diffs)
changes = set()
for key, page in before["pages"].items():
    new = after["pages"].get(key)
    if new is None or new["status"] != page["status"]:
        print(f"pages/{key}: status {page['status']} -> {new and new['status']}")
        failed = True
        continue
    for which in ("main", "body"):
        a, b = page[which].split(), new[which].split()
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if op != "equal":
                changes.add((which, op, " ".join(a[i1:i2]), " ".join(b[j1:j2])))
body_chars = sum(len(p["body"]) for p in before["pages"].values())
print(f"pages: {len(before['pages'])} compared ({body_chars} characters of body text)")
allowed = {("body", "insert", "", text) for text in args.allow_insert}
for change in sorted(changes):
    print(f"    {'allowed' if change in allowed else 'CHANGED'}: {change}")
failed |= bool(changes - allowed)
balanced = all(c["ledger_sums"][:2] == [c["xp_available"], c["xp_total"]]
               for c in after["characters"].values())
print(f"xp_available/xp_total equal the ledger sums after: {balanced}")
print("RESULT:", "DIFFERENT" if failed or not balanced else "SAME")
raise SystemExit(1 if failed or not balanced else 0)
