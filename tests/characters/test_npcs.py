"""The GM's NPCs (docs/npcs.md): made and copied by whoever runs the table, out of every list
of the party, hidden from the players until revealed and then shown only as the GM chooses,
rolling GM-only by default, archived and brought back.

NPC behaviour is the same in every system apart from the stat block and the tracks in words
(tests/systems/test_npc_stat_blocks.py crosses those with the systems); these use Maelstrom's
factory sheet.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters import npcs
from characters.models import Character
from rolls.models import Roll
from tests.factories import CharacterFactory
from tests.system_fixtures import open_roll

pytestmark = pytest.mark.django_db


@pytest.fixture
def goon(campaign, alice) -> Character:  # type: ignore[no-untyped-def]
    """Alice's hidden NPC "Goon" in The Drift."""
    return CharacterFactory(campaign=campaign, owner=alice, name="Goon", is_npc=True)


def test_the_party_lists_never_hold_an_npc(campaign, goon, bobs_character) -> None:  # type: ignore[no-untyped-def]
    assert list(campaign.characters.all()) == [bobs_character]
    assert list(Character.npcs.filter(campaign=campaign)) == [goon]
    assert set(Character.all_objects.filter(campaign=campaign)) == {goon, bobs_character}


def test_a_player_never_opens_an_npc_even_revealed(client_for, campaign, goon, alice, bob  # type: ignore[no-untyped-def]
                                                   ) -> None:
    npcs.npc_show(npc=goon, shown=Character.Shown.TRACKS, by=alice)
    player = client_for(bob)
    for url in (goon.get_absolute_url(), reverse("rolls:roll-create", args=[goon.pk]),
                reverse("characters:npc-copy", args=[goon.pk]),
                reverse("characters:npc-list", args=[campaign.pk]),
                reverse("characters:npc-create", args=[campaign.pk])):
        assert player.get(url).status_code == 404, url
    assert player.post(reverse("characters:npc-shown", args=[goon.pk]),
                       {"shown": ""}).status_code == 404
    goon.refresh_from_db()
    assert goon.npc_shown == Character.Shown.TRACKS
    # Its owner is the GM who made it, which gives no rights: the seat does.
    assert client_for(alice).get(goon.get_absolute_url()).status_code == 200


def test_players_see_a_revealed_npc_by_name_and_never_a_hidden_one(  # type: ignore[no-untyped-def]
        client_for, campaign, goon, alice, bob) -> None:
    player = client_for(bob)
    dashboard = campaign.get_absolute_url()
    assert "Goon" not in player.get(dashboard).content.decode()
    npcs.npc_show(npc=goon, shown=Character.Shown.NAME, by=alice)
    page = player.get(dashboard).content.decode()
    assert "<strong>Goon</strong>" in page
    # Its name alone: no link to a sheet the player may not open.
    assert goon.get_absolute_url() not in page


def test_the_gm_sees_npcs_in_a_section_of_their_own(client_for, campaign, goon, alice,  # type: ignore[no-untyped-def]
                                                     bobs_character) -> None:
    page = client_for(alice).get(campaign.get_absolute_url()).content.decode()
    party = page[page.index('id="party"'):page.index('id="npcs"')]
    section = page[page.index('id="npcs"'):]
    assert "Rook" in party and "Goon" not in party
    assert goon.get_absolute_url() in section


def test_an_npc_rolls_gm_only_unless_revealed_and_rolled_in_the_open(  # type: ignore[no-untyped-def]
        client_for, campaign, goon, alice, bob) -> None:
    roll = open_roll(goon, by=alice)
    assert roll is not None and roll.gm_only
    gm = client_for(alice)
    data = {"kind": "willpower", "difficulty": "8", "threshold": "0", "in_the_open": "on"}
    gm.post(reverse("rolls:roll-create", args=[goon.pk]), data)
    assert Roll.objects.filter(character=goon).latest("pk").gm_only  # hidden: still GM-only
    npcs.npc_show(npc=goon, shown=Character.Shown.NAME, by=alice)
    gm.post(reverse("rolls:roll-create", args=[goon.pk]), data)
    shown = Roll.objects.filter(character=goon).latest("pk")
    assert not shown.gm_only
    log = client_for(bob).get(reverse("rolls:roll-list", args=[campaign.pk])).content.decode()
    assert log.count("Goon") == 1  # the roll in the open, never the two GM-only ones


