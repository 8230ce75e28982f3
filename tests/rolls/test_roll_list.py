"""The campaign's roll log: every member sees the table's rolls, newest first, 25 a page,
filterable by character; the log answers HTMX requests with its ``roll-log`` partial."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from rolls.models import Roll
from rulesets import maelstrom
from rulesets.maelstrom.storage import RollKind
from tests.factories import CampaignFactory, CharacterFactory

pytestmark = pytest.mark.django_db

# session, user, membership + campaign, the campaign's characters, one page of rolls (count
# and rows), their follow-ups. Measured once; pinned so that a per-roll query shows up.
LOG_QUERIES = 7


def log_url(campaign: Campaign) -> str:
    return reverse("rolls:roll-list", args=[campaign.pk])


def maelstrom_result(dice: Sequence[int], difficulty: int = 6) -> dict[str, Any]:
    """A Maelstrom roll's stored result (``RollResult.as_dict()``) of these regular dice."""
    pool = maelstrom.ActionPool(kind="action", dice=len(dice), difficulty=difficulty,
                                threshold=0, exploding=False, wound_penalty=0, traits=(),
                                specialties=(), experience_die_allowed=True)
    return maelstrom.RollResult.from_dict({"pool": pool.as_dict(), "dice": list(dice),
                                           "bonus_dice": [], "experience_die": []}).as_dict()


def make_roll(character: Character, description: str, *, dice: Sequence[int] = (6, 3),
              **fields: object) -> Roll:
    result = maelstrom_result(dice)
    values = {"campaign": character.campaign, "character": character,
              "rolled_by": character.owner, "ruleset": "maelstrom", "kind": Roll.Kind.ACTION,
              "description": description, "outcome": Roll.Outcome.SUCCESS, "net": 1,
              "summary": "1 success", "pool": result["pool"], "result": result, **fields}
    return Roll.objects.create(**values)


def descriptions(response) -> list[str]:  # type: ignore[no-untyped-def]
    """The roll descriptions of the log, top to bottom."""
    return re.findall(r'<a href="/rolls/[0-9a-f-]{36}/">([^<]+)</a>', response.content.decode())


@pytest.fixture
def wren(dave) -> Character:  # type: ignore[no-untyped-def]
    return Character.objects.get(name="Wren")


# --- Who sees the log ---------------------------------------------------------------------


def test_an_anonymous_visitor_is_sent_to_log_in(campaign):
    response = Client().get(log_url(campaign))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={log_url(campaign)}"


def test_a_stranger_gets_404_so_the_campaign_does_not_leak(client_for, carol, bobs_character):
    make_roll(bobs_character, "Drive through the storm")

    response = client_for(carol).get(log_url(bobs_character.campaign))

    assert response.status_code == 404
    assert b"Drive through the storm" not in response.content


def test_a_missing_campaign_is_404(client_for, alice):
    assert client_for(alice).get(reverse("rolls:roll-list", args=[999])).status_code == 404


@pytest.mark.parametrize("user_name", ["alice", "bob", "dave"])
def test_every_member_sees_every_characters_rolls(
    user_name, request, client_for, bobs_character, wren
):
    make_roll(bobs_character, "Rook drives")
    make_roll(wren, "Wren shoots")

    response = client_for(request.getfixturevalue(user_name)).get(log_url(bobs_character.campaign))

    assert response.status_code == 200
    assert sorted(descriptions(response)) == ["Rook drives", "Wren shoots"]


def test_rolls_of_another_campaign_are_not_in_the_log(client_for, alice, bobs_character):
    elsewhere = CharacterFactory(campaign=CampaignFactory(created_by=alice), owner=alice)
    make_roll(elsewhere, "Somewhere else")
    make_roll(bobs_character, "Rook drives")

    response = client_for(alice).get(log_url(bobs_character.campaign))

    assert descriptions(response) == ["Rook drives"]


# --- What the log shows -------------------------------------------------------------------


def test_the_log_lists_the_newest_roll_first(client_for, bob, bobs_character):
    for description in ["first", "second", "third"]:
        make_roll(bobs_character, description)

    response = client_for(bob).get(log_url(bobs_character.campaign))

    assert descriptions(response) == ["third", "second", "first"]


def test_each_entry_shows_who_rolled_the_dice_and_the_outcome(client_for, bob, bobs_character):
    make_roll(bobs_character, "Rook drives", dice=[1, 6, 9], summary="1 success")

    content = client_for(bob).get(log_url(bobs_character.campaign)).content.decode()

    assert "<strong>Rook</strong>" in content
    # Each die says its face and what it did in words, not by colour alone.
    assert re.findall(r'role="img" aria-label="([^"]+)"', content) == [
        "1 botch", "6 success", "9 success"]
    assert '<span class="outcome-success">1 success</span>' in content


