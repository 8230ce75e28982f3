"""An import is untrusted input (Sheetkeeper issue 14, section 2): every field of a document is
checked against its system's schema (transfer/schema.py, systems/*_schema.py), a
refusal names the field as a path and the rule, and nothing is written."""

from __future__ import annotations

import copy
import datetime
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from campaigns.models import Campaign
from characters.models import Character
from core.markdown import MAX_LENGTH
from systems.schema import import_schema
from tests.system_fixtures import fixtures_for, selectable_systems
from tests.transfer.conftest import put, refused
from transfer import checks, schema
from transfer.export import document_json, export_campaign, export_character
from transfer.imports import import_campaign, import_character
from transfer.validate import read_document

SYSTEMS = list(selectable_systems())


def of(demo: list[Campaign], ruleset: str) -> Campaign:
    return next(c for c in demo if c.ruleset == ruleset)


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = {"nested": value}
    return value


def at(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``document`` with ``value`` at ``path`` (``character.sheet.x``,
    ``rolls.0.pool``); a missing last key is added."""
    result = copy.deepcopy(document)
    put(result, path, value)
    return result


def character_file(demo: list[Campaign], ruleset: str) -> tuple[dict[str, Any], Character]:
    """A genuine export of the system's first demo character with rolls, and the character."""
    campaign = of(demo, ruleset)
    source = (campaign.characters.filter(rolls__isnull=False).order_by("pk").first()
              or campaign.characters.order_by("pk").first())
    return export_character(source), source


def into(source: Character) -> Callable[[Any], object]:
    return lambda document: import_character(document, source.campaign, source.owner)


# --- every genuine export passes ------------------------------------------------------------


def test_every_system_declares_its_schema() -> None:
    for slug in SYSTEMS:
        declared = import_schema(slug)
        assert declared.rolls, slug


def test_every_genuine_export_of_every_system_passes_the_schema(rich_demo: list[Campaign]
                                                                 ) -> None:
    for campaign in rich_demo:
        for document in [export_campaign(campaign),
                         *(export_character(c) for c in campaign.characters.all())]:
            schema.check_shape(document)
            schema.check_rows(document)
            schema.check_system_parts(document)


# --- the hostile documents of the issue -------------------------------------------------------


@pytest.mark.parametrize("ruleset", SYSTEMS)
def test_a_file_nested_900_deep_is_refused_naming_the_field(
        demo: list[Campaign], ruleset: str, nothing_written: None) -> None:
    """Before: a 16 KB file nested 900 deep was accepted and exported as 1.6 MB."""
    document, source = character_file(demo, ruleset)
    raw = json.dumps(at(document, "character.sheet.notes", nested(900))).encode()
    assert len(raw) < 25_000
    refused(lambda: into(source)(read_document(raw)),
            "character.sheet.notes.nested.nested", "nested deeper than 16 levels")


@pytest.mark.parametrize("ruleset", SYSTEMS)
def test_a_nul_character_in_a_name_is_refused(demo: list[Campaign], ruleset: str,
                                              nothing_written: None) -> None:
    """Before: stored on SQLite, a 500 (DataError) on PostgreSQL."""
    document, source = character_file(demo, ruleset)
    refused(lambda: into(source)(at(document, "character.name", "Ro\x00ok")),
            "at character.name", "control character U+0000")


@pytest.mark.parametrize("ruleset", SYSTEMS)
def test_an_unknown_key_in_a_sheet_is_refused(demo: list[Campaign], ruleset: str,
                                              nothing_written: None) -> None:
    document, source = character_file(demo, ruleset)
    refused(lambda: into(source)(at(document, "character.sheet.nickname", "Rooky")),
            "at character.sheet.nickname", "not in the format", "nothing unknown")


@pytest.mark.parametrize("ruleset", SYSTEMS)
@pytest.mark.parametrize("part", ["pool", "result"])
def test_an_unknown_key_in_a_roll_is_refused(demo: list[Campaign], ruleset: str, part: str,
                                             nothing_written: None) -> None:
    document, source = character_file(demo, ruleset)
    roll = next((i for i, r in enumerate(document["rolls"]) if r[part]), 0)
    refused(lambda: into(source)(at(document, f"rolls.{roll}.{part}.cheat", 1)),
            f"at rolls[{roll}].{part}.cheat", "not in the format")


@pytest.mark.parametrize("ruleset", SYSTEMS)
def test_a_die_face_that_does_not_exist_is_refused(demo: list[Campaign], ruleset: str,
                                                   nothing_written: None) -> None:
    # A die face its die does not have, in the system's own place for it (its fixtures').
    impossible = fixtures_for(ruleset).impossible_face
    assert impossible is not None, f"{ruleset}: tests/systems/{ruleset}/fixtures.py"
    document, source = character_file(demo, ruleset)
    path, value, where, rule = impossible
    refused(lambda: into(source)(at(document, path, value)), where, rule)


def test_a_die_size_the_system_does_not_use_is_refused(demo: list[Campaign],
                                                       nothing_written: None) -> None:
    document, source = character_file(demo, "shahquest")
    changed = at(document, "rolls.0.pool.dice.0.size", 7)
    refused(lambda: into(source)(changed), "rolls[0].pool.dice[0].size", "4, 6, 8, 10 or 12")


def test_a_face_above_its_die_is_refused(demo: list[Campaign], nothing_written: None) -> None:
    document, source = character_file(demo, "genesys")
    die = document["rolls"][0]["result"]["dice"][0]
    sides = {"boost": 6, "setback": 6, "ability": 8, "difficulty": 8}.get(die["die"], 12)
    if sides == 12:
        pytest.skip("the first die is a d12")
    changed = at(document, "rolls.0.result.dice.0.face", sides + 1)
    refused(lambda: into(source)(changed), "rolls[0].result.dice[0]",
            f"has {sides} faces, not a face {sides + 1}")


def test_a_roll_of_a_kind_the_system_never_makes_is_refused(demo: list[Campaign],
                                                            nothing_written: None) -> None:
    document, source = character_file(demo, "genesys")
    refused(lambda: into(source)(at(document, "rolls.0.kind", "soak")),
            "at rolls[0].kind", "never of kind 'soak'")


# --- dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["rolls.0.created_at", "character.created_at",
                                  "character.xp_entries.0.created_at", "exported_at"])
