"""In-process timings of the hot pages: the sheet, the dashboard and the roll POST, through
Django's test client in one process (no server, no network), DEBUG off, on PostgreSQL with the
demo data (docs/performance.md, "In one process").

Each request is made ``--warmup`` times, then ``--repeat`` times timed; the median and the
query count of one request are printed as a Markdown table. It reads only URLs (by path) and
the demo's names, so the same script measures an older checkout for a before/after:
``python -m benchmarks.inprocess --database-url postgres://postgres@127.0.0.1:5432/inproc``
run in each tree. The database named is DROPPED and made again.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import statistics
import sys
import time
import urllib.parse
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from benchmarks.serving import fresh_database
from benchmarks.tables_pages import parse_page
from rulesets import maelstrom


def _time(call: Callable[[], Any], *, warmup: int, repeat: int) -> float:
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--profile", metavar="TEXT", action="append", default=[],
                        help="also profile (cProfile) the requests whose label holds TEXT "
                             "(repeatable): their top functions, to stderr")
    parser.add_argument("--queries", metavar="TEXT", action="append", default=[],
                        help="also print the SQL of one call of the requests whose label "
                             "holds TEXT (repeatable), to stderr")
    args = parser.parse_args()
    fresh_database(args.database_url)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "benchmark-only-" + "x" * 40)
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheetkeeper.settings")
    # DEBUG off serves the collected, hashed files: gather them where they harm nothing.
    os.environ.setdefault("STATIC_ROOT", f"/tmp/sheetkeeper-inprocess-static-{os.getpid()}")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    call_command("collectstatic", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)
    settings.ALLOWED_HOSTS = ["testserver"]
    # Rate limits would count the benchmark's own requests.
    settings.RATELIMIT_ENABLE = False

    from campaigns.models import Campaign
    from characters.models import Character
    from core import submissions

    users = get_user_model().objects
    player, gm = users.get(username="demo-ana"), users.get(username="demo-gm")
    maelstrom = Campaign.objects.get(ruleset="maelstrom")
    sheet = Character.objects.get(campaign=maelstrom, owner=player)
    others = Campaign.objects.exclude(ruleset="maelstrom").order_by("pk")
    owner, game_master = Client(), Client()
    owner.force_login(player)
    game_master.force_login(gm)
    traits = {"trait": _pool(sheet)}
    body = {"kind": "action", "difficulty": "6", "threshold": "0", "required_specialties": "",
            "damage_kind": "bashing", "armor": "0", **traits}

    def get(client: Client, path: str) -> Callable[[], Any]:
        def call() -> Any:
            answer = client.get(path, secure=True)
            assert answer.status_code == 200, (path, answer.status_code)
            return answer
        return call

    def roll() -> Any:
        # From the dialog on the sheet, as htmx sends it: the answer brings the dialog's
        # odds too (a checkout from before ignores the headers; one from before 2026-11-27
        # draws the sheet's recent rolls in it as well, which now come with the event).
        # With a fresh submission token each time, as the dialog's form carries one.
        answer = owner.post(f"/characters/{sheet.pk}/roll/",
                            {**body, submissions.FIELD: secrets.token_urlsafe(24)},
                            secure=True, headers={
            "HX-Request": "true", "HX-Trigger": "roll-form",
            "HX-Current-URL": f"https://testserver/characters/{sheet.pk}/"})
        assert answer.status_code == 200 and b"error" not in answer.content[:200], answer
        return answer

    odds = f"/characters/{sheet.pk}/roll/odds/?{urllib.parse.urlencode(body, doseq=True)}"

    def dialog_odds() -> Any:
        answer = owner.get(odds, secure=True, headers={"HX-Request": "true"})
        assert answer.status_code == 200 and b"roll-odds" in answer.content, answer
        return answer

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("Maelstrom sheet (owner)", get(owner, f"/characters/{sheet.pk}/")),
        ("roll POST (Maelstrom, htmx)", roll),
        ("the roll dialog's odds (Maelstrom, htmx)", dialog_odds),
        ("Maelstrom dashboard (GM)", get(game_master, f"/campaigns/{maelstrom.pk}/")),
    ]
    # Each live region of the sheet and the dashboard as the page asks for it,
    # read from the page: none in a checkout from before regions were asked for alone.
    for label, client, path in (("Maelstrom sheet", owner, f"/characters/{sheet.pk}/"),
                                ("Maelstrom dashboard", game_master,
                                 f"/campaigns/{maelstrom.pk}/")):
        for url in _live_urls(get(client, path)().content.decode()):
            asked = ", ".join(urllib.parse.parse_qs(urlsplit(url).query)["live"])
            if asked.startswith("card-"):  # one card stands for all: the same work each
                if any(case[0] == f"{label} region: a party card" for case in cases):
                    continue
                asked = "a party card"
            cases.append((f"{label} region: {asked}", get(client, url)))
        drawn = re.search(r'data-live-version="(\d+)"', get(client, path)().content.decode())
        if drawn is not None:  # every region at once, nothing changed since: 304
            every = _live_urls(get(client, path)().content.decode())[-1]
            cases.append((f"{label}, all regions at the page's version (304)",
                          _not_modified(client, every, maelstrom)))
    cases += _pushed(owner, sheet)
    for campaign in others:
        character = Character.objects.filter(campaign=campaign).order_by("pk").first()
        if character is not None:
            cases.append((f"{campaign.ruleset} sheet (GM)",
                          get(game_master, f"/characters/{character.pk}/")))
    print(f"| request | median ms ({args.repeat} after {args.warmup}) | queries |")
    print("|---|---:|---:|")
    for label, call in cases:
        executed: list[str] = []
        count = _counter(executed)

        # Every connection the request opens (a request closes and reopens the default one),
        # so not CaptureQueriesContext, whose log the request_started signal empties.
        with connection.execute_wrapper(count):
            call()
        median = _time(call, warmup=args.warmup, repeat=args.repeat)
        print(f"| {label} | {median:.1f} | {len(executed)} |")
        sys.stdout.flush()
        if any(text in label for text in args.queries):
            print(f"\n## {label}: {len(executed)} statements", file=sys.stderr)
            for number, sql in enumerate(executed, 1):
                print(f"{number:3d}. {sql}", file=sys.stderr)
        if any(text in label for text in args.profile):
            _profile(label, call, repeat=args.repeat)


def _pushed(client: Any, sheet: Any) -> list[tuple[str, Callable[[], Any]]]:
    """The sheet's regions a track change redraws, as the sheet's stream draws them
    (core.regions.draw_heard: no request, the stream's session and user read once), kept
    at the same version for the same seat, and drawn afresh; none in a checkout from before
    the streams drew regions."""
    try:
        from core.regions import CACHE, draw_heard, live_page
    except ImportError:
        return []
    from django.core.cache import caches
    from django.test import RequestFactory

    path = sheet.get_absolute_url()
    stream = RequestFactory().get(f"/campaigns/{sheet.campaign_id}/events/", secure=True)
    stream.COOKIES = dict(client.cookies.items())
    stream.session = client.session
    user = sheet.owner
    page = live_page(path)
    assert page is not None, path
    names = ["trackChanged", f"trackChanged-{sheet.pk}"]

    def kept() -> Any:
        drawn = draw_heard(stream, user, page, path, names)
        assert drawn is not None and drawn.html, drawn
        return drawn

    def afresh() -> Any:
        caches[CACHE].clear()
        return kept()

    return [("Maelstrom sheet, a track change's regions drawn by its stream, kept", kept),
            ("Maelstrom sheet, a track change's regions drawn by its stream, afresh", afresh)]


def _profile(label: str, call: Callable[[], Any], *, repeat: int) -> None:
    """Print the top functions of ``repeat`` calls by their own time (cProfile), to stderr so
    that the table on stdout stays whole."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeat):
        call()
    profiler.disable()
    print(f"\n## {label}: {repeat} calls", file=sys.stderr)
    stats = pstats.Stats(profiler, stream=sys.stderr)
    stats.sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(40)
    # The project's own functions (not the virtualenv's), by time including their calls.
    stats.print_stats(r"^(?!.*site-packages).*/(accounts|campaigns|characters|core|rolls|"
                      r"rulesets|systems|table|transfer)/", 40)


def _not_modified(client: Any, path: str, campaign: Any) -> Callable[[], Any]:
    """A live request at the version the page holds (the campaign's, read at the first
    call: the roll POSTs measured before it bump it): answered 304."""
    held: list[int] = []

    def call() -> Any:
        if not held:
            campaign.refresh_from_db(fields=["live_version"])
            held.append(campaign.live_version)
        answer = client.get(path, secure=True, headers={"If-None-Match": f'"v{held[0]}"'})
        assert answer.status_code == 304, (path, answer.status_code)
        return answer
    return call


def _live_urls(html: str) -> list[str]:
    """The live regions' URLs a page asks (``?live=``), once each (benchmarks/tables_pages.py
    reads them as the live-table benchmark does)."""
    return list(dict.fromkeys(region.url for region in parse_page(html).regions
                              if "?live=" in region.url))


def _counter(executed: list[str]) -> Callable[..., Any]:
    """A database execute wrapper that notes each statement in ``executed``."""

    def count(execute: Any, sql: str, *rest: Any) -> Any:
        executed.append(sql)
        return execute(sql, *rest)

    return count


def _pool(character: Any) -> list[str]:
    """The first attribute and the first ability with dots in the catalogue's order, as the
    sheet's roll dialog ticks them; read from the sheet, or from the ``Trait`` rows of a
    checkout with Maelstrom's older storage (so the same script measures both)."""
    if not hasattr(character, "traits"):
        sheet = character.sheet
        attribute = next(n for n in maelstrom.ATTRIBUTES if sheet["attributes"].get(n))
        ability = next(n for n in maelstrom.ABILITIES if sheet["abilities"].get(n))
        return [attribute, ability]
    rows = list(character.traits.filter(dots__gt=0).values_list("kind", "name"))
    attribute = next(name for kind, name in rows if kind == "attribute")
    ability = next(name for kind, name in rows if kind == "ability")
    return [attribute, ability]


if __name__ == "__main__":
    main()
