"""The activity log travels with its campaign (issue 35, "Activity log": "exported and imported
with the campaign"; docs/backup.md, "The activity log"): every entry in a campaign's file, in
the order it was made, GM-only ones too; none in a character's file; an import writes them
as they were, marked imported (a character's import, which carries none, is logged in the
campaign it joins); a file from before carries none and imports with an empty log; a
malformed entry is refused naming its row."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.contrib.auth.models import User

from campaigns.models import Campaign
from characters import npcs
from characters import services as character_services
from characters.models import Character
from history.log import record
from history.models import Activity
from table.services import session_create
from tests.factories import UserFactory
from tests.system_fixtures import open_roll
from tests.transfer.conftest import drop, put, refused
from transfer import schema
from transfer.export import document_json, export_campaign, export_character
from transfer.imports import import_campaign, import_character, import_decide

pytestmark = pytest.mark.django_db

COLUMNS = ("kind", "action", "text", "changes", "gm_only", "created_at")


def through_a_file(document: dict[str, Any]) -> Any:
    return json.loads(document_json(document))


@pytest.fixture
def played(campaign: Campaign, alice: User, bob: User, bobs_character: Character
           ) -> Campaign:
    """The Drift after a night of play: a session, an award to Bob's Rook (its facts before
    and after), Bob's roll, a hidden NPC the GM made and rolled for in secret (GM-only
    entries and a GM-only roll), and a change the server wrote (no actor), with a line break
    in its text and a link to the session's page."""
    session = session_create(campaign=campaign, date=datetime.date(2025, 3, 14),
                             title="Night one")
    character_services.xp_award(character=bobs_character, amount=3, reason="Night one",
                                by=alice, session=session)
    assert open_roll(bobs_character, by=bob) is not None
    [goon] = npcs.npc_copy(source=bobs_character, by=alice, name="Goon")
    secret = open_roll(goon, by=alice)
    assert secret is not None and secret.gm_only
    record(campaign_id=campaign.pk, kind=Activity.Kind.SHEET, action="mend",
           text="Mended by the server:\nthe track was out of range.", by=None,
           character=bobs_character, changed=[["Health", "Dead", "Bruised"]],
           link=session.get_absolute_url())
    return campaign


def log(campaign: Campaign) -> list[Activity]:
    return list(Activity.objects.filter(campaign=campaign)
                .select_related("actor", "character", "roll").order_by("pk"))


def test_a_campaign_file_carries_its_whole_log_in_order_gm_only_entries_too(
        played: Campaign) -> None:
    entries = log(played)
    assert any(e.gm_only for e in entries) and any(e.link for e in entries)
    document = export_campaign(played)
    exported = document["activity"]
    assert [[row[c] for c in COLUMNS] for row in exported] == [
        [e.kind, e.action, e.text, e.changes, e.gm_only, e.created_at.isoformat()]
        for e in entries]
    names = {c["id"]: c["name"] for c in document["characters"]}
    assert [(names.get(row["character"]), row["actor"]) for row in exported] == [
        (e.character.name if e.character else None,
         e.actor.username if e.actor else None) for e in entries]
    rolls = {r["id"]: r["description"] for r in document["rolls"]}
    assert [rolls.get(row["roll"]) for row in exported] == [
        e.roll.description if e.roll else None for e in entries]
    # The path of this server's page and the entry's code stay here.
    assert not {"link", "code", "id"} & {key for row in exported for key in row}


