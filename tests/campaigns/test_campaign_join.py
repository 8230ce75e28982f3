"""Joining a campaign through its invite link."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership

pytestmark = pytest.mark.django_db


def join_url(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("campaigns:campaign-join", args=[campaign.invite_token])


def test_the_invite_link_asks_before_joining(client_for, campaign, carol):
    response = client_for(carol).get(join_url(campaign))

    assert response.status_code == 200
    assert "Join The Drift (Maelstrom), GM alice?" in response.content.decode()
    assert b'<button type="submit">Join The Drift</button>' in response.content
    assert not Membership.objects.filter(campaign=campaign, user=carol).exists()


def test_joining_seats_the_user_as_a_player_and_opens_the_campaign(client_for, campaign, carol):
    client = client_for(carol)

    response = client.post(join_url(campaign))

    assert response.status_code == 302
    assert response.url == campaign.get_absolute_url()
    membership = Membership.objects.get(campaign=campaign, user=carol)
    assert membership.role == Membership.Role.PLAYER
    assert client.get(campaign.get_absolute_url()).status_code == 200


def test_joining_twice_keeps_one_seat_and_says_so(client_for, campaign, bob):
    response = client_for(bob).post(join_url(campaign), follow=True)

    assert response.redirect_chain == [(campaign.get_absolute_url(), 302)]
    assert b"already a member" in response.content
    assert Membership.objects.filter(campaign=campaign, user=bob).count() == 1


def test_the_gm_following_their_own_link_stays_gm(client_for, campaign, alice):
    client_for(alice).post(join_url(campaign))

    assert Membership.objects.get(campaign=campaign, user=alice).role == Membership.Role.GM


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_token_is_a_friendly_404(client_for, campaign, carol, method):
    response = getattr(client_for(carol), method)(
        reverse("campaigns:campaign-join", args=["not-a-real-token"])
    )

    assert response.status_code == 404
    assert b"Ask your GM for a fresh invite link" in response.content
    assert not Membership.objects.filter(campaign=campaign, user=carol).exists()


def test_a_revoked_link_is_404(client_for, campaign, carol):
    url = join_url(campaign)
    campaign.invite_revoke()

    assert client_for(carol).post(url).status_code == 404
    assert not Membership.objects.filter(campaign=campaign, user=carol).exists()


def test_an_anonymous_invitee_is_sent_to_log_in_and_brought_back(campaign):
    url = join_url(campaign)

    response = Client().get(url)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={url}"


def test_a_new_invitee_can_sign_up_and_come_back_to_the_invite(campaign):
    client = Client()
    url = join_url(campaign)
    password = "lantern-quarry-mosaic-41"

    response = client.post(
        reverse("signup"),
        {"username": "dave", "email": "dave@example.org", "password1": password,
         "password2": password, "next": url},
    )
    assert response.url == url
    client.post(url)

    assert Membership.objects.filter(campaign=campaign, user__username="dave").exists()
