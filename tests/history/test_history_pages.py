"""The table's history and a character's: who may read which entries, the filters, and the
keyset's pages (docs/history.md, "Activity log")."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Session
from characters import services
from history.log import record
from history.models import Activity
from tests.factories import CharacterFactory
from tests.helpers import action_url, roll_url

pytestmark = pytest.mark.django_db

POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
        "threshold": "0"}


def _history(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("history:campaign-history", args=[campaign.pk])


def test_members_read_the_table_s_history_and_strangers_get_404(
        client_for, alice, bob, carol, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    client_for(alice).post(action_url(bobs_character, "damage"),
                           {"kind": "lethal", "levels": "1"})
    page = client_for(bob).get(_history(campaign))
    assert page.status_code == 200
    entry = page.context["entries"][0]
    assert entry.action == "damage" and entry.character == bobs_character
    assert "alice" in page.content.decode() and "Rook" in page.content.decode()
    assert client_for(carol).get(_history(campaign)).status_code == 404
    assert client_for(carol).get(reverse("history:character-history",
                                         args=[bobs_character.pk])).status_code == 404


def test_a_player_sees_nothing_gm_only_and_no_sheet_they_may_not_read(
        client_for, alice, bob, dave, campaign, bobs_character, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    goon = CharacterFactory(campaign=campaign, owner=alice, name="Goon", is_npc=True)
    client_for(alice, htmx=True).post(roll_url(goon), POOL)  # a hidden NPC's roll
    services.character_update(character=bobs_character, by=alice, gm_notes="secret")
    client_for(alice).post(action_url(bobs_character, "damage"),
                           {"kind": "lethal", "levels": "1"})
    client_for(bob, htmx=True).post(roll_url(bobs_character), POOL)

    def seen(user) -> set[str]:  # type: ignore[no-untyped-def]
        return {entry.action for entry in client_for(user).get(_history(campaign))
                .context["entries"]}

    assert {"gm-notes", "damage", "action"} <= seen(alice)
    assert sum(1 for e in client_for(alice).get(_history(campaign)).context["entries"]
               if e.kind == Activity.Kind.ROLL) == 2
    assert seen(bob) >= {"damage", "action"} and "gm-notes" not in seen(bob)
    assert Activity.objects.filter(kind=Activity.Kind.ROLL, gm_only=True).count() == 1
    bob_rolls = [e for e in client_for(bob).get(_history(campaign)).context["entries"]
                 if e.kind == Activity.Kind.ROLL]
    assert [e.character for e in bob_rolls] == [bobs_character]
    # With the party's sheets closed, Dave reads Rook's roll (the roll log shows it to all)
    # but not the damage on a sheet he may not open.
    campaign.party_sheets = False
    campaign.save()
    assert "damage" not in seen(dave) and "action" in seen(dave)
    assert client_for(dave).get(reverse("history:character-history",
                                        args=[bobs_character.pk])).status_code == 404


def test_the_keyset_walks_every_entry_once_and_back(client_for, alice, campaign) -> None:  # type: ignore[no-untyped-def]
    for number in range(120):
        record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, text=f"Change {number}",
               by=alice)
    client = client_for(alice)
    first = client.get(_history(campaign)).context
    assert [e.text for e in first["entries"]][:2] == ["Change 119", "Change 118"]
    assert not first["newer"] and first["older"]
    second = client.get(_history(campaign), {"before": first["older"]}).context
    third = client.get(_history(campaign), {"before": second["older"]}).context
    texts = [e.text for page in (first, second, third) for e in page["entries"]]
    assert texts == [f"Change {n}" for n in range(119, -1, -1)]
    assert not third["older"] and third["newer"]
    back = client.get(_history(campaign), {"after": second["newer"]}).context
    assert [e.text for e in back["entries"]] == [e.text for e in first["entries"]]
    assert not back["newer"]
    # A cursor nobody may read (a GM-only entry, for a player) starts from the newest.
    assert client.get(_history(campaign), {"before": "not-a-code"}).context["entries"][0] \
        .text == "Change 119"


def test_the_filters_by_kind_character_and_session(client_for, alice, campaign,
                                                   bobs_character) -> None:  # type: ignore[no-untyped-def]
    services.xp_award(character=bobs_character, amount=2, reason="Today", by=alice)
    record(campaign_id=campaign.pk, kind=Activity.Kind.CAMPAIGN, text="Renamed", by=alice)
    yesterday = Session.objects.create(campaign=campaign,
                                       date=timezone.localdate() - datetime.timedelta(days=1))
    today = Session.objects.create(campaign=campaign, date=timezone.localdate())
    client = client_for(alice)

    def texts(**query: str) -> list[str]:
        return [e.text for e in client.get(_history(campaign), query).context["entries"]]

    assert texts(kind="xp") == ["Awarded 2 XP: Today"]
    assert texts(character=str(bobs_character.pk)) == ["Awarded 2 XP: Today"]
    assert texts(session=str(yesterday.pk)) == []
    assert set(texts(session=str(today.pk))) == {"Awarded 2 XP: Today", "Renamed"}
    assert len(texts(kind="no-such-kind")) == 2  # an unknown filter filters nothing
    page = client.get(_history(campaign), {"session": str(yesterday.pk)})
    assert "Nothing matches these filters." in page.content.decode()


def test_a_player_s_table_history_links_only_the_histories_they_may_open(
        client_for, alice, bob, dave, campaign, bobs_character, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    """A roll shows to every member, its character's name with it; the link to that
    character's history only where the reader may open it: not a party-mate's behind closed
    sheets, never an NPC's (a revealed NPC's page is the GM's: docs/npcs.md)."""
    from characters import npcs
    from characters.models import Character

    campaign.party_sheets = False
    campaign.save()
    mook = CharacterFactory(campaign=campaign, owner=alice, name="Mook", is_npc=True)
    npcs.npc_show(npc=mook, shown=Character.Shown.NAME, by=alice)
    client_for(alice, htmx=True).post(roll_url(mook), {**POOL, "in_the_open": "on"})
    client_for(bob, htmx=True).post(roll_url(bobs_character), POOL)
    wren = Character.objects.get(campaign=campaign, owner=dave)
    client_for(dave, htmx=True).post(roll_url(wren), POOL)

    page = client_for(dave).get(_history(campaign)).content.decode()

    assert "Rook" in page and "Mook" in page  # the rolls are there, named
    for hidden in (bobs_character, mook):
        assert reverse("history:character-history", args=[hidden.pk]) not in page
        assert f"/characters/{hidden.pk}/" not in page
    assert reverse("history:character-history", args=[wren.pk]) in page