def test_a_time_in_the_future_is_refused(demo: list[Campaign], path: str,
                                         nothing_written: None) -> None:
    """A roll "made" in 2099 (issue 14, section 3) and any other time after the export."""
    document, source = character_file(demo, "maelstrom")
    where = re.sub(r"\.(\d+)", r"[\1]", path)
    refused(lambda: into(source)(at(document, path, "2099-01-01T12:00:00+00:00")),
            f"at {where}", "lies in the future")


def test_a_time_a_few_minutes_ahead_is_a_clock_running_fast(demo: list[Campaign]) -> None:
    document, source = character_file(demo, "maelstrom")
    ahead = (timezone.now() + datetime.timedelta(minutes=3)).isoformat()
    character = into(source)(at(document, "rolls.0.created_at", ahead))
    assert isinstance(character, Character)


def test_a_time_far_in_the_past_is_refused(demo: list[Campaign], nothing_written: None) -> None:
    document, source = character_file(demo, "maelstrom")
    refused(lambda: into(source)(at(document, "rolls.0.created_at",
                                    "0001-01-01T00:00:00+05:00")),
            "at rolls[0].created_at", "lies before 1900")


def test_a_session_dated_years_ahead_is_refused(rich_demo: list[Campaign],
                                                nothing_written: None) -> None:
    campaign = of(rich_demo, "genesys")
    document = at(export_campaign(campaign), "sessions.0.date", "2099-01-01")
    refused(lambda: import_campaign(document, campaign.created_by),
            "at sessions[0].date", "days in the future")


