"""Random query strings sent to every GET form and ``hx-get`` target of each system's pages:
the odds box, the price of an advance, the roll log's filter, the live refreshes. A GET never
answers 500, never takes longer than tests/fuzz/checks.py's SLOW_SECONDS (the odds are
computed exactly; a pool nobody can roll must be refused, not computed), and never writes.
"""

from __future__ import annotations

import pytest

from tests.fuzz.checks import fuzz
from tests.fuzz.plan import fuzz_plan, open_table, reseeder
from tests.fuzz.world import SYSTEMS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_queries_never_crash_never_stall_and_never_write(system, seeded_rng):  # type: ignore[no-untyped-def]
    crawled = open_table(system, reseeder(seeded_rng))
    plan = [e for e in fuzz_plan(crawled, system=system) if e.method == "GET"]
    assert any(e.pattern == "rolls:roll-odds" for e in plan), (
        f"the crawl of {system} found no odds box on the sheet")
    failures = [failure for endpoint in plan if (failure := fuzz(crawled.table, endpoint))]
    assert not failures, f"{len(failures)} of {len(plan)} GET targets broke a rule:\n\n" + (
        "\n\n".join(failures))
