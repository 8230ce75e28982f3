"""The co-GM's seat (docs/decisions.md, "The co-GM"): the GM seats a player as a co-GM, who
then runs the table as the GM does and sees what the GM sees, but cannot delete the campaign,
hand the seat over, remove the GM or seat other co-GMs; a co-GM steps down or leaves; the
seat can be handed to a co-GM. The authorization matrix asks every URL of the co-GM
(tests/security/test_authorization_matrix.py); these are the journeys and the refusals it
cannot ask."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client
from django.urls import reverse

from accounts.services import account_delete
from campaigns.models import Campaign, Membership
from campaigns.services import (
    MembershipError,
    campaign_delete,
    campaign_handover,
    membership_remove,
    membership_seat,
)
from characters.models import Character
from encounters.models import Encounter
from encounters.services import encounter_start
from rolls.services import npc_roll_create
from tests.campaigns.test_live import Stream, one_layer_per_event_loop, send, stream_test
from tests.encounters.helpers import turn
from tests.factories import CharacterFactory, UserFactory
from tests.helpers import fresh, settings_url, text_of
from tests.security.urlmap import quick_roll_example
from transfer import export as transfer_export
from transfer.imports import import_campaign

pytestmark = pytest.mark.django_db

__all__ = ["one_layer_per_event_loop"]  # the live tests' fixture, used by the stream test


def seat_url(seat: Membership) -> str:
    return reverse("campaigns:membership-seat", args=[seat.campaign_id, seat.pk])


def seat_of(campaign: Campaign, user) -> Membership:  # type: ignore[no-untyped-def]
    return Membership.objects.get(campaign=campaign, user=user)


@pytest.fixture
def dana(campaign, alice):  # type: ignore[no-untyped-def]
    """Dana, a player of The Drift whom Alice has made her co-GM, with a character of her
    own (Iris)."""
    user = UserFactory(username="dana")
    seat = Membership.objects.create(campaign=campaign, user=user)
    CharacterFactory(campaign=campaign, owner=user, name="Iris")
    membership_seat(membership=seat, co_gm=True, by=alice)
    return user


def test_the_gm_is_asked_then_seats_a_player_as_co_gm(client_for, campaign, alice, bob):
    seat = seat_of(campaign, bob)
    client = client_for(alice)

    asked = client.get(seat_url(seat))
    assert asked.status_code == 200
    assert "Make bob a co-GM of The Drift?" in text_of(asked)
    assert "They read every GM note and every GM-only roll" in text_of(asked)
    assert fresh(seat).role == Membership.Role.PLAYER

    done = client.post(seat_url(seat), {"role": "co_gm"}, follow=True)
    assert done.redirect_chain == [(settings_url(campaign), 302)]
    assert "bob is now a co-GM of The Drift" in text_of(done)
    assert fresh(seat).role == Membership.Role.CO_GM


def test_with_htmx_the_members_list_comes_back_alone(client_for, campaign, alice, bob):
    seat = seat_of(campaign, bob)

    answer = client_for(alice, htmx=True).post(seat_url(seat), {"role": "co_gm"})

    content = answer.content.decode()
    assert answer.status_code == 200
    assert content.startswith('<section class="card" aria-labelledby="members-heading" '
                              'id="members">')
    assert "bob is now a co-GM" in content and "<h1" not in content
    assert "Make a player" in content  # the way back, for the GM
    assert fresh(seat).role == Membership.Role.CO_GM


def test_a_role_that_is_no_seat_is_refused_with_the_reason(client_for, campaign, alice, bob):
    seat = seat_of(campaign, bob)

    answer = client_for(alice).post(seat_url(seat), {"role": "gm"})

    assert answer.status_code == 400
    assert "A member can be seated as a co-GM or a player only." in text_of(answer)
    assert fresh(seat).role == Membership.Role.PLAYER


def test_the_co_gm_runs_the_table_and_sees_what_the_gm_sees(
        client_for, campaign, alice, bob, bobs_character, dana):
    Character.objects.filter(pk=bobs_character.pk).update(gm_notes="Owes the Syndicate")
    hidden = npc_roll_create(campaign=campaign, text=quick_roll_example(campaign.ruleset),
                             gm_only=True, by=alice, rng=random.Random(3))
    client = client_for(dana)

    dashboard = client.get(campaign.get_absolute_url()).content.decode()
    assert "You are a co-GM" in dashboard and 'id="party-heading"' in dashboard
    assert f'id="card-{bobs_character.pk}"' in dashboard
    assert f'href="{hidden.get_absolute_url()}"' in client.get(
        reverse("rolls:roll-list", args=[campaign.pk])).content.decode()
    sheet = client.get(bobs_character.get_absolute_url()).content.decode()
    assert "Owes the Syndicate" in sheet and 'id="read-only-sheet"' not in sheet
    awarded = client.post(reverse("characters:character-xp-award", args=[bobs_character.pk]),
                          {"amount": "2", "reason": "Kept the table going"})
    assert awarded.status_code == 302
    assert fresh(bobs_character).xp_total == bobs_character.xp_total + 2
    settings = client.get(settings_url(campaign)).content.decode()
    assert "only the GM and you, a co-GM, see this page" in settings
    # Not the lead GM's own: no way to delete the campaign or hand its seat over.
    assert reverse("campaigns:campaign-delete", args=[campaign.pk]) not in settings
    assert reverse("campaigns:campaign-handover", args=[campaign.pk]) not in settings


def test_a_co_gm_advances_the_encounters_turn(client_for, campaign, alice, bobs_character,
                                             dana):
    """The issue's "done when": the encounters' checks of the GM seat follow the co-GM."""
    fight = encounter_start(campaign=campaign, by=alice)
    assert Encounter.objects.get(pk=fight.pk).current is None

    answer = client_for(dana).post(
        reverse("encounters:turn-next", args=[campaign.pk, fight.pk]), turn(fight))

    assert answer.status_code == 302
    assert Encounter.objects.get(pk=fight.pk).current is not None


def test_the_co_gm_cannot_delete_hand_over_remove_the_gm_or_seat_anyone(
        client_for, campaign, alice, bob, dana):
    client = client_for(dana)
    assert client.get(reverse("campaigns:campaign-delete", args=[campaign.pk])).status_code \
        == 404
    assert client.post(reverse("campaigns:campaign-delete", args=[campaign.pk]),
                       {"name": "The Drift"}).status_code == 404
    assert client.post(reverse("campaigns:campaign-handover", args=[campaign.pk]),
                       {"membership": seat_of(campaign, dana).pk}).status_code == 404
    assert client.post(seat_url(seat_of(campaign, bob)), {"role": "co_gm"}).status_code == 404

    removal = client.post(reverse("campaigns:membership-remove",
                                  args=[campaign.pk, seat_of(campaign, alice).pk]), follow=True)

    assert "That is the GM's seat, which cannot be removed" in text_of(removal)
    assert fresh(campaign).pk and seat_of(campaign, alice).is_lead_gm
    assert seat_of(campaign, bob).role == Membership.Role.PLAYER


def test_the_services_refuse_the_lead_gms_powers_to_a_co_gm(campaign, alice, bob, dana):
    """Under the campaign's lock, whatever page a form came from."""
    with pytest.raises(MembershipError, match="Only the GM of The Drift"):
        campaign_delete(campaign=campaign, by=dana)
    with pytest.raises(MembershipError, match="Only the GM of The Drift"):
        campaign_handover(campaign=campaign, to_membership=seat_of(campaign, dana), by=dana)
    with pytest.raises(MembershipError, match="Only the GM of The Drift can seat"):
        membership_seat(membership=seat_of(campaign, bob), co_gm=True, by=dana)
    with pytest.raises(MembershipError, match="GM's seat cannot be"):
        membership_remove(membership=seat_of(campaign, alice), by=dana)
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    assert seat_of(campaign, alice).is_lead_gm and seat_of(campaign, bob).is_gm is False