# --- text ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "value", "words"), [
    ("character.name", "   ", ("at character.name", "may not be empty")),
    ("character.name", "Ro\tok", ("at character.name", "one line")),
    ("character.concept", "a\nb", ("at character.concept", "one line")),
    ("character.name", "Ro\x1bok", ("control character U+001B",)),
    ("character.name", "Ro\ud800ok", ("U+D800, half of a character",)),
    ("character.concept", "x" * (schema.MAX_TEXT + 1), ("at character.concept",
                                                       "at most 20000")),
    ("character.concept", "x" * 201, ("'concept'", "at most 200 characters")),
    ("character.backstory", "x" * (MAX_LENGTH + 1), ("at character.backstory",
                                                    "at most 20000")),
    ("character.notes", "Owes Vex\x07", ("at character.notes", "U+0007")),
])
def test_text_that_is_not_a_name_is_refused(demo: list[Campaign], path: str, value: str,
                                            words: tuple[str, ...],
                                            nothing_written: None) -> None:
    document, source = character_file(demo, "maelstrom")
    refused(lambda: into(source)(at(document, path, value)), *words)


def test_a_campaign_without_a_name_is_refused(rich_demo: list[Campaign],
                                              nothing_written: None) -> None:
    campaign = of(rich_demo, "three_d6")
    document = at(export_campaign(campaign), "campaign.name", " ")
    refused(lambda: import_campaign(document, campaign.created_by),
            "at campaign.name", "may not be empty")


def test_written_text_keeps_its_lines(rich_demo: list[Campaign]) -> None:
    campaign = of(rich_demo, "genesys")
    lines = "Act one\n\tAct two\r\n"
    document = export_campaign(campaign)
    for path in ("sessions.0.recap", "characters.0.backstory", "characters.0.notes",
                 "characters.0.gm_notes", "campaign.description"):
        document = at(document, path, lines)
    imported = import_campaign(document, campaign.created_by)
    character = imported.characters.get()
    assert imported.sessions.order_by("pk")[0].recap == lines  # the file's first session
    assert (character.backstory, character.notes, character.gm_notes) == (lines,) * 3
    assert imported.description == lines


def test_written_text_at_the_markdown_limit_is_taken(rich_demo: list[Campaign]) -> None:
    campaign = of(rich_demo, "genesys")
    longest = "é" * MAX_LENGTH
    document = export_campaign(campaign)
    for path in ("sessions.0.recap", "characters.0.backstory", "characters.0.gm_notes"):
        document = at(document, path, longest)
    document = at(document, "campaign.description", "d" * 500)
    imported = import_campaign(document, campaign.created_by)
    assert imported.sessions.order_by("pk")[0].recap == longest  # the file's first session
    assert imported.characters.get().gm_notes == longest


@pytest.mark.parametrize(("path", "value", "words"), [
    ("sessions.0.recap", "x" * (MAX_LENGTH + 1), ("at sessions[0].recap", "at most 20000")),
    ("characters.0.gm_notes", "x" * (MAX_LENGTH + 1), ("at characters[0].gm_notes",
                                                       "at most 20000")),
    ("characters.0.notes", 42, ("'notes' must be text",)),
    ("characters.0.status", "lost", ("'status' must be one of", "retired, dead")),
    ("characters.0.status", "missing in action", ("'status'", "at most 8 characters")),
    ("characters.0.status", True, ("'status' must be text",)),
    ("characters.0.xp_entries.0.at_creation", 1, ("'at_creation' must be true or false",)),
    ("campaign.description", "d" * 501, ("'description'", "at most 500 characters")),
    ("campaign.description", "A\x00B", ("at campaign.description", "U+0000")),
    ("campaign.archived_at", "2099-01-01T12:00:00+00:00", ("at campaign.archived_at",
                                                           "lies in the future")),
    ("campaign.archived_at", "1899-12-31T12:00:00+00:00", ("at campaign.archived_at",
                                                           "before 1900")),
    ("campaign.archived_at", 20250101, ("'archived_at' must be a date and time",)),
])
def test_the_written_columns_of_a_wrong_type_or_too_long_are_refused(
        rich_demo: list[Campaign], path: str, value: Any, words: tuple[str, ...],
        nothing_written: None) -> None:
    campaign = of(rich_demo, "genesys")
    document = at(export_campaign(campaign), path, value)
    refused(lambda: import_campaign(document, campaign.created_by), *words)


