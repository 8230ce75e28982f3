"""The cast every test can use: alice the GM, bob her player, carol who must see nothing;
and the tests' made-up system, tally, registered for the whole session."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator, Sequence

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.db.models import Sum
from django.test import Client, override_settings

from campaigns.models import Campaign, Membership
from characters.ledger import banked_xp
from characters.models import Character
from core import regions
from rulesets import errors, registry
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.tally import rules as tally_rules

TALLY = registry.Ruleset(slug="tally", name="Tally", selectable=True, module=tally_rules,
                         package="tests.tally")
"""The registry line of the tests' made-up system (tests/tally/): its engine, and the package
of its sheet layer, which is not under systems/."""

TEST_ONLY_SYSTEMS: tuple[str, ...] = (TALLY.slug,)
"""Systems the tests register on top of the real ones (the registry's last entries)."""

_TALLY_APP = override_settings(INSTALLED_APPS=[*django_settings.INSTALLED_APPS, "tests.tally"])

IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
"""Tasks run where they are queued, for the whole session (servers the tests fork included):
a test of a reset finds its mail in the outbox as the user would find it in theirs, without
a worker. What the queue itself promises (the request sends nothing, the worker sends one
mail) is tested with the database backend the settings name
(tests/accounts/test_password_reset_queue.py, tests/core/test_housekeeping.py)."""

_IMMEDIATE_TASKS = override_settings(TASKS=IMMEDIATE_TASKS)


def pytest_configure(config: pytest.Config) -> None:
    """Register tally for the whole session, the ways a real system is registered: its
    line in ``rulesets.registry.RULESETS`` (which names its package, so ``systems.registry``,
    ``systems.demos`` and ``systems.schema.import_schema`` find ``tests.tally.*``) and its
    app in ``INSTALLED_APPS`` (its templates and stylesheet); and its book in
    ``rulesets.errors.BOOKS``, so its refusals cite "Tally rules, ..." as a book's rule. Here,
    before collection, so the shared suites that iterate the registry (the authorization
    matrix, the fuzz, the transfer round trips, the quick rolls) are parametrized over it
    too. And tasks run where they are queued (:data:`IMMEDIATE_TASKS`)."""
    registry.RULESETS[TALLY.slug] = TALLY
    errors.BOOKS[tally_rules.SOURCE] = tally_rules.SOURCE
    _TALLY_APP.enable()
    _IMMEDIATE_TASKS.enable()


DATABASE_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_setup", "live_server",
    "django_db_reset_sequences", "django_db_serialized_rollback", "asgi_server",
})
"""Fixtures through which a test reaches the test database (pytest-django's, and the browser
tests' live server)."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``backends`` every test that touches the database: the ``django_db`` mark or a
    database fixture, directly or through the fixtures it asks for (``alice``, ``campaign``,
    ``client_for``'s users...). The PostgreSQL-and-Redis pass of ``.ci/run`` runs
    ``-m backends`` (docs/testing.md), so a new test lands in it by what it uses, with no one
    to remember. A test that reaches the channel layer or the cache from ``REDIS_URL``
    without the database says so itself, with ``@pytest.mark.backends``."""
    for item in items:
        uses = set(getattr(item, "fixturenames", ()))
        if item.get_closest_marker("django_db") or uses & DATABASE_FIXTURES:
            item.add_marker(pytest.mark.backends)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Undo :func:`pytest_configure`."""
    _IMMEDIATE_TASKS.disable()
    _TALLY_APP.disable()
    registry.RULESETS.pop(TALLY.slug, None)
    errors.BOOKS.pop(tally_rules.SOURCE, None)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):  # type: ignore[no-untyped-def]
    """Hash test passwords cheaply; the real hasher is for real users (tests/campaigns
    still sign up and log in through the forms)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_rate_limit_counts(settings):  # type: ignore[no-untyped-def]
    """Each test counts sign-ups and joins per address from zero (core/limits.py): its own
    key prefix in the cache, so no test inherits another's count and none flushes a cache
    (Redis in CI) that something else may be using."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture(autouse=True)
def no_kept_regions() -> None:
    """Each test starts with no live region kept (core.regions.recall): a test's database
    is rolled back after it, and SQLite then gives the next test's rows the same ids and
    versions, which must not find the last test's answers."""
    caches[regions.CACHE].clear()


@pytest.fixture
def alice(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="alice")


@pytest.fixture
def bob(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="bob")


@pytest.fixture
def carol(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="carol")


@pytest.fixture
def campaign(alice, bob) -> Campaign:  # type: ignore[no-untyped-def]
    """Alice GMs "The Drift"; Bob plays in it; Carol is a stranger."""
    campaign = CampaignFactory(name="The Drift", created_by=alice)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    return campaign


@pytest.fixture
def bobs_character(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Bob's finished character: Precision 4, Driving 3, Firearms 3, 30 XP available."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rook")


@pytest.fixture
def dave(campaign):  # type: ignore[no-untyped-def]
    """A second player of The Drift, with his own character (Wren): someone whose sheet and
    rolls Bob may not touch."""
    user = UserFactory(username="dave")
    CharacterFactory(campaign=campaign, owner=user, name="Wren")
    return user


@pytest.fixture
def ledger_stays_balanced(db):  # type: ignore[no-untyped-def]
    """After the test, every character's cached XP equals its ledger's sums and no bank is
    negative (the ledger invariant of docs/architecture.md)."""
    yield
    for character in Character.objects.all():
        sums = character.xp_entries.aggregate(available=Sum("available_delta"),
                                              total=Sum("total_delta"))
        assert character.xp_available == (sums["available"] or 0), character
        assert character.xp_total == (sums["total"] or 0), character
        assert all(amount > 0 for amount in banked_xp(character).values()), character


@pytest.fixture
def client_for() -> Callable[..., Client]:
    """A logged-in test client for a user: ``client_for(bob)``."""

    def make(user, htmx: bool = False) -> Client:  # type: ignore[no-untyped-def]
        headers = {"HX-Request": "true"} if htmx else {}
        client = Client(headers=headers)
        client.force_login(user)
        return client

    return make


class ScriptedRng:
    """An RNG that returns the given die faces in order (fails loudly when it runs out)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces: Iterator[int] = iter(faces)

    def randint(self, a: int, b: int) -> int:
        face = next(self.faces)
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        return face


@pytest.fixture
def seeded_rng(monkeypatch: pytest.MonkeyPatch) -> random.Random:
    """Make the server roll with a seeded random.Random for the test."""
    rng = random.Random(20261121)
    monkeypatch.setattr("core.dice.get_rng", lambda: rng)
    return rng


@pytest.fixture
def scripted_dice(monkeypatch: pytest.MonkeyPatch) -> Callable[[Sequence[int]], None]:
    """``scripted_dice([1, 3, 4, 6, 7])``: the server's next dice show these faces."""

    def script(faces: Sequence[int]) -> None:
        rng = ScriptedRng(faces)
        monkeypatch.setattr("core.dice.get_rng", lambda: rng)

    return script
