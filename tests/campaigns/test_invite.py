"""Renewing and revoking the invite link: the GM's alone, with and without HTMX."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ACTIONS = ["campaign-invite-renew", "campaign-invite-revoke"]


def url(action: str, campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse(f"campaigns:{action}", args=[campaign.pk])


def join_url(token: str) -> str:
    return reverse("campaigns:campaign-join", args=[token])


def test_renewing_issues_a_new_link_and_the_old_one_stops_working(
    client_for, campaign, alice, carol
):
    old_token = campaign.invite_token

    response = client_for(alice).post(url("campaign-invite-renew", campaign))

    campaign.refresh_from_db()
    assert response.status_code == 302
    # The invite box's home is the settings page (the dashboard's first screen is play).
    assert response.url == reverse("campaigns:campaign-settings", args=[campaign.pk])
    assert campaign.invite_token and campaign.invite_token != old_token
    assert client_for(carol).get(join_url(old_token)).status_code == 404
    assert client_for(carol).get(join_url(campaign.invite_token)).status_code == 200


def test_renewing_tells_the_gm_the_old_link_is_dead(client_for, campaign, alice):
    response = client_for(alice).post(url("campaign-invite-renew", campaign), follow=True)

    assert b"the old one no longer works" in response.content


def test_revoking_stops_the_link_until_a_new_one_is_issued(client_for, campaign, alice, carol):
    old_token = campaign.invite_token

    response = client_for(alice).post(url("campaign-invite-revoke", campaign), follow=True)

    campaign.refresh_from_db()
    assert campaign.invite_token is None
    assert b"Invite link revoked" in response.content
    assert b"Invites are off" in response.content
    assert b"Create a new link" in response.content
    assert client_for(carol).get(join_url(old_token)).status_code == 404


def test_with_htmx_renewing_returns_only_the_invite_box_with_the_new_link(
    client_for, campaign, alice
):
    old_token = campaign.invite_token

    response = client_for(alice, htmx=True).post(url("campaign-invite-renew", campaign))

    campaign.refresh_from_db()
    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert content.lstrip().startswith('<section id="invite"')
    assert campaign.invite_token in content
    assert old_token not in content
    assert "the old one no longer works" in content


def test_with_htmx_revoking_returns_the_invite_box_saying_invites_are_off(
    client_for, campaign, alice
):
    response = client_for(alice, htmx=True).post(url("campaign-invite-revoke", campaign))

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert 'id="invite"' in content
    assert "Invites are off" in content
    assert "/join/" not in content


def test_the_invite_forms_work_with_and_without_htmx(client_for, campaign, alice):
    content = client_for(alice).get(campaign.get_absolute_url()).content.decode()

    for action in ACTIONS:
        assert f'action="{url(action, campaign)}"' in content
        assert f'hx-post="{url(action, campaign)}"' in content
    assert 'hx-target="#invite"' in content
    assert 'hx-swap="outerHTML"' in content


@pytest.mark.parametrize("action", ACTIONS)
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("who", ["bob", "carol"])
def test_only_the_gm_may_change_the_link(client_for, campaign, bob, carol, action, htmx, who):
    token = campaign.invite_token
    user = {"bob": bob, "carol": carol}[who]

    response = client_for(user, htmx=htmx).post(url(action, campaign))

    campaign.refresh_from_db()
    assert response.status_code == 404
    assert campaign.invite_token == token


@pytest.mark.parametrize("action", ACTIONS)
def test_an_anonymous_visitor_is_sent_to_log_in(campaign, action):
    token = campaign.invite_token

    response = Client().post(url(action, campaign))

    campaign.refresh_from_db()
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert campaign.invite_token == token


@pytest.mark.parametrize("action", ACTIONS)
def test_the_link_cannot_be_changed_by_a_get(client_for, campaign, alice, action):
    token = campaign.invite_token

    response = client_for(alice).get(url(action, campaign))

    campaign.refresh_from_db()
    assert response.status_code == 405
    assert campaign.invite_token == token


def test_a_plain_post_from_a_new_campaigns_dashboard_comes_back_to_it(client_for, campaign, alice):
    """A new campaign's dashboard shows the invite box until someone plays; its forms name
    the dashboard as their "next", and only a page of this site is followed."""
    dashboard = campaign.get_absolute_url()
    page = client_for(alice).get(dashboard).content.decode()
    assert f'name="next" value="{dashboard}"' in page

    response = client_for(alice).post(url("campaign-invite-renew", campaign), {"next": dashboard})
    assert response.status_code == 302 and response.url == dashboard
    response = client_for(alice).post(url("campaign-invite-renew", campaign),
                                      {"next": "//evil.example/"})
    assert response.url == reverse("campaigns:campaign-settings", args=[campaign.pk])


def test_the_table_s_history_says_who_renewed_and_revoked_the_link_never_the_link(
        client_for, campaign, alice, bob):
    """A change of the campaign's invite link is logged like any setting (issue 35), by
    what it did; the token, which lets anyone join, is written nowhere in the log."""
    from history.models import Activity

    client_for(alice).post(url("campaign-invite-renew", campaign))
    campaign.refresh_from_db()
    token = campaign.invite_token
    client_for(alice).post(url("campaign-invite-revoke", campaign))

    entries = Activity.objects.filter(campaign=campaign)
    assert list(entries.order_by("created_at", "id").values_list("kind", "action", "actor")) \
        == [("campaign", "invite-renew", alice.pk), ("campaign", "invite-revoke", alice.pk)]
    assert not any(token in str(values) for values in entries.values())
