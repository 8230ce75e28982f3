"""rolls 0010 mends the text stored before forms kept the rule for text (core.text;
Sheetkeeper issue 31, "A backup that cannot be restored"): a database whose backstories,
names, recaps, reasons and rolls hold control characters and direction marks exports a file
that imports.

The migration is data only, so its function runs here on the historical models of today's
schema (plain managers, as a migration has them: the roll log's append-only guard is the
app's, not the migration's), over a table built with the real services.
"""

from __future__ import annotations

import datetime
import importlib
import json
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from campaigns.models import Campaign, Session
from characters.models import Character, XpEntry
from characters.services import xp_award
from rolls.models import Roll
from table.services import session_create
from tests.system_fixtures import open_roll
from transfer.export import document_json, export_campaign
from transfer.imports import import_campaign

MIGRATION = importlib.import_module("rolls.migrations.0010_text_by_one_rule")

pytestmark = pytest.mark.django_db


def _historical() -> Any:
    executor = MigrationExecutor(connection)
    return executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps


@pytest.fixture
def old_text(alice: Any, bob: Any, campaign: Campaign, bobs_character: Character) -> Any:
    """The Drift as an older server stored it: every kind of text holding what forms took
    then and imports refuse."""
    session = session_create(campaign=campaign, date=datetime.date(2026, 11, 1))
    entry = xp_award(character=bobs_character, amount=2, reason="Saved the ship",
                     by=alice, session=session)
    roll = open_roll(bobs_character, by=bob)
    assert roll is not None
    # A text inside the roll's JSON (a Maelstrom result names its pool's traits).
    key = next(k for k, v in sorted(roll.pool.items()) if isinstance(v, str) and v)
    old = _historical()
    old.get_model("campaigns", "Campaign").objects.filter(pk=campaign.pk).update(
        name="The\x1b[31m Drift", description="Two lines\x0c\nof \u202etext")
    old.get_model("campaigns", "Session").objects.filter(pk=session.pk).update(
        title="Night\tone\nof two", recap="Bell\x07 and\n\x85next line")
    old.get_model("characters", "Character").objects.filter(pk=bobs_character.pk).update(
        name="\u202e\x07", concept="Smuggler\r\nwith a past",
        backstory="line\x07bell\n\tindented", notes="\x9bOwes Vex", gm_notes="\u2066hidden")
    old.get_model("characters", "XpEntry").objects.filter(pk=entry.pk).update(
        reason="Saved\x1b the ship")
    old.get_model("rolls", "Roll").objects.filter(pk=roll.pk).update(
        description=f"\x07{roll.description}",
        pool={**roll.pool, key: f"\x0b{roll.pool[key]}"})
    return {"session": session, "entry": entry, "roll": roll, "key": key}


def test_the_migration_mends_every_kind_of_text_as_its_docstring_says(
        campaign: Campaign, bobs_character: Character, old_text: Any) -> None:
    MIGRATION.mend_stored_text(_historical(), None)

    c = Campaign.objects.get(pk=campaign.pk)
    assert (c.name, c.description) == ("The[31m Drift", "Two lines\nof text")
    s = Session.objects.get(pk=old_text["session"].pk)
    assert (s.title, s.recap) == ("Night one of two", "Bell and\nnext line")
    ch = Character.objects.get(pk=bobs_character.pk)
    assert (ch.name, ch.concept, ch.backstory, ch.notes, ch.gm_notes) == (
        "Unnamed", "Smuggler with a past", "linebell\n\tindented", "Owes Vex", "hidden")
    assert XpEntry.objects.get(pk=old_text["entry"].pk).reason == "Saved the ship"
    roll = Roll.objects.get(pk=old_text["roll"].pk)
    assert roll.description == old_text["roll"].description
    assert roll.pool == old_text["roll"].pool
    assert (roll.net, roll.outcome) == (old_text["roll"].net, old_text["roll"].outcome)


def test_the_mended_campaign_exports_a_file_that_imports(alice: Any, campaign: Campaign,
                                                         old_text: Any) -> None:
    MIGRATION.mend_stored_text(_historical(), None)

    document = json.loads(document_json(export_campaign(Campaign.objects.get(pk=campaign.pk))))
    copy = import_campaign(document, alice, keep_users=True)

    assert copy.name == "The[31m Drift"
    assert Character.objects.get(campaign=copy).backstory == "linebell\n\tindented"


def test_rows_that_keep_the_rule_are_not_written(campaign: Campaign,
                                                 bobs_character: Character) -> None:
    before = Character.objects.get(pk=bobs_character.pk).updated_at

    MIGRATION.mend_stored_text(_historical(), None)

    assert Character.objects.get(pk=bobs_character.pk).updated_at == before