def test_only_the_gm_takes_a_co_gms_seat_away(campaign, alice, bob, dana):
    erin = UserFactory(username="erin")
    membership_seat(membership=Membership.objects.create(campaign=campaign, user=erin),
                    co_gm=True, by=alice)

    with pytest.raises(MembershipError, match="Only the GM can take a co-GM's seat away"):
        membership_remove(membership=seat_of(campaign, erin), by=dana)
    membership_remove(membership=seat_of(campaign, bob), by=dana)  # a player's: theirs too

    assert seat_of(campaign, erin).is_co_gm
    assert not Membership.objects.filter(campaign=campaign, user=bob).exists()


def test_a_co_gm_steps_down_keeping_their_characters_and_the_gm_pages_close(
        client_for, campaign, dana):
    client = client_for(dana)

    done = client.post(seat_url(seat_of(campaign, dana)), {"role": "player"}, follow=True)

    assert done.redirect_chain == [(campaign.get_absolute_url(), 302)]
    assert "You play on in The Drift as a player" in text_of(done)
    assert seat_of(campaign, dana).role == Membership.Role.PLAYER
    assert Character.objects.get(name="Iris").owner == dana
    assert client.get(settings_url(campaign)).status_code == 404


def test_a_co_gm_leaves_the_campaign_as_a_player_does(client_for, campaign, dana):
    response = client_for(dana).post(reverse("campaigns:campaign-leave", args=[campaign.pk]))

    assert response.status_code == 302
    assert not Membership.objects.filter(campaign=campaign, user=dana).exists()
    assert Character.objects.get(name="Iris").status == Character.Status.RETIRED


