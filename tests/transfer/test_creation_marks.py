"""Which ledger entries came with a character's creation (``XpEntry.at_creation``) when a file
travels (Sheetkeeper issue 16, review): the mark lets a character be deleted with those
entries, so only the GM's import takes it as the file says. A player's import keeps it only on
the kinds its system's creation alone writes (``SheetSystem.creation_entry_kinds``), and a file
of format version 2, which had no mark, is marked by those kinds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign
from campaigns.services import campaign_create
from characters import services
from characters.models import Character, XpEntry
from rulesets import registry
from rulesets.maelstrom.storage import LedgerKind
from systems.genesys.system import SYSTEM as GENESYS
from tests.systems.genesys import test_genesys_cast as genesys_cast
from tests.transfer.test_older_files import v2_file
from tests.transfer.test_round_trip import through_a_file
from tests.transfer.test_version_3_columns import upload
from transfer.export import export_character
from transfer.imports import import_character

pytestmark = pytest.mark.django_db

gx_campaign, kes = genesys_cast.gx_campaign, genesys_cast.kes

PLAYED = [("starting", True), ("spend", True), ("award", False), ("spend", False)]
"""Kestrel's ledger as played: her starting XP and a purchase during creation, then an award
and a purchase after it."""


@pytest.fixture
def played(kes: Character, alice: User, bob: User) -> Character:
    """Bob's Kestrel: Agility bought during creation, creation finished, 5 XP from Alice,
    Stealth bought after."""
    services.xp_spend(character=kes, key="characteristic:Agility", by=bob)
    services.sheet_change(character=kes, action=GENESYS.actions["finish-creation"], data={},
                          by=bob)
    services.xp_award(character=kes, amount=5, reason="The heist", by=alice)
    services.xp_spend(character=kes, key="skill:Stealth", by=bob)
    assert marks(kes) == PLAYED
    return Character.objects.get(pk=kes.pk)


def marks(character: Character) -> list[tuple[str, bool]]:
    return list(character.xp_entries.order_by("pk").values_list("kind", "at_creation"))


def all_marked(document: dict[str, Any]) -> dict[str, Any]:
    """The document with every ledger entry claiming to be the creation's."""
    for entry in document["character"]["xp_entries"]:
        entry["at_creation"] = True
    return document


def test_a_players_file_cannot_make_its_history_the_creations(
        bob: User, gx_campaign: Campaign, played: Character) -> None:
    document = all_marked(export_character(played, for_gm=False))

    imported = import_character(through_a_file(document), gx_campaign, bob)

    assert marks(imported) == [("starting", True), ("spend", False), ("award", False),
                               ("spend", False)]
    assert services.delete_blockers(imported).entries == 3


def test_a_player_uploading_such_a_file_keeps_only_the_starting_xps_mark(
        client_for: Callable[..., Client], bob: User, gx_campaign: Campaign,
        played: Character) -> None:
    document = all_marked(export_character(played, for_gm=False))

    response = client_for(bob).post(reverse("transfer:character-import",
                                            args=[gx_campaign.pk]), {"file": upload(document)})

    assert response.status_code == 302
    imported = Character.objects.exclude(pk=played.pk).get()
    assert imported.owner == bob
    assert [mark for _, mark in marks(imported)] == [True, False, False, False]


def test_a_players_file_may_leave_a_creation_entry_unmarked(
        bob: User, gx_campaign: Campaign, played: Character) -> None:
    document = export_character(played, for_gm=False)
    for entry in document["character"]["xp_entries"]:
        entry["at_creation"] = False

    imported = import_character(through_a_file(document), gx_campaign, bob)

    assert not imported.xp_entries.filter(at_creation=True).exists()


def test_the_gms_import_keeps_the_files_marks(alice: User, gx_campaign: Campaign,
                                              played: Character) -> None:
    imported = import_character(through_a_file(export_character(played)), gx_campaign, alice)
    assert marks(imported) == PLAYED

    document = all_marked(export_character(played))
    again = import_character(through_a_file(document), gx_campaign, alice)

    assert [mark for _, mark in marks(again)] == [True] * 4, "the GM's word"


def test_a_players_import_keeps_the_merits_and_flaws_of_a_maelstrom_creation(
        demo: list[Campaign]) -> None:
    campaign = next(c for c in demo if c.ruleset == "maelstrom")
    source = campaign.characters.order_by("pk").first()
    assert source is not None
    assert {"merit", "flaw"} <= {kind for kind, _ in marks(source)}
    assert ("spend", True) in marks(source), "bought during its creation steps"

    imported = import_character(through_a_file(export_character(source, for_gm=False)),
                                campaign, source.owner)

    assert {kind for kind, mark in marks(imported) if mark} == {"starting", "merit", "flaw"}
    assert ("spend", True) not in marks(imported)


@pytest.mark.parametrize(("slug", "marked"), [("maelstrom", True), ("genesys", False)])
def test_a_version_2_file_marks_the_kinds_only_its_own_systems_creation_writes(
        alice: User, slug: str, marked: bool) -> None:
    """A flaw is a Maelstrom creation's; in another system's file it is no such thing."""
    document = v2_file(slug, "character")
    first = document["character"]["xp_entries"][0]
    if slug != "maelstrom":
        assert first["kind"] == "award" and first["available_delta"] > 0
        first["kind"] = "flaw"  # gives XP, as a flaw does
    campaign = campaign_create(name="Elsewhere", ruleset=slug, starting_xp=0, gm=alice)

    character = import_character(document, campaign, alice)

    flaws = character.xp_entries.filter(kind=LedgerKind.FLAW)
    assert flaws.exists()
    assert set(flaws.values_list("at_creation", flat=True)) == {marked}


@pytest.mark.parametrize("slug", list(registry.RULESETS))
def test_every_systems_creation_kinds_are_ledger_kinds_with_the_starting_xp(
        slug: str) -> None:
    kinds = systems.for_ruleset(slug).creation_entry_kinds

    known = {value for value, _ in XpEntry._meta.get_field("kind").flatchoices}
    assert "starting" in kinds and set(kinds) <= known
    assert {"merit", "flaw"} <= set(kinds) if slug == "maelstrom" else kinds == ("starting",)

