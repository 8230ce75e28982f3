"""The GM asks for a roll with its pool preset; it appears on the player's sheet as a
prefilled pool the player confirms; the result lands in the log marked as the answer."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rolls.models import RequestedRoll, Roll
from tests.factories import CharacterFactory
from tests.helpers import text_of

pytestmark = pytest.mark.django_db

ASK = {"character": "", "kind": "action", "traits": "Precision + Driving", "difficulty": "7",
       "threshold": "0", "note": "Outrun the patrol"}


def ask_url(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("rolls:requested-roll-create", args=[campaign.pk])


def answer(client, character, asked: RequestedRoll):  # type: ignore[no-untyped-def]
    data = {"answers": str(asked.pk), **asked.data}  # as the sheet's "Roll it" posts it
    return client.post(reverse("rolls:roll-create", args=[character.pk]), data)


def test_the_gm_asks_a_character_and_the_sheet_shows_the_preset_pool(
    client_for, alice, bob, campaign, bobs_character, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    announced: list[tuple[str, int | None]] = []
    monkeypatch.setattr("rolls.services.announce", lambda _c, event, *, character_id=None,
                        **_: announced.append((event, character_id)))
    response = client_for(alice, htmx=True).post(
        ask_url(campaign), {**ASK, "character": str(bobs_character.pk)})
    assert "Asked Rook for Precision + Driving, difficulty 7." in text_of(response)
    asked = RequestedRoll.objects.get()
    assert (asked.character, asked.data["trait"], asked.data["difficulty"]) == (
        bobs_character, ["Precision", "Driving"], "7")
    assert asked.data == {"kind": "action", "trait": ["Precision", "Driving"],
                          "difficulty": "7", "threshold": "0"}
    assert asked.description == "Precision + Driving, difficulty 7"
    assert announced == [("rollRequested", bobs_character.pk)]

    sheet = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()
    assert "The GM asks for a roll" in sheet
    assert "Precision + Driving, difficulty 7" in sheet and "Outrun the patrol" in sheet
    assert f'name="answers" value="{asked.pk}"' in sheet


def test_the_player_confirms_and_the_log_marks_the_answer(
    client_for, alice, bob, campaign, bobs_character, seeded_rng
) -> None:  # type: ignore[no-untyped-def]
    client_for(alice).post(ask_url(campaign), {**ASK, "character": str(bobs_character.pk)})
    asked = RequestedRoll.objects.get()
    player = client_for(bob, htmx=True)
    assert answer(player, bobs_character, asked).status_code == 200
    roll = Roll.objects.get()
    asked.refresh_from_db()
    assert asked.answer == roll
    assert roll.pool["difficulty"] == 7 and roll.pool["traits"] == ["Precision", "Driving"]
    log = client_for(alice).get(reverse("rolls:roll-list", args=[campaign.pk]))
    assert "answers the GM's request" in text_of(log)
    sheet = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()
    assert "The GM asks for a roll" not in sheet


def test_a_request_is_answered_once(client_for, alice, bob, campaign, bobs_character,
                                    seeded_rng) -> None:  # type: ignore[no-untyped-def]
    client_for(alice).post(ask_url(campaign), {**ASK, "character": str(bobs_character.pk)})
    asked = RequestedRoll.objects.get()
    player = client_for(bob, htmx=True)
    answer(player, bobs_character, asked)
    again = answer(player, bobs_character, asked)
    assert "That request was already answered" in text_of(again)
    assert Roll.objects.count() == 1


def test_asking_everyone_asks_each_living_character(client_for, alice, campaign, bob,
                                                     bobs_character) -> None:  # type: ignore[no-untyped-def]
    other = CharacterFactory(campaign=campaign, owner=bob, name="Wren")
    CharacterFactory(campaign=campaign, owner=bob, name="Ghost", dead=True)
    client_for(alice).post(ask_url(campaign), {**ASK, "character": "all"})
    assert {r.character for r in RequestedRoll.objects.all()} == {bobs_character, other}


def test_a_pool_someone_cannot_roll_asks_nothing_of_anyone(client_for, alice, campaign,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(
        ask_url(campaign), {**ASK, "character": "all", "traits": "Precision + Piloting + Wits"})
    assert "Rook:" in text_of(response) and "(Maelstrom rules, " in text_of(response)
    assert RequestedRoll.objects.count() == 0


def test_a_request_cannot_be_answered_by_another_character(
    client_for, alice, bob, campaign, bobs_character, seeded_rng
) -> None:  # type: ignore[no-untyped-def]
    other = CharacterFactory(campaign=campaign, owner=bob, name="Wren")
    client_for(alice).post(ask_url(campaign), {**ASK, "character": str(bobs_character.pk)})
    asked = RequestedRoll.objects.get()
    response = answer(client_for(bob, htmx=True), other, asked)
    assert "not a roll the GM asked of this character" in text_of(response)
    assert Roll.objects.count() == 0


def test_only_the_gm_asks(client_for, bob, carol, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    for user in (bob, carol):
        response = client_for(user).post(ask_url(campaign), {**ASK, "character": "all"})
        assert response.status_code == 404
    assert RequestedRoll.objects.count() == 0


def test_a_willpower_request_with_a_threshold_reads_as_today(
    client_for, alice, campaign, bobs_character
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(ask_url(campaign), {
        **ASK, "character": str(bobs_character.pk), "kind": "willpower", "traits": "",
        "difficulty": "8", "threshold": "1"})
    assert "Asked Rook for Willpower, difficulty 8, threshold 1." in text_of(response)
    asked = RequestedRoll.objects.get()
    assert asked.data == {"kind": "willpower", "trait": [], "difficulty": "8", "threshold": "1"}
    # No trait is posted for a Willpower roll (jsonb keeps no key order: compared as a set).
    assert sorted(asked.prefill()) == [("difficulty", "8"), ("kind", "willpower"),
                                       ("threshold", "1")]


def test_a_trait_the_character_lacks_is_refused_with_the_dice_pool_rule(
    client_for, alice, campaign, bobs_character
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(
        ask_url(campaign), {**ASK, "character": "all", "traits": "Charisma + Driving"})
    assert ("Rook: 'Charisma' is not one of this character's attributes or abilities. "
            "(Maelstrom rules, Dice Pool)") in text_of(response)
    assert RequestedRoll.objects.count() == 0
