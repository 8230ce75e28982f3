"""Maelstrom onto the shared sheet (issue 15): every Maelstrom character's traits, merits and
flaws and tracks move into ``Character.sheet``; then the ``Trait`` and ``MeritFlaw`` tables
and the seven track columns go, and the Willpower rule moves onto the sheet.

Forward only: going back would have to rebuild rows from sheets changed since, so the reverse
refuses before touching anything while there is a Maelstrom character; restore the backup
taken before upgrading instead (docs/deploy.md, "Upgrading").
"""

from typing import Any

from django.db import migrations, models
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.db.models.lookups import GreaterThanOrEqual, LessThanOrEqual

from characters.migrations._maelstrom_0005 import CHARACTER_COLUMNS, sheet_from_rows

_CHUNK = 2000


def _sheet_int(part: str, key: str) -> Cast:
    """``sheet[part][key]`` cast to an integer (a check constraint's operand)."""
    return Cast(KeyTextTransform(key, KeyTextTransform(part, "sheet")), models.IntegerField())


def _refuse(apps: Any, schema_editor: Any) -> None:
    """Going back would drop every Maelstrom sheet: refused as soon as there is one (a
    database without Maelstrom characters, e.g. a fresh one, goes back freely)."""
    Character = apps.get_model("characters", "Character")
    if Character.objects.filter(campaign__ruleset="maelstrom").exists():
        raise RuntimeError(
            "characters 0005 (Maelstrom onto the shared sheet) is forward-only once there "
            "are Maelstrom characters: restore the database backup taken before the upgrade "
            "(docs/deploy.md, \"Upgrading\")."
        )


def sheets_from_rows(apps: Any, schema_editor: Any) -> None:
    """Write every Maelstrom character's sheet from its Trait and MeritFlaw rows and its
    track columns (:func:`characters.migrations._maelstrom_0005.sheet_from_rows`, this
    migration's own copy of the conversion)."""
    Character = apps.get_model("characters", "Character")
    Trait = apps.get_model("characters", "Trait")
    MeritFlaw = apps.get_model("characters", "MeritFlaw")
    characters = Character.objects.filter(campaign__ruleset="maelstrom").order_by("pk")
    ids = list(characters.values_list("pk", flat=True))
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        traits: dict[int, list[dict[str, Any]]] = {pk: [] for pk in chunk}
        merits: dict[int, list[dict[str, Any]]] = {pk: [] for pk in chunk}
        # By id: the specialties in the order they were acquired.
        for row in Trait.objects.filter(character_id__in=chunk).order_by("pk").values():
            traits[row["character_id"]].append(row)
        for row in MeritFlaw.objects.filter(character_id__in=chunk).order_by("pk").values():
            merits[row["character_id"]].append(row)
        rows = list(Character.objects.filter(pk__in=chunk).only("pk", *CHARACTER_COLUMNS))
        for character in rows:
            columns = {name: getattr(character, name) for name in CHARACTER_COLUMNS}
            character.sheet = sheet_from_rows(columns, traits[character.pk],
                                              merits[character.pk])
        Character.objects.bulk_update(rows, ["sheet"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("campaigns", "0003_campaign_system_data"),
        ("characters", "0004_character_review_and_import_record"),
    ]

    operations = [
        migrations.RunPython(sheets_from_rows, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="character",
            name="willpower_current_within_permanent",
        ),
        migrations.RemoveField(model_name="character", name="willpower_permanent"),
        migrations.RemoveField(model_name="character", name="willpower_current"),
        migrations.RemoveField(model_name="character", name="health_bashing"),
        migrations.RemoveField(model_name="character", name="health_lethal"),
        migrations.RemoveField(model_name="character", name="health_aggravated"),
        migrations.RemoveField(model_name="character", name="dead"),
        migrations.RemoveField(model_name="character", name="huge_size"),
        migrations.DeleteModel(name="MeritFlaw"),
        migrations.DeleteModel(name="Trait"),
        # The rules the old columns kept (their check and unsigned types), on the sheet:
        # current Willpower within 0..permanent, health counts never negative. Cast to
        # integers on both sides: Django cannot compile the plain
        # sheet__willpower__current__lte=F("sheet__willpower__permanent") on SQLite.
        migrations.AddConstraint(
            model_name="character",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        LessThanOrEqual(_sheet_int("willpower", "current"),
                                        _sheet_int("willpower", "permanent")),
                        GreaterThanOrEqual(_sheet_int("willpower", "current"), 0),
                    ),
                    ("sheet__willpower__isnull", True),
                    _connector="OR",
                ),
                name="sheet_willpower_current_within_permanent",
            ),
        ),
        migrations.AddConstraint(
            model_name="character",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        GreaterThanOrEqual(_sheet_int("health", "bashing"), 0),
                        GreaterThanOrEqual(_sheet_int("health", "lethal"), 0),
                        GreaterThanOrEqual(_sheet_int("health", "aggravated"), 0),
                    ),
                    ("sheet__health__isnull", True),
                    _connector="OR",
                ),
                name="sheet_health_counts_not_negative",
            ),
        ),
        # Last, so that going back refuses before anything is undone.
        migrations.RunPython(migrations.RunPython.noop, _refuse),
    ]
