"""The export downloads and the import pages: who may use each, the file, the refusals shown
on the form, the links that lead there."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from characters.models import Character
from rolls.models import Roll
from rulesets.maelstrom.storage import RollKind
from tests.factories import UserFactory
from transfer.export import document_json, export_campaign, export_character
from transfer.format import MAX_UPLOAD_BYTES


def upload(document: Any, name: str = "Rook.sheetkeeper.json") -> SimpleUploadedFile:
    content = document if isinstance(document, bytes) else document_json(document).encode()
    return SimpleUploadedFile(name, content, content_type="application/json")


def client_as(person: str, make: Callable[..., Client], cast: dict[str, Any]) -> Client:
    return Client() if person == "anonymous" else make(cast[person])


@pytest.fixture
def cast(alice: User, bob: User, carol: User, bobs_character: Character) -> dict[str, Any]:
    """Alice the GM, Bob the owner of Rook, Dan a fellow player, Carol a stranger."""
    dan = UserFactory(username="dan")
    Membership.objects.create(campaign=bobs_character.campaign, user=dan)
    return {"alice": alice, "bob": bob, "carol": carol, "dan": dan}


# --- export ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("person", "status"), [
    ("anonymous", 302), ("carol", 404), ("dan", 404), ("bob", 200), ("alice", 200)])
def test_a_character_is_exported_by_its_owner_and_the_gm_only(
        cast: dict[str, Any], client_for: Callable[..., Client], bobs_character: Character,
        person: str, status: int) -> None:
    response = client_as(person, client_for, cast).get(
        reverse("transfer:character-export", args=[bobs_character.pk]))
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize(("person", "status"), [
    ("anonymous", 302), ("carol", 404), ("dan", 404), ("bob", 404), ("alice", 200)])
def test_a_campaign_is_exported_by_its_gm_only(
        cast: dict[str, Any], client_for: Callable[..., Client], campaign: Campaign,
        person: str, status: int) -> None:
    response = client_as(person, client_for, cast).get(
        reverse("transfer:campaign-export", args=[campaign.pk]))
    assert response.status_code == status


def test_the_character_downloads_as_its_name_dot_sheetkeeper_json(
        client_for: Callable[..., Client], bob: User, bobs_character: Character) -> None:
    response = client_for(bob).get(reverse("transfer:character-export",
                                           args=[bobs_character.pk]))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="Rook.sheetkeeper.json"'
    document = json.loads(response.content)
    exported = export_character(bobs_character, for_gm=False)  # Bob's: no GM notes
    assert {k: v for k, v in document.items() if k != "exported_at"} == {
        k: v for k, v in exported.items() if k != "exported_at"}


def test_a_name_with_slashes_and_accents_makes_a_safe_file_name(
        client_for: Callable[..., Client], alice: User, campaign: Campaign) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(name="Ré/../volte: 2")
    response = client_for(alice).get(reverse("transfer:campaign-export", args=[campaign.pk]))
    disposition = response["Content-Disposition"]
    assert disposition == "attachment; filename*=utf-8''R%C3%A9____volte_%202.sheetkeeper.json"


def test_export_is_a_download_not_a_change(client_for: Callable[..., Client], alice: User,
                                           campaign: Campaign) -> None:
    response = client_for(alice).post(reverse("transfer:campaign-export", args=[campaign.pk]))
    assert response.status_code == 405


# --- character import -------------------------------------------------------------------------


@pytest.mark.parametrize(("person", "status"), [
    ("anonymous", 302), ("carol", 404), ("dan", 200), ("bob", 200), ("alice", 200)])
def test_any_member_may_open_the_character_import_and_nobody_else(
        cast: dict[str, Any], client_for: Callable[..., Client], campaign: Campaign,
        person: str, status: int) -> None:
    response = client_as(person, client_for, cast).get(
        reverse("transfer:character-import", args=[campaign.pk]))
    assert response.status_code == status


@pytest.mark.parametrize("person", ["anonymous", "carol"])
def test_a_stranger_cannot_import_a_character_into_the_campaign(
        cast: dict[str, Any], client_for: Callable[..., Client], campaign: Campaign,
        bobs_character: Character, person: str) -> None:
    before = Character.objects.count()
    response = client_as(person, client_for, cast).post(
        reverse("transfer:character-import", args=[campaign.pk]),
        {"file": upload(export_character(bobs_character))})
    assert response.status_code in (302, 404)
    assert Character.objects.count() == before


@pytest.mark.parametrize("person", ["dan", "bob", "alice"])
def test_a_member_imports_a_character_as_their_own(
        cast: dict[str, Any], client_for: Callable[..., Client], campaign: Campaign,
        bobs_character: Character, person: str) -> None:
    client = client_for(cast[person])
    response = client.post(reverse("transfer:character-import", args=[campaign.pk]),
                           {"file": upload(export_character(bobs_character))})
    imported = Character.objects.exclude(pk=bobs_character.pk).get()
    assert response.status_code == 302
    assert response["Location"] == imported.get_absolute_url()
    assert imported.owner == cast[person] and imported.campaign == campaign
    page = client.get(response["Location"])
    assert "Rook joined The Drift with 1 ledger entry and 0 rolls." in page.content.decode()


def test_a_refused_character_file_shows_the_reason_on_the_form(
        client_for: Callable[..., Client], bob: User, demo: list[Campaign]) -> None:
    """Bob is not in the demo: he imports the demo's Genesys character into his own
    Maelstrom campaign and is told why it cannot join."""
    genesys = next(c for c in demo if c.ruleset == "genesys")
    mine = campaign_create(name="Bob's table", ruleset="maelstrom", starting_xp=30, gm=bob)
    before = Character.objects.count()
    response = client_for(bob).post(reverse("transfer:character-import", args=[mine.pk]),
                                    {"file": upload(export_character(genesys.characters.get()))})
    assert response.status_code == 200
    text = response.content.decode()
    assert "a character can only join a campaign of its own system" in text
    assert 'class="errorlist' in text
    assert Character.objects.count() == before


@pytest.mark.parametrize(("content", "reason"), [
    (b'{"format": "sheetkeeper", "version": ', "The file is not valid JSON"),
    (b'{"format": "sheetkeeper", "version": 9}', "this Sheetkeeper reads versions 1, 2 and 3"),
    (b"", "The submitted file is empty."),
])
def test_a_broken_file_shows_the_reason_on_the_form(
        client_for: Callable[..., Client], bob: User, campaign: Campaign, content: bytes,
        reason: str) -> None:
    response = client_for(bob).post(reverse("transfer:character-import", args=[campaign.pk]),
                                    {"file": upload(content)})
    assert response.status_code == 200
    assert reason in response.content.decode()


def test_a_file_over_the_limit_is_refused_by_the_form(
        client_for: Callable[..., Client], bob: User, campaign: Campaign) -> None:
    response = client_for(bob).post(reverse("transfer:character-import", args=[campaign.pk]),
                                    {"file": upload(b" " * (MAX_UPLOAD_BYTES + 1))})
    assert response.status_code == 200
    assert "an import takes at most 10 MB" in response.content.decode()


def test_no_file_at_all_is_asked_for(client_for: Callable[..., Client], bob: User,
                                     campaign: Campaign) -> None:
    response = client_for(bob).post(reverse("transfer:character-import", args=[campaign.pk]))
    assert "This field is required." in response.content.decode()


def test_an_award_from_another_campaigns_session_is_reported(
        client_for: Callable[..., Client], rich_demo: list[Campaign], bob: User) -> None:
    source = rich_demo[0].characters.order_by("pk").first()
    mine = campaign_create(name="Bob's table", ruleset="maelstrom", starting_xp=30, gm=bob)
    client = client_for(bob)
    response = client.post(reverse("transfer:character-import", args=[mine.pk]),
                           {"file": upload(export_character(source))}, follow=True)
    assert ("1 award was given in sessions of another campaign: the XP and reason are kept, "
            "without the session.") in response.content.decode()


# --- campaign import --------------------------------------------------------------------------


def test_the_campaign_import_needs_a_login(campaign: Campaign) -> None:
    response = Client().post(reverse("transfer:campaign-import"),
                             {"file": upload(export_campaign(campaign))})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Campaign.objects.count() == 1


@pytest.mark.parametrize("person", ["carol", "dan", "bob", "alice"])
def test_anyone_logged_in_imports_a_campaign_and_becomes_its_only_member_as_gm(
        cast: dict[str, Any], client_for: Callable[..., Client], campaign: Campaign,
        person: str) -> None:
    client = client_for(cast[person])
    assert client.get(reverse("transfer:campaign-import")).status_code == 200
    response = client.post(reverse("transfer:campaign-import"),
                           {"file": upload(export_campaign(campaign))})
    imported = Campaign.objects.exclude(pk=campaign.pk).get()
    assert response.status_code == 302
    assert response["Location"] == imported.get_absolute_url()
    assert list(imported.memberships.values_list("user__username", "role")) == [
        (person, "gm")]
    assert {c.owner for c in imported.characters.all()} == {cast[person]}
    page = client.get(response["Location"]).content.decode()
    assert "The Drift is imported with 1 character, all yours; you are its GM." in page


def test_a_stranger_sharing_a_players_username_elsewhere_gains_nothing(
        client_for: Callable[..., Client], campaign: Campaign, bobs_character: Character,
        carol: User) -> None:
    """Carol imports The Drift, in which "bob" plays: this installation's bob is not seated
    and owns nothing of it; only Carol is."""
    client_for(carol).post(reverse("transfer:campaign-import"),
                           {"file": upload(export_campaign(campaign))})
    imported = Campaign.objects.exclude(pk=campaign.pk).get()
    bob = bobs_character.owner
    assert not imported.memberships.filter(user=bob).exists()
    assert not imported.characters.filter(owner=bob).exists()
    assert not imported.rolls.filter(rolled_by=bob).exists()
    assert client_for(bob).get(imported.get_absolute_url()).status_code == 404


def test_a_character_file_on_the_campaign_import_says_where_it_belongs(
        client_for: Callable[..., Client], bob: User, bobs_character: Character) -> None:
    response = client_for(bob).post(reverse("transfer:campaign-import"),
                                    {"file": upload(export_character(bobs_character))})
    assert response.status_code == 200
    assert "This file holds a character, not a campaign" in response.content.decode()
    assert Campaign.objects.count() == 1


# --- the pages and the links ------------------------------------------------------------------


@pytest.mark.parametrize("url_name", ["transfer:character-import", "transfer:campaign-import"])
def test_the_import_pages_need_no_inline_script_or_style(
        client_for: Callable[..., Client], bob: User, campaign: Campaign, url_name: str) -> None:
    args = [campaign.pk] if url_name == "transfer:character-import" else []
    page = client_for(bob).get(reverse(url_name, args=args)).content.decode()
    assert 'enctype="multipart/form-data"' in page
    assert 'type="file"' in page
    assert " style=" not in page and "<style" not in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    assert re.search(r'<button type="submit">Import the (character|campaign)</button>', page)


def test_the_links_lead_to_export_and_import(
        client_for: Callable[..., Client], alice: User, bob: User, campaign: Campaign,
        bobs_character: Character, demo: list[Campaign]) -> None:
    character_export = reverse("transfer:character-export", args=[bobs_character.pk])
    campaign_export = reverse("transfer:campaign-export", args=[campaign.pk])
    character_import = reverse("transfer:character-import", args=[campaign.pk])
    campaign_import = reverse("transfer:campaign-import")
    as_alice, as_bob = client_for(alice), client_for(bob)
    assert character_export in as_bob.get(bobs_character.get_absolute_url()).content.decode()
    gm_page = as_alice.get(campaign.get_absolute_url()).content.decode()
    assert character_import in gm_page
    # The campaign's export is on its settings page (the dashboard is play).
    assert campaign_export in as_alice.get(
        reverse("campaigns:campaign-settings", args=[campaign.pk])).content.decode()
    player_page = as_bob.get(campaign.get_absolute_url()).content.decode()
    assert campaign_export not in player_page and character_import in player_page
    assert campaign_import in as_bob.get(reverse("campaigns:campaign-list")).content.decode()
    assert campaign_import in client_for(UserFactory()).get(
        reverse("campaigns:campaign-list")).content.decode()
    genesys = next(c for c in demo if c.ruleset == "genesys").characters.get()
    sheet = client_for(genesys.owner).get(genesys.get_absolute_url()).content.decode()
    assert reverse("transfer:character-export", args=[genesys.pk]) in sheet


def test_rolls_only_the_gm_sees_stay_out_of_the_owners_file(
        client_for: Callable[..., Client], alice: User, bob: User,
        bobs_character: Character) -> None:
    hidden = Roll.objects.create(
        campaign=bobs_character.campaign, character=bobs_character, rolled_by=alice,
        ruleset="maelstrom", kind=Roll.Kind.ACTION, description="Secret: Perception + Alertness",
        outcome=Roll.Outcome.SUCCESS, summary="1 success", gm_only=True)
    Roll.objects.create(
        campaign=bobs_character.campaign, character=bobs_character, rolled_by=alice,
        ruleset="maelstrom", kind=RollKind.WILLPOWER_SPEND, parent=hidden,
        description="Secret follow-up", outcome=Roll.Outcome.SUCCESS, summary="1 success")
    url = reverse("transfer:character-export", args=[bobs_character.pk])
    owners = json.loads(client_for(bob).get(url).content)
    gms = json.loads(client_for(alice).get(url).content)
    assert owners["rolls"] == []
    assert [r["description"] for r in gms["rolls"]] == ["Secret: Perception + Alertness",
                                                        "Secret follow-up"]
