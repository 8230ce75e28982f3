"""Random data POSTed to every form and htmx endpoint of each system's pages (Sheetkeeper
issue 7, "Bad input"): never a 500, never a partial write, always a clear message.

One test per system builds the world once, crawls its pages as the GM, the player, a stranger
with the invite link and a visitor, and fuzzes each endpoint found with 25 examples
(tests/fuzz/checks.py states the rules). Every endpoint is run even when an earlier one fails,
and the failures are reported together, each with hypothesis' minimal example.
"""

from __future__ import annotations

import pytest

from tests.fuzz.checks import fuzz
from tests.fuzz.plan import fuzz_plan, open_table, reseeder
from tests.fuzz.world import SYSTEMS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_posts_never_crash_never_half_write_and_always_explain(system, seeded_rng):  # type: ignore[no-untyped-def]
    crawled = open_table(system, reseeder(seeded_rng))
    # Each endpoint that can answer differently by system here; each shared one in one world.
    plan = [e for e in fuzz_plan(crawled, system=system) if e.method == "POST"]
    assert plan, f"the crawl of {system} found nothing to post to"
    failures = [failure for endpoint in plan if (failure := fuzz(crawled.table, endpoint))]
    assert not failures, f"{len(failures)} of {len(plan)} endpoints broke a rule:\n\n" + (
        "\n\n".join(failures))
