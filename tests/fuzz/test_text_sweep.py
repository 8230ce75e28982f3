"""Every text field with each character the rule for text refuses, with text it takes and
with each Markdown bomb (Sheetkeeper issue 31, "A backup that cannot be restored";
tests/fuzz/text.py states the rules): what a form accepts, the campaign's export carries and
an import takes back.

One test per system: its world is crawled (tests/fuzz/plan.py) and each endpoint that can
answer differently by system is swept in every world, each shared one in one world; each
bomb is written once in the world that sweeps the Markdown boxes.
"""

from __future__ import annotations

import pytest

from tests.fuzz.plan import fuzz_plan, open_table, reseeder
from tests.fuzz.text import markdown_boxes, sweep_text, text_fields
from tests.fuzz.world import SYSTEMS
from tests.markdown_bombs import BOMBS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", SYSTEMS)
def test_text_a_form_accepts_is_plain_and_a_backup_carries_it_back(system, seeded_rng):  # type: ignore[no-untyped-def]
    crawled = open_table(system, reseeder(seeded_rng))
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
