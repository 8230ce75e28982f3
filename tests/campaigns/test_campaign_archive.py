"""Archiving a finished campaign (read-only for everyone, listed apart, still exported) and
bringing it back."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Session
from campaigns.services import campaign_archive
from characters.models import Character
from rolls.models import Roll
from tests.factories import CampaignFactory
from tests.helpers import INLINE_TAGS, action_url, fresh, text_of
from tests.security.urlmap import changed_tables, snapshot

pytestmark = pytest.mark.django_db

MOTORCYCLE_POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
                   "threshold": "0"}


def archive_url(campaign: Campaign) -> str:
    return reverse("campaigns:campaign-archive", args=[campaign.pk])


def restore_url(campaign: Campaign) -> str:
    return reverse("campaigns:campaign-restore", args=[campaign.pk])


@pytest.fixture
def archived(campaign, alice) -> Campaign:  # type: ignore[no-untyped-def]
    """The Drift, with Bob's Rook, archived by Alice."""
    return campaign_archive(campaign=campaign, by=alice)


# --- Archiving ------------------------------------------------------------------------------


def test_the_gm_is_asked_before_archiving(client_for, alice, campaign):
    response = client_for(alice).get(archive_url(campaign))

    assert response.status_code == 200
    assert "Archive The Drift?" in text_of(response)
    assert "read-only for everyone" in text_of(response)
    assert fresh(campaign).archived_at is None


def test_archiving_makes_it_read_only_and_revokes_the_invite_link(client_for, alice, campaign):
    token = campaign.invite_token

    response = client_for(alice).post(archive_url(campaign), follow=True)

    assert response.redirect_chain == [(campaign.get_absolute_url(), 302)]
    assert "The Drift is archived" in text_of(response)
    stored = fresh(campaign)
    assert stored.is_archived and stored.invite_token is None
    join = client_for(campaign.created_by).get(reverse("campaigns:campaign-join", args=[token]))
    assert join.status_code == 404


def test_the_campaign_page_shows_the_banner_and_the_restore_button_to_the_gm_only(
    client_for, alice, bob, archived
):
    date = timezone.localtime(archived.archived_at).strftime("%-d %B %Y")

    gm_page = client_for(alice).get(archived.get_absolute_url())
    player_page = client_for(bob).get(archived.get_absolute_url())

    for page in (gm_page, player_page):
        assert page.status_code == 200
        assert f"Archived on {date}: read-only." in text_of(page, inline=(*INLINE_TAGS, "time"))
    assert restore_url(archived) in gm_page.content.decode()
    assert restore_url(archived) not in player_page.content.decode()


def test_the_campaign_page_hides_the_write_controls_when_archived(client_for, alice, archived):
    content = client_for(alice).get(archived.get_absolute_url()).content.decode()

    for name in ("rolls:npc-roll-create", "campaigns:campaign-invite-renew",
                 "characters:character-create"):
        assert reverse(name, args=[archived.pk]) not in content


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_and_a_stranger_cannot_archive(client_for, bob, carol, campaign, method):
    for user in (bob, carol):
        assert getattr(client_for(user), method)(archive_url(campaign)).status_code == 404
    assert fresh(campaign).archived_at is None


# --- Read-only for everyone -----------------------------------------------------------------


@pytest.fixture
def session(archived) -> Session:  # type: ignore[no-untyped-def]
    return Session.objects.create(campaign=archived, date=timezone.localdate())


def _writes(archived: Campaign, character: Character, session: Session
            ) -> list[tuple[str, str, dict[str, object]]]:
    """(who, url, payload) of four ordinary writes in the campaign."""
    return [
        ("bob", reverse("rolls:roll-create", args=[character.pk]), MOTORCYCLE_POOL),
        ("alice", reverse("table:session-list", args=[archived.pk]),
         {"date": "2026-11-21", "title": "One more night"}),
        ("alice", reverse("characters:character-xp-award", args=[character.pk]),
         {"amount": "5", "reason": "Crossed the strait"}),
        ("bob", action_url(character, "damage"), {"kind": "lethal", "levels": "1"}),
    ]


@pytest.mark.parametrize("write", range(4), ids=["roll", "session", "xp-award", "damage"])
def test_an_archived_campaign_refuses_every_write_with_403_and_writes_nothing(
    client_for, alice, bob, archived, bobs_character, session, seeded_rng, write
):
    who, url, payload = _writes(archived, bobs_character, session)[write]
    client = client_for({"alice": alice, "bob": bob}[who])
    before = snapshot()

    response = client.post(url, payload)

    assert response.status_code == 403
    assert "The Drift is archived" in text_of(response)
    assert not changed_tables(before, snapshot())


