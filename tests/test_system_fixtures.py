"""Every registered system feeds the shared suites (issue 15): the authorization matrix, the
fuzz, the transfer round trips and the shared concurrency storms iterate the registry and read
each system's data from ``tests/systems/<slug>/fixtures.py`` (tests/system_fixtures.py). A
system added to ``rulesets.registry.RULESETS`` fails here, naming what is missing, until it has
that file, a demo, form data for each of its changes and a decision for each of its own pages:
not later, in the middle of a suite's world.

Plain pytest, no database.
"""

from __future__ import annotations

import pytest

import systems
from rulesets import registry
from systems import demos
from tests.security import urlmap
from tests.system_fixtures import SystemFixtures, fixtures_for, selectable_systems

LEFT_OUT: dict[str, str] = {}
"""Registered systems the shared suites deliberately skip, each with the reason (none: every
system a campaign may choose is in every shared suite)."""

SUITES = selectable_systems()
"""The systems the shared suites iterate (tests/security/urlmap.py's and tests/fuzz/world.py's
``SYSTEMS``)."""


def test_every_registered_system_is_in_the_shared_suites_or_left_out_with_a_reason() -> None:
    unlisted = sorted(set(registry.RULESETS) - set(SUITES) - set(LEFT_OUT))
    assert not unlisted, (
        f"registered systems no shared suite iterates: {unlisted}; make them selectable or "
        "list them in LEFT_OUT with the reason")
    assert all(len(reason.split()) >= 5 for reason in LEFT_OUT.values()), LEFT_OUT
    assert not set(LEFT_OUT) & set(SUITES), "a system left out is in the suites after all"


@pytest.mark.parametrize("slug", SUITES)
def test_every_system_of_the_suites_has_its_fixtures_and_a_demo(slug: str) -> None:
    try:
        fixtures = fixtures_for(slug)
    except ModuleNotFoundError as exc:
        pytest.fail(f"{slug} has no tests/systems/{slug}/fixtures.py (FIXTURES, a "
                    f"tests.system_fixtures.SystemFixtures) for the shared suites: {exc}")
    assert isinstance(fixtures, SystemFixtures), f"{slug}: FIXTURES is not a SystemFixtures"
    assert demos.demo_for(slug) is not None, (
        f"{slug} has no demo (systems/{slug}/demo.py): the shared suites' worlds are its demo")


@pytest.mark.parametrize("slug", SUITES)
def test_every_change_a_system_registers_has_its_form_data(slug: str) -> None:
    """The matrix posts each sheet action, campaign action and roll follow-up with the
    fixtures' data; one missing would be asked with nothing, one stale names nothing."""
    system, fixtures = systems.for_ruleset(slug), fixtures_for(slug)
    for kind in ("actions", "campaign_actions", "roll_actions"):
        registered = set(getattr(system, kind))
        given = set(getattr(fixtures, "sheet_actions" if kind == "actions" else kind))
        assert given == registered, (
            f"{slug}: {kind} registered {sorted(registered)}, fixtures give "
            f"{sorted(given)}")
    assert set(fixtures.matrix_before) <= set(system.actions), fixtures.matrix_before


@pytest.mark.parametrize("slug", SUITES)
def test_every_page_of_a_systems_own_says_who_may_use_it(slug: str) -> None:
    """A system's own pages (its package's urls.py, under its slug) are in the matrix by
    their fixtures' ``pages`` rows: one for each, and none for a page that is gone."""
    names = {route.name for route in urlmap.routes() if urlmap.page_system(route) == slug}
    pages = fixtures_for(slug).pages
    assert set(pages) == names, (
        f"{slug}: its own pages are {sorted(n or '' for n in names)}, its fixtures' pages "
        f"rows {sorted(pages)}")
    for name, page in pages.items():
        for line in (page.get, page.post):
            assert len(line.split()) == len(urlmap.ROLES), f"{slug}:{name}: {line!r}"
