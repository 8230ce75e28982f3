"""An email address belongs to one account, whatever its case: a unique index on the
lower-cased ``auth_user.email`` (blank addresses aside: a former player's row and an account
made without one), so two sign-ups at once can no longer both take an address that the
forms' check saw free.

Duplicates already stored (possible before this, through that race): the account that took
the address first (the lowest id) keeps it; every later one has its email cleared. Those
accounts keep their login name, password, characters and history, and their owners can set
an address of their own on the account page. Nothing else is changed. Going back drops the
index and leaves the addresses as they are.
"""

from typing import Any

from django.conf import settings
from django.db import migrations
from django.db.models.functions import Lower

INDEX = "accounts_user_email_lower_unique"


def keep_each_address_on_its_first_account(apps: Any, schema_editor: Any) -> None:
    """Clear the email of every account but the first (lowest id) of each address."""
    # Folded by the database's LOWER(), as the index folds it (SQLite folds ASCII letters
    # only, PostgreSQL every letter): two addresses are the same exactly when the index
    # would refuse the second.
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    seen: set[str] = set()
    for pk, folded in (User.objects.exclude(email="").annotate(folded=Lower("email"))
                       .order_by("pk").values_list("pk", "folded")):
        if folded in seen:
            User.objects.filter(pk=pk).update(email="")
        seen.add(folded)


def create_index(apps: Any, schema_editor: Any) -> None:
    """The unique index on LOWER(email), blank addresses left out."""
    table = apps.get_model(*settings.AUTH_USER_MODEL.split("."))._meta.db_table
    quote = schema_editor.quote_name
    schema_editor.execute(f"CREATE UNIQUE INDEX {quote(INDEX)} ON {quote(table)} "
                          f"(LOWER({quote('email')})) WHERE {quote('email')} <> ''")


def drop_index(apps: Any, schema_editor: Any) -> None:
    """Going back: the index only; the addresses stay as they are."""
    schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(INDEX)}")


class Migration(migrations.Migration):
    # After auth's last migration of the user table: on SQLite a later change of that table
    # rebuilds it, without an index Django's model state does not know.
    dependencies = [migrations.swappable_dependency(settings.AUTH_USER_MODEL),
                    ("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        migrations.RunPython(keep_each_address_on_its_first_account, migrations.RunPython.noop),
        migrations.RunPython(create_index, drop_index),
    ]