@pytest.mark.parametrize("write", range(4), ids=["roll", "session", "xp-award", "damage"])
def test_the_same_writes_go_through_once_the_campaign_is_restored(
    client_for, alice, bob, archived, bobs_character, session, seeded_rng, write
):
    """The refusals above are the archive's: the same requests write in a campaign in play."""
    who, url, payload = _writes(archived, bobs_character, session)[write]
    Campaign.objects.filter(pk=archived.pk).update(archived_at=None)
    client = client_for({"alice": alice, "bob": bob}[who])
    before = snapshot()

    response = client.post(url, payload)

    assert response.status_code in (200, 302)
    assert changed_tables(before, snapshot())


def test_an_htmx_write_is_refused_and_sent_to_the_campaign_page(
    client_for, bob, archived, bobs_character
):
    client = client_for(bob, htmx=True)
    before = snapshot()

    response = client.post(action_url(bobs_character, "damage"),
                           {"kind": "lethal", "levels": "1"})

    assert response.status_code == 403
    assert response["HX-Redirect"] == archived.get_absolute_url()
    assert not changed_tables(before, snapshot())


def test_restoring_makes_the_campaign_writable_again(
    client_for, alice, bob, archived, bobs_character, seeded_rng
):
    response = client_for(alice).post(restore_url(archived), follow=True)

    assert response.redirect_chain == [(archived.get_absolute_url(), 302)]
    assert "The Drift is restored" in text_of(response)
    stored = fresh(archived)
    assert stored.archived_at is None
    assert stored.invite_token is None  # the old link must not come back
    rolled = client_for(bob).post(reverse("rolls:roll-create", args=[bobs_character.pk]),
                                  MOTORCYCLE_POOL)
    assert rolled.status_code == 302
    assert Roll.objects.filter(character=bobs_character).count() == 1


def test_restore_is_post_only_and_the_gms_alone(client_for, alice, bob, carol, archived):
    assert client_for(alice).get(restore_url(archived)).status_code == 405
    for user in (bob, carol):
        assert client_for(user).post(restore_url(archived)).status_code == 404
    assert fresh(archived).is_archived


def test_restoring_a_campaign_in_play_changes_nothing(client_for, alice, campaign):
    response = client_for(alice).post(restore_url(campaign), follow=True)

    assert "is not archived" in text_of(response)
    assert fresh(campaign).invite_token == campaign.invite_token


def test_an_archived_campaign_is_still_read_and_exported(
    client_for, alice, bob, archived, bobs_character
):
    assert client_for(bob).get(bobs_character.get_absolute_url()).status_code == 200
    assert client_for(bob).get(reverse("rolls:roll-list", args=[archived.pk])).status_code == 200
    assert client_for(alice).get(reverse("table:session-list",
                                         args=[archived.pk])).status_code == 200

    export = client_for(alice).get(reverse("transfer:campaign-export", args=[archived.pk]))

    assert export.status_code == 200
    document = json.loads(b"".join(export.streaming_content) if export.streaming
                          else export.content)
    assert document["campaign"]["name"] == "The Drift"
    assert [c["name"] for c in document["characters"]] == ["Rook"]


# --- Listed apart ---------------------------------------------------------------------------


def test_the_list_shows_archived_campaigns_in_their_own_section_after_the_others(
    client_for, alice, archived
):
    CampaignFactory(name="The Long Night", created_by=alice)

    content = text_of(client_for(alice).get(reverse("campaigns:campaign-list")))

    assert content.index("The Long Night") < content.index("Archived") < content.index(
        "The Drift")


def test_with_only_archived_campaigns_the_list_says_none_is_in_play(client_for, bob, archived):
    content = text_of(client_for(bob).get(reverse("campaigns:campaign-list")))

    assert "None of your campaigns is in play" in content
    assert content.index("Archived") < content.index("The Drift")


def test_without_archived_campaigns_there_is_no_archived_section(client_for, bob, campaign):
    content = text_of(client_for(bob).get(reverse("campaigns:campaign-list")))

    assert "Archived" not in content
    assert "The Drift" in content


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_archived_campaign_seats_nobody_even_with_a_live_link(
    client_for, carol, campaign, method
):
    """Archiving revokes the link; an archived campaign that still has one (an import of an
    archived campaign gets a fresh link) refuses to seat anyone all the same."""
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())
    client = client_for(carol)
    before = snapshot()

    response = getattr(client, method)(reverse("campaigns:campaign-join",
                                               args=[campaign.invite_token]))

    assert response.status_code == 403
    assert "The Drift is archived" in text_of(response)
    assert not changed_tables(before, snapshot())
