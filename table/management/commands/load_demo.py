"""``manage.py load_demo``: a demo campaign of every system to click through (idempotent)."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters import services as character_services
from characters.creation import Draft, MeritFlawChoice, Specialty, character_create
from rolls.services import RollRequest, roll_create
from rulesets import registry
from systems import demos

DEMO_PASSWORD = "sheetkeeper-demo"
CAMPAIGN_NAME = "The Drift (demo)"
GM, PLAYERS = "demo-gm", ("demo-ana", "demo-ben")

# Two finished characters built through the same rules as the creation wizard.
CHARACTERS: dict[str, Draft] = {
    "demo-ana": Draft(
        name="Ana Reyes", concept="Smuggler pilot who owes the wrong people",
        primary="Physical",
        attributes={"Strength": 2, "Precision": 4, "Reflexes": 3,
                    "Perception": 3, "Intelligence": 2, "Wits": 2},
        abilities={"Piloting": 3, "Driving": 3, "Firearms": 2, "Alertness": 2,
                   "Streetwise": 2, "Athletics": 2, "Stealth": 1, "Technology": 1,
                   "Engineering": 1, "Navigation": 1, "Melee": 1, "Tradecraft": 1},
        willpower=4,
        ability_xp={"Piloting": 1},
        specialties=[Specialty("Piloting", "Close Quarters", True),
                     Specialty("Driving", "Motorcycles", True),
                     Specialty("Firearms", "Pistols", False)],
        merits_flaws=[MeritFlawChoice("Ambidexterous", "merit", 1),
                      MeritFlawChoice("Hunted", "flaw", 4)],
    ),
    "demo-ben": Draft(
        name="Ben Okafor", concept="Ship's medic with a steady hand",
        primary="Mental",
        attributes={"Strength": 2, "Precision": 3, "Reflexes": 2,
                    "Perception": 3, "Intelligence": 4, "Wits": 2},
        abilities={"Medicine": 3, "Science": 3, "Investigation": 2, "Alertness": 2,
                   "Technology": 2, "Humanities": 2, "Athletics": 1, "Melee": 1,
                   "Survival": 1, "Statecraft": 1, "Engineering": 1, "Performance": 1},
        willpower=5,
        specialties=[Specialty("Medicine", "Battlefield Medicine", True),
                     Specialty("Medicine", "First Aid", False),
                     Specialty("Science", "Chemistry", False)],
        merits_flaws=[MeritFlawChoice("Huge Size", "merit", 4),
                      MeritFlawChoice("Soft-Hearted", "flaw", 1)],
    ),
}


class Command(BaseCommand):
    help = ("Load a demo campaign of each system: Maelstrom with two players and two "
            "characters, every other system with a finished character; a few rolls each.")

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
            campaign = Campaign.objects.filter(name=CAMPAIGN_NAME, created_by=users[GM]).first()
            if campaign is None:
                campaign = self._create(users)
                self.stdout.write(self.style.SUCCESS(f"Loaded the demo campaign {campaign}."))
            else:
                self.stdout.write(f"The demo campaign {campaign} is already loaded.")
            for ruleset in registry.RULESETS.values():
                demo = demos.demo_for(ruleset.slug)
                if demo is None or not ruleset.selectable:
                    continue
                name = demo.campaign_name
                if Campaign.objects.filter(name=name, created_by=users[GM]).exists():
                    self.stdout.write(f"The demo campaign {name} is already loaded.")
                    continue
                other = campaign_create(name=name, ruleset=ruleset.slug, starting_xp=0,
                                        gm=users[GM])
                Membership.objects.create(campaign=other, user=users[PLAYERS[0]])
                demo.build(campaign=other, gm=users[GM], player=users[PLAYERS[0]],
                           rng=random.Random(7))
                self.stdout.write(self.style.SUCCESS(f"Loaded the demo campaign {name}."))
        self.stdout.write(
            f"Log in at http://127.0.0.1:8000/login/ as {GM} (the GM), "
            f"{' or '.join(PLAYERS)} (players); password: {DEMO_PASSWORD}"
        )

    def _create(self, users: dict[str, Any]) -> Campaign:
        campaign = campaign_create(name=CAMPAIGN_NAME, ruleset="maelstrom", starting_xp=30,
                                   gm=users[GM])
        # A fixed seed keeps the demo the same on every machine; real rolls use the OS RNG.
        rng = random.Random(7)
        for username in PLAYERS:
            Membership.objects.create(campaign=campaign, user=users[username])
            character = character_create(campaign=campaign, owner=users[username],
                                         draft=CHARACTERS[username])
            character_services.xp_award(character=character, amount=1,
                                        reason="Participation award", by=users[GM])
        ana, ben = campaign.characters.order_by("name")
        roll_create(character=ana, by=users["demo-ana"], rng=rng, request=RollRequest(
            traits=("Precision", "Driving"), specialties=("Driving: Motorcycles",)))
        roll_create(character=ana, by=users["demo-ana"], rng=rng, request=RollRequest(
            traits=("Reflexes", "Piloting"), difficulty=7))
        character_services.damage_mark(character=ben, kind="bashing", levels=2)
        roll_create(character=ben, by=users["demo-ben"], rng=rng, request=RollRequest(
            traits=("Intelligence", "Medicine"), specialties=("Medicine: First Aid",)))
        roll_create(character=ben, by=users["demo-ben"], rng=rng,
                    request=RollRequest(kind="willpower", difficulty=8))
        return campaign