# --- sizes and numbers --------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "value", "words"), [
    ("character.sheet.features", [{"name": "x"}] * 20_001, ("a list of 20001 entries",)),
    ("character.sheet.notes", {f"k{i}": 0 for i in range(201)}, ("an object of 201 keys",)),
    ("character.sheet.plot_points", 2.5, ("is a fraction",)),
    ("character.sheet.plot_points", float("nan"), ("is a fraction",)),
    ("character.sheet.plot_points", 10**30, ("is too large",)),
    ("rolls.0.pool.plot_points_spent", True, ("at rolls[0].pool.plot_points_spent",
                                              "valid integer")),
    ("character.xp_entries.0.rank_from", 40_000, ("rank_from", "32767")),
])
def test_sizes_and_numbers_out_of_bounds_are_refused(
        demo: list[Campaign], path: str, value: Any, words: tuple[str, ...],
        nothing_written: None) -> None:
    document, source = character_file(demo, "shahquest")
    refused(lambda: into(source)(at(document, path, value)), *words)


def test_a_number_of_thousands_of_digits_is_refused_not_crashed_on() -> None:
    refused(lambda: read_document(b'{"version": ' + b"9" * 5_000 + b"}"), "not valid JSON")


def test_the_page_check_still_guards_behind_the_schema(
        demo: list[Campaign], monkeypatch: pytest.MonkeyPatch, nothing_written: None) -> None:
    """Defence in depth: a result the schema let through is refused by the rules' check of
    its dice (transfer/checks.py, check_roll), and one that check lets through too but no
    page can draw is still refused, inside the import's transaction (check_rolls)."""
    monkeypatch.setattr(schema, "check_system_parts", lambda data: None)
    document, source = character_file(demo, "genesys")
    broken = at(document, "rolls.0.result.dice.0.symbols", -1)
    refused(lambda: into(source)(broken), "Roll 1", "is refused", "its die 1 claims the "
            "symbols -1")
    monkeypatch.setattr(checks, "check_roll", lambda roll, parent: None)
    refused(lambda: into(source)(broken), "A roll is refused", "cannot be read")


# --- through the page ----------------------------------------------------------------------------


HOSTILE = {
    "deep": ("character.sheet.notes", nested(900)),
    "nul": ("character.name", "Ro\x00ok"),
    "huge": ("character.concept", "x" * 300_000),
    "forged roll": ("rolls.0.created_at", "2099-01-01T12:00:00+00:00"),
    "unknown": ("character.sheet.nickname", "Rooky"),
}
REFUSED = ("The file is refused at character", "The file is refused at rolls[0]",
           # Read under a page's deeper stack, 900 levels may reach Python's recursion limit
           # in the JSON reader itself, which refuses the file as too deeply nested.
           "The file is not valid JSON: it is nested too deeply.")


@pytest.mark.parametrize("hostile", list(HOSTILE))
def test_the_import_page_answers_a_hostile_file_with_its_message(
        demo: list[Campaign], hostile: str, nothing_written: None) -> None:
    document, source = character_file(demo, "genesys")
    path, value = HOSTILE[hostile]
    raw = json.dumps(at(document, path, value)).encode()
    client = Client()
    client.force_login(source.owner)
    response = client.post(f"/campaigns/{source.campaign_id}/import-character/",
                           {"file": SimpleUploadedFile("x.sheetkeeper.json", raw)})
    assert response.status_code == 200
    assert any(reason in response.content.decode() for reason in REFUSED)


def test_an_accepted_file_exports_near_its_own_size(demo: list[Campaign]) -> None:
    document, source = character_file(demo, "shahquest")
    raw = document_json(document).encode()
    character = into(source)(read_document(raw))
    assert len(document_json(export_character(character)).encode()) < 2 * len(raw)
