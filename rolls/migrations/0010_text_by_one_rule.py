"""Mend stored text that today's rule for text refuses (core.text; docs/security.md, "Text").

Until this migration the web forms took any character, while an import refused control
characters: a backstory holding a bell (U+0007) or a pasted form feed exported, and the export
could not be imported back. Forms and imports now keep one rule. This migration brings the
text already stored under it, so that every export of this database imports:

* **Multi-line text** (a backstory, notes, GM notes, a recap, a campaign's description, a
  roll's description) and **every text inside a JSON column** (sheets, campaign data, rolls'
  pools and results, roll requests, import records): each control character other than tab
  and the line ends, and each mark that changes the text's direction (U+202E and its kin), is
  removed. Line breaks stay.
* **Lines** (names, titles, concepts, XP reasons, a roll's summary, a request's note): the
  same characters are removed, and each run of tabs and line breaks becomes one space.
* A name left empty by this (it held nothing else) becomes "Unnamed".

Nothing else changes: a row that keeps the rule is not written. Rolls and XP entries are
append-only for the app; their text is mended here as the data it is, their dice, XP and
outcomes untouched. The conversion is carried here as it was written (migrations import no
live code), so a later change of core.text does not change what this migration did.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import migrations

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_REFUSED = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff{_BIDI}]")
_LINE_ENDS = re.compile("[\t\n\r\u2028\u2029]+")

# (app, model): (line columns, multi-line columns, JSON columns, names that may not be empty)
_COLUMNS: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...],
                                      tuple[str, ...]]] = {
    ("campaigns", "Campaign"): (("name",), ("description",), ("system_data",), ("name",)),
    ("campaigns", "Session"): (("title",), ("recap",), (), ()),
    ("characters", "Character"): (("name", "concept"), ("backstory", "notes", "gm_notes"),
                                  ("sheet",), ("name",)),
    ("characters", "CharacterImport"): ((), (), ("sessions",), ()),
    ("characters", "XpEntry"): (("reason",), (), (), ()),
    ("rolls", "Roll"): (("summary",), ("description",), ("pool", "result"), ()),
    ("rolls", "RequestedRoll"): (("note", "description"), (), ("data",), ()),
}


def mend_text(value: str) -> str:
    """Multi-line text with the refused characters removed."""
    return _REFUSED.sub("", value)


def mend_line(value: str) -> str:
    """A line with the refused characters removed and each run of line ends made a space."""
    return _LINE_ENDS.sub(" ", mend_text(value))


def mend_json(value: Any) -> Any:
    """A JSON value with every text in it (keys too) mended as multi-line text."""
    if isinstance(value, str):
        return mend_text(value)
    if isinstance(value, list):
        return [mend_json(item) for item in value]
    if isinstance(value, dict):
        return {mend_text(key): mend_json(item) for key, item in value.items()}
    return value


def mend_stored_text(apps: Any, schema_editor: Any) -> None:
    """Write back each row whose text the rule refuses, mended; leave every other row."""
    for (app, name), (lines, texts, documents, names) in _COLUMNS.items():
        model = apps.get_model(app, name)
        columns = (*lines, *texts, *documents)
        for row in model.objects.only("pk", *columns).iterator(chunk_size=500):
            changed: dict[str, Any] = {}
            for column in columns:
                old = getattr(row, column)
                if old is None:
                    continue
                if column in lines:
                    new = mend_line(old)
                    if column in names and not new.strip():
                        new = "Unnamed"
                elif column in texts:
                    new = mend_text(old)
                else:
                    new = mend_json(old)
                if new != old:
                    changed[column] = new
            if changed:
                # A queryset update: the historical model's save() is plain, but an update
                # writes only the mended columns.
                model.objects.filter(pk=row.pk).update(**changed)


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0006_campaign_live_version"),
        ("characters", "0007_character_ordering_tie_break"),
        ("rolls", "0009_maelstrom_results"),
    ]

    operations = [migrations.RunPython(mend_stored_text, migrations.RunPython.noop,
                                       elidable=True)]
