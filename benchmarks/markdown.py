"""``make bench``: how long each Markdown bomb (tests/markdown_bombs.py) takes to render, at
core.markdown.MAX_LENGTH characters and at half that, in one process.

Each render is ``core.markdown.render``, the whole of what a page's first view of a text pays
(parse, guards, sanitiser) without the cache that spares every later view. The goal
(docs/performance.md, "Markdown bombs"): any text at its size limit renders in at most
50 ms. Times are the median of the processor time the rendering thread used (comrak and nh3
run on it), which is what the wall clock shows on an idle machine; on one shared with other
work the wall clock adds the waits for a core, so its median is printed beside. The last
column divides the full text's processor time by the half's: about 2 when the time grows
with the text's length, about 4 when it grows with its square. This is a benchmark, not a
test: it measures, it never fails the build.

    .venv/bin/python -m benchmarks.markdown [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from importlib.metadata import version

from core.markdown import MAX_LENGTH, render
from tests.markdown_bombs import bombs

GOAL_MS = 50.0


def _time_ms(text: str) -> tuple[float, float]:
    """The processor time and the wall time of one render of ``text``, in ms."""
    start_processor, start_wall = time.thread_time(), time.perf_counter()
    render(text)
    return (time.thread_time() - start_processor) * 1000, (time.perf_counter() - start_wall) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="renders per text (default 20)")
    repeat = parser.parse_args().repeat
    full, half = bombs(MAX_LENGTH), bombs(MAX_LENGTH // 2)
    print(f"Markdown bombs, one process, median of {repeat} renders; Python "
          f"{platform.python_version()}, comrak {version('comrak')}, nh3 {version('nh3')}")
    print(f"{'bomb':<26} {f'{MAX_LENGTH:,} ch: cpu ms':>18} {'wall ms':>8} "
          f"{f'{MAX_LENGTH // 2:,} ch: cpu ms':>18} {'ratio':>6}")
    processor_medians, wall_medians = [], []
    for name, text in full.items():
        render(text)  # first render outside the timing (Python's and the allocator's warm-up)
        # In turns, so both lengths meet the memory allocator in the same state.
        timed = [(_time_ms(half[name])[0], *_time_ms(text)) for _ in range(repeat)]
        at_half, processor, wall = (statistics.median(column) for column in zip(*timed,
                                                                                  strict=True))
        processor_medians.append(processor)
        wall_medians.append(wall)
        print(f"{name:<26} {processor:>18.2f} {wall:>8.2f} {at_half:>18.2f} "
              f"{processor / at_half:>6.1f}")
    worst = max(processor_medians)
    verdict = "met" if worst <= GOAL_MS else "NOT met"
    print(f"slowest median {worst:.2f} ms of processor ({max(wall_medians):.2f} ms wall, the "
          f"slowest); goal <= {GOAL_MS:.0f} ms per text: {verdict}")


if __name__ == "__main__":
    main()
