"""The fuzz world: one campaign of one system with everything its pages can show a form for.

Alice GMs the system's demo campaign (tests/system_fixtures.py's ``demo_campaign``); Bob plays
its finished character, with the demo's rolls, a roll whose follow-ups stay open (the system's
fixtures' ``matrix_roll``), XP spent (so an undo is offered), an item he carries (the fixtures'
``matrix_item``, so its forms show) and an open roll request; Dora is a second player with a
character of her own (so the GM's page offers "Remove") who has imported a copy of Bob's
character, awaiting the GM (so the GM's page links its review, with the accept and refuse
forms); Carol is a stranger holding the invite link (so the join page offers "Join"). A session
of play is open (so its award grid is shown). Dora also has a retired character, and Alice a
finished (archived) campaign, so the forms that bring them back are shown. Everything is made
through the same services the pages use, for every system alike: what differs is the
system's demo and its tests/systems/<slug>/fixtures.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.utils import timezone

import systems
from campaigns.models import Campaign, Membership, Session
from campaigns.services import campaign_create
from characters import services as character_services
from characters.models import Character, XpEntry
from characters.npcs import npc_archive, npc_copy, npc_show
from chat.models import ChatHook
from encounters.services import Shown, encounter_start, turn_next
from equipment.services import item_add
from rolls import services as roll_services
from table.services import session_create
from tests.system_fixtures import (
    campaign_change,
    demo_campaign,
    first_purchase,
    fixtures_for,
    open_roll,
    selectable_systems,
    sheet_change,
)
from transfer.export import export_character
from transfer.imports import import_character

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SYSTEMS = selectable_systems()
"""Every system a campaign may choose (the tests' own tally too), in the registry's order;
what the world needs of each is its demo and its tests/systems/<slug>/fixtures.py."""

SEED = 20261121
"""The dice of the world (and of every fuzz example: tests/conftest.py's ``seeded_rng``)."""


@dataclass
class World:
    """One campaign of ``system`` and its people.

    Attributes:
        system: the ruleset's slug.
        campaign: the campaign (``gm`` is its GM).
        gm, player, second_player: members; ``stranger`` is not one.
        character: the player's finished character (rolls, XP spent, a request open).
        session: an open session of play.
    """

    system: str
    campaign: Campaign
    gm: User
    player: User
    second_player: User
    stranger: User
    character: Character
    session: Session

    def users(self) -> dict[str, User]:
        """Role name -> user, for the roles the fuzz posts as."""
        return {"gm": self.gm, "player": self.player, "stranger": self.stranger}


def build_world(system: str) -> World:
    """Make the world of ``system`` (see the module docstring). Needs the database.

    Raises ValueError when the system's demo data no longer passes its own rules (or its
    fixtures' roll request), LookupError when the system has no demo.
    """
    User = get_user_model()
    # No passwords: the clients log in with force_login, and hashing costs seconds.
    gm, player, second, stranger = (User.objects.create_user(username=name)
                                    for name in ("alice", "bob", "dora", "carol"))
    rng = random.Random(SEED)
    campaign = demo_campaign(system, name="Fuzz table", gm=gm, players=[player, second],
                             rng=rng)
    character = campaign.characters.get(owner=player)
    _system_extras(systems.for_ruleset(system), campaign, character, gm, player, rng)
    session = session_create(campaign=campaign, date=campaign.created_at.date(),
                             title="Fuzz night")
    # Without the roll requests: the import only has to exist for the review page, and the
    # world should not stand or fall with how a system's requests travel.
    document = export_character(Character.objects.get(pk=character.pk))
    import_character({**document, "requested_rolls": []}, campaign, second)
    # Forms that only show for what has ended: the GM's "Bring back" on a retired character
    # of Dora's, and "Restore" on the settings page of a finished campaign of Alice's.
    Character.objects.create(campaign=campaign, owner=second, name="Old Hand",
                             sheet=character.sheet, status=Character.Status.RETIRED)
    # The GM's NPCs: one revealed with its tracks (its sheet, copy, reveal and archive forms),
    # one archived ("Bring back").
    thug, gone = npc_copy(source=character, by=gm, count=2)
    npc_show(npc=thug, shown=Character.Shown.TRACKS, by=gm)
    npc_archive(npc=gone, archived=True, by=gm)
    # A running encounter, begun, the party in it: its card's forms (the order, add the
    # revealed NPC, next, previous, delay, remove, end) and a player's "Done".
    fight = encounter_start(campaign=campaign, by=gm, name="Fuzz fight")
    turn_next(encounter=fight, shown=Shown(1, ""), by=gm)
    # A table of Alice's with no encounter running: its card's "Start an encounter" form; and
    # a chat channel (its test post and disconnect forms), on this quiet table so that no
    # change fuzzed at the first one has a post to send.
    quiet = campaign_create(name="Quiet fuzz table", ruleset=system, starting_xp=0, gm=gm)
    ChatHook.objects.create(campaign=quiet, url="https://162.159.135.232/api/webhooks/1/fuzz")
    finished = Campaign.objects.create(name="Finished fuzz table", ruleset=system,
                                       created_by=gm, system_data=campaign.system_data,
                                       archived_at=timezone.now())
    Membership.objects.create(campaign=finished, user=gm, role=Membership.Role.GM)
    return World(system=system, campaign=Campaign.objects.get(pk=campaign.pk), gm=gm,
                 player=player, second_player=second, stranger=stranger,
                 character=Character.objects.get(pk=character.pk), session=session)


def _system_extras(sheet_system: systems.SheetSystem, campaign: Campaign, character: Character,
                   gm: Any, player: Any, rng: random.Random) -> None:
    """What the demo may lack for a form to show: XP to spend and a spend to undo (the
    cheapest purchase the XP page offers), a roll whose follow-ups stay open (the system's
    fixtures' ``matrix_roll``: Maelstrom's experience die and willpower dot, Shahquest's dice
    to pick), a roll the GM asked for (``fuzz_request``), and the system's own changes
    (``fuzz_other_character``, ``fuzz_campaign``): a Genesys character still in creation (the
    GM's "finish" form), a Shahquest tension die taken for an NPC (return and drop), a
    Shattered World custom buy-in (remove)."""
    fixtures = fixtures_for(sheet_system.slug)
    character_services.xp_award(character=character, amount=40, reason="Fuzz award", by=gm)
    character.refresh_from_db()
    if not character.xp_entries.filter(kind=XpEntry.Kind.SPEND).exists():
        first_purchase(character, by=player)
        character.refresh_from_db()
    open_roll(character, by=player)
    # An item in the inventory, so its change, removal and the system's item actions
    # (fixtures' matrix_item: Maelstrom's heavy pistol, to fire and reload) are offered.
    item_add(character=character, name="Fuzz kit", quantity=1, note="",
             details=dict(fixtures.matrix_item), by=player)
    what = sheet_system.request_form(campaign, dict(fixtures.fuzz_request))
    if what is None or not what.is_valid():
        raise ValueError(f"{sheet_system.slug} refuses the fuzz world's roll request: "
                         f"{what.errors.as_text() if what is not None else 'no requests'}")
    roll_services.requested_roll_create(characters=[character], system=sheet_system,
                                        what=what.cleaned_data, note="On three", by=gm)
    if fixtures.fuzz_other_character:
        other = campaign.characters.exclude(pk=character.pk).get()
        for name, data in fixtures.fuzz_other_character:
            other = sheet_change(other, name, data, by=gm)
    for name, data in fixtures.fuzz_campaign:
        campaign = campaign_change(campaign, name, data, by=gm, rng=rng)
