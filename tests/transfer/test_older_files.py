"""Every file an earlier Sheetkeeper exported still imports (docs/backup.md).

``tests/transfer/v1/`` holds the five demo campaigns and one character of each system,
exported by the release before the import schema and the ``imported`` mark on rolls
(commit 28bdd72, format version 1). Those files have no ``imported`` key on their rolls: the
schema must take them as they are, and the import still marks every roll it brings as
imported (a file never vouches for a roll).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.models import Membership
from characters.models import Character
from rolls.models import Roll
from tests.factories import CampaignFactory, UserFactory
from transfer.services import import_campaign, import_character, read_document

V1 = Path(__file__).parent / "v1"
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
