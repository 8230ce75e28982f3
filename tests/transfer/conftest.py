"""The demo of every system, loaded as ``make run`` loads it, and the same demo with every
kind of link the export must carry (tests/transfer/rich_demo.py) and every column written
(a description, a backstory, notes, GM notes, a retired character).

And what the refusal tests share: the rows of every kind counted (``counts``, and the
``nothing_written`` fixture that checks a test added none), an import refused with the words
expected (``refused``), and a document changed at a path (``put``, ``drop``)."""

from __future__ import annotations

import datetime
import io
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

import systems
from campaigns.models import Campaign, Membership, Session
from characters import services as character_services
from characters.models import Character, XpEntry
from history.models import Activity
from rolls import services as roll_services
from rolls.models import RequestedRoll, Roll
from rulesets import registry
from table.management.commands.load_demo import GM
from table.services import campaign_system_change, session_create
from tests.system_fixtures import fixtures_for
from tests.transfer.rich_demo import ask_for_rolls, follow_up, spend_cheapest
from transfer.validate import TransferError

RECAP = "The heist goes *wrong*: Øyvind's ☂ is lost.\n\n- the vault\n- the bridge"
BACKSTORY = "# Before the drift\n\nBorn in Ny-Ålesund — «the cold years» 🎲\n\n> *Never again.*"
NOTES = "Owes **Vex** 200 ¥.\n\n| Who | What |\n|---|---|\n| Vex | ¥ |"
GM_NOTES = "Secretly the heir to the Ōtsuki line ✦ reveal in act three."
"""What the rich demo's first character of each campaign has written (Markdown, unicode); the
GM notes are a text no player's file may hold."""


@pytest.fixture
def demo(db) -> list[Campaign]:  # type: ignore[no-untyped-def]
    """Every demo campaign, as ``manage.py load_demo`` makes them."""
    call_command("load_demo", stdout=io.StringIO())
    return list(Campaign.objects.order_by("pk"))


@pytest.fixture
def rich_demo(demo: list[Campaign]) -> list[Campaign]:
    """The demo with every link the document carries, in every campaign."""
    rng = random.Random(11)
    for campaign in demo:
        gm = campaign.created_by
        assert gm.username == GM
        character = campaign.characters.order_by("pk").first()
        assert character is not None
        session = session_create(campaign=campaign, date=datetime.date(2025, 3, 14),
                                 title="Night one", recap=RECAP)
        character_services.xp_award(character=character, amount=3, reason="Session award",
                                    by=gm, session=session)
        spend = spend_cheapest(character, by=character.owner)
        character_services.xp_undo(entry=spend, by=gm, as_gm=True)
        module = registry.get(campaign.ruleset).module
        roll_services.npc_roll_create(campaign=campaign, text=module.QUICK_ROLL_EXAMPLES[0],
                                      gm_only=True, by=gm, rng=rng)
        follow_up(campaign, rng)
        ask_for_rolls(character, gm, rng)
        # The system's own (tests/systems/<slug>/fixtures.py): Shahquest's general danger,
        # whose roll system_data keeps.
        for name, data in fixtures_for(campaign.ruleset).rich_demo_campaign:
            system = systems.for_campaign(campaign)
            assert system is not None
            campaign, _, _ = campaign_system_change(
                campaign=campaign, action=system.campaign_actions[name], data=dict(data),
                by=gm, rng=rng)
        # What people write, and a character out of the party (the campaign's second, where
        # it has one), as their pages would store them.
        Campaign.objects.filter(pk=campaign.pk).update(
            description=f"{campaign.name}, season two — «the long night».")
        Character.objects.filter(pk=character.pk).update(backstory=BACKSTORY, notes=NOTES,
                                                         gm_notes=GM_NOTES)
        Character.objects.filter(campaign=campaign).exclude(pk=character.pk).update(
            status=Character.Status.RETIRED)
    return list(Campaign.objects.order_by("pk"))


# --- Refusals ---------------------------------------------------------------------------------

MODELS = (Campaign, Membership, Session, Character, XpEntry, Roll, RequestedRoll, Activity,
          User)
"""Every kind of row an import writes."""


def counts() -> dict[str, int]:
    """How many rows of each kind of :data:`MODELS` there are, by model name."""
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.fixture
def nothing_written(db: Any) -> Iterator[None]:
    """Whatever the test tries, no row of any kind is added."""
    before = counts()
    yield
    assert counts() == before


def refused(do: Callable[[], object], *words: str) -> str:
    """The message of the TransferError ``do()`` raises, which holds each of ``words``."""
    with pytest.raises(TransferError) as info:
        do()
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def _parent(document: Any, path: str | Sequence[str | int]) -> tuple[Any, str | int]:
    """The node that holds ``path``'s last part, and that part (an index in a list)."""
    *parents, last = path.split(".") if isinstance(path, str) else path
    node = document
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node, int(last) if isinstance(node, list) else last


def put(document: Any, path: str | Sequence[str | int], value: Any) -> None:
    """Set ``value`` at ``path`` of ``document``, in place: a dotted path
    (``character.traits.0.dots``, a list's items by index) or its parts; a missing last key
    is added."""
    node, last = _parent(document, path)
    node[last] = value


def drop(document: Any, path: str | Sequence[str | int]) -> None:
    """Remove what is at ``path`` of ``document`` (as for :func:`put`), in place."""
    node, last = _parent(document, path)
    del node[last]