def test_the_gm_hands_the_seat_to_a_co_gm_and_becomes_a_player(client_for, campaign, alice,
                                                                 dana):
    handover = reverse("campaigns:campaign-handover", args=[campaign.pk])
    assert "dana (co-GM)" in text_of(client_for(alice).get(handover))

    client_for(alice).post(handover, {"membership": seat_of(campaign, dana).pk})

    assert seat_of(campaign, dana).is_lead_gm
    assert seat_of(campaign, alice).role == Membership.Role.PLAYER
    assert Character.objects.get(name="Iris").owner == dana


def test_deleting_a_co_gms_account_is_not_refused_as_a_gms(campaign, alice, dana):
    account_delete(user=dana)

    assert not Membership.objects.filter(campaign=campaign, user=dana).exists()
    assert seat_of(campaign, alice).is_lead_gm


def test_a_campaign_export_keeps_its_co_gm_when_imported(campaign, alice, dana):
    document = transfer_export.export_campaign(campaign)

    copy = import_campaign(document, gm=alice, keep_users=True)

    assert copy.memberships.get(user=dana).role == Membership.Role.CO_GM
    assert copy.memberships.get(user=alice).is_lead_gm


@stream_test
def test_seating_a_co_gm_reconnects_their_pages_so_gm_only_events_follow(  # type: ignore[no-untyped-def]
        campaign, alice, bob) -> None:
    before, after = Stream(bob, campaign.pk), Stream(bob, campaign.pk)
    client = Client()
    client.force_login(alice)
    url = seat_url(seat_of(campaign, bob))

    async def scenario() -> None:
        await before.open()
        await send(campaign.pk, gm_only=True)
        assert await before.hears_nothing()
        response = await sync_to_async(client.post)(url, {"role": "co_gm"})
        assert response.status_code == 302
        assert (await before.next_frame()).startswith(b"event: liveClosed\n")
        await before.communicator.wait(timeout=2)
        await after.open()  # the page reconnected: now in the GM's group
        await send(campaign.pk, gm_only=True)
        assert (await after.next_frame()).startswith(b"event: rollMade\n")
        await after.close()

    async_to_sync(scenario)()
