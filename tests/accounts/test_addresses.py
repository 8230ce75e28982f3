"""No page tells anyone whether an address has an account (Sheetkeeper issue 31, "Addresses
revealed"; accounts.addresses): sign-up and the account page store no address, answer
alike for a free address and a taken one, and mail it; a free address's mail holds the link
that confirms it, a taken one's mail tells its owner and holds none. Every sign-up and every
address given counts against its limit."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.addresses import make_token
from tests.factories import UserFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-table-password-77"
ACCOUNT = reverse("account")


@pytest.fixture
def dora() -> Any:
    return UserFactory(username="dora", email="dora@example.org")


def sign_up(username: str, email: str) -> Any:
    return Client().post(reverse("signup"), {
        "username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
        follow=True)


def _answer(response: Any, *typed: str) -> tuple[Any, ...]:
    """What a page shows of an answer, what was typed (an address, a login name) aside."""
    page = text_of(response)
    for word in typed:
        page = page.replace(word, "TYPED")
    return response.status_code, response.redirect_chain, page


def _link(message: Any) -> str:
    found = re.search(r"https?://testserver(/account/address/[^\s]+/)", message.body)
    assert found, message.body
    return found.group(1)


def test_sign_up_answers_alike_for_a_free_and_a_taken_address_and_stores_neither(dora):
    free = sign_up("newbie", "newbie@example.org")
    taken = sign_up("other", "Dora@Example.org")

    assert _answer(free, "newbie@example.org", "newbie") == _answer(taken, "Dora@Example.org",
                                                                    "other")
    assert "We sent a link to newbie@example.org" in text_of(free)
    users = get_user_model().objects
    assert users.get(username="newbie").email == users.get(username="other").email == ""
    assert fresh(dora).email == "dora@example.org"


def test_the_free_address_is_mailed_a_link_and_the_taken_one_a_note_with_none(dora):
    sign_up("newbie", "newbie@example.org")
    sign_up("other", "Dora@Example.org")

    confirm, in_use = mail.outbox
    assert confirm.to == ["newbie@example.org"] and "/account/address/" in confirm.body
    assert in_use.to == ["Dora@Example.org"]
    assert "already belongs to another Sheetkeeper account" in in_use.body
    assert "/account/address/" not in in_use.body


def test_the_link_asks_first_then_sets_the_address():
    sign_up("newbie", "newbie@example.org")
    link = _link(mail.outbox[0])
    client = Client()
    client.force_login(get_user_model().objects.get(username="newbie"))

    page = client.get(link)
    assert page.status_code == 200
    assert "Use newbie@example.org for your account?" in text_of(page)
    assert get_user_model().objects.get(username="newbie").email == ""

    done = client.post(link, follow=True)
    assert done.redirect_chain[-1][0] == ACCOUNT
    assert "newbie@example.org is now the address of your account." in text_of(done)
    assert get_user_model().objects.get(username="newbie").email == "newbie@example.org"
    assert client.post(link).status_code == 302  # followed twice: done already


def test_a_link_followed_on_another_device_sets_the_address_and_asks_to_log_in(bob):
    link = reverse("account-address-confirm", args=[make_token(bob, "bob@example.org")])

    response = Client().post(link)

    assert response.status_code == 302 and response.url == reverse("login")
    assert fresh(bob).email == "bob@example.org"


def test_the_account_page_answers_alike_for_a_free_and_a_taken_address(client_for, bob, dora):
    client = client_for(bob)
    free = client.post(ACCOUNT, {"email": "bob@example.org"}, follow=True)
    taken = client.post(ACCOUNT, {"email": "DORA@example.org"}, follow=True)

    assert _answer(free, "bob@example.org") == _answer(taken, "DORA@example.org")
    assert "Until then your address stays as it is." in text_of(free)
    assert fresh(bob).email == ""
    assert [m.to for m in mail.outbox] == [["bob@example.org"], ["DORA@example.org"]]


def test_a_new_address_keeps_the_old_one_until_its_link_is_followed(client_for, dora):
    client = client_for(dora)
    client.post(ACCOUNT, {"email": "dora@new.example.org"})

    assert fresh(dora).email == "dora@example.org"
    client.post(_link(mail.outbox[0]))
    assert fresh(dora).email == "dora@new.example.org"


@pytest.mark.parametrize(("token", "reason"), [
    (lambda bob: make_token(bob, "bob@example.org")[:-3] + "abc", "not one this site sent"),
    (lambda bob: "nonsense", "not one this site sent"),
])
def test_a_forged_link_says_why_and_sets_nothing(client_for, bob, token, reason):
    link = reverse("account-address-confirm", args=[token(bob)])

    for response in (client_for(bob).get(link), client_for(bob).post(link)):
        assert response.status_code == 400
        assert reason in text_of(response)
    assert fresh(bob).email == ""


def test_a_link_older_than_three_days_has_expired(client_for, bob, monkeypatch):
    token = make_token(bob, "bob@example.org")
    # Django's signer reads its clock through time.time: three days and a minute later.
    later = datetime.datetime.now().timestamp() + 3 * 86400 + 60
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)

    response = client_for(bob).post(reverse("account-address-confirm", args=[token]))

    assert response.status_code == 400
    assert "This link has expired" in text_of(response)
    assert fresh(bob).email == ""


def test_a_link_from_before_the_address_changed_again_no_longer_works(client_for, dora):
    old = make_token(dora, "dora@old.example.org")
    get_user_model().objects.filter(pk=dora.pk).update(email="dora@now.example.org")

    response = client_for(dora).post(reverse("account-address-confirm", args=[old]))

    assert response.status_code == 400
    assert "from before the account's address last changed" in text_of(response)
    assert fresh(dora).email == "dora@now.example.org"


def test_no_mail_and_no_link_for_an_account_deleted_since(client_for, bob):
    token = make_token(bob, "bob@example.org")
    get_user_model().objects.filter(pk=bob.pk).update(is_active=False)

    response = Client().post(reverse("account-address-confirm", args=[token]))

    assert response.status_code == 400
    assert "has been deleted" in text_of(response)


def test_addresses_past_the_limit_are_refused_every_one_counting(client_for, bob, settings):
    settings.ADDRESS_RATE = "2/h"
    client = client_for(bob)
    assert client.post(ACCOUNT, {"email": "not an address"}).status_code == 200
    assert client.post(ACCOUNT, {"email": "bob@example.org"}).status_code == 302

    refused = client.post(ACCOUNT, {"email": "bob@other.example.org"})

    assert refused.status_code == 429
    assert len(mail.outbox) == 1