def test_more_like_this_one_numbers_the_copies(client_for, campaign, goon, alice) -> None:  # type: ignore[no-untyped-def]
    CharacterFactory(campaign=campaign, owner=alice, name="Goon 3", is_npc=True)
    response = client_for(alice).post(reverse("characters:npc-copy", args=[goon.pk]),
                                      {"count": "3", "name": ""})
    assert response.status_code == 302
    assert sorted(Character.npcs.filter(campaign=campaign).values_list("name", flat=True)) == [
        "Goon", "Goon 2", "Goon 3", "Goon 4", "Goon 5"]


def test_a_copy_of_a_player_character_is_a_hidden_npc_without_the_players_writing(  # type: ignore[no-untyped-def]
        client_for, campaign, alice, bobs_character) -> None:
    Character.objects.filter(pk=bobs_character.pk).update(notes="My secret plan",
                                                          gm_notes="Bob's GM notes")
    client_for(alice).post(reverse("characters:npc-copy", args=[bobs_character.pk]),
                           {"count": "1", "name": "Rook's double"})
    copy = Character.npcs.get(campaign=campaign)
    assert (copy.name, copy.npc_shown, copy.notes, copy.gm_notes) == (
        "Rook's double", "", "", "")
    assert copy.sheet == Character.objects.get(pk=bobs_character.pk).sheet
    assert copy.xp_total == 0 and not copy.xp_entries.exists()


def test_too_many_copies_are_refused_and_nothing_is_made(client_for, campaign, goon, alice  # type: ignore[no-untyped-def]
                                                         ) -> None:
    response = client_for(alice).post(reverse("characters:npc-copy", args=[goon.pk]),
                                      {"count": "11"})
    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 10" in response.content.decode()
    assert Character.npcs.filter(campaign=campaign).count() == 1


def test_numbered_names_skip_names_in_use_and_fit_the_column() -> None:
    assert npcs.numbered_names("Goon", 2, {"Goon 2"}) == ["Goon 3", "Goon 4"]
    assert npcs.numbered_names("Goon 7", 1, set()) == ["Goon 8"]
    long = "x" * 80
    assert npcs.numbered_names(long, 1, set()) == ["x" * 78 + " 2"]


def test_archive_takes_an_npc_out_of_play_and_back(client_for, campaign, goon, alice) -> None:  # type: ignore[no-untyped-def]
    gm = client_for(alice)
    gm.post(reverse("characters:npc-archive", args=[goon.pk]), {"archived": "1"})
    goon.refresh_from_db()
    assert goon.is_retired
    dashboard = gm.get(campaign.get_absolute_url()).content.decode()
    assert goon.get_absolute_url() not in dashboard[dashboard.index('id="npcs"'):]
    listing = gm.get(reverse("characters:npc-list", args=[campaign.pk])).content.decode()
    assert "Archived" in listing and "Bring back" in listing
    gm.post(reverse("characters:npc-archive", args=[goon.pk]), {"archived": "0"})
    goon.refresh_from_db()
    assert not goon.is_retired


def test_a_hidden_npcs_changes_move_no_version_a_player_counts(  # type: ignore[no-untyped-def]
        client_for, campaign, goon, alice, django_capture_on_commit_callbacks) -> None:
    before = Campaign.objects.get(pk=campaign.pk)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(alice).post(
            reverse("characters:character-action", args=[goon.pk, "damage"]),
            {"kind": "lethal", "levels": "2"})
    assert response.status_code == 302
    assert Character.npcs.get(pk=goon.pk).sheet["health"]["lethal"] == 2
    after = Campaign.objects.get(pk=campaign.pk)
    assert after.live_version == before.live_version
    assert after.hidden_version == before.hidden_version + 1
