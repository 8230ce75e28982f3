"""The migrations that bring import review keep every existing row as it was: characters made
before are in play (no review), rolls made before were rolled here."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("characters", "0003_character_sheet"), ("rolls", "0007_roll_log_indexes")]
AFTER = [("characters", "0004_character_review_and_import_record"),
         ("rolls", "0008_roll_imported")]


@pytest.mark.django_db(transaction=True)
def test_existing_characters_stay_in_play_and_existing_rolls_stay_rolled_here() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    # The state of every other app as it stands (the campaign's columns of today), but those
    # built on characters or rolls (an app whose rows point at a character), which migrating
    # back to BEFORE took back before their first migration.
    graph = executor.loader.graph
    others = [node for node in graph.leaf_nodes()
              if not {app for app, _ in graph.forwards_plan(node)} & {"characters", "rolls"}]
    old = executor.loader.project_state([*BEFORE, *others]).apps
    user = old.get_model("auth", "User").objects.create(username="olduser")
    campaign = old.get_model("campaigns", "Campaign").objects.create(
        name="Old table", ruleset="maelstrom", created_by=user, invite_token="old-token")
    character = old.get_model("characters", "Character").objects.create(
        campaign=campaign, owner=user, name="Old Rook")
    roll = old.get_model("rolls", "Roll").objects.create(
        campaign=campaign, character=character, rolled_by=user, ruleset="maelstrom",
        kind="action", description="Precision + Driving", outcome="success",
        summary="1 success")

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    kept = new.get_model("characters", "Character").objects.get(pk=character.pk)
    assert (kept.name, kept.review) == ("Old Rook", "")
    assert not new.get_model("characters", "CharacterImport").objects.exists()
    kept_roll = new.get_model("rolls", "Roll").objects.get(pk=roll.pk)
    assert (kept_roll.summary, kept_roll.imported) == ("1 success", False)

    # Back to the latest state, as the rest of the suite expects.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
