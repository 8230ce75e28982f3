"""history 0002 gives a database from before the activity log the entries of its rolls and
XP ledger, dated as they were made, GM-only where the roll was, with the XP they moved
(docs/history.md, "A database from before the log"). The migration is data only, so its
function runs here on the historical models of today's schema over rows made by the real
services, their log entries taken away first as an older database never had them."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from characters.services import xp_award
from history.models import Activity
from rolls.models import Roll
from tests.factories import CharacterFactory
from tests.system_fixtures import open_roll

MIGRATION = importlib.import_module("history.migrations.0002_rolls_and_ledger_before_the_log")

pytestmark = pytest.mark.django_db


def _historical() -> Any:
    executor = MigrationExecutor(connection)
    return executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps


def test_an_older_database_gets_its_rolls_and_ledger_in_the_log(
        alice: Any, bob: Any, campaign: Any, bobs_character: Any) -> None:
    xp_award(character=bobs_character, amount=2, reason="Saved the ship", by=alice)
    roll = open_roll(bobs_character, by=bob)
    assert roll is not None
    goon = CharacterFactory(campaign=campaign, owner=alice, name="Goon", is_npc=True)
    xp_award(character=goon, amount=1, reason="Survived", by=alice)
    old = _historical()
    # As the database stood before the log: no entry at all (the historical model has no
    # append-only guard, as in a migration).
    old.get_model("history", "Activity").objects.all().delete()

    MIGRATION.forward(old, connection.schema_editor())

    rolls = Activity.objects.filter(kind=Activity.Kind.ROLL)
    assert [(e.roll, e.actor, e.created_at, e.gm_only) for e in rolls] == [
        (roll, bob, roll.created_at, False)]
    awards = {e.character.name: e for e in Activity.objects.filter(action="award")}
    assert awards["Rook"].text == "Awarded 2 XP: Saved the ship"
    starting = bobs_character.xp_entries.get(kind="starting").available_delta
    assert awards["Rook"].changes[0] == ["XP available", str(starting), str(starting + 2)]
    assert awards["Goon"].gm_only  # a hidden NPC's ledger is the GM's
    assert Activity.objects.filter(kind=Activity.Kind.XP).count() == \
        bobs_character.xp_entries.count() + goon.xp_entries.count()
    assert Roll.objects.count() == 1
