"""What the fuzz sends where: a world, its people's clients, the crawl, and the plan.

``open_table(system)`` builds the world of one system, logs its people in (clients that turn a
500 into a status instead of raising), walks Bob through the system's ``creation_steps``
(tests/systems/<slug>/fixtures.py, posted to the system's creation pages: the first three
steps of Maelstrom's creation wizard, so the crawl sees every step's form), and crawls.
``fuzz_plan`` turns the crawl into the endpoints to fuzz:

- every form and htmx element that POSTs, grouped by URL pattern and action;
- every page the crawl read whose view also answers POST (no method limit), posted to with
  random fields: nothing may break or be written;
- every GET form and ``hx-get`` (the odds, the quote, the live refreshes, the log filter).

The visitor also opens a password-reset link (Django's token for the stranger), so the form
that sets a new password is crawled and fuzzed like the reset request the log-in page links;
the stranger opens the link that confirms an address, so its form is too.

An endpoint that can answer differently by system (tests/by_system.py) is fuzzed in every
system's world. The others are the same code in every world, so each is fuzzed in one:
those about no campaign (log in, sign up, a new campaign, the home page) in the first
system's, the shared ones inside a campaign (a session, the settings, a character's notes) in
the systems' worlds in turn (:func:`fuzzed_in`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

import systems
from accounts.addresses import make_token
from tests.by_system import by_system, system_in_turn
from tests.fuzz.checks import Table
from tests.fuzz.crawl import Endpoint, Page, crawl, pattern_of
from tests.fuzz.endpoints import all_patterns, post_patterns
from tests.fuzz.world import SEED, SYSTEMS, World, build_world
from tests.system_fixtures import fixtures_for

EXCLUDED = {
    "logout": "takes no input and ends the session the other examples use",
    "campaigns:campaign-events": "the live Server-Sent Events stream: it reads no input and "
                                 "answers any method with a stream that stays open for an hour",
    "admin:*": "Django's own admin: staff only (no Sheetkeeper user is staff), its forms are "
               "Django's and tested upstream",
}
"""POST-accepting URL patterns deliberately not fuzzed, with the reason (``admin:*``: the
whole namespace). test_coverage fails on an entry that no longer names a pattern."""


def excluded(pattern: str) -> bool:
    """True when ``pattern`` is in :data:`EXCLUDED` (by name or namespace)."""
    return pattern in EXCLUDED or any(
        key.endswith(":*") and pattern.startswith(key[:-1]) for key in EXCLUDED)


@dataclass
class Crawled:
    """One system's world, its table (clients and checks), and what the crawl found."""

    world: World
    table: Table
    pages: list[Page]
    endpoints: list[Endpoint]


def open_table(system: str, reseed: Callable[[], None] | None = None) -> Crawled:
    """Build and crawl the world of ``system`` (needs the database). ``reseed`` puts the
    server's dice back at the start of each example (tests/conftest.py's ``seeded_rng``)."""
    world = build_world(system)
    clients: dict[str, Client] = {}
    for role, user in world.users().items():
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(user)
    clients["visitor"] = Client(raise_request_exception=False)
    _walk_creation(clients["player"], world, fixtures_for(system).creation_steps)
    starts = {"gm": ["/campaigns/"], "player": ["/campaigns/"],
              "visitor": ["/", "/login/", "/signup/", _reset_link(world.stranger)],
              "stranger": [world.campaign.invite_url() or "", "/campaigns/",
                           _address_link(world.stranger)]}
    pages, endpoints = crawl(clients, starts)
    downloads = [p.body for p in pages if p.body is not None]
    table = Table(clients=clients, downloads=downloads, reseed=reseed or (lambda: None))
    return Crawled(world=world, table=table, pages=pages, endpoints=endpoints)


def _reset_link(user: Any) -> str:
    """The link a password-reset email sends ``user`` (Django's token), so the visitor's
    crawl reaches the form that sets a new password; the reset form itself is linked from
    the log-in page."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])


def _address_link(user: Any) -> str:
    """The link an address confirmation mails ``user`` (accounts.addresses), so the crawl
    reaches the page that confirms it."""
    return reverse("account-address-confirm", args=[make_token(user, "fuzz@example.org")])


def _walk_creation(client: Client, world: World, steps: Sequence[Mapping[str, Any]]) -> None:
    """Bob posts the creation pages' ``steps`` where the system makes characters (its own
    pages, :meth:`systems.SheetSystem.creation_url`, or the generic one): Maelstrom's concept,
    attributes and abilities, whose draft stays in his session, so the wizard offers every
    step's form to the crawl."""
    url = (systems.for_campaign(world.campaign).creation_url(world.campaign)
           or reverse("characters:character-create", args=[world.campaign.pk]))
    for data in steps:
        response = client.post(url, data)
        assert response.status_code == 302, response.content.decode()[:2000]


def about_no_campaign(endpoint: Endpoint) -> bool:
    """Not about one campaign: no object in its URL."""
    found = pattern_of(endpoint.url)
    return found is not None and not found[1]


def fuzz_plan(crawled: Crawled, *, system: str | None = None) -> list[Endpoint]:
    """The endpoints to fuzz in this world (see the module docstring), POSTs first: with
    ``system``, only those that world's test fuzzes (:func:`fuzzed_in`); without, all."""
    accepts_post = {p.name for p in post_patterns()}
    posts = [e for e in crawled.endpoints if e.method == "POST" and not excluded(e.pattern)]
    posted = {e.pattern for e in posts}
    page_posts: dict[str, Endpoint] = {}
    for page in crawled.pages:
        if (page.pattern in accepts_post and page.pattern not in posted
                and not excluded(page.pattern) and page.status == 200):
            endpoint = page_posts.setdefault(page.pattern, Endpoint(
                method="POST", pattern=page.pattern, action="", url=page.url, form=False))
            endpoint.urls.setdefault(page.role, set()).add(page.url)
    gets = [e for e in crawled.endpoints if e.method == "GET" and not excluded(e.pattern)]
    plan = [*sorted(posts, key=str), *sorted(page_posts.values(), key=str),
            *sorted(gets, key=str)]
    return [e for e in plan if system is None or fuzzed_in(e, system)]


def fuzzed_in(endpoint: Endpoint, system: str) -> bool:
    """Whether the world of ``system`` fuzzes ``endpoint`` (tests/by_system.py): one that
    can answer differently by system in every world; one about no campaign in the first
    world; any other shared one in the world of its system in turn."""
    if about_no_campaign(endpoint):
        return system == SYSTEMS[0]
    if by_system(endpoint.pattern):
        return True
    return system == system_in_turn(endpoint.pattern, _taking_turns(), SYSTEMS)


@functools.cache
def _taking_turns() -> frozenset[str]:
    """The URLconf's shared patterns about one campaign, character, roll or link (an
    argument in the route), outside the admin: the names the systems take in turn."""
    return frozenset(p.name for p in all_patterns()
                     if "<" in p.route and not by_system(p.name) and not excluded(p.name))


def reseeder(rng: random.Random) -> Callable[[], None]:
    """Put ``rng`` (tests/conftest.py's ``seeded_rng``) back to the world's seed."""
    return lambda: rng.seed(SEED)
