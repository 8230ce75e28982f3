"""Sign-ups and joins by invite link are limited per address (docs/security.md, "Limits"):
past the limit the page answers 429, says when to try again, and makes nothing; another
address is not affected, and every sign-up form sent counts, refused or not (a refusal asked
again and again would otherwise be free: Sheetkeeper issue 31, "Addresses revealed")."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from campaigns.services import membership_remove
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-table-password-77"
HOME = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


def sign_up(username: str, address: str = HOME, password: str = PASSWORD):  # type: ignore[no-untyped-def]
    return Client().post(reverse("signup"), {"username": username,
                                             "email": f"{username}@example.org",
                                             "password1": password, "password2": password},
                         REMOTE_ADDR=address)


def accounts() -> set[str]:
    return set(get_user_model().objects.values_list("username", flat=True))


@pytest.fixture
def two_an_hour(settings):  # type: ignore[no-untyped-def]
    settings.SIGNUP_RATE = "2/h"


def test_sign_ups_past_the_limit_from_one_address_are_refused_with_when_to_try_again(
    two_an_hour
):
    assert sign_up("ana").status_code == 302
    assert sign_up("ben").status_code == 302

    refused = sign_up("cid")

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    page = refused.content.decode()
    assert "Too many sign-ups from your address" in page
    assert "2 sign-ups per hour" in page
    assert "Try again in" in page
    assert accounts() == {"ana", "ben"}


def test_past_the_limit_the_sign_up_page_says_so_before_the_form_is_filled_in(two_an_hour):
    sign_up("ana")
    sign_up("ben")

    page = Client().get(reverse("signup"), REMOTE_ADDR=HOME)

    assert page.status_code == 429
    assert "Try again in" in page.content.decode()


def test_another_address_still_signs_up(two_an_hour):
    sign_up("ana")
    sign_up("ben")

    assert sign_up("cid", address=ELSEWHERE).status_code == 302
    assert "cid" in accounts()


def test_a_sign_up_refused_for_its_content_counts_too(two_an_hour):
    weak = sign_up("ana", password="123")
    assert weak.status_code == 200  # the form again, with the password rule
    assert sign_up("ana").status_code == 302

    assert sign_up("ben").status_code == 429
    assert accounts() == {"ana"}


@pytest.fixture
def two_joins(settings):  # type: ignore[no-untyped-def]
    settings.INVITE_JOIN_RATE = "2/10m"


def join(user, campaign, address: str = HOME):  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    url = reverse("campaigns:campaign-join", args=[campaign.invite_token])
    return client.post(url, REMOTE_ADDR=address)


def test_invite_links_are_refused_after_too_many_joins_from_one_address(two_joins):
    tables = [CampaignFactory() for _ in range(3)]
    newcomers = [UserFactory() for _ in range(3)]
    assert join(newcomers[0], tables[0]).status_code == 302
    assert join(newcomers[1], tables[1]).status_code == 302

    refused = join(newcomers[2], tables[2])

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) <= 600
    assert "Too many joins by invite link from your address" in refused.content.decode()
    assert "2 joins by invite link per 10 minutes" in refused.content.decode()
    assert not Membership.objects.filter(user=newcomers[2]).exists()
    # The confirmation page says so too, before anyone presses Join.
    client = Client()
    client.force_login(newcomers[2])
    shown = client.get(reverse("campaigns:campaign-join", args=[tables[2].invite_token]),
                       REMOTE_ADDR=HOME)
    assert shown.status_code == 429
    # Someone elsewhere is not affected.
    assert join(newcomers[2], tables[2], address=ELSEWHERE).status_code == 302


def test_opening_an_invite_link_is_not_a_join(two_joins):
    table, newcomer = CampaignFactory(), UserFactory()
    client = Client()
    client.force_login(newcomer)
    url = reverse("campaigns:campaign-join", args=[table.invite_token])
    for _ in range(5):
        assert client.get(url, REMOTE_ADDR=HOME).status_code == 200
    assert join(newcomer, table).status_code == 302


def test_a_removed_players_invite_link_no_longer_seats_them(client_for, campaign, alice, bob):
    old_link = reverse("campaigns:campaign-join", args=[campaign.invite_token])
    removed = client_for(alice).post(reverse(
        "campaigns:membership-remove",
        args=[campaign.pk, Membership.objects.get(campaign=campaign, user=bob).pk]), follow=True)
    assert "The invite link was renewed" in removed.content.decode()

    again = client_for(bob).post(old_link)

    assert again.status_code == 404
    assert not Membership.objects.filter(campaign=campaign, user=bob).exists()
    campaign.refresh_from_db()
    new_link = reverse("campaigns:campaign-join", args=[campaign.invite_token])
    assert new_link != old_link
    assert new_link in client_for(alice).get(campaign.get_absolute_url()).content.decode()


def test_removing_a_player_keeps_revoked_invites_revoked(campaign, bob):
    campaign.invite_revoke()
    membership_remove(membership=Membership.objects.get(campaign=campaign, user=bob))
    campaign.refresh_from_db()
    assert campaign.invite_token is None
