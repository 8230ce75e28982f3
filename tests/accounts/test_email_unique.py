"""An email address belongs to one account, whatever its case, guarded by the database
(accounts/migrations/0001): the index on the lower-cased address refuses a second account
with it, and a confirmation link for an address another account confirmed meanwhile says
so and saves nothing (the forms never look an address up: accounts.addresses)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse

from accounts.addresses import make_token
from tests.factories import PASSWORD, UserFactory
from tests.helpers import text_of

User = get_user_model()
MIGRATION = ("accounts", "0001_email_unique_whatever_its_case")
INDEX = "accounts_user_email_lower_unique"


@pytest.mark.django_db
def test_the_database_refuses_a_second_account_with_the_address_in_another_case() -> None:
    UserFactory(username="first", email="Rook@Example.org")

    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(username="second", email="rook@example.ORG")

    UserFactory(username="third", email="")
    UserFactory(username="fourth", email="")  # blank addresses are not an address


@pytest.mark.django_db
def test_the_index_stands_in_the_migrated_database() -> None:
    """The index is invisible to Django's model state, so a later rebuild of the user table
    (SQLite remakes a table to alter it) would drop it silently: it is looked for here."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, User._meta.db_table)
    assert found[INDEX]["unique"]


def test_the_migration_comes_after_the_last_change_to_the_user_table() -> None:
    """The index is made after auth's last migration; a Django release that changes the user
    table again (a new auth migration) must be checked against it, then named here."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph  # from the files alone
    assert ("auth", "0012_alter_user_first_name_max_length") in graph.leaf_nodes()


@pytest.mark.django_db
def test_a_link_to_an_address_another_account_confirmed_meanwhile_saves_nothing(
        client_for: Any, bob: Any) -> None:
    link = reverse("account-address-confirm", args=[make_token(bob, "Rook@example.org")])
    UserFactory(username="first", email="rook@example.org")
    before = User.objects.get(pk=bob.pk).email

    response = client_for(bob).post(link)

    assert response.status_code == 400
    assert "Another account has this address now" in text_of(response)
    assert User.objects.get(pk=bob.pk).email == before


# --- the migration, on last month's database ------------------------------------------------



def _migrate(target: list[tuple[str, str | None]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


@pytest.fixture
def before_the_index() -> Iterator[None]:
    """The database as it was before the migration; at the latest migrations afterwards."""
    _migrate([("accounts", None)])
    try:
        yield
    finally:
        _migrate([MIGRATION])


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_each_address_on_the_account_that_took_it_first(
        before_the_index: None) -> None:
    first = UserFactory(username="first", email="Rook@example.org")
    again = UserFactory(username="again", email="rook@EXAMPLE.org")
    other = UserFactory(username="other", email="wren@example.org")
    blank = UserFactory(username="blank", email="")

    _migrate([MIGRATION])

    emails = dict(User.objects.filter(pk__in=[first.pk, again.pk, other.pk, blank.pk])
                  .values_list("username", "email"))
    assert emails == {"first": "Rook@example.org", "again": "", "other": "wren@example.org",
                      "blank": ""}
    assert User.objects.get(pk=again.pk).check_password(PASSWORD)
