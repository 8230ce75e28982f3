"""A player leaves a campaign; their characters are retired and stay with the table. The GM's
removal of a player retires them the same way."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.services import (
    MembershipError,
    campaign_archive,
    campaign_handover,
    membership_leave,
)
from characters.models import Character
from rolls.models import Roll
from tests.factories import CharacterFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

MOTORCYCLE_POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
                   "threshold": "0"}


def leave_url(campaign: Campaign) -> str:
    return reverse("campaigns:campaign-leave", args=[campaign.pk])


def test_the_player_is_asked_first_and_told_their_characters_will_be_retired(
    client_for, bob, campaign, bobs_character
):
    response = client_for(bob).get(leave_url(campaign))

    content = text_of(response)
    assert response.status_code == 200
    assert "Leave The Drift?" in content
    assert "Rook, Smuggler with a past" in content
    assert "will be retired" in content
    assert Membership.objects.filter(campaign=campaign, user=bob).exists()


def test_leaving_retires_the_characters_which_stay_with_their_rolls(
    client_for, alice, bob, campaign, bobs_character, seeded_rng
):
    client_for(bob).post(reverse("rolls:roll-create", args=[bobs_character.pk]),
                         MOTORCYCLE_POOL)
    assert Roll.objects.filter(character=bobs_character).count() == 1

    response = client_for(bob).post(leave_url(campaign), follow=True)

    assert response.redirect_chain == [(reverse("campaigns:campaign-list"), 302)]
    assert "You left The Drift. Rook was retired" in text_of(response)
    assert not Membership.objects.filter(campaign=campaign, user=bob).exists()
    rook = fresh(bobs_character)
    assert rook.status == Character.Status.RETIRED
    assert rook.owner == bob
    assert Roll.objects.filter(character=rook).count() == 1
    assert rook.xp_entries.count() == 1
    assert client_for(bob).get(campaign.get_absolute_url()).status_code == 404
    assert client_for(alice).get(rook.get_absolute_url()).status_code == 200


def test_a_character_already_dead_stays_dead(bob, campaign, bobs_character):
    Character.objects.filter(pk=bobs_character.pk).update(status=Character.Status.DEAD)
    spare = CharacterFactory(campaign=campaign, owner=bob, name="Spare")

    retired = membership_leave(membership=Membership.objects.get(campaign=campaign, user=bob))

    assert [c.name for c in retired] == ["Spare"]
    assert fresh(bobs_character).status == Character.Status.DEAD
    assert fresh(spare).status == Character.Status.RETIRED


def test_other_players_characters_are_untouched(bob, campaign, bobs_character, dave):
    membership_leave(membership=Membership.objects.get(campaign=campaign, user=bob))

    assert Character.objects.get(name="Wren").status == Character.Status.ACTIVE


def test_the_gm_gets_a_page_explaining_how_to_leave_instead(client_for, alice, campaign):
    response = client_for(alice).get(leave_url(campaign))

    content = response.content.decode()
    assert response.status_code == 200
    assert "hand the GM seat to one of your players" in text_of(response)
    assert reverse("campaigns:campaign-handover", args=[campaign.pk]) in content
    assert reverse("campaigns:campaign-delete", args=[campaign.pk]) in content
    assert 'method="post"' not in content.split("<main", 1)[1]


def test_the_gms_post_is_refused_with_a_message_and_nothing_changes(
    client_for, alice, campaign
):
    response = client_for(alice).post(leave_url(campaign), follow=True)

    assert response.redirect_chain == [(leave_url(campaign), 302)]
    assert "so you cannot leave it" in text_of(response)
    assert Membership.objects.get(campaign=campaign, user=alice).is_gm


def test_the_service_refuses_the_gms_seat(alice, campaign):
    with pytest.raises(MembershipError):
        membership_leave(membership=Membership.objects.get(campaign=campaign, user=alice))


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_stranger_gets_404(client_for, carol, campaign, method):
    assert getattr(client_for(carol), method)(leave_url(campaign)).status_code == 404
    assert Membership.objects.filter(campaign=campaign).count() == 2


def test_the_campaign_page_offers_players_to_leave_and_not_the_gm(
    client_for, alice, bob, campaign
):
    url = leave_url(campaign)

    assert url in client_for(bob).get(campaign.get_absolute_url()).content.decode()
    assert url not in client_for(alice).get(campaign.get_absolute_url()).content.decode()


def test_the_gms_removal_of_a_player_retires_their_characters_too(
    client_for, alice, bob, campaign, bobs_character
):
    seat = Membership.objects.get(campaign=campaign, user=bob)
    url = reverse("campaigns:membership-remove", args=[campaign.pk, seat.pk])

    assert "They are retired" in text_of(client_for(alice).get(url))
    response = client_for(alice).post(url, follow=True)

    assert "bob was removed from The Drift. Rook was retired" in text_of(response)
    assert fresh(bobs_character).status == Character.Status.RETIRED


def test_a_player_just_handed_the_gm_seat_cannot_leave_through_a_stale_seat(
    alice, bob, campaign, bobs_character
):
    stale = Membership.objects.get(campaign=campaign, user=bob)
    campaign_handover(campaign=campaign, to_membership=stale, by=alice)

    with pytest.raises(MembershipError):
        membership_leave(membership=stale)
    assert Membership.objects.get(campaign=campaign, user=bob).is_gm
    assert fresh(bobs_character).status == Character.Status.ACTIVE


def test_nobody_leaves_an_archived_campaign(client_for, alice, bob, campaign, bobs_character):
    campaign_archive(campaign=campaign, by=alice)

    assert "Ask its GM to restore it" in text_of(client_for(bob).get(leave_url(campaign)))
    assert client_for(bob).post(leave_url(campaign)).status_code == 403
    with pytest.raises(MembershipError):
        membership_leave(membership=Membership.objects.get(campaign=campaign, user=bob))
    assert Membership.objects.filter(campaign=campaign, user=bob).exists()
    assert fresh(bobs_character).status == Character.Status.ACTIVE
