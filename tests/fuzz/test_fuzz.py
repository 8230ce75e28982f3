"""The fuzz of each system's world: random POSTs, random queries and the text sweep.

Each system's world is built and crawled once for this module (:func:`crawled`, inside a
transaction rolled back at the end), and its three tests share it: every example runs in a
savepoint rolled back afterwards, with the dice reseeded (tests/fuzz/checks.py), so each test
starts from the world as it was built.

- Random data POSTed to every form and htmx endpoint of the system's pages (Sheetkeeper
  issue 7, "Bad input"): never a 500, never a partial write, always a clear message; each
  endpoint gets 25 examples and the sweep (tests/fuzz/checks.py states the rules). Every
  endpoint is run even when an earlier one fails, and the failures are reported together,
  each with hypothesis' minimal example.
- Random query strings sent to every GET form and ``hx-get`` target: the odds box, the price
  of an advance, the roll log's filter, the live refreshes. A GET never answers 500, never
  takes longer than SLOW_SECONDS (the odds are computed exactly; a pool nobody can roll must
  be refused, not computed), and never writes.
- Every text field with each character the rule for text refuses, with text it takes and
  with each Markdown bomb (issue 31, "A backup that cannot be restored"; tests/fuzz/text.py
  states the rules): what a form accepts, the campaign's export carries and an import takes
  back. Each bomb is written once in the world, shared out among its Markdown boxes.

Each endpoint that can answer differently by system is fuzzed in every world, each shared one
in one world (tests/fuzz/plan.py's ``fuzzed_in``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from tests.fuzz.checks import fuzz
from tests.fuzz.plan import Crawled, fuzz_plan, open_table, reseeder
from tests.fuzz.text import markdown_boxes, sweep_text, text_fields
from tests.fuzz.world import SEED, SYSTEMS
from tests.markdown_bombs import BOMBS

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", params=SYSTEMS)
def crawled(request: pytest.FixtureRequest, django_db_setup: None,
            django_db_blocker: Any) -> Iterator[Crawled]:
    """The world of the system ``request.param``, built and crawled once for the module
    inside a transaction rolled back at its end; the server rolls a seeded random.Random,
    put back to the world's seed before every example."""
    rng = random.Random(SEED)
    with (django_db_blocker.unblock(), transaction.atomic(),
          pytest.MonkeyPatch.context() as patch):
        patch.setattr("core.dice.get_rng", lambda: rng)
        yield open_table(request.param, reseeder(rng))
        transaction.set_rollback(True)


def _as_crawled(crawled: Crawled) -> str:
    """The world's system, once each of its people is still logged in as the crawl left
    them (an earlier test's examples are rolled back, sessions included): a test that
    shares the world fuzzes what the crawl saw, not a logged-out page."""
    for role, user in crawled.world.users().items():
        session = crawled.table.clients[role].session
        assert session.get("_auth_user_id") == str(user.pk), f"{role} is no longer logged in"
    return crawled.world.system


def test_random_posts_never_crash_never_half_write_and_always_explain(crawled: Crawled
                                                                      ) -> None:
    system = _as_crawled(crawled)
    # Each endpoint that can answer differently by system here; each shared one in one world.
    plan = [e for e in fuzz_plan(crawled, system=system) if e.method == "POST"]
    assert plan, f"the crawl of {system} found nothing to post to"
    failures = [failure for endpoint in plan if (failure := fuzz(crawled.table, endpoint))]
    assert not failures, f"{len(failures)} of {len(plan)} endpoints broke a rule:\n\n" + (
        "\n\n".join(failures))


def test_random_queries_never_crash_never_stall_and_never_write(crawled: Crawled) -> None:
    system = _as_crawled(crawled)
    plan = [e for e in fuzz_plan(crawled, system=system) if e.method == "GET"]
    assert any(e.pattern == "rolls:roll-odds" for e in plan), (
        f"the crawl of {system} found no odds box on the sheet")
    failures = [failure for endpoint in plan if (failure := fuzz(crawled.table, endpoint))]
    assert not failures, f"{len(failures)} of {len(plan)} GET targets broke a rule:\n\n" + (
        "\n\n".join(failures))


def test_text_a_form_accepts_is_plain_and_a_backup_carries_it_back(crawled: Crawled) -> None:
    system = _as_crawled(crawled)
    plan = [e for e in fuzz_plan(crawled, system=system) if e.method == "POST"
            and text_fields(e)]
    # One renderer draws every Markdown box: the bombs are shared out among the endpoints
    # that have one (each bomb written once per world), the rest get none.
    writes = [e for e in plan if markdown_boxes(e)]
    share = {e.key: BOMBS[i::len(writes)] for i, e in enumerate(writes)}
    broken = [line for endpoint in plan
              for line in sweep_text(crawled.table, endpoint, crawled.world.campaign,
                                     share.get(endpoint.key, ()))]
    assert not broken, f"{len(broken)} requests broke a rule:\n\n" + "\n\n".join(broken)
