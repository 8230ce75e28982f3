"""The GM removing a player from the campaign."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.models import Character
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def remove_url(membership: Membership) -> str:
    return reverse("campaigns:membership-remove", args=[membership.campaign_id, membership.pk])


@pytest.fixture
def bobs_seat(campaign, bob) -> Membership:  # type: ignore[no-untyped-def]
    return Membership.objects.get(campaign=campaign, user=bob)


@pytest.fixture
def alices_seat(campaign, alice) -> Membership:  # type: ignore[no-untyped-def]
    return Membership.objects.get(campaign=campaign, user=alice)


def test_the_gm_is_asked_to_confirm_before_removing_a_player(client_for, alice, bobs_seat):
    response = client_for(alice).get(remove_url(bobs_seat))

    content = response.content.decode()
    assert response.status_code == 200
    assert "Remove bob from The Drift?" in content
    assert "Their characters stay in the campaign, visible to the GM." in content
    assert Membership.objects.filter(pk=bobs_seat.pk).exists()


def test_the_gm_removes_a_player_who_then_loses_access_but_their_characters_stay(
    client_for, campaign, alice, bob, bobs_seat, bobs_character
):
    response = client_for(alice).post(remove_url(bobs_seat), follow=True)

    # Back to the members, on the settings page.
    settings = reverse("campaigns:campaign-settings", args=[campaign.pk])
    assert response.redirect_chain == [(settings, 302)]
    assert b"bob was removed from The Drift" in response.content
    assert not Membership.objects.filter(pk=bobs_seat.pk).exists()
    assert client_for(bob).get(campaign.get_absolute_url()).status_code == 404
    assert Character.objects.filter(pk=bobs_character.pk).exists()
    assert b"Rook" in client_for(alice).get(campaign.get_absolute_url()).content


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_cannot_remove_anyone(client_for, bob, alices_seat, bobs_seat, method):
    client = client_for(bob)

    for seat in (alices_seat, bobs_seat):
        assert getattr(client, method)(remove_url(seat)).status_code == 404
    assert Membership.objects.filter(pk__in=[alices_seat.pk, bobs_seat.pk]).count() == 2


def test_a_stranger_cannot_remove_anyone(client_for, carol, bobs_seat):
    assert client_for(carol).post(remove_url(bobs_seat)).status_code == 404
    assert Membership.objects.filter(pk=bobs_seat.pk).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_gm_cannot_remove_themself_and_is_told_why(
    client_for, campaign, alice, alices_seat, method
):
    response = getattr(client_for(alice), method)(remove_url(alices_seat), follow=True)

    assert response.redirect_chain == [(campaign.get_absolute_url(), 302)]
    assert b"your own seat cannot be removed" in response.content
    assert Membership.objects.filter(pk=alices_seat.pk).exists()


def test_a_seat_in_another_campaign_is_404(client_for, campaign, alice, carol):
    other_seat = MembershipFactory(campaign=CampaignFactory(created_by=carol))

    url = reverse("campaigns:membership-remove", args=[campaign.pk, other_seat.pk])
    response = client_for(alice).post(url)

    assert response.status_code == 404
    assert Membership.objects.filter(pk=other_seat.pk).exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client, bobs_seat):
    response = client.post(remove_url(bobs_seat))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert Membership.objects.filter(pk=bobs_seat.pk).exists()
