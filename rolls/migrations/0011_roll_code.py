"""Give every roll its ``code``: a random UUID that pages name it by instead of its id (issue
31, docs/security.md, "Hidden activity").

Ids are handed out in order to every roll, GM-only ones too, so the ids a player saw told them
that the GM had rolled in secret between two of theirs. The column is added empty, each roll
already stored gets a code of its own, and only then is it made unique and required: a
default on ``AddField`` would be called once and give every row the same value. Rolls are
append-only for the app; this fills a new column and changes nothing they held.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import migrations, models

BATCH = 1000


def give_codes(apps: Any, schema_editor: Any) -> None:
    """A fresh random code for every roll without one, a batch at a time."""
    roll_model = apps.get_model("rolls", "Roll")
    while True:
        rows = list(roll_model.objects.filter(code__isnull=True).only("pk")[:BATCH])
        if not rows:
            return
        for row in rows:
            row.code = uuid.uuid4()
        roll_model.objects.bulk_update(rows, ["code"])


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0010_text_by_one_rule"),
    ]

    operations = [
        migrations.AddField(
            model_name="roll",
            name="code",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="roll",
            name="code",
            field=models.UUIDField(
                default=uuid.uuid4, editable=False, unique=True,
                help_text="How pages name the roll: random, so that it says nothing of other "
                          "rolls."),
        ),
    ]
