"""Deleting a campaign, after typing its name: the only way rolls and ledger entries
disappear, all of them at once. Run on SQLite and on PostgreSQL (docs/testing.md)."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import transaction
from django.urls import reverse

from campaigns.models import Campaign, Membership, Session
from campaigns.services import campaign_archive, campaign_delete
from characters import services as character_services
from characters.models import Character, CharacterImport, XpEntry
from core.appendonly import AppendOnlyError, erasing_logs
from rolls import services as roll_services
from rolls.models import RequestedRoll, Roll
from rulesets import registry
from table.services import session_award, session_create
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.helpers import fresh, text_of
from tests.security.urlmap import changed_tables, snapshot

pytestmark = pytest.mark.django_db

MOTORCYCLE_POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
                   "threshold": "0"}
ASK = {"kind": "action", "traits": "Precision + Driving", "difficulty": "7", "threshold": "0",
       "note": "Outrun the patrol"}


def delete_url(campaign: Campaign) -> str:
    return reverse("campaigns:campaign-delete", args=[campaign.pk])


@pytest.fixture
def full_table(client_for, alice, bob, campaign, bobs_character, seeded_rng):
    """The Drift with a bit of everything the logs hold: a roll and its experience die, an
    answered and an open roll request, a GM-only NPC roll, a session with awards, a spend and
    its undo, and a player's import awaiting the GM."""
    player, gm = client_for(bob), client_for(alice)
    player.post(reverse("rolls:roll-create", args=[bobs_character.pk]), MOTORCYCLE_POOL)
    roll = Roll.objects.get()
    player.post(reverse("rolls:roll-act", args=[roll.code, "experience-die"]),
                {"key": "ability:Driving"})
    ask = reverse("rolls:requested-roll-create", args=[campaign.pk])
    gm.post(ask, {**ASK, "character": str(bobs_character.pk)})
    asked = RequestedRoll.objects.get()
    player.post(reverse("rolls:roll-create", args=[bobs_character.pk]),
                {"answers": str(asked.pk), **asked.data})
    gm.post(ask, {**ASK, "character": str(bobs_character.pk)})
    roll_services.npc_roll_create(
        campaign=campaign, text=registry.get("maelstrom").module.QUICK_ROLL_EXAMPLES[0],
        gm_only=True, by=alice, rng=random.Random(3))
    session = session_create(campaign=campaign, date=datetime.date(2026, 11, 21),
                             title="The wreck", recap="Rook found the black box.")
    session_award(session=session, awards={bobs_character.pk: ["Heroism"]}, by=alice)
    spend = character_services.xp_spend(character=fresh(bobs_character), key="ability:Stealth",
                                        by=bob)
    character_services.xp_undo(entry=spend, by=alice, as_gm=True)
    stray = CharacterFactory(campaign=campaign, owner=bob, name="Stray",
                             review=Character.Review.PENDING)
    CharacterImport.objects.create(character=stray, imported_by=bob)

    assert Roll.objects.filter(parent__isnull=False).count() == 1
    assert RequestedRoll.objects.filter(answer__isnull=False).count() == 1
    assert RequestedRoll.objects.filter(answer__isnull=True).count() == 1
    assert XpEntry.objects.filter(kind=XpEntry.Kind.REVERSAL).count() == 1
    assert XpEntry.objects.filter(session=session).count() == 1
    return campaign


@pytest.fixture
def other_table(carol):  # type: ignore[no-untyped-def]
    """Carol's campaign, with a character and a roll: deleting The Drift leaves it alone."""
    elsewhere = CampaignFactory(name="Elsewhere", created_by=carol)
    vex = CharacterFactory(campaign=elsewhere, owner=carol, name="Vex")
    roll_services.npc_roll_create(campaign=elsewhere, text="5 dice diff 6", gm_only=False,
                                  by=carol, rng=random.Random(1))
    return elsewhere, vex


def test_the_gm_sees_what_will_go_and_is_offered_the_export_first(
    client_for, alice, full_table
):
    response = client_for(alice).get(delete_url(full_table))

    content = text_of(response)
    assert response.status_code == 200
    assert "2 characters" in content
    assert "4 rolls" in content  # a roll, its experience die, an answer, the NPC's
    # Rook: starting, banked by the experience die, award, spend, undo; Stray: starting.
    assert "6 XP ledger entries" in content
    assert "1 session" in content
    assert content.index("Download the export first") < content.index("Type The Drift")
    assert reverse("transfer:campaign-export", args=[full_table.pk]) in \
        response.content.decode()


def test_a_wrong_name_deletes_nothing_and_says_what_to_type(client_for, alice, full_table):
    client = client_for(alice)
    before = snapshot()

    for typed in ("the drift", "The Drift!", "", "Elsewhere"):
        response = client.post(delete_url(full_table), {"name": typed})

        assert response.status_code == 200
        assert ("Type the campaign's name exactly: The Drift" in text_of(response)
                or "Type the campaign's name to delete it." in text_of(response))
        assert f'value="{typed}"' in response.content.decode() or not typed
    assert not changed_tables(before, snapshot())