def test_a_campaign_comes_back_with_its_log_as_it_was_marked_imported(
        played: Campaign, alice: User) -> None:
    source = log(played)
    dana = UserFactory(username="dana")
    restored = import_campaign(through_a_file(export_campaign(played)), dana)
    copied = log(restored)
    assert [[getattr(e, c) for c in COLUMNS] for e in copied] == [
        [getattr(e, c) for c in COLUMNS] for e in source]
    assert all(e.imported for e in copied)
    # Users do not travel: the importer made every change but the server's own.
    assert [e.actor for e in copied] == [None if e.actor is None else dana for e in source]
    assert [e.character.name if e.character else None for e in copied] == [
        e.character.name if e.character else None for e in source]
    for new, old in zip(copied, source, strict=True):
        assert new.link == "" and new.code != old.code
        assert (new.character is None or new.character.campaign == restored)
        if old.roll is None:
            assert new.roll is None
        else:
            assert new.roll is not None and new.roll.campaign == restored
            assert (new.roll.description, new.roll.created_at, new.roll.gm_only) == (
                old.roll.description, old.roll.created_at, old.roll.gm_only)
    # The import adds nothing of its own: exported again, the file is the same.
    assert len(copied) == len(source)


def test_the_administrators_import_gives_each_change_back_to_its_maker(
        played: Campaign, alice: User, bob: User) -> None:
    restored = import_campaign(through_a_file(export_campaign(played)), alice,
                               keep_users=True)
    copied = log(restored)
    assert [e.actor for e in copied] == [e.actor for e in log(played)]
    assert {e.actor for e in copied} == {alice, bob, None}


def test_a_players_history_of_the_restored_campaign_holds_nothing_gm_only(
        played: Campaign, bob: User) -> None:
    restored = import_campaign(through_a_file(export_campaign(played)), played.created_by,
                               keep_users=True)
    assert Activity.objects.filter(campaign=restored, gm_only=True).count() == (
        Activity.objects.filter(campaign=played, gm_only=True).count()) > 0
    seen = Activity.objects.filter(campaign=restored).visible_to(
        user_id=bob.pk, is_gm=False, party_sheets=restored.party_sheets)
    assert seen.exists() and not seen.filter(gm_only=True).exists()
    assert not seen.filter(roll__gm_only=True).exists()


def test_a_character_file_carries_no_activity_and_a_file_that_brings_some_is_refused(
        played: Campaign, bob: User, bobs_character: Character, nothing_written: None
        ) -> None:
    rook = Character.objects.get(pk=bobs_character.pk)
    for for_gm in (True, False):
        assert "activity" not in export_character(rook, for_gm=for_gm)
    document = export_character(rook)
    document["activity"] = export_campaign(played)["activity"]
    refused(lambda: import_character(through_a_file(document), played, bob),
            "The file has 'activity', which format version 3 does not have.")


def test_a_character_import_and_the_gms_decision_are_logged(
        played: Campaign, alice: User, bob: User, bobs_character: Character) -> None:
    rook = Character.objects.get(pk=bobs_character.pk)
    imported = import_character(through_a_file(export_character(rook)), played, bob)
    entry = Activity.objects.filter(character=imported).get()
    assert (entry.kind, entry.action, entry.actor, entry.text, entry.imported) == (
        Activity.Kind.CHARACTER, "import", bob, "Imported Rook from a file: it awaits the GM.",
        False)
    import_decide(character=imported, accept=False, by=alice)
    decision = Activity.objects.filter(character=imported).latest("pk")
    assert (decision.action, decision.actor, decision.text) == (
        "refuse", alice, "Refused Rook, imported from a file: it stays as a record, never in "
                         "play.")


def test_a_campaign_file_from_before_the_log_travelled_imports_with_an_empty_log(
        played: Campaign) -> None:
    document = through_a_file(export_campaign(played))
    del document["activity"]
    restored = import_campaign(document, UserFactory(username="dana"))
    assert log(restored) == []
    assert export_campaign(restored)["activity"] == []


def test_an_empty_log_is_a_log(played: Campaign) -> None:
    document = through_a_file(export_campaign(played))
    document["activity"] = []
    restored = import_campaign(document, UserFactory(username="dana"))
    assert log(restored) == []


