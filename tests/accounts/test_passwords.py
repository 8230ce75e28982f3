"""Changing a password, resetting a forgotten one by email, and the email an account has
(issue 16, "Accounts"): Django's own views and tokens, no account enumeration, a limit per
address, and an email required on sign-up and unique among the accounts."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "lantern-quarry-mosaic-41"
HOME = "203.0.113.7"
CAMPAIGNS = reverse("campaigns:campaign-list")


def can_log_in(username: str, password: str) -> bool:
    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


# --- changing a password ----------------------------------------------------------------------


def test_changing_the_password_keeps_the_session_and_the_new_one_logs_in(client_for, alice):
    client = client_for(alice)

    response = client.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    assert client.get(response.url).status_code == 200
    assert client.get(CAMPAIGNS).status_code == 200  # still logged in
    assert can_log_in("alice", NEW_PASSWORD)
    assert not can_log_in("alice", PASSWORD)


def test_a_wrong_old_password_is_refused_and_nothing_changes(client_for, alice):
    response = client_for(alice).post(reverse("password_change"), {
        "old_password": "not-it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert response.status_code == 200
    assert "Your old password was entered incorrectly" in response.content.decode()
    assert can_log_in("alice", PASSWORD)


@pytest.mark.parametrize("name", ["account", "password_change", "password_change_done"])
def test_an_anonymous_visitor_is_sent_to_log_in(name):
    response = Client().get(reverse(name))

    assert response.status_code == 302
    assert response.url.startswith(f"{reverse('login')}?next=")


# --- resetting a forgotten password -------------------------------------------------------------


@pytest.fixture
def dora(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="dora", email="dora@example.org")


def ask_for_a_link(address: str, remote: str = HOME):  # type: ignore[no-untyped-def]
    return Client().post(reverse("password_reset"), {"email": address}, REMOTE_ADDR=remote)


def the_link() -> str:
    [message] = mail.outbox
    found = re.search(r"https?://[^/\s]+(/reset/\S+/)", message.body)
    assert found, message.body
    return found[1]


def test_the_login_page_offers_the_reset():
    page = Client().get(reverse("login")).content.decode()

    assert f'href="{reverse("password_reset")}"' in page
    assert "Forgot your password?" in page


def test_a_known_address_gets_one_email_whose_link_sets_a_new_password_once(dora):
    response = ask_for_a_link("DORA@example.org")  # any case, as typed

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["dora@example.org"]
    assert mail.outbox[0].subject == "Reset your Sheetkeeper password"
    assert "http://testserver/reset/" in mail.outbox[0].body  # the request's host
    link = the_link()

    client = Client()
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(form_page.redirect_chain[-1][0], {
        "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302
    assert done.url == reverse("password_reset_complete")
    assert can_log_in("dora", NEW_PASSWORD)

    again = Client().get(link, follow=True)
    assert "This reset link does not work" in again.content.decode()
    assert b"new_password1" not in again.content


def test_an_unknown_address_gets_the_same_answer_and_no_email(dora):
    known = ask_for_a_link("dora@example.org")
    mail.outbox.clear()

    unknown = ask_for_a_link("nobody@example.org")

    assert (unknown.status_code, unknown.url) == (known.status_code, known.url)
    assert mail.outbox == []
    page = Client().get(unknown.url).content.decode()
    assert "If an account has that address" in page


def test_an_account_without_a_usable_password_gets_no_email():
    get_user_model().objects.create_user("eve", email="eve@example.org")  # unusable password

    response = ask_for_a_link("eve@example.org")

    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []


def test_a_tampered_link_shows_the_invalid_page(dora):
    ask_for_a_link("dora@example.org")
    link = the_link()
    tampered = link[:-3] + ("a" if link[-3] != "a" else "b") + link[-2:]

    page = Client().get(tampered, follow=True)

    assert page.status_code == 200
    assert "This reset link does not work" in page.content.decode()
    assert f'href="{reverse("password_reset")}"' in page.content.decode()
    assert can_log_in("dora", PASSWORD)


def test_reset_requests_past_the_limit_are_refused_known_or_unknown(settings, dora):
    settings.PASSWORD_RESET_RATE = "2/h"
    assert ask_for_a_link("dora@example.org").status_code == 302
    assert ask_for_a_link("nobody@example.org").status_code == 302
    mail.outbox.clear()

    refused = ask_for_a_link("dora@example.org")

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    page = refused.content.decode()
    assert "Too many password-reset requests from your address" in page
    assert "2 password-reset requests per hour" in page
    assert mail.outbox == []
    assert Client().get(reverse("password_reset"), REMOTE_ADDR=HOME).status_code == 429
    assert ask_for_a_link("dora@example.org", remote="198.51.100.20").status_code == 302


def test_a_reset_request_refused_for_its_content_does_not_count(settings):
    settings.PASSWORD_RESET_RATE = "1/h"
    for _ in range(3):
        assert ask_for_a_link("not an address").status_code == 200

    assert ask_for_a_link("nobody@example.org").status_code == 302


# --- the email on sign-up -----------------------------------------------------------------------


def sign_up(**changes: str):  # type: ignore[no-untyped-def]
    data = {"username": "newbie", "email": "newbie@example.org", "password1": NEW_PASSWORD,
            "password2": NEW_PASSWORD, **changes}
    return Client().post(reverse("signup"), data)


def test_sign_up_requires_an_email():
    response = sign_up(email="")

    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert not get_user_model().objects.filter(username="newbie").exists()


# --- the account page ---------------------------------------------------------------------------


def test_the_account_page_shows_the_username_and_links_to_the_password_change(client_for, alice):
    page = client_for(alice).get(reverse("account")).content.decode()

    assert "alice" in page
    assert f'href="{reverse("password_change")}"' in page
    assert 'autocomplete="email"' in page


def test_every_page_links_a_signed_in_user_to_the_account(client_for, alice):
    page = client_for(alice).get(CAMPAIGNS).content.decode()

    assert f'href="{reverse("account")}"' in page


def test_keeping_ones_own_email_on_the_account_page_is_no_conflict(client_for, dora):
    response = client_for(dora).post(reverse("account"), {"email": "dora@example.org"})

    assert response.status_code == 302
