"""Every text field with each character the rule for text refuses, with text it takes and
with each Markdown bomb (Sheetkeeper issue 31, "A backup that cannot be restored";
tests/fuzz/text.py states the rules): what a form accepts, the campaign's export carries and
an import takes back.

One test per system: its world is crawled (tests/fuzz/plan.py) and each endpoint that can
answer differently by system is swept in every world, each shared one in one world.
"""

from __future__ import annotations

import pytest

from tests.fuzz.plan import fuzz_plan, open_table, reseeder
from tests.fuzz.text import sweep_text, text_fields
from tests.fuzz.world import SYSTEMS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", SYSTEMS)
def test_text_a_form_accepts_is_plain_and_a_backup_carries_it_back(system, seeded_rng):  # type: ignore[no-untyped-def]
    crawled = open_table(system, reseeder(seeded_rng))
    plan = [e for e in fuzz_plan(crawled, system=system) if e.method == "POST"
            and text_fields(e)]
    broken = [line for endpoint in plan
              for line in sweep_text(crawled.table, endpoint, crawled.world.campaign)]
    assert not broken, f"{len(broken)} requests broke a rule:\n\n" + "\n\n".join(broken)