def test_the_log_may_run_past_the_limit_of_every_other_list() -> None:
    """A campaign logs more changes than it has rolls: its log alone may pass MAX_LIST."""
    schema.check_shape({"activity": [0] * (schema.MAX_LIST + 1)})
    with pytest.raises(schema.SchemaError, match="at most 20000"):
        schema.check_shape({"rolls": [0] * (schema.MAX_LIST + 1)})
    with pytest.raises(schema.SchemaError, match=f"at most {schema.MAX_ACTIVITY}"):
        schema.check_shape({"activity": [0] * (schema.MAX_ACTIVITY + 1)})


def first_roll_entry(document: dict[str, Any], *, gm_only: bool) -> int:
    """The index of the first entry recording a roll, GM-only or not."""
    return next(i for i, row in enumerate(document["activity"])
                if row["roll"] is not None and row["gm_only"] is gm_only)


def far_future() -> str:
    return (datetime.datetime.now(datetime.UTC) + datetime.timedelta(days=2)).isoformat()


# Each: where in the first entry (or in the entry a function finds), the value put there
# (``drop`` for a key taken out), and the words of the refusal.
DROP = object()
MALFORMED: dict[str, tuple[Any, Any, str]] = {
    "an unknown kind": (
        "kind", "gossip", "Activity entry 1: 'kind' must be one of sheet, xp, roll"),
    "text past its column": (
        "text", "x" * 501, "Activity entry 1: 'text': Ensure this value has at most 500"),
    "text with a control character": (
        "text", "Marked\x00 2 lethal.", "activity[0].text"),
    "an action that is not a slug": (
        "action", "mark damage", "activity[0].action"),
    "a change of two texts": (
        "changes", [["Health", "Bruised"]], "activity[0].changes[0]"),
    "a change that is not text": (
        "changes", [["XP available", 4, 7]], "activity[0].changes[0][1]"),
    "changes that are not a list": (
        "changes", {"XP available": "7"}, "Activity entry 1: 'changes' must be a list."),
    "too many changes": (
        "changes", [["a", "", "b"]] * (schema.MAX_CHANGES + 1), "activity[0].changes"),
    "a time in the future": (
        "created_at", far_future(), "activity[0].created_at: lies in the future"),
    "an actor that is no username": (
        "actor", "", "Activity entry 1's 'actor' must be a username."),
    "a character not in the file": (
        "character", 99, "Activity entry 1's 'character' names 99, which is not listed"),
    "a roll not in the file": (
        "roll", 99, "Activity entry 1's 'roll' names 99, which is not listed"),
    "a key the format does not have": (
        "link", "/campaigns/1/", "Activity entry 1 has 'link', which format version 3 does "
                                 "not have."),
    "a missing column": ("gm_only", DROP, "Activity entry 1 lacks 'gm_only'."),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_a_malformed_entry_is_refused_naming_its_row(played: Campaign, case: str,
                                                     nothing_written: None) -> None:
    key, value, words = MALFORMED[case]
    document = through_a_file(export_campaign(played))
    if value is DROP:
        drop(document, ["activity", 0, key])
    else:
        put(document, ["activity", 0, key], value)
    refused(lambda: import_campaign(document, UserFactory.build()), words)


def test_an_entry_about_a_gm_only_roll_must_be_gm_only(played: Campaign,
                                                       nothing_written: None) -> None:
    document = through_a_file(export_campaign(played))
    i = first_roll_entry(document, gm_only=True)
    document["activity"][i]["gm_only"] = False
    refused(lambda: import_campaign(document, UserFactory.build()),
            f"Activity entry {i + 1} records roll", "a GM-only roll, and is not GM-only")


def test_an_entry_about_a_roll_names_the_rolls_own_character(played: Campaign,
                                                             nothing_written: None) -> None:
    document = through_a_file(export_campaign(played))
    i = first_roll_entry(document, gm_only=False)
    roll = next(r for r in document["rolls"] if r["id"] == document["activity"][i]["roll"])
    document["activity"][i]["character"] = next(
        c["id"] for c in document["characters"] if c["id"] != roll["character"])
    refused(lambda: import_campaign(document, UserFactory.build()),
            f"Activity entry {i + 1} records roll {roll['id']}, a roll of another character.")

