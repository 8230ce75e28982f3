"""``manage.py export_campaign`` and ``import_campaign``: moving a campaign between
installations from the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from campaigns.models import Campaign
from characters.models import Character
from tests.factories import UserFactory
from transfer.export import document_json, export_campaign, export_character


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_export_writes_the_campaign_to_stdout(rich_demo: list[Campaign]) -> None:
    campaign = rich_demo[1]
    document = json.loads(run("export_campaign", str(campaign.pk)))
    expected = export_campaign(campaign)
    assert document["kind"] == "campaign" and document["campaign"]["name"] == campaign.name
    assert {k: v for k, v in document.items() if k != "exported_at"} == {
        k: v for k, v in expected.items() if k != "exported_at"}


@pytest.mark.django_db
def test_export_then_import_moves_a_campaign_through_a_file(
        rich_demo: list[Campaign], tmp_path: Path) -> None:
    source = rich_demo[0]
    path = tmp_path / "drift.sheetkeeper.json"
    assert run("export_campaign", str(source.pk), "--output", str(path)) == ""
    UserFactory(username="newgm")
    output = run("import_campaign", str(path), "--gm", "newgm")
    imported = Campaign.objects.order_by("pk").last()
    assert f"Imported {source.name} as campaign {imported.pk} with 2 characters; newgm is " \
           "its GM." in output
    assert imported.created_by.username == "newgm"
    assert imported.rolls.count() == source.rolls.count()
    assert set(imported.characters.values_list("owner__username", flat=True)) == {"newgm"}


@pytest.mark.django_db
def test_keep_users_gives_the_characters_back_to_the_accounts_of_the_same_name(
        rich_demo: list[Campaign], tmp_path: Path) -> None:
    source = rich_demo[0]
    path = tmp_path / "drift.json"
    path.write_text(json.dumps(export_campaign(source)))
    UserFactory(username="newgm")
    run("import_campaign", str(path), "--gm", "newgm", "--keep-users")
    imported = Campaign.objects.order_by("pk").last()
    assert (sorted(imported.characters.values_list("name", "owner__username"))
            == sorted(source.characters.values_list("name", "owner__username")))
    assert sorted(imported.memberships.values_list("user__username", "role")) == [
        ("demo-ana", "player"), ("demo-ben", "player"), ("newgm", "gm")]


@pytest.mark.django_db
def test_import_reads_stdin(rich_demo: list[Campaign], monkeypatch: pytest.MonkeyPatch,
                            alice: User) -> None:
    text = json.dumps(export_campaign(rich_demo[2]))

    class Stdin:
        buffer = io.BytesIO(text.encode())

    monkeypatch.setattr("sys.stdin", Stdin)
    run("import_campaign", "-", "--gm", "alice")
    assert Campaign.objects.filter(created_by=alice, name=rich_demo[2].name).exists()


@pytest.mark.django_db
def test_the_command_line_takes_a_file_larger_than_the_web_limit(
        demo: list[Campaign], tmp_path: Path, alice: User) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(export_campaign(demo[0])) + " " * (11 * 1024 * 1024))
    run("import_campaign", str(path), "--gm", "alice")
    assert Campaign.objects.filter(created_by=alice).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("args", "message"), [
    (("export_campaign", "999"), "There is no campaign 999."),
    (("export_campaign", "{pk}", "--output", "/nonexistent/dir/x.json"), "Cannot write"),
    (("import_campaign", "{file}", "--gm", "nobody"), "There is no user 'nobody'"),
    (("import_campaign", "/nonexistent.json", "--gm", "alice"), "Cannot read /nonexistent.json"),
    (("import_campaign", "{broken}", "--gm", "alice"),
     "Nothing was imported: The file is not valid JSON"),
    (("import_campaign", "{character}", "--gm", "alice"),
     "Nothing was imported: This file holds a character, not a campaign"),
])
def test_the_commands_say_what_went_wrong_and_write_nothing(
        bobs_character: Character, alice: User, tmp_path: Path, args: tuple[str, ...],
        message: str) -> None:
    good = tmp_path / "good.json"
    good.write_text(document_json(export_campaign(bobs_character.campaign)))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sheetkeeper"')
    character = tmp_path / "character.json"
    character.write_text(document_json(export_character(bobs_character)))
    names = {"pk": str(bobs_character.campaign.pk), "file": str(good), "broken": str(broken),
             "character": str(character)}
    before = (Campaign.objects.count(), Character.objects.count())
    with pytest.raises(CommandError) as info:
        run(*(arg.format(**names) for arg in args))
    assert message in str(info.value)
    assert (Campaign.objects.count(), Character.objects.count()) == before


@pytest.mark.django_db
def test_keep_users_gives_a_username_unknown_here_to_the_gm(
        rich_demo: list[Campaign], tmp_path: Path) -> None:
    document = export_campaign(rich_demo[0])
    for character in document["characters"]:
        if character["owner"] == "demo-ben":
            character["owner"] = "ghost"
    document["campaign"]["members"] = [
        {**m, "username": "ghost"} if m["username"] == "demo-ben" else m
        for m in document["campaign"]["members"]]
    path = tmp_path / "drift.json"
    path.write_text(document_json(document))
    UserFactory(username="newgm")
    run("import_campaign", str(path), "--gm", "newgm", "--keep-users")
    imported = Campaign.objects.order_by("pk").last()
    assert sorted(imported.characters.values_list("name", "owner__username")) == [
        ("Ana Reyes", "demo-ana"), ("Ben Okafor", "newgm")]
    assert sorted(imported.memberships.values_list("user__username", flat=True)) == [
        "demo-ana", "newgm"]


@pytest.mark.django_db
def test_a_restored_archived_campaign_is_archived_again_and_the_command_says_so(
        rich_demo: list[Campaign], tmp_path: Path) -> None:
    source = rich_demo[0]
    Campaign.objects.filter(pk=source.pk).update(archived_at=source.created_at,
                                                 invite_token=None)
    path = tmp_path / "drift.sheetkeeper.json"
    run("export_campaign", str(source.pk), "--output", str(path))
    UserFactory(username="newgm")
    output = run("import_campaign", str(path), "--gm", "newgm", "--keep-users")
    imported = Campaign.objects.order_by("pk").last()
    assert "It is archived, as the file says: its GM restores it to play on." in output
    assert imported.archived_at == source.created_at and imported.invite_token is None
    assert (sorted(imported.characters.values_list("gm_notes", flat=True))
            == sorted(source.characters.values_list("gm_notes", flat=True)))
    assert imported.characters.filter(gm_notes="").count() < imported.characters.count()