def test_the_right_name_deletes_the_campaign_and_everything_in_it(
    client_for, alice, full_table, other_table
):
    elsewhere, vex = other_table

    response = client_for(alice).post(delete_url(full_table), {"name": "The Drift"},
                                      follow=True)

    assert response.redirect_chain == [(reverse("campaigns:campaign-list"), 302)]
    assert "Deleted The Drift." in text_of(response)
    assert not Campaign.objects.filter(pk=full_table.pk).exists()
    for model in (Membership, Character, Roll, RequestedRoll, Session):
        assert not model.objects.filter(campaign_id=full_table.pk).exists(), model
    assert not XpEntry.objects.filter(character__campaign_id=full_table.pk).exists()
    assert not CharacterImport.objects.exists()
    # Another table keeps everything.
    assert Character.objects.filter(pk=vex.pk).exists()
    assert vex.xp_entries.count() == 1
    assert Roll.objects.filter(campaign=elsewhere).count() == 1


def test_surrounding_spaces_in_the_typed_name_are_forgiven(client_for, alice, campaign):
    client_for(alice).post(delete_url(campaign), {"name": "  The Drift "})

    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_an_archived_campaign_can_be_deleted(client_for, alice, campaign, bobs_character):
    campaign_archive(campaign=campaign, by=alice)

    response = client_for(alice).post(delete_url(campaign), {"name": "The Drift"})

    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert not Character.objects.filter(pk=bobs_character.pk).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_and_a_stranger_get_404_and_nothing_is_deleted(
    client_for, bob, carol, campaign, method
):
    for user in (bob, carol):
        response = getattr(client_for(user), method)(delete_url(campaign),
                                                     {"name": "The Drift"})
        assert response.status_code == 404
    assert Campaign.objects.filter(pk=campaign.pk).exists()


def test_the_players_lose_the_campaign_with_it(client_for, alice, bob, campaign):
    campaign_delete(campaign=campaign, by=alice)

    assert client_for(bob).get(campaign.get_absolute_url()).status_code == 404
    assert "The Drift" not in text_of(client_for(bob).get(reverse("campaigns:campaign-list")))


# --- The append-only guard holds everywhere else ---------------------------------------------


def test_a_character_with_ledger_entries_cannot_be_deleted_around_the_service(full_table):

    stray = Character.objects.get(name="Stray")  # its starting XP is on the ledger
    before = snapshot()

    with pytest.raises(AppendOnlyError), transaction.atomic():
        stray.delete()
    assert not changed_tables(before, snapshot())


def test_a_campaign_cannot_be_deleted_around_the_service(full_table):
    RequestedRoll.objects.filter(campaign=full_table).delete()  # the PROTECT aside
    before = snapshot()

    with pytest.raises(AppendOnlyError), transaction.atomic():
        Campaign.objects.get(pk=full_table.pk).delete()
    assert not changed_tables(before, snapshot())


def test_the_hatch_lets_only_cascades_through(bobs_character):
    with erasing_logs("a test"), pytest.raises(AppendOnlyError):
        XpEntry.objects.filter(character=bobs_character).delete()
    with erasing_logs("a test"), pytest.raises(AppendOnlyError):
        bobs_character.xp_entries.get().delete()
    assert bobs_character.xp_entries.count() == 1


def test_staff_deleting_a_campaign_in_the_admin_goes_through_the_service(
    client, campaign, bobs_character, seeded_rng
):
    roll_services.npc_roll_create(campaign=campaign, text="5 dice diff 6", gm_only=False,
                                  by=campaign.created_by, rng=random.Random(1))
    staff = UserFactory(username="sam", is_staff=True, is_superuser=True)
    client.force_login(staff)

    response = client.post(reverse("admin:campaigns_campaign_delete", args=[campaign.pk]),
                           {"post": "yes"})

    assert response.status_code == 302
    assert not Campaign.objects.filter(pk=campaign.pk).exists()
    assert not Roll.objects.exists() and not XpEntry.objects.exists()


def test_a_campaign_name_with_markup_is_shown_as_text_on_the_delete_page(client_for, alice,
                                                                         campaign) -> None:  # type: ignore[no-untyped-def]
    # The name may be another GM's (before a handover) or an imported file's: Django prints a
    # field's help text unescaped, so the page must escape the name itself.
    Campaign.objects.filter(pk=campaign.pk).update(name='<img src=x onerror="alert(1)">')

    page = client_for(alice).get(delete_url(campaign)).content.decode()

    assert "<img src=x" not in page
    assert "Type &lt;img src=x onerror=&quot;alert(1)&quot;&gt; to confirm." in page
