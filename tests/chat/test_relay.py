"""What reaches the group's chat: a roll, an XP award, a recap and an encounter turn are
posted to the campaign's channel once their change commits, formatted for Discord and for
Slack, with a link back; a GM-only roll, a hidden NPC's turn, an imported entry and a kind
switched off post nothing (chat/relay.py, chat/events.py, chat/posts.py)."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.db import transaction

import systems
from characters import services as character_services
from chat.models import ChatHook
from encounters import services as encounters
from history.log import record
from history.models import Activity
from rolls import services as roll_services
from rolls.models import Roll
from table.services import session_create, session_recap_update
from tests.chat.receiver import Receiver
from tests.conftest import ScriptedRng
from tests.encounters.helpers import npc, shown
from tests.factories import CharacterFactory
from tests.systems.maelstrom.fixtures import FIXTURES
from tests.task_queue import database_queue, queued

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture, used by name


@pytest.fixture
def hook(campaign, alice, receiver: Receiver, settings) -> ChatHook:  # type: ignore[no-untyped-def]
    """The Drift posts to the local channel, as Discord, every kind on."""
    settings.SITE_URL = "https://table.example.org"
    return ChatHook.objects.create(campaign=campaign, url=receiver.url, connected_by=alice)


def _roll(character: Any, by: Any) -> Roll:
    """Bob's Precision + Driving at difficulty 6, its dice scripted (two successes)."""
    form = systems.for_campaign(character.campaign).roll_form(character, FIXTURES.roll_pool)
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data, by=by,
                                     rng=ScriptedRng([7, 8, 3, 2, 5, 4, 1]))


