"""``manage.py load_demo``: a demo campaign of every system to click through (idempotent).

Each demo is played a week ago (:data:`PLAYED_AGO`): its campaign, characters, rolls and XP,
and the session they were played in ("The first evening"), are dated then, so a fresh
``make run`` opens on a table a week into its story: what anyone does today comes after the
last session, and the sheet's "Since last session", the table's history and the luck pages
show it as they will at a real table (docs/history.md).
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import time_machine
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from rulesets import registry
from systems import demos
from table.services import session_create

DEMO_PASSWORD = "sheetkeeper-demo"
GM, PLAYERS = "demo-gm", ("demo-ana", "demo-ben")
PLAYED_AGO = datetime.timedelta(days=7)
"""How long ago the demo's first evening was played."""
RECAP = ("The crew met, sized each other up and made their first rolls. The demo's rolls, "
         "awards and damage were all made this evening; what you do now comes after it.")


class Command(BaseCommand):
    help = ("Load a demo campaign of each system (systems/<slug>/demo.py): a finished "
            "character for each of its demo players, and a few rolls.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url", default="http://127.0.0.1:8000",
            help="Where the server answers, for the log-in link it prints (make run passes "
                 "its HOST and PORT).")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        with transaction.atomic():
            users = {}
            for username in (GM, *PLAYERS):
                user, created = User.objects.get_or_create(username=username)
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.save()
                users[username] = user
            for ruleset in registry.RULESETS.values():
                demo = demos.demo_for(ruleset.slug)
                if demo is None or not ruleset.selectable:
                    continue
                name = demo.campaign_name
                if Campaign.objects.filter(name=name, created_by=users[GM]).exists():
                    self.stdout.write(f"The demo campaign {name} is already loaded.")
                    continue
                # The clock moves for this block alone (time-machine, as tests move it):
                # every row it writes is dated a week ago, through the services as ever.
                with time_machine.travel(timezone.now() - PLAYED_AGO, tick=True):
                    campaign = campaign_create(name=name, ruleset=ruleset.slug,
                                               starting_xp=demo.starting_xp, gm=users[GM])
                    players = [users[username] for username in PLAYERS[:demo.players]]
                    for player in players:
                        Membership.objects.create(campaign=campaign, user=player)
                    session_create(campaign=campaign, date=timezone.localdate(),
                                   title="The first evening", recap=RECAP, by=users[GM])
                    # A fixed seed keeps the demo the same on every machine; real rolls use
                    # the OS RNG.
                    demo.build(campaign=campaign, gm=users[GM], players=players,
                               rng=random.Random(7))
                self.stdout.write(self.style.SUCCESS(f"Loaded the demo campaign {name}."))
        self.stdout.write(
            f"Log in at {options['url'].rstrip('/')}/login/ as {GM} (the GM), "
            f"{' or '.join(PLAYERS)} (players); password: {DEMO_PASSWORD}"
        )
