"""The tables of the live-table load benchmark (``benchmarks/tables.py``), made inside
``manage.py shell``.

Each table is a campaign with its GM and four players, one character each, in the five
systems in turn (every selectable system with a demo, in the registry's order). The campaign
is filled by the system's own demo (``systems/<slug>/demo.py``, found by
:func:`systems.demos.demo_for`, called as ``manage.py load_demo`` calls it): its characters,
rolls, damage and awards, made through the services the pages call. A demo makes fewer
characters than four (one or two): the demo's ``build`` is called again
with the players still without a character, until each has one, so every character is one a
demo makes. Each table also gets an open session of play, where the GM's XP award is posted.

Users get no password (nobody logs in through the form): each gets a session, made as
``benchmarks.serving.SESSION_SETUP`` makes one, whose key the benchmark sends as its cookie.
"""

from __future__ import annotations

import datetime
import random
import secrets
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction

from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.models import Character
from rulesets import registry
from systems import demos
from table.services import session_create

PLAYERS_PER_TABLE = 4


def session_for(user: Any) -> str:
    """A logged-in session for ``user``; its key (the ``sessionid`` cookie). The same as
    ``benchmarks.serving.SESSION_SETUP``, which is a script's text and cannot be imported."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def seed(tables: int, rng_seed: int = 7) -> list[dict[str, Any]]:
    """Make ``tables`` tables; per table its campaign, system and the five seats' ids.

    Returns ``[{"campaign", "system", "session", "gm": {"session"}, "players":
    [{"session", "character"}, ...]}, ...]`` (``session`` at the top level is the session of
    play's id; in a seat, the login's session key). Raises whatever a demo or a service
    raises: a benchmark without its tables must not run.
    """
    User = get_user_model()
    systems = [(ruleset, demo) for ruleset in registry.RULESETS.values()
               if ruleset.selectable and (demo := demos.demo_for(ruleset.slug)) is not None]
    if not systems:
        raise RuntimeError("no selectable system has a demo (systems/<slug>/demo.py)")
    rng = random.Random(rng_seed)
    run = secrets.token_hex(3)  # several runs may share a database
    made: list[dict[str, Any]] = []
    for number in range(tables):
        ruleset, demo = systems[number % len(systems)]
        with transaction.atomic():
            gm = User.objects.create(username=f"bench-{run}-{number}-gm")
            players = [User.objects.create(username=f"bench-{run}-{number}-p{seat}")
                       for seat in range(PLAYERS_PER_TABLE)]
            campaign = campaign_create(name=f"Table {number} ({demo.campaign_name})",
                                       ruleset=ruleset.slug, starting_xp=demo.starting_xp,
                                       gm=gm)
            for player in players:
                Membership.objects.create(campaign=campaign, user=player)
            waiting = list(players)
            while waiting:
                demo.build(campaign=campaign, gm=gm, players=waiting, rng=rng)
                seated = set(Character.objects.filter(campaign=campaign)
                             .values_list("owner_id", flat=True))
                still = [player for player in waiting if player.pk not in seated]
                if len(still) == len(waiting):
                    raise RuntimeError(f"the {ruleset.slug} demo made no character")
                waiting = still
            play = session_create(campaign=campaign, date=datetime.date.today(),
                                  title="Benchmark night")
            characters = {character.owner_id: character.pk for character in
                          Character.objects.filter(campaign=campaign).order_by("pk")}
        made.append({
            "campaign": campaign.pk, "system": ruleset.slug, "session": play.pk,
            "gm": {"session": session_for(gm)},
            "players": [{"session": session_for(player), "character": characters[player.pk]}
                        for player in players],
        })
    return made
