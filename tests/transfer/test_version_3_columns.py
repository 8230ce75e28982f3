"""What format version 3 carries (Sheetkeeper issue 16): a campaign's description and archive
date, a character's backstory, notes, GM notes and status, a session's recap and the ledger's
creation mark, losslessly; and GM notes only ever in the GM's files and the GM's imports."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Membership
from characters.models import Character, XpEntry
from tests.factories import UserFactory
from tests.transfer.conftest import BACKSTORY, GM_NOTES, NOTES, RECAP
from tests.transfer.test_round_trip import as_imported_by, comparable, through_a_file
from transfer.export import document_json, export_campaign, export_character
from transfer.format import VERSION
from transfer.imports import import_campaign, import_character, import_decide

pytestmark = pytest.mark.django_db

SECRET = "Rook sold out the crew — the GM's secret ✦ «never tell»"
"""A GM note no player's file may hold."""


def upload(document: Any) -> SimpleUploadedFile:
    return SimpleUploadedFile("x.sheetkeeper.json", document_json(document).encode(),
                              content_type="application/json")


def written_out(text: str) -> bytes:
    """``text`` as an export writes it: a JSON string, its characters as UTF-8."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode()


def holds(raw: bytes, text: str) -> bool:
    """Whether a file's bytes hold ``text``, as an export writes it or in JSON's ASCII
    escapes."""
    return written_out(text) in raw or json.dumps(text)[1:-1].encode() in raw


@pytest.fixture
def written(bobs_character: Character) -> Character:
    """Rook, with everything Bob and Alice have written about him."""
    Character.objects.filter(pk=bobs_character.pk).update(
        backstory=BACKSTORY, notes=NOTES, gm_notes=SECRET)
    return Character.objects.get(pk=bobs_character.pk)


# --- the rich demo, whole ----------------------------------------------------------------------


def test_the_rich_demo_writes_every_new_column(rich_demo: list[Campaign]) -> None:
    """The fixture the round trips use really holds what they claim to carry."""
    for campaign in rich_demo:
        first = campaign.characters.order_by("pk").first()
        assert first is not None
        assert campaign.description and campaign.sessions.get(title="Night one").recap == RECAP
        assert (first.backstory, first.notes, first.gm_notes) == (BACKSTORY, NOTES, GM_NOTES)
    maelstrom = next(c for c in rich_demo if c.ruleset == "maelstrom")
    assert maelstrom.characters.filter(status=Character.Status.RETIRED).count() == 1


def test_every_rich_demo_campaign_comes_back_with_its_written_text_and_gm_notes(
        rich_demo: list[Campaign]) -> None:
    dana = UserFactory(username="dana")
    for source in rich_demo:
        document = export_campaign(source)
        assert document["version"] == VERSION == 3
        raw = document_json(document).encode()
        for text in (GM_NOTES, BACKSTORY, NOTES, RECAP, source.description):
            assert written_out(text) in raw, "kept as written, unicode and all"
        imported = import_campaign(through_a_file(document), dana)
        assert comparable(export_campaign(imported)) == as_imported_by(document, "dana")
        assert imported.description == source.description
        assert imported.sessions.get(title="Night one").recap == RECAP
        first = imported.characters.order_by("pk").first()
        assert first is not None
        assert (first.backstory, first.notes, first.gm_notes) == (BACKSTORY, NOTES, GM_NOTES)
        assert list(imported.characters.order_by("pk").values_list("status", flat=True)) == (
            list(source.characters.order_by("pk").values_list("status", flat=True)))
        assert (list(XpEntry.objects.filter(character__campaign=imported).order_by("pk")
                     .values_list("at_creation", flat=True))
                == [e["at_creation"] for c in document["characters"]
                    for e in c["xp_entries"]])


def test_the_creation_mark_of_ledger_entries_comes_back_as_the_file_says(
        rich_demo: list[Campaign]) -> None:
    """Not guessed from the kind, as for an older file: a purchase made while building a
    character (its first spend here) keeps its mark, a later award its lack of one."""
    source = next(c for c in rich_demo if c.ruleset == "maelstrom").characters.order_by(
        "pk").first()
    assert source is not None
    document = export_character(source)
    entries = document["character"]["xp_entries"]
    first_spend = next(e for e in entries if e["kind"] == "spend")
    first_spend["at_creation"] = True
    marks = [(e["kind"], e["at_creation"]) for e in entries]
    assert ("spend", True) in marks and ("spend", False) in marks and ("award", False) in marks
    imported = import_character(through_a_file(document), source.campaign,
                                source.campaign.created_by)
    assert list(imported.xp_entries.order_by("pk").values_list("kind", "at_creation")) == marks
    assert [(e["kind"], e["at_creation"]) for e in
            export_character(imported)["character"]["xp_entries"]] == marks


# --- GM notes: the GM's alone -----------------------------------------------------------------


def test_the_owners_export_holds_no_gm_notes(client_for: Callable[..., Client], bob: User,
                                             written: Character) -> None:
    raw = client_for(bob).get(reverse("transfer:character-export", args=[written.pk])).content
    document = json.loads(raw)
    assert not holds(raw, SECRET) and not holds(raw, "the GM's secret")
    assert "gm_notes" not in document["character"]
    assert (document["character"]["backstory"], document["character"]["notes"]) == (
        BACKSTORY, NOTES)


def test_the_gms_character_export_holds_the_gm_notes(client_for: Callable[..., Client],
                                                     alice: User, written: Character) -> None:
    raw = client_for(alice).get(reverse("transfer:character-export",
                                        args=[written.pk])).content
    assert holds(raw, SECRET)
    assert json.loads(raw)["character"]["gm_notes"] == SECRET


def test_the_campaign_export_holds_every_characters_gm_notes(
        client_for: Callable[..., Client], alice: User, written: Character) -> None:
    raw = client_for(alice).get(reverse("transfer:campaign-export",
                                        args=[written.campaign_id])).content
    assert [c["gm_notes"] for c in json.loads(raw)["characters"]] == [SECRET]


def test_a_players_file_leaves_the_gm_notes_out_and_still_imports_the_same(
        campaign: Campaign, bob: User, written: Character) -> None:
    document = export_character(written, for_gm=False)
    imported = import_character(through_a_file(document), campaign, bob)
    again = export_character(imported, for_gm=False)
    assert comparable(again) == as_imported_by(document, "bob")
    assert imported.gm_notes == "" and imported.backstory == BACKSTORY


def test_a_players_import_cannot_plant_gm_notes(campaign: Campaign, bob: User,
                                                written: Character) -> None:
    document = export_character(written)  # a GM's file, perhaps handed to Bob
    document["character"]["gm_notes"] = "Planted: give Rook 100 XP"
    imported = import_character(through_a_file(document), campaign, bob)
    assert imported.gm_notes == ""
    assert Character.objects.get(pk=imported.pk).gm_notes == ""
    assert imported.backstory == BACKSTORY, "what the player writes comes along"


def test_a_players_import_through_the_page_cannot_plant_gm_notes(
        client_for: Callable[..., Client], campaign: Campaign, bob: User,
        written: Character) -> None:
    document = export_character(written)
    response = client_for(bob).post(reverse("transfer:character-import", args=[campaign.pk]),
                                    {"file": upload(document)})
    imported = Character.objects.exclude(pk=written.pk).get()
    assert response.status_code == 302
    assert imported.owner == bob and imported.gm_notes == ""


def test_the_gms_own_character_import_keeps_the_gm_notes(campaign: Campaign, alice: User,
                                                         written: Character) -> None:
    imported = import_character(through_a_file(export_character(written)), campaign, alice)
    assert Character.objects.get(pk=imported.pk).gm_notes == SECRET


def test_a_campaign_import_keeps_the_gm_notes_for_its_new_gm(carol: User,
                                                            written: Character) -> None:
    imported = import_campaign(through_a_file(export_campaign(written.campaign)), carol)
    assert imported.characters.get().gm_notes == SECRET


# --- retired and dead characters ----------------------------------------------------------------


@pytest.mark.parametrize("status", [Character.Status.RETIRED, Character.Status.DEAD])
def test_a_character_out_of_the_party_comes_back_out_of_the_party(
        campaign: Campaign, alice: User, bob: User, bobs_character: Character,
        status: str) -> None:
    Character.objects.filter(pk=bobs_character.pk).update(status=status)
    source = Character.objects.get(pk=bobs_character.pk)
    document = export_character(source)
    assert document["character"]["status"] == status

    by_gm = import_character(through_a_file(document), campaign, alice)
    assert by_gm.status == status and by_gm.is_retired and not by_gm.in_play
    assert comparable(export_character(by_gm)) == as_imported_by(document, "alice")

    by_player = import_character(through_a_file(document), campaign, bob)
    assert by_player.status == status and by_player.awaiting_gm
    accepted = import_decide(character=by_player, accept=True, by=alice)
    assert accepted.status == status and not accepted.in_play, "the GM brings it back"
    assert by_player.xp_entries.count() == source.xp_entries.count()


@pytest.mark.parametrize("status", ["retired", "dead"])
def test_a_campaign_with_a_character_out_of_the_party_comes_back_the_same(
        carol: User, bobs_character: Character, status: str) -> None:
    Character.objects.filter(pk=bobs_character.pk).update(status=status)
    document = export_campaign(bobs_character.campaign)
    assert [c["status"] for c in document["characters"]] == [status]
    imported = import_campaign(through_a_file(document), carol)
    assert imported.characters.get().status == status
    assert comparable(export_campaign(imported)) == as_imported_by(document, "carol")


def test_the_page_says_a_character_arrives_retired(
        client_for: Callable[..., Client], campaign: Campaign, bob: User,
        bobs_character: Character) -> None:
    Character.objects.filter(pk=bobs_character.pk).update(status=Character.Status.DEAD)
    bobs_character.refresh_from_db()
    client = client_for(bob)
    response = client.post(reverse("transfer:character-import", args=[campaign.pk]),
                           {"file": upload(export_character(bobs_character, for_gm=False))},
                           follow=True)
    assert ("Rook arrives dead, as the file says: out of the party until the GM brings it "
            "back.") in response.content.decode()


# --- archived campaigns ---------------------------------------------------------------------


@pytest.fixture
def archived(campaign: Campaign, bobs_character: Character) -> Campaign:
    """The Drift, archived by Alice yesterday (archiving revokes the invite link)."""
    when = timezone.now() - datetime.timedelta(days=1)
    Campaign.objects.filter(pk=campaign.pk).update(
        archived_at=when, invite_token=None, description="Season one — the end.")
    return Campaign.objects.get(pk=campaign.pk)


def test_an_archived_campaign_still_exports_with_its_archive_date(
        client_for: Callable[..., Client], alice: User, archived: Campaign) -> None:
    response = client_for(alice).get(reverse("transfer:campaign-export", args=[archived.pk]))
    assert response.status_code == 200
    document = json.loads(response.content)
    assert archived.archived_at is not None
    assert document["campaign"]["archived_at"] == archived.archived_at.isoformat()
    assert document["campaign"]["description"] == "Season one — the end."


def test_an_archived_campaign_arrives_archived_without_an_invite_link(
        carol: User, archived: Campaign) -> None:
    document = export_campaign(archived)
    imported = import_campaign(through_a_file(document), carol)
    assert imported.archived_at == archived.archived_at and imported.is_archived
    assert imported.invite_token is None
    assert comparable(export_campaign(imported)) == as_imported_by(document, "carol")


def test_a_campaign_not_archived_arrives_with_a_fresh_invite_link(
        carol: User, campaign: Campaign) -> None:
    imported = import_campaign(through_a_file(export_campaign(campaign)), carol)
    assert imported.archived_at is None and imported.invite_token


def test_the_campaign_import_page_says_an_archived_campaign_stays_archived(
        client_for: Callable[..., Client], carol: User, archived: Campaign) -> None:
    client = client_for(carol)
    response = client.post(reverse("transfer:campaign-import"),
                           {"file": upload(export_campaign(archived))}, follow=True)
    page = response.content.decode()
    assert "The Drift is imported with 1 character, all yours; you are its GM." in page
    assert "It was archived when exported and stays archived" in page
    assert "Share the invite link" not in page


def test_an_archived_campaign_takes_no_character_import(
        client_for: Callable[..., Client], bob: User, archived: Campaign,
        bobs_character: Character) -> None:
    before = Character.objects.count()
    response = client_for(bob).post(reverse("transfer:character-import", args=[archived.pk]),
                                    {"file": upload(export_character(bobs_character,
                                                                     for_gm=False))})
    assert response.status_code == 403
    assert Character.objects.count() == before


def test_a_player_of_an_archived_campaign_still_exports_their_character(
        client_for: Callable[..., Client], bob: User, archived: Campaign,
        bobs_character: Character) -> None:
    response = client_for(bob).get(reverse("transfer:character-export",
                                           args=[bobs_character.pk]))
    assert response.status_code == 200
    assert json.loads(response.content)["character"]["name"] == "Rook"


def test_a_seat_the_file_records_is_not_a_seat_here(carol: User, archived: Campaign) -> None:
    """An archived campaign's import seats its importer alone, as any campaign import."""
    imported = import_campaign(through_a_file(export_campaign(archived)), carol)
    assert list(imported.memberships.values_list("user__username", "role")) == [
        ("carol", Membership.Role.GM)]
