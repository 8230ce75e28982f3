"""Maelstrom onto the shared roll storage (issue 15): every Maelstrom character's roll gets
its ``result`` (the engine's whole result, rebuilt from the dice columns) and every old
Maelstrom request its ``data`` and ``description`` (from its pool columns); then the dice and
request columns go.

Forward only, like characters 0005: the reverse refuses before touching anything while there
is a Maelstrom roll or request; restore the backup taken before upgrading instead
(docs/deploy.md, "Upgrading").
"""

from typing import Any

from django.db import migrations

from rolls.migrations._maelstrom_0009 import (
    Unreadable,
    is_full_result,
    request_from_columns,
    result_as_stored,
    result_from_columns,
)

_CHUNK = 2000
_BATCH = 1000


def _refuse(apps: Any, schema_editor: Any) -> None:
    """Going back would lose every Maelstrom roll's faces and request's pool: refused as soon
    as there is one (a database without them, e.g. a fresh one, goes back freely)."""
    Roll = apps.get_model("rolls", "Roll")
    RequestedRoll = apps.get_model("rolls", "RequestedRoll")
    if (Roll.objects.filter(ruleset="maelstrom").exists()
            or RequestedRoll.objects.filter(campaign__ruleset="maelstrom").exists()):
        raise RuntimeError(
            "rolls 0009 (Maelstrom onto the shared roll storage) is forward-only once there "
            "are Maelstrom rolls or requests: restore the database backup taken before the "
            "upgrade (docs/deploy.md, \"Upgrading\")."
        )


def _update(schema_editor: Any, model: Any, fields: tuple[str, ...],
            rows: list[tuple[Any, ...]]) -> None:
    """``UPDATE <table> SET <fields> WHERE id = ...`` once per row of ``rows`` (``(pk,
    *values)``), in one executemany. Not ``bulk_update``: measured on 10,000 rolls, it spent
    four fifths of its time building its CASE expressions in Python (about 4 s on PostgreSQL
    and SQLite alike, against 1.5 s and 0.4 s here). The values are adapted by the fields
    themselves, so the JSON goes in as each database takes it."""
    if not rows:
        return
    connection = schema_editor.connection
    quote = schema_editor.quote_name
    columns = [model._meta.get_field(name) for name in fields]
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        quote(model._meta.db_table),
        ", ".join(f"{quote(field.column)} = %s" for field in columns),
        quote(model._meta.pk.column),
    )
    params = [[field.get_db_prep_save(value, connection)
               for field, value in zip(columns, values, strict=True)] + [pk]
              for pk, *values in rows]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def results_from_columns(apps: Any, schema_editor: Any) -> None:
    """Fill ``Roll.result`` and ``pool`` of every Maelstrom roll whose result is not already
    whole (an NPC's quick roll's is), and ``RequestedRoll.data``/``description`` of every
    Maelstrom request that has no data (:mod:`rolls.migrations._maelstrom_0009`, this
    migration's own copy of the conversions)."""
    Roll = apps.get_model("rolls", "Roll")
    RequestedRoll = apps.get_model("rolls", "RequestedRoll")
    columns = ("pool", "dice", "bonus_dice", "experience_die", "net", "botches", "outcome",
               "summary")
    rolls = Roll.objects.filter(ruleset="maelstrom").order_by("pk").values_list(
        "pk", "result", *columns)
    pending: list[tuple[Any, ...]] = []
    for pk, stored, *values in rolls.iterator(chunk_size=_CHUNK):
        if is_full_result(stored):
            continue
        row = dict(zip(columns, values, strict=True))
        try:
            result = result_from_columns(row)
        except Unreadable:
            # No roll made here has a pool or face the engine cannot read; should an old
            # import have brought one, it is kept as stored rather than lost.
            result = result_as_stored(row)
        pending.append((pk, result, result["pool"]))
        if len(pending) >= _BATCH:
            _update(schema_editor, Roll, ("result", "pool"), pending)
            pending = []
    _update(schema_editor, Roll, ("result", "pool"), pending)

    requests = RequestedRoll.objects.filter(campaign__ruleset="maelstrom").order_by(
        "pk").values_list("pk", "data", "kind", "traits", "difficulty", "threshold")
    pending = []
    for pk, data, kind, traits, difficulty, threshold in requests.iterator(chunk_size=_CHUNK):
        if data:
            continue
        pending.append((pk, *request_from_columns(
            {"kind": kind, "traits": traits, "difficulty": difficulty,
             "threshold": threshold})))
    _update(schema_editor, RequestedRoll, ("data", "description"), pending)


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0003_campaign_system_data"),
        ("characters", "0005_maelstrom_sheet"),
        ("rolls", "0008_roll_imported"),
    ]

    operations = [
        migrations.RunPython(results_from_columns, migrations.RunPython.noop),
        migrations.RemoveField(model_name="roll", name="dice"),
        migrations.RemoveField(model_name="roll", name="bonus_dice"),
        migrations.RemoveField(model_name="roll", name="experience_die"),
        migrations.RemoveField(model_name="roll", name="botches"),
        migrations.RemoveField(model_name="requestedroll", name="kind"),
        migrations.RemoveField(model_name="requestedroll", name="traits"),
        migrations.RemoveField(model_name="requestedroll", name="difficulty"),
        migrations.RemoveField(model_name="requestedroll", name="threshold"),
        # Last, so that going back refuses before anything is undone.
        migrations.RunPython(migrations.RunPython.noop, _refuse),
    ]
