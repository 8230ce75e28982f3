"""The activity log of a database from before it: each roll and each XP ledger entry already
stored gets the entry it would have had, dated as it was made, so the table's history reads
back to the campaign's first evening (docs/history.md, "A database from before the log").
Changes made in place before the log existed (damage marked, a willpower dot spent) left no
trace then and have none now.

The conversion is written out here as it stands today (a migration imports no live code); it
reads the historical models and writes in batches, oldest first.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db import migrations

BATCH = 2000
TEXT = 500

XP_TEXT = {"starting": "Starting XP: {amount} XP", "award": "Awarded {amount} XP: {reason}",
           "spend": "Spent {cost} XP: {reason}", "reversal": "Reversed: {reason}"}


def _cut(text: str) -> str:
    return text if len(text) <= TEXT else text[:TEXT - 1] + "…"


def _hidden(character: Any) -> bool:
    # Character.changes_gm_only as it stands: an NPC whose tracks the players do not see.
    return bool(character is not None and character.is_npc and character.npc_shown != "tracks")


def forward(apps: Any, schema_editor: Any) -> None:
    Activity = apps.get_model("history", "Activity")
    Roll = apps.get_model("rolls", "Roll")
    XpEntry = apps.get_model("characters", "XpEntry")
    alias = schema_editor.connection.alias
    batch: list[Any] = []

    def flush() -> None:
        Activity.objects.using(alias).bulk_create(batch)
        batch.clear()

    for roll in (Roll.objects.using(alias).select_related("character")
                 .order_by("created_at", "id").iterator(chunk_size=BATCH)):
        batch.append(Activity(
            campaign_id=roll.campaign_id, character_id=roll.character_id,
            actor_id=roll.rolled_by_id, kind="roll", action=roll.kind,
            text=_cut(f"{roll.description}: {roll.summary}"), changes=[],
            gm_only=roll.gm_only or _hidden(roll.character), roll_id=roll.pk,
            imported=roll.imported, created_at=roll.created_at, code=uuid.uuid4()))
        if len(batch) >= BATCH:
            flush()
    running: dict[int, tuple[int, int]] = {}
    for entry in (XpEntry.objects.using(alias).select_related("character")
                  .order_by("character_id", "created_at", "id").iterator(chunk_size=BATCH)):
        available, total = running.get(entry.character_id, (0, 0))
        after = (available + entry.available_delta, total + entry.total_delta)
        running[entry.character_id] = after
        changes = [[label, str(old), str(new)] for label, old, new in
                   (("XP available", available, after[0]), ("XP earned", total, after[1]))
                   if old != new]
        amount = entry.available_delta
        text = XP_TEXT.get(entry.kind, "{reason} ({amount:+d} XP)").format(
            amount=amount, cost=-(entry.available_delta + entry.banked_delta),
            back=entry.available_delta + entry.banked_delta, reason=entry.reason)
        action = {"starting": "create", "reversal": "undo"}.get(entry.kind, entry.kind)
        batch.append(Activity(
            campaign_id=entry.character.campaign_id, character_id=entry.character_id,
            actor_id=entry.created_by_id, kind="xp", action=action[:40], text=_cut(text),
            changes=changes, gm_only=_hidden(entry.character), imported=False,
            created_at=entry.created_at, code=uuid.uuid4()))
        if len(batch) >= BATCH:
            flush()
    flush()


class Migration(migrations.Migration):

    dependencies = [("history", "0001_initial")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop, elidable=False)]