def test_a_roll_through_the_roll_service_posts_its_dice_outcome_and_link_to_discord(
        hook, bobs_character, bob, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        roll = _roll(bobs_character, bob)

    [post] = receiver.posts
    assert post.path == "/api/webhooks/42/s3cr3t-token"
    embed = post.body["embeds"][0]
    header = systems.for_campaign(bobs_character.campaign).roll_header(roll).short
    assert embed["title"].replace("\\", "") == f"Rook rolled {header}"
    assert roll.summary in embed["description"].replace("\\", "")
    assert embed["url"] == f"https://table.example.org/rolls/{roll.code}/"
    assert embed["footer"] == {"text": "The Drift"}
    assert post.body["allowed_mentions"] == {"parse": []}


def test_a_recap_posts_its_text_to_slack_escaped_in_a_block_of_its_own(
        hook, campaign, alice, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    ChatHook.objects.filter(pk=hook.pk).update(format=ChatHook.Format.SLACK)
    session = session_create(campaign=campaign, date=datetime.date(2026, 2, 3),
                             title="The heist")
    with django_capture_on_commit_callbacks(execute=True):
        session_recap_update(session=session, recap="We got away <mostly> & *alive*.",
                             by=alice)

    [post] = receiver.posts
    head, recap, footer = post.body["blocks"]
    assert head["text"]["text"].startswith("*Wrote the recap of The heist.*")
    assert recap["text"]["text"] == "We got away &lt;mostly&gt; &amp; *alive*."


def test_the_same_roll_posts_to_slack_as_text_and_blocks(
        hook, bobs_character, bob, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    ChatHook.objects.filter(pk=hook.pk).update(format=ChatHook.Format.SLACK)
    with django_capture_on_commit_callbacks(execute=True):
        roll = _roll(bobs_character, bob)

    [post] = receiver.posts
    assert post.body["text"].startswith("Rook rolled ")
    section = post.body["blocks"][0]["text"]["text"]
    assert roll.summary in section
    assert f"<https://table.example.org/rolls/{roll.code}/|See the roll>" in section
    assert post.body["blocks"][1]["elements"][0]["text"] == "The Drift"


def test_an_xp_award_posts_its_words_and_the_character(
        hook, bobs_character, alice, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        character_services.xp_award(character=bobs_character, amount=3,
                                    reason="The heist", by=alice)

    [post] = receiver.posts
    embed = post.body["embeds"][0]
    assert embed["title"] == "Awarded 3 XP: The heist"
    assert embed["description"] == "Rook · by alice"
    assert embed["url"] == f"https://table.example.org/characters/{bobs_character.pk}/"


def test_a_recap_and_an_encounter_turn_post_with_a_link_to_their_page(
        hook, campaign, bobs_character, alice, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    session = session_create(campaign=campaign, date="2026-02-03", title="The heist")
    with django_capture_on_commit_callbacks(execute=True):
        record(campaign_id=campaign.pk, kind=Activity.Kind.SESSION, action="recap",
               text="Wrote the recap of The heist.", by=alice,
               link=session.get_absolute_url())
        record(campaign_id=campaign.pk, kind=Activity.Kind.ENCOUNTER, action="turn",
               text="Rook's turn, round 2.", by=alice, character=bobs_character,
               link="/campaigns/1/encounters/7/")

    recap, turn = (post.body["embeds"][0] for post in receiver.posts)
    assert recap["title"] == "Wrote the recap of The heist."
    assert recap["url"] == f"https://table.example.org{session.get_absolute_url()}"
    assert turn["title"] == "Rook's turn, round 2."
    assert turn["url"] == "https://table.example.org/campaigns/1/encounters/7/"


def test_a_gm_only_roll_and_a_hidden_npcs_turn_post_nothing(
        hook, campaign, alice, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    lurker = CharacterFactory(campaign=campaign, owner=alice, name="The Lurker", is_npc=True)
    with django_capture_on_commit_callbacks(execute=True):
        roll_services.npc_roll_create(campaign=campaign, text="3 dice diff 6", gm_only=True,
                                      by=alice, rng=ScriptedRng([7, 8, 3]))
        record(campaign_id=campaign.pk, kind=Activity.Kind.ENCOUNTER, action="turn",
               text="The Lurker's turn.", by=alice, character=lurker, gm_only=True)
        # Even an entry its writer forgot to mark: the NPC is hidden, so is its turn.
        record(campaign_id=campaign.pk, kind=Activity.Kind.ENCOUNTER, action="turn",
               text="The Lurker's turn.", by=alice, character=lurker)

    assert receiver.posts == []


def test_the_npcs_public_roll_posts_once_the_gm_rolls_in_the_open(
        hook, campaign, alice, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        roll_services.npc_roll_create(campaign=campaign, text="3 dice diff 6", gm_only=False,
                                      by=alice, rng=ScriptedRng([7, 8, 3]))

    [post] = receiver.posts
    assert post.body["embeds"][0]["title"].startswith("The GM rolled ")


def test_an_imported_entry_a_kind_switched_off_and_other_kinds_post_nothing(
        hook, campaign, bobs_character, alice, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    ChatHook.objects.filter(pk=hook.pk).update(post_xp=False)
    with django_capture_on_commit_callbacks(execute=True):
        Activity.objects.create(campaign=campaign, kind=Activity.Kind.SESSION, action="recap",
                                text="An old recap.", imported=True,
                                created_at="2025-01-01T00:00Z")
        character_services.xp_award(character=bobs_character, amount=3, reason="Off",
                                    by=alice)
        record(campaign_id=campaign.pk, kind=Activity.Kind.SHEET, action="mark-damage",
               text="Marked 2 lethal.", by=alice, character=bobs_character)
        record(campaign_id=campaign.pk, kind=Activity.Kind.XP, action="spend",
               text="Spent 4 XP.", by=alice, character=bobs_character)

    assert receiver.posts == []


def test_a_change_rolled_back_posts_nothing(hook, campaign, alice,  # type: ignore[no-untyped-def]
                                            receiver, django_capture_on_commit_callbacks
                                            ) -> None:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        record(campaign_id=campaign.pk, kind=Activity.Kind.SESSION, action="recap",
               text="Never happened.", by=alice)
        transaction.set_rollback(True)

    assert receiver.posts == []


def test_a_campaign_without_a_hook_queues_nothing(campaign, bobs_character, bob,  # type: ignore[no-untyped-def]
                                                  receiver, database_queue,
                                                  django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        _roll(bobs_character, bob)

    assert queued("chat.tasks.deliver") == []


def test_a_recap_and_the_turns_of_a_fight_post_through_their_services_but_a_hidden_npcs(
        hook, campaign, alice, bobs_character, receiver,  # type: ignore[no-untyped-def]
        django_capture_on_commit_callbacks) -> None:
    session = session_create(campaign=campaign, date=datetime.date(2026, 2, 3),
                             title="The heist")
    lurker = npc(campaign, alice, "Grub the Lurker", sheet=bobs_character.sheet)
    fight = encounters.encounter_start(campaign=campaign, by=alice, name="Ambush")
    encounters.combatants_add(encounter=fight, characters=[lurker], by=alice)

    with django_capture_on_commit_callbacks(execute=True):
        session_recap_update(session=session, recap="We got away.", by=alice)
        for _ in range(3):  # Rook, Grub, then round 2: Rook
            encounters.turn_next(encounter=fight, shown=shown(fight), by=alice)

    titles = [post.body["embeds"][0]["title"] for post in receiver.posts]
    assert titles == ["Wrote the recap of The heist.", "Round 1: Rook's turn.",
                      "Round 2: Rook's turn."]
    assert receiver.posts[0].body["embeds"][0]["description"].endswith("\n\nWe got away.")
    assert not any("Grub" in json.dumps(post.body) for post in receiver.posts)
    assert receiver.posts[1].body["embeds"][0]["url"] == (
        f"https://table.example.org{fight.get_absolute_url()}")
