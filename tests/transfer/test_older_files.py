"""Every file an earlier Sheetkeeper exported still imports (docs/backup.md).

``tests/transfer/v1/`` holds the five demo campaigns and one character of each system,
exported by the release before the import schema and the ``imported`` mark on rolls
(commit 28bdd72, format version 1). Those files have no ``imported`` key on their rolls: the
schema must take them as they are, and the import still marks every roll it brings as
imported (a file never vouches for a roll).

``tests/transfer/v2/`` holds the five rich demo campaigns (tests/transfer/conftest.py: a
session with notes, an award linked to it, an undone spend, a GM-only NPC roll, follow-ups,
requests) and the first character of each, as its owner exports it, exported by the last
release that wrote format version 2 (commit 3037b81). They have no description, archive
date, backstory, notes, GM notes or status, nor a creation mark on ledger entries, and call a
session's recap its ``notes``: each arrives with the new columns at what the file stands for
and the notes in the recap.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import systems
from campaigns.models import Membership
from characters.models import Character, CharacterImport, XpEntry
from rolls.models import Roll
from rulesets import maelstrom
from systems.maelstrom.sheet import health, willpower
from tests.factories import CampaignFactory, UserFactory
from transfer.export import document_json, export_campaign, export_character
from transfer.format import VERSION
from transfer.imports import import_campaign, import_character
from transfer.validate import read_document

V1 = Path(__file__).parent / "v1"
V2 = Path(__file__).parent / "v2"
SYSTEMS = ("maelstrom", "shahquest", "shattered_world", "genesys", "three_d6")

pytestmark = pytest.mark.django_db


def v1_file(slug: str, kind: str) -> Any:
    return read_document((V1 / f"{slug}-{kind}.sheetkeeper.json").read_bytes())


def test_the_fixtures_are_files_from_before_the_imported_mark() -> None:
    for path in sorted(V1.glob("*.sheetkeeper.json")):
        document = json.loads(path.read_text())
        assert document["version"] == 1
        assert document["rolls"], f"{path.name} brings rolls"
        assert all("imported" not in roll for roll in document["rolls"]), path.name
    assert len(list(V1.glob("*.sheetkeeper.json"))) == 2 * len(SYSTEMS)


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_version_1_campaign_file_imports_with_every_roll_marked_imported(slug: str) -> None:
    document = v1_file(slug, "campaign")
    gm = UserFactory(username="restorer")

    campaign = import_campaign(document, gm)

    assert campaign.ruleset == slug
    assert campaign.characters.count() == len(document["characters"])
    assert Roll.objects.filter(campaign=campaign).count() == len(document["rolls"])
    assert not Roll.objects.filter(campaign=campaign, imported=False).exists()
    for character in campaign.characters.all():
        assert character.in_play, "the GM's own file is theirs to vouch for"


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_version_1_character_file_imported_by_a_player_awaits_the_gm(slug: str) -> None:
    document = v1_file(slug, "character")
    gm, player = UserFactory(username="gm"), UserFactory(username="player")
    campaign = CampaignFactory(ruleset=slug, created_by=gm)
    Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)

    character = import_character(document, campaign, player)

    assert character.review == Character.Review.PENDING
    assert character.name == document["character"]["name"]
    rolls = Roll.objects.filter(character=character)
    assert rolls.count() == sum(1 for r in document["rolls"] if r["character"] is not None)
    assert not rolls.filter(imported=False).exists()


# --- Maelstrom's own data of version 1 --------------------------------------------------------
# Version 1 kept a Maelstrom sheet in trait rows, merits and flaws and track columns, a
# character's roll's faces in its dice columns and a request's pool in its columns: each
# arrives in the shared storage (the sheet, the roll's result, the request's data and
# description) with the same values.


def ranks(traits: list[dict[str, Any]], kind: str) -> dict[str, int]:
    return {t["name"]: t["dots"] for t in traits if t["kind"] == kind}


def assert_sheet_holds(character: Character, row: dict[str, Any]) -> None:
    """The imported sheet holds every value of the version 1 character ``row``."""
    sheet = character.sheet
    assert sheet["attributes"] == ranks(row["traits"], "attribute")
    assert {name: dots for name, dots in sheet["abilities"].items() if dots} == {
        name: dots for name, dots in ranks(row["traits"], "ability").items() if dots}
    assert set(sheet["abilities"]) == set(maelstrom.ABILITIES)
    assert sheet["specialties"] == [
        {"ability": t["ability"], "name": t["name"], "advanced": t["advanced"]}
        for t in row["traits"] if t["kind"] == "specialty"]
    assert sheet["merits_flaws"] == sorted(row["merits_flaws"],
                                           key=lambda m: (m["kind"], m["name"]))
    assert willpower(sheet) == (row["willpower_permanent"], row["willpower_current"])
    chart = health(sheet)
    assert (chart.bashing, chart.lethal, chart.aggravated, chart.dead, chart.huge_size) == (
        row["health_bashing"], row["health_lethal"], row["health_aggravated"], row["dead"],
        row["huge_size"])
    assert (character.name, character.xp_available, character.xp_total) == (
        row["name"], row["xp_available"], row["xp_total"])


def assert_roll_holds(roll: Roll, row: dict[str, Any]) -> None:
    """The imported roll keeps every value of the version 1 roll ``row``: its faces in its
    result, its outcome as recorded."""
    assert (roll.kind, roll.description, roll.outcome, roll.net, roll.summary) == (
        row["kind"], row["description"], row["outcome"], row["net"], row["summary"])
    if row["result"]:  # an NPC's quick roll kept its whole result already
        assert (roll.pool, roll.result) == (row["pool"], row["result"])
        return
    assert roll.pool == row["pool"] == roll.result["pool"]
    assert (roll.result["dice"], roll.result["bonus_dice"], roll.result["experience_die"]) == (
        row["dice"], row["bonus_dice"], row["experience_die"])
    assert roll.result["resolution"]["botches"] == row["botches"]
    # The engine reads the stored result back as the roll it was.
    maelstrom.RollResult.from_dict(roll.result)


def test_a_version_1_maelstrom_campaign_arrives_with_every_value_in_its_sheets() -> None:
    document = v1_file("maelstrom", "campaign")

    campaign = import_campaign(document, UserFactory(username="restorer"))

    characters = list(campaign.characters.order_by("pk"))
    assert [c.name for c in characters] == ["Ana Reyes", "Ben Okafor"]
    for character, row in zip(characters, document["characters"], strict=True):
        assert_sheet_holds(character, row)
        assert len(row["traits"]) > 6 and row["merits_flaws"], "the file brings rows"
        assert character.xp_entries.count() == len(row["xp_entries"])
    for roll, row in zip(campaign.rolls.order_by("pk"), document["rolls"], strict=True):
        assert_roll_holds(roll, row)


def test_a_version_1_maelstrom_character_arrives_with_every_value_in_its_sheet(
        campaign: Any, bob: Any) -> None:
    document = v1_file("maelstrom", "character")

    character = import_character(document, campaign, bob)

    assert_sheet_holds(character, document["character"])
    for roll, row in zip(character.rolls.order_by("pk"), document["rolls"], strict=True):
        assert_roll_holds(roll, row)
    assert CharacterImport.objects.get(character=character).file_version == 1


def old_roll(document: dict[str, Any], **columns: Any) -> dict[str, Any]:
    """A roll row as version 1 wrote it, its outcome as the engine resolved its faces."""
    result = maelstrom.RollResult.from_dict({key: columns[key] for key in (
        "pool", "dice", "bonus_dice", "experience_die")})
    resolution = result.resolution
    return {"id": len(document["rolls"]) + 1, "character": None, "parent": None,
            "rolled_by": "demo-gm", "ruleset": "maelstrom", "description": "An old roll",
            "outcome": resolution.outcome, "net": resolution.net,
            "botches": resolution.botches, "summary": result.summary(), "result": {},
            "gm_only": False, "created_at": document["exported_at"], **columns}


def richer_version_1(document: dict[str, Any]) -> dict[str, Any]:
    """The version 1 demo campaign with what a table adds and the demo lacks, written as
    version 1 wrote it: an experience die and a willpower spend (follow-ups keeping their
    roll's faces in their own columns), an NPC's quick roll (its whole result kept), an
    answered and an open request (their pools in columns)."""
    document = copy.deepcopy(document)
    rolls = document["rolls"]
    action, willpower_roll = rolls[0], rolls[3]
    assert (action["kind"], willpower_roll["kind"]) == ("action", "willpower")
    rolls.append(old_roll(
        document, character=action["character"], parent=action["id"],
        rolled_by=action["rolled_by"], kind="experience_die", description=action["description"],
        pool=action["pool"], dice=action["dice"], bonus_dice=action["bonus_dice"],
        # Its pool explodes: the die's 10 brought two bonus dice (Using Specialties).
        experience_die=[10, 7, 3]))
    spend = old_roll(
        document, character=willpower_roll["character"], parent=willpower_roll["id"],
        rolled_by=willpower_roll["rolled_by"], kind="willpower_spend",
        description=willpower_roll["description"], pool=willpower_roll["pool"],
        dice=willpower_roll["dice"], bonus_dice=[], experience_die=[])
    spend.update(outcome="success", net=4, summary="4 successes (willpower spent)")
    rolls.append(spend)
    npc = maelstrom.roll(maelstrom.quick_roll("5 dice diff 7 threshold 1"), random.Random(5))
    rolls.append({**old_roll(document, pool=npc.pool.as_dict(), dice=[], bonus_dice=[],
                             experience_die=[]),
                  "kind": "npc", "result": npc.as_dict(), "gm_only": True,
                  "description": "NPC: 5 dice diff 7 threshold 1",
                  "outcome": npc.resolution.outcome, "net": npc.resolution.net,
                  "botches": 0, "summary": npc.summary()})
    request = {"character": action["character"], "requested_by": "demo-gm", "note": "",
               "data": {}, "description": "", "created_at": document["exported_at"]}
    document["requested_rolls"] = [
        {**request, "answer": action["id"], "kind": "action",
         "traits": ["Precision", "Driving"], "difficulty": 6, "threshold": 0,
         "note": "Lose them in the docks"},
        {**request, "character": willpower_roll["character"], "answer": None,
         "kind": "willpower", "traits": [], "difficulty": 8, "threshold": 1},
    ]
    return document


def test_a_version_1_maelstrom_campaign_brings_its_follow_ups_npc_rolls_and_requests(
        ) -> None:
    document = richer_version_1(v1_file("maelstrom", "campaign"))

    campaign = import_campaign(document, UserFactory(username="restorer"))

    rolls = list(campaign.rolls.order_by("pk"))
    for roll, row in zip(rolls, document["rolls"], strict=True):
        assert_roll_holds(roll, row)
    experience, spend, npc = rolls[-3:]
    assert experience.parent == rolls[0] and experience.result["experience_die"] == [10, 7, 3]
    assert spend.parent == rolls[3] and spend.result == rolls[3].result
    assert npc.character is None and npc.gm_only
    asked = list(campaign.requested_rolls.order_by("pk"))
    assert [(q.data, q.description, q.note, q.answer) for q in asked] == [
        ({"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
          "threshold": "0"}, "Precision + Driving, difficulty 6", "Lose them in the docks",
         rolls[0]),
        ({"kind": "willpower", "trait": [], "difficulty": "8", "threshold": "1"},
         "Willpower, difficulty 8, threshold 1", "", None),
    ]


@pytest.mark.parametrize("kind", ["campaign", "character"])
def test_a_version_1_file_exports_as_the_current_version_and_comes_back_the_same(
        kind: str, campaign: Any, bob: Any) -> None:
    document = v1_file("maelstrom", kind)
    if kind == "campaign":
        document = richer_version_1(document)
        first = export_campaign(import_campaign(document, bob))
        again = export_campaign(import_campaign(json.loads(document_json(first)), bob))
    else:
        first = export_character(import_character(document, campaign, bob))
        again = export_character(import_character(json.loads(document_json(first)),
                                                  campaign, bob))
    assert first["version"] == again["version"] == VERSION == 3
    assert {k: v for k, v in again.items() if k != "exported_at"} == {
        k: v for k, v in first.items() if k != "exported_at"}
    for row in [first["character"]] if kind == "character" else first["characters"]:
        assert not {"traits", "merits_flaws", "willpower_current", "dead"} & set(row)
    for roll in first["rolls"]:
        assert not {"dice", "bonus_dice", "experience_die", "botches"} & set(roll)


# --- the columns format version 3 added, in older files ------------------------------------
# No description, not archived, nothing written, in the party; a ledger entry came with its
# character's creation when only a creation writes its kind (as the migration marked the rows
# already stored, in the system's own list of those kinds); a session's notes are its recap.


def v2_file(slug: str, kind: str) -> Any:
    return read_document((V2 / f"{slug}-{kind}.sheetkeeper.json").read_bytes())


def assert_defaulted(character: Character) -> None:
    """The character has what a file before version 3 stands for."""
    assert (character.backstory, character.notes, character.gm_notes) == ("", "", "")
    assert character.status == Character.Status.ACTIVE and not character.is_retired
    kinds = systems.for_campaign(character.campaign).creation_entry_kinds
    for kind, at_creation in character.xp_entries.values_list("kind", "at_creation"):
        assert at_creation == (kind in kinds), kind


def test_the_v2_fixtures_are_version_2_files_with_sessions_notes() -> None:
    paths = sorted(V2.glob("*.sheetkeeper.json"))
    assert len(paths) == 2 * len(SYSTEMS)
    for path in paths:
        document = json.loads(path.read_text())
        assert document["version"] == 2, path.name
        characters = ([document["character"]] if document["kind"] == "character"
                      else document["characters"])
        assert document["sessions"] and all("notes" in s and "recap" not in s
                                            for s in document["sessions"]), path.name
        for row in characters:
            assert not {"backstory", "notes", "gm_notes", "status"} & set(row), path.name
            assert all("at_creation" not in e for e in row["xp_entries"]), path.name
        if document["kind"] == "campaign":
            assert not {"description", "archived_at"} & set(document["campaign"])


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_version_2_campaign_file_imports_with_the_new_columns_at_their_defaults(
        slug: str) -> None:
    document = v2_file(slug, "campaign")

    campaign = import_campaign(document, UserFactory(username="restorer"))

    assert campaign.ruleset == slug
    assert (campaign.description, campaign.archived_at) == ("", None)
    assert campaign.invite_token, "not archived: a fresh invite link"
    assert [s.recap for s in campaign.sessions.order_by("pk")] == [
        s["notes"] for s in document["sessions"]]
    assert campaign.sessions.get().recap == "The heist goes wrong."
    characters = list(campaign.characters.order_by("pk"))
    assert [c.name for c in characters] == [c["name"] for c in document["characters"]]
    for character, row in zip(characters, document["characters"], strict=True):
        assert_defaulted(character)
        assert character.in_play
        assert character.xp_entries.count() == len(row["xp_entries"])
        assert character.xp_entries.filter(session__isnull=False).exists() == any(
            e["session"] for e in row["xp_entries"])
    assert campaign.rolls.count() == len(document["rolls"])
    assert not campaign.rolls.filter(imported=False).exists()
    assert campaign.requested_rolls.count() == len(document["requested_rolls"])


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_version_2_character_file_imported_by_a_player_awaits_the_gm_with_the_defaults(
        slug: str) -> None:
    document = v2_file(slug, "character")
    gm, player = UserFactory(username="gm"), UserFactory(username="player")
    campaign = CampaignFactory(ruleset=slug, created_by=gm)
    Membership.objects.create(campaign=campaign, user=player, role=Membership.Role.PLAYER)

    character = import_character(document, campaign, player)

    assert character.review == Character.Review.PENDING
    assert character.name == document["character"]["name"]
    assert_defaulted(character)
    assert character.unlinked_awards == 1, "its award's session was another campaign's"
    record = CharacterImport.objects.get(character=character)
    assert record.file_version == 2
    assert record.sessions == [{"date": "2025-03-14", "title": "Night one", "linked": False}]


@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_version_1_file_imports_with_the_new_columns_at_their_defaults(slug: str) -> None:
    campaign = import_campaign(v1_file(slug, "campaign"), UserFactory(username="restorer"))

    assert (campaign.description, campaign.archived_at) == ("", None)
    for character in campaign.characters.all():
        assert_defaulted(character)
    if slug == "maelstrom":  # the others' demo characters of then had no ledger yet
        entries = XpEntry.objects.filter(character__campaign=campaign)
        assert set(entries.filter(at_creation=True).values_list("kind", flat=True)) == {
            "starting", "flaw", "merit"}


@pytest.mark.parametrize("kind", ["campaign", "character"])
@pytest.mark.parametrize("slug", SYSTEMS)
def test_a_version_2_file_exports_as_the_current_version_and_comes_back_the_same(
        slug: str, kind: str) -> None:
    document = v2_file(slug, kind)
    gm = UserFactory(username="gm")
    if kind == "campaign":
        first = export_campaign(import_campaign(document, gm))
        again = export_campaign(import_campaign(json.loads(document_json(first)), gm))
    else:
        campaign = CampaignFactory(ruleset=slug, created_by=gm)  # seats gm as its GM
        first = export_character(import_character(document, campaign, gm))
        again = export_character(import_character(json.loads(document_json(first)),
                                                  campaign, gm))
    assert first["version"] == again["version"] == VERSION == 3
    assert {k: v for k, v in again.items() if k != "exported_at"} == {
        k: v for k, v in first.items() if k != "exported_at"}
    if kind == "campaign":  # a character import adds no session to its campaign
        assert [s["recap"] for s in first["sessions"]] == [
            s["notes"] for s in document["sessions"]]
    assert all("notes" not in s for s in first["sessions"])
    for row in [first["character"]] if kind == "character" else first["characters"]:
        assert (row["backstory"], row["notes"], row["gm_notes"], row["status"]) == (
            "", "", "", "")
