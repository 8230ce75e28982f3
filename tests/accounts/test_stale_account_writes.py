"""The account page writes only what it changes: a display name or an email saved from a
request that read the user before something else changed the row (another device deleting
the account, or changing the email) writes that one column, or nothing when the account is
gone, and never the request's stale copy of the whole row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.addresses import make_token
from accounts.services import AccountError, account_delete, account_update
from tests.factories import PASSWORD
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

ACCOUNT = reverse("account")
NAME_URL = reverse("account-display-name")


@pytest.fixture
def meanwhile(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[Any], object]], None]:
    """``meanwhile(change)``: the next request reads its user, then ``change(pk)`` runs (as
    another device would, between that read and the view's save), and the view goes on with
    the user it read: the stale ``request.user`` of a race."""

    def arrange(change: Callable[[Any], object]) -> None:
        real = auth.get_user

        def get_user(request: Any) -> Any:
            user = real(request)
            monkeypatch.setattr(auth, "get_user", real)  # once
            if user.is_authenticated:
                change(user.pk)
            return user

        monkeypatch.setattr(auth, "get_user", get_user)

    return arrange


def delete_account(pk: int) -> None:
    account_delete(user=get_user_model().objects.get(pk=pk))


def assert_still_a_former_players_row(pk: int) -> None:
    row = get_user_model().objects.get(pk=pk)
    assert row.username == f"former-player-{pk}"
    assert (row.first_name, row.last_name, row.email) == ("Former player", "", "")
    assert not row.is_active
    assert not row.has_usable_password()


@pytest.fixture
def bob_in_full(bob):  # type: ignore[no-untyped-def]
    """Bob with a display name and an email: what the stale copy would write back."""
    bob.first_name, bob.email = "Robert", "bob@example.org"
    bob.save(update_fields=["first_name", "email"])
    return bob


# --- The service -----------------------------------------------------------------------------


def test_a_stale_user_saving_a_display_name_after_the_deletion_changes_nothing(bob_in_full):
    stale = fresh(bob_in_full)  # read before the deletion: "bob", active, a password
    account_delete(user=fresh(bob_in_full))

    with pytest.raises(AccountError, match="This account was deleted, so nothing was saved."):
        account_update(user=stale, first_name="Robert the Bold")

    assert_still_a_former_players_row(bob_in_full.pk)


def test_saving_a_display_name_writes_that_column_alone(bob_in_full):
    stale = fresh(bob_in_full)
    get_user_model().objects.filter(pk=bob_in_full.pk).update(email="new@example.org")

    saved = account_update(user=stale, first_name="Robert the Bold")

    row = fresh(bob_in_full)
    assert saved.first_name == row.first_name == "Robert the Bold"
    assert row.email == "new@example.org"
    assert row.check_password(PASSWORD)


def test_the_service_changes_only_the_email_and_the_display_name(bob):
    with pytest.raises(ValueError, match="cannot change is_active"):
        account_update(user=bob, is_active="")


# --- The pages -------------------------------------------------------------------------------


# The address form stores nothing (it mails a link: tests/accounts/test_addresses.py).
@pytest.mark.parametrize(("url", "data"), [
    (NAME_URL, {"first_name": "Robert the Bold"}),
])
def test_a_form_sent_as_the_account_is_deleted_elsewhere_saves_nothing_and_logs_out(
        client_for, bob_in_full, meanwhile, url, data):
    client = client_for(bob_in_full)
    meanwhile(delete_account)

    response = client.post(url, data)

    assert response.status_code == 302
    assert response.url == reverse("login")
    assert_still_a_former_players_row(bob_in_full.pk)
    page = client.get(response.url)
    assert "This account was deleted, so nothing was saved." in text_of(page)
    assert client.get(ACCOUNT).status_code == 302  # logged out


def test_a_display_name_saved_from_the_page_leaves_an_email_changed_meanwhile(
        client_for, bob_in_full, meanwhile):
    client = client_for(bob_in_full)
    meanwhile(lambda pk: get_user_model().objects.filter(pk=pk).update(
        email="new@example.org"))

    response = client.post(NAME_URL, {"first_name": "Robert the Bold"})

    assert response.status_code == 302 and response.url == ACCOUNT
    row = fresh(bob_in_full)
    assert (row.first_name, row.email) == ("Robert the Bold", "new@example.org")


def test_an_address_confirmed_by_its_link_leaves_a_display_name_changed_meanwhile(
        client_for, bob_in_full):
    link = reverse("account-address-confirm", args=[make_token(bob_in_full,
                                                               "robert@example.org")])
    get_user_model().objects.filter(pk=bob_in_full.pk).update(first_name="Rob")

    response = client_for(bob_in_full).post(link)

    assert response.status_code == 302 and response.url == ACCOUNT
    row = fresh(bob_in_full)
    assert (row.first_name, row.email) == ("Rob", "robert@example.org")
