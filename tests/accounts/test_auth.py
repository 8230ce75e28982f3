"""Signing up, logging in and out, and the landing page."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

CAMPAIGNS = reverse("campaigns:campaign-list")
STRONG_PASSWORD = "lantern-quarry-mosaic-41"


def signup(client: Client, password: str = STRONG_PASSWORD, **extra: str):  # type: ignore[no-untyped-def]
    data = {"username": "newbie", "email": "newbie@example.org", "password1": password,
            "password2": password, **extra}
    return client.post(reverse("signup"), data)


def test_the_landing_page_tells_visitors_what_sheetkeeper_is_and_offers_sign_up_and_log_in():
    response = Client().get(reverse("home"))

    assert response.status_code == 200
    assert b"Character sheets" in response.content
    assert reverse("signup").encode() in response.content
    assert reverse("login").encode() in response.content


def test_the_landing_page_sends_a_logged_in_user_to_their_campaigns(client_for, alice):
    response = client_for(alice).get(reverse("home"))

    assert response.status_code == 302
    assert response.url == CAMPAIGNS


def test_signing_up_creates_the_account_logs_it_in_and_goes_to_the_campaign_list():
    client = Client()

    response = signup(client)

    assert response.status_code == 302
    assert response.url == CAMPAIGNS
    assert get_user_model().objects.filter(username="newbie").exists()
    assert client.get(CAMPAIGNS).status_code == 200


def test_signing_up_continues_to_the_next_page_such_as_an_invite_link():
    response = signup(Client(), next="/campaigns/join/some-token/")

    assert response.url == "/campaigns/join/some-token/"


def test_signing_up_ignores_a_next_page_on_another_site():
    response = signup(Client(), next="https://evil.example/phish")

    assert response.url == CAMPAIGNS


def test_the_signup_page_keeps_next_for_the_form():
    response = Client().get(reverse("signup"), {"next": "/campaigns/join/abc/"})

    assert b'name="next" value="/campaigns/join/abc/"' in response.content


@pytest.mark.parametrize(
    ("password", "error"),
    [("password", "too common"), ("x7!q", "too short")],
)
def test_signing_up_with_a_weak_password_shows_why_and_keeps_the_username(password, error):
    client = Client()

    response = signup(client, password=password)

    assert response.status_code == 200
    assert error in response.content.decode()
    assert b'value="newbie"' in response.content
    assert not get_user_model().objects.filter(username="newbie").exists()
    assert client.get(CAMPAIGNS).status_code == 302  # not logged in


def test_logging_in_goes_to_the_campaign_list(alice):
    client = Client()

    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == CAMPAIGNS
    assert client.get(CAMPAIGNS).status_code == 200


def test_logging_in_returns_to_the_page_that_asked_for_it(alice):
    response = Client().post(
        reverse("login"),
        {"username": "alice", "password": PASSWORD, "next": "/campaigns/join/abc/"},
    )

    assert response.url == "/campaigns/join/abc/"


def test_logging_in_with_a_wrong_password_shows_an_error(alice):
    response = Client().post(reverse("login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert b"correct username and password" in response.content


def test_the_login_page_links_to_signup_keeping_next():
    response = Client().get(reverse("login"), {"next": "/campaigns/join/abc/"})

    assert b'name="next" value="/campaigns/join/abc/"' in response.content
    assert b"/signup/?next=/campaigns/join/abc/" in response.content


def test_logging_out_ends_the_session(client_for, alice):
    client = client_for(alice)

    response = client.post(reverse("logout"))

    assert response.status_code == 302
    assert client.get(CAMPAIGNS).status_code == 302
