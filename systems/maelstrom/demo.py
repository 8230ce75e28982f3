"""Maelstrom's demo campaign (``manage.py load_demo``, :mod:`systems.demos`): two finished
characters built through the creation wizard's rules, an award, four rolls and some damage,
made through the services the pages call (which is why this module, unlike most of the
package, sits above the services)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import systems
from characters.services import character_create, sheet_change, xp_award
from rolls.services import roll_create
from rulesets.maelstrom import MeritFlawChoice, Specialty
from systems.maelstrom.creation import Draft, finished_character
from systems.maelstrom.system import SYSTEM

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign
    from characters.models import Character
    from rulesets.dice import Rng

CAMPAIGN_NAME = "The Drift (demo)"
"""The demo campaign's name."""

STARTING_XP = 30
"""The demo campaign's starting XP (what each character below spends)."""

PLAYERS = 2
"""How many demo players ``load_demo`` adds (demo-ana and demo-ben): one character each."""

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
"""The two demo characters, by their players' usernames: wizard drafts (creation allotments,
then what their starting XP buys), checked by the same rules as the wizard's last step."""


def build(*, campaign: Campaign, gm: User, players: Sequence[User], rng: Rng) -> None:
    """Fill the demo campaign: one character per player given, at most two (Ana Reyes for
    ``players[0]``, Ben Okafor for ``players[1]``), each with a 1 XP participation award
    from ``gm``; Ana rolls twice, Ben takes two levels of bashing damage, then rolls an
    action and Willpower.

    Args:
        campaign: a Maelstrom campaign whose members include ``players``; its starting XP
            is set to :data:`STARTING_XP` first (the budget the drafts spend) when it differs.
        gm: its GM (gives the awards, marks the damage).
        players: the players (demo-ana, demo-ben); extra ones are left without a character.
        rng: seeded by the caller, so every machine gets the same dice.

    Raises:
        RuleError, ValueError: a draft or a roll the rules refuse (a bug in this data).
    """
    if campaign.starting_xp != STARTING_XP:
        campaign.starting_xp = STARTING_XP
        campaign.save(update_fields=["starting_xp"])
    made: dict[str, tuple[Character, User]] = {}
    for (username, draft), player in zip(CHARACTERS.items(), players, strict=False):
        finished = finished_character(draft, campaign.starting_xp)
        character = character_create(
            campaign=campaign, owner=player, name=finished.name, concept=finished.concept,
            sheet=finished.sheet, entries=finished.entries,
        )
        xp_award(character=character, amount=1, reason="Participation award", by=gm)
        made[username] = (character, player)
    if "demo-ana" in made:
        ana, player = made["demo-ana"]
        _roll(ana, {"kind": "action", "trait": ["Precision", "Driving"],
                    "specialty": ["Driving: Motorcycles"], "difficulty": "6",
                    "threshold": "0"}, by=player, rng=rng)
        _roll(ana, {"kind": "action", "trait": ["Reflexes", "Piloting"], "difficulty": "7",
                    "threshold": "0"}, by=player, rng=rng)
    if "demo-ben" in made:
        ben, player = made["demo-ben"]
        damage = SYSTEM.actions["damage"]
        form = damage.form({"kind": "bashing", "levels": "2"})
        if not form.is_valid():
            raise ValueError(systems.errors_text(form))
        ben, _ = sheet_change(character=ben, action=damage, data=form.cleaned_data, by=gm)
        _roll(ben, {"kind": "action", "trait": ["Intelligence", "Medicine"],
                    "specialty": ["Medicine: First Aid"], "difficulty": "6",
                    "threshold": "0"}, by=player, rng=rng)
        _roll(ben, {"kind": "willpower", "difficulty": "8", "threshold": "0"},
              by=player, rng=rng)


def _roll(character: Character, data: Mapping[str, Any], *, by: User, rng: Rng) -> None:
    """Roll as the sheet's roll dialog does: its form checks ``data`` (the dialog's POST),
    then the roll service rolls and stores it."""
    form = SYSTEM.roll_form(character, data)
    if not form.is_valid():
        raise ValueError(systems.errors_text(form))
    roll_create(character=character, data=form.cleaned_data, by=by, rng=rng)
