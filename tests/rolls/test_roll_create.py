"""Rolling from a sheet, whatever the system (``rolls:roll-create``, ``rolls.services.
roll_create``): who may roll, the roll stored before it is shown, the answer with and without
HTMX, bad input and a rule's refusal shown again with nothing stored, and a roll log that is
append-only. What a system's own dice and pools do is in its tests (Maelstrom's in
tests/systems/maelstrom/test_maelstrom_rolls.py).

Where the answer is drawn by the system (its ``_roll.html`` in the result), a test runs over
every system of the registry: Bob's character in the system's demo campaign, rolling its
fixtures' ``roll_pool`` (tests/systems/<slug>/fixtures.py). The rest runs once, on the shared
cast's character (tests/conftest.py: Bob's Rook, a Maelstrom character).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from core.appendonly import AppendOnlyError
from rolls.models import Roll
from tests.helpers import roll_url, text_of
from tests.system_fixtures import demo_character, fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()


def pool_of(character: Character) -> dict[str, Any]:
    """The roll dialog's data of a pool ``character`` can roll (its system's fixtures)."""
    return dict(fixtures_for(character.campaign.ruleset).roll_pool)


@pytest.fixture(params=SYSTEMS)
def character(request: pytest.FixtureRequest, alice: Any, bob: Any) -> Character:
    """Bob's character in the system's demo campaign, which Alice GMs."""
    return demo_character(request.param, gm=alice, player=bob)


def new_roll(before: set[int]) -> Roll:
    """The one roll stored since the rolls ``before`` (their ids)."""
    return Roll.objects.exclude(pk__in=before).get()


def roll_ids() -> set[int]:
    return set(Roll.objects.values_list("pk", flat=True))


# --- Who may roll -------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_anonymous_visitor_is_sent_to_log_in(method, bobs_character):
    response = getattr(Client(), method)(roll_url(bobs_character), pool_of(bobs_character))

    assert response.status_code == 302
    assert response.url.startswith(f"{reverse('login')}?next=")
    assert not Roll.objects.exists()


@pytest.mark.parametrize("user_name", ["carol", "dave"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_a_stranger_or_another_player_cannot_roll_for_bobs_character(
    method, user_name, request, client_for, seeded_rng, bobs_character
):
    user = request.getfixturevalue(user_name)

    response = getattr(client_for(user), method)(roll_url(bobs_character),
                                                 pool_of(bobs_character))

    assert response.status_code == 404
    assert not Roll.objects.exists()


def test_the_gm_can_roll_for_a_players_character(client_for, alice, seeded_rng, bobs_character):
    client_for(alice).post(roll_url(bobs_character), pool_of(bobs_character))

    roll = Roll.objects.get()
    assert (roll.character, roll.rolled_by) == (bobs_character, alice)


# --- Stored, then shown -------------------------------------------------------------------


def test_the_roll_is_stored_before_it_is_shown_with_htmx_as_its_result_and_a_roll_made_event(
    client_for, bob, seeded_rng, character
):
    before = roll_ids()

    response = client_for(bob, htmx=True).post(roll_url(character), pool_of(character))

    roll = new_roll(before)
    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert 'class="roll-result roll-fresh"' in content  # a roll just made: its dice settle in
    assert json.loads(response["HX-Trigger"]) == {"rollMade": {"id": str(roll.code)}}
    assert f"#{roll.label}" in text_of(response)


def test_a_plain_roll_redirects_to_the_rolls_page_which_shows_it(
    client_for, bob, seeded_rng, character
):
    client = client_for(bob)
    before = roll_ids()

    response = client.post(roll_url(character), pool_of(character))
    roll = new_roll(before)
    page = client.get(response.url)

    assert response.status_code == 302
    assert response.url == roll.get_absolute_url()
    assert "HX-Trigger" not in response
    assert f"Roll #{roll.label}" in text_of(page)


# --- Bad input and refusals: shown again, nothing stored ----------------------------------

# The shared cast's system's dialog (Maelstrom's): the view shows any system's form errors
# the same way.
BAD_INPUT = {
    "difficulty 11": ({"difficulty": "11"}, "less than or equal to 10"),
    "difficulty 1": ({"difficulty": "1"}, "greater than or equal to 2"),
    "difficulty abc": ({"difficulty": "abc"}, "Enter a whole number."),
    "no difficulty": ({"difficulty": ""}, "This field is required."),
    "negative threshold": ({"threshold": "-1"}, "greater than or equal to 0"),
    "no traits": ({"trait": []}, "Tick one or two traits on the sheet"),
    "unknown trait": ({"trait": ["Charisma"]}, "Charisma is not one of the available choices"),
    "unowned specialty": ({"specialty": ["Driving: Cars"]}, "is not one of the available"),
    "unknown kind": ({"kind": "magic"}, "magic is not one of the available choices"),
}


@pytest.mark.parametrize(("fields", "message"), BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_shows_a_clear_error_on_the_roll_page_and_stores_nothing(
    fields, message, client_for, bob, seeded_rng, bobs_character
):
    response = client_for(bob).post(roll_url(bobs_character),
                                    {**pool_of(bobs_character), **fields})

    assert response.status_code == 400
    assert message in text_of(response)
    assert 'class="message error"' in response.content.decode()
    assert not Roll.objects.exists()


@pytest.mark.parametrize(("fields", "message"), BAD_INPUT.values(), ids=BAD_INPUT.keys())
def test_bad_input_over_htmx_answers_with_the_error_in_the_result_box(
    fields, message, client_for, bob, seeded_rng, bobs_character
):
    response = client_for(bob, htmx=True).post(roll_url(bobs_character),
                                               {**pool_of(bobs_character), **fields})

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert message in text_of(response)
    assert 'role="alert"' in content
    assert "HX-Trigger" not in response
    assert not Roll.objects.exists()


def test_a_rule_refusal_without_htmx_shows_the_rule_on_the_roll_page(
    client_for, bob, seeded_rng, bobs_character
):
    response = client_for(bob).post(
        roll_url(bobs_character), {**pool_of(bobs_character), "trait": ["Intelligence", "Science"]}
    )

    assert response.status_code == 400
    assert "(Maelstrom rules, Knowledges)" in text_of(response)
    assert not Roll.objects.exists()


# --- The roll log is append-only ----------------------------------------------------------


@pytest.fixture
def stored_roll(client_for, bob, scripted_dice, bobs_character) -> Roll:  # type: ignore[no-untyped-def]
    """Rook's Precision + Driving (seven dice) at difficulty 6: one success, net of a botch."""
    scripted_dice([1, 3, 4, 6, 7, 2, 2])
    client_for(bob).post(roll_url(bobs_character), pool_of(bobs_character))
    return Roll.objects.get()


def test_a_stored_roll_cannot_be_edited(stored_roll):
    stored_roll.net = 5

    with pytest.raises(AppendOnlyError):
        stored_roll.save()

    assert Roll.objects.get(pk=stored_roll.pk).net == 1


def test_a_stored_roll_cannot_be_deleted(stored_roll):
    with pytest.raises(AppendOnlyError):
        stored_roll.delete()

    assert Roll.objects.filter(pk=stored_roll.pk).exists()


def test_rolls_cannot_be_bulk_updated(stored_roll):
    with pytest.raises(AppendOnlyError):
        Roll.objects.update(net=5)
    with pytest.raises(AppendOnlyError):
        Roll.objects.filter(pk=stored_roll.pk).update(outcome="botch")

    assert Roll.objects.get(pk=stored_roll.pk).outcome == "success"


def test_rolls_cannot_be_bulk_deleted(stored_roll):
    with pytest.raises(AppendOnlyError):
        Roll.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        Roll.objects.filter(pk=stored_roll.pk).delete()

    assert Roll.objects.count() == 1
