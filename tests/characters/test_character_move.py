"""The GM moves a character to another player of the campaign (characters:character-move):
the new owner plays it on, the former owner no longer sees it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters import services
from characters.models import Character
from rulesets.errors import RuleError
from tests.factories import CampaignFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db


def move_url(character) -> str:  # type: ignore[no-untyped-def]
    return reverse("characters:character-move", args=[character.pk])


def test_the_gm_is_offered_the_campaigns_other_players(client_for, alice, carol,
                                                       bobs_character, dave) -> None:  # type: ignore[no-untyped-def]
    dave.first_name = "Dave the Bard"
    dave.save()
    CampaignFactory(created_by=carol)  # a stranger elsewhere is never offered

    page = client_for(alice).get(move_url(bobs_character)).content.decode()

    assert f'<option value="{dave.pk}">Dave the Bard</option>' in page
    assert f'value="{bobs_character.owner_id}"' not in page  # its owner now
    assert f'value="{alice.pk}"' not in page and f'value="{carol.pk}"' not in page


def test_with_no_other_player_the_page_says_so(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).get(move_url(bobs_character))

    assert "There is no other player in The Drift to give it to" in text_of(response)
    assert "<select" not in response.content.decode()


def test_the_gm_moves_a_character_and_its_former_owner_loses_it(
    client_for, alice, bob, dave, bobs_character, heard,
) -> None:  # type: ignore[no-untyped-def]
    client = client_for(alice)
    response = client.post(move_url(bobs_character), {"to_user": str(dave.pk)})

    assert response.status_code == 302 and response["Location"] == bobs_character.get_absolute_url()
    assert fresh(bobs_character).owner == dave
    assert "Rook now belongs to dave." in text_of(client.get(response["Location"]))
    # Bob may only read it now, as a party-mate (Campaign.party_sheets): no more his to edit.
    assert 'id="read-only-sheet"' in client_for(bob).get(
        bobs_character.get_absolute_url()).content.decode()
    assert client_for(bob).get(reverse("characters:character-edit",
                                       args=[bobs_character.pk])).status_code == 404
    assert client_for(dave).get(bobs_character.get_absolute_url()).status_code == 200
    assert heard == [(bobs_character.campaign_id, "partyChanged", bobs_character.pk)]


def test_an_htmx_move_sends_the_browser_to_the_sheet(client_for, alice, dave,
                                                     bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(move_url(bobs_character), {"to_user": dave.pk})

    assert response["HX-Redirect"] == bobs_character.get_absolute_url()
    assert fresh(bobs_character).owner == dave


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("to", ["", "nobody", "carol", "alice", "bob"])
def test_anyone_but_another_player_is_refused_and_nothing_moves(
    client_for, alice, bob, carol, dave, bobs_character, htmx, to,
) -> None:  # type: ignore[no-untyped-def]
    value = {"": "", "nobody": "999999", "carol": carol.pk, "alice": alice.pk, "bob": bob.pk}[to]

    response = client_for(alice, htmx=htmx).post(move_url(bobs_character), {"to_user": value})

    assert response.status_code == (200 if htmx else 400)
    assert ("Choose the player who takes the character over." if to == "" else
            "Choose one of the campaign's players listed") in text_of(response)
    assert fresh(bobs_character).owner == bob


@pytest.mark.parametrize("who", ["bob", "dave", "carol"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_gm_moves_a_character(client_for, bob, dave, carol, bobs_character, who,
                                       method) -> None:  # type: ignore[no-untyped-def]
    user = {"bob": bob, "dave": dave, "carol": carol}[who]

    response = getattr(client_for(user), method)(move_url(bobs_character), {"to_user": dave.pk})

    assert response.status_code == 404
    assert fresh(bobs_character).owner == bob


def test_the_move_link_is_the_gms_alone(client_for, alice, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    assert move_url(bobs_character) in client_for(alice).get(
        bobs_character.get_absolute_url()).content.decode()
    assert move_url(bobs_character) not in client_for(bob).get(
        bobs_character.get_absolute_url()).content.decode()


def test_a_player_who_lost_their_seat_meanwhile_is_refused(alice, bob, dave,
                                                           bobs_character) -> None:  # type: ignore[no-untyped-def]
    Membership.objects.filter(user=dave).delete()

    with pytest.raises(RuleError, match="not a player of this campaign"):
        services.character_move(character=bobs_character, to_user=dave, by=alice)
    assert fresh(bobs_character).owner == bob


def test_the_service_refuses_moving_to_its_owner(alice, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError, match="already belongs"):
        services.character_move(character=bobs_character, to_user=bob, by=alice)


def test_a_moved_character_keeps_its_history(alice, bob, dave, bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.character_move(character=bobs_character, to_user=dave, by=alice)

    entry = Character.objects.get(pk=bobs_character.pk).xp_entries.get()
    assert entry.created_by == bob
