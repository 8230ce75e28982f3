"""``make bench``: median time per exact-odds query, every system, pools up to 20 dice.

Runs each query through the registry's ``odds_query``, the function the ``odds`` command and
the sheet call, in one process, and prints the median and 95th percentile over repeated runs.
The goal (issue "The rules engine") is a median of at most 20 ms per query on a 2-core
machine. This is a benchmark, not a test: it measures, it never fails the build.

    .venv/bin/python -m benchmarks.odds [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Mapping

from rulesets.registry import RULESETS

GOAL_MS = 20.0

QUERIES: list[tuple[str, Mapping[str, object]]] = [
    ("maelstrom", {"dice": 20, "difficulty": 6, "threshold": 3, "specialty": True}),
    ("maelstrom", {"dice": 20, "difficulty": 6, "threshold": 1, "specialty": True}),
    ("maelstrom", {"dice": 20, "difficulty": 8, "threshold": 0, "specialty": False}),
    ("maelstrom", {"dice": 5, "difficulty": 6, "threshold": 1, "specialty": True}),
    ("genesys", {"pool": "4A 3P 4D 3C 3B 3S"}),
    ("genesys", {"pool": "2A 1P 2D 1C 1B 1S"}),
    ("shahquest", {"pool": "d12 2d10 2d8 3d6"}),
    ("shahquest", {"pool": "2d12 2d10 2d8 2d6"}),
    ("shahquest", {"pool": "d10 2d8 d6"}),
    ("three_d6", {"td": 12, "modifier": 1, "favor": 5, "disfavor": 0}),
    ("three_d6", {"td": 12, "modifier": 1, "favor": 1, "disfavor": 0}),
    ("shattered_world", {"die": 20, "target": 15, "modifier": 2, "multipliers": "x2 x2"}),
    ("shattered_world", {"die": 4, "target": 5, "modifier": 1}),
]


def _label(query: Mapping[str, object]) -> str:
    return " ".join(f"{key}={value}" for key, value in query.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="runs per query (default 200)")
    repeat = parser.parse_args().repeat
    print(f"Exact odds, one process, {repeat} runs per query; Python {platform.python_version()}")
    print(f"{'system':<16} {'median ms':>9} {'p95 ms':>8}  query")
    medians = []
    for slug, query in QUERIES:
        odds_query = RULESETS[slug].odds_query
        assert odds_query is not None
        odds_query(query)  # first call outside the timing (imports, warm caches of Python)
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            odds_query(query)
            times.append((time.perf_counter() - start) * 1000)
        median = statistics.median(times)
        p95 = statistics.quantiles(times, n=20)[-1]
        medians.append(median)
        print(f"{slug:<16} {median:>9.2f} {p95:>8.2f}  {_label(query)}")
    worst = max(medians)
    verdict = "met" if worst <= GOAL_MS else "NOT met"
    print(f"slowest median {worst:.2f} ms; goal <= {GOAL_MS:.0f} ms per query: {verdict}")


if __name__ == "__main__":
    main()