def test_follow_ups_appear_under_their_roll_not_as_rolls_of_their_own(
    client_for, bob, bobs_character
):
    roll = make_roll(bobs_character, "Rook drives")
    make_roll(bobs_character, "Rook drives", parent=roll, kind=RollKind.EXPERIENCE_DIE,
              summary="2 successes")

    response = client_for(bob).get(log_url(bobs_character.campaign))

    assert descriptions(response) == ["Rook drives"]
    assert "then experience die:" in response.content.decode()


def test_the_log_can_be_filtered_by_character(client_for, alice, bobs_character, wren):
    make_roll(bobs_character, "Rook drives")
    make_roll(wren, "Wren shoots")

    response = client_for(alice).get(log_url(wren.campaign), {"character": wren.pk})

    assert descriptions(response) == ["Wren shoots"]
    assert f'<option value="{wren.pk}" selected>Wren</option>' in response.content.decode()


def test_a_nonsense_character_filter_shows_everyone(client_for, alice, bobs_character, wren):
    make_roll(bobs_character, "Rook drives")
    make_roll(wren, "Wren shoots")

    response = client_for(alice).get(log_url(wren.campaign), {"character": "abc"})

    assert response.status_code == 200
    assert len(descriptions(response)) == 2


def test_thirty_rolls_make_two_pages_of_25_and_5(client_for, bob, bobs_character):
    for n in range(30):
        make_roll(bobs_character, f"roll {n:02d}")
    client = client_for(bob)

    first = client.get(log_url(bobs_character.campaign))
    second = client.get(log_url(bobs_character.campaign), {"page": 2})

    assert descriptions(first) == [f"roll {n:02d}" for n in range(29, 4, -1)]
    assert "Page 1 of 2" in first.content.decode()
    assert '<a href="?page=2">Older</a>' in first.content.decode()
    assert descriptions(second) == [f"roll {n:02d}" for n in range(4, -1, -1)]
    assert "Page 2 of 2" in second.content.decode()


def test_the_next_page_link_keeps_the_character_filter(client_for, bob, bobs_character):
    for n in range(26):
        make_roll(bobs_character, f"roll {n}")

    response = client_for(bob).get(log_url(bobs_character.campaign),
                                   {"character": bobs_character.pk})

    assert f'href="?page=2&amp;character={bobs_character.pk}"' in response.content.decode()


def test_an_empty_log_says_so(client_for, bob, campaign):
    assert "No rolls yet." in client_for(bob).get(log_url(campaign)).content.decode()


# --- HTMX and queries ---------------------------------------------------------------------


def test_an_htmx_request_gets_only_the_roll_log_partial(client_for, alice, bobs_character, wren):
    make_roll(bobs_character, "Rook drives")
    make_roll(wren, "Wren shoots")

    response = client_for(alice, htmx=True).get(log_url(wren.campaign), {"character": wren.pk})

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert content.lstrip().startswith('<div id="roll-log">')
    assert 'id="character-filter"' not in content
    assert descriptions(response) == ["Wren shoots"]


def test_a_plain_request_gets_the_whole_page_with_the_filter(client_for, alice, campaign):
    content = client_for(alice).get(log_url(campaign)).content.decode()

    assert "<html" in content
    assert 'id="character-filter"' in content
    assert 'id="roll-log"' in content


@pytest.mark.parametrize("rolls", [3, 25])
def test_the_log_costs_the_same_queries_whatever_the_number_of_rolls(
    rolls, client_for, bob, bobs_character, django_assert_num_queries
):
    for n in range(rolls):
        roll = make_roll(bobs_character, f"roll {n}")
        make_roll(bobs_character, f"roll {n}", parent=roll, kind=RollKind.EXPERIENCE_DIE)
    client = client_for(bob)

    with django_assert_num_queries(LOG_QUERIES):
        response = client.get(log_url(bobs_character.campaign))

    assert len(descriptions(response)) == rolls


@pytest.mark.parametrize("characters", [1, 6])
def test_the_log_costs_the_same_queries_whatever_the_number_of_characters(
    characters, client_for, bob, campaign, django_assert_num_queries
):
    for n in range(characters):
        make_roll(CharacterFactory(campaign=campaign, owner=bob), f"roll {n}")
    client = client_for(bob)

    with django_assert_num_queries(LOG_QUERIES):
        response = client.get(log_url(campaign))

    assert len(descriptions(response)) == characters
