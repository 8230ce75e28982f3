"""No POST endpoint is forgotten: every URL pattern whose view accepts POST is fuzzed, or is
listed in tests/fuzz/plan.py's EXCLUDED with a reason; every change a system registers (sheet
actions, campaign actions, roll follow-ups) is offered by some page the crawl reads, so it is
fuzzed with its real field names.
"""

from __future__ import annotations

import pytest
from django.db import transaction

import systems
from tests.by_system import by_system
from tests.fuzz.crawl import Endpoint
from tests.fuzz.endpoints import all_patterns, post_patterns
from tests.fuzz.plan import EXCLUDED, about_no_campaign, excluded, fuzz_plan, open_table
from tests.fuzz.world import SYSTEMS

# pytest-django creates the test database only when some collected test is marked for it:
# the plans fixture reads the database, so this module alone needs the mark.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def plans(django_db_setup, django_db_blocker) -> dict[str, list[Endpoint]]:  # type: ignore[no-untyped-def]
    """Each system's fuzz plan (what its world's tests fuzz): its world is built and crawled
    once for the module, each in a transaction that is rolled back, so nothing stays in the
    test database."""
    result = {}
    with django_db_blocker.unblock():
        for system in SYSTEMS:
            with transaction.atomic():
                result[system] = fuzz_plan(open_table(system), system=system)
                transaction.set_rollback(True)
    return result


def test_the_walk_reads_each_views_methods() -> None:
    methods = {p.name: p.methods for p in all_patterns()}
    assert methods["characters:character-action"] == frozenset({"POST"})
    assert methods["characters:character-xp-spend"] == frozenset({"GET", "POST"})
    assert methods["rolls:roll-odds"] == frozenset({"GET"})
    assert methods["table:campaign-detail"] is None  # no limit: it answers POST too
    assert "POST" in (methods["login"] or ())  # a class-based view with post()
    accepting = {p.name for p in post_patterns()}
    assert "rolls:roll-odds" not in accepting
    assert {"characters:character-action", "table:campaign-detail"} <= accepting


def test_every_exclusion_names_a_pattern_and_says_why() -> None:
    names = {p.name for p in all_patterns()}
    for key, reason in EXCLUDED.items():
        assert len(reason.split()) >= 5, f"{key}: say why it is not fuzzed"
        if key.endswith(":*"):
            assert any(n.startswith(key[:-1]) for n in names), f"{key} matches no pattern"
        else:
            assert key in names, f"{key} is no longer a URL pattern: drop the exclusion"


def test_every_post_endpoint_in_the_urlconf_is_fuzzed(plans):  # type: ignore[no-untyped-def]
    fuzzed = {e.pattern for plan in plans.values() for e in plan if e.method == "POST"}
    missing = sorted(p.name for p in post_patterns()
                     if not excluded(p.name) and p.name not in fuzzed)
    assert not missing, (
        "POST endpoints no crawled page leads to, so nothing fuzzes them: "
        f"{missing}. Link them from a page (tests/fuzz/world.py builds what pages need) "
        "or add them to EXCLUDED in tests/fuzz/plan.py with the reason.")


def test_every_view_limited_to_post_is_fuzzed_through_a_form(plans):  # type: ignore[no-untyped-def]
    forms = {e.pattern for plan in plans.values() for e in plan
             if e.method == "POST" and e.form}
    limited = [p.name for p in post_patterns() if p.methods is not None]
    missing = sorted(name for name in limited if not excluded(name) and name not in forms)
    assert not missing, f"no crawled page has a form posting to {missing}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_change_a_system_registers_is_offered_by_a_page(plans, system):  # type: ignore[no-untyped-def]
    sheet_system = systems.for_ruleset(system)
    offered = {(e.pattern, e.action) for e in plans[system] if e.method == "POST" and e.form}
    registered = {("characters:character-action", a) for a in sheet_system.actions} | {
        ("table:campaign-system-action", a) for a in sheet_system.campaign_actions} | {
        ("rolls:roll-act", a) for a in sheet_system.roll_actions} | {
        ("equipment:item-act", a) for a in sheet_system.item_actions}
    missing = sorted(registered - offered)
    assert not missing, f"{system}: no crawled page offers {missing}"


def test_each_world_fuzzes_some_of_the_shared_endpoints(plans):  # type: ignore[no-untyped-def]
    """An endpoint that runs the same code in every system's campaign is fuzzed in one world
    (tests/by_system.py), and the shared ones inside a campaign are spread over the worlds so
    each system's data goes through some shared view."""
    shared = {system: [e.key for e in plan if not by_system(e.pattern)]
              for system, plan in plans.items()}
    seen = [key for keys in shared.values() for key in keys]
    assert len(seen) == len(set(seen)), sorted({k for k in seen if seen.count(k) > 1})
    inside = {system: [e for e in plan if not by_system(e.pattern) and not about_no_campaign(e)]
              for system, plan in plans.items()}
    assert all(inside.values()), sorted(system for system, found in inside.items() if not found)
