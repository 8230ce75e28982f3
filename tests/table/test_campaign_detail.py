"""The campaign page: who sees what, and a bounded number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, Membership
from rolls.models import Roll
from tests.factories import CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

# session, user, membership+campaign, members, characters, the NPCs the viewer sees, the
# running encounter (encounters), rolls
MAX_DETAIL_QUERIES = 8


def detail_url(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("table:campaign-detail", args=[campaign.pk])


def make_roll(campaign, by, character=None, description="Drive through the storm"):  # type: ignore[no-untyped-def]
    return Roll.objects.create(
        campaign=campaign,
        character=character,
        rolled_by=by,
        ruleset="maelstrom",
        kind=Roll.Kind.ACTION,
        description=description,
        outcome=Roll.Outcome.SUCCESS,
        net=2,
        summary="2 successes",
    )


def test_an_anonymous_visitor_is_sent_to_log_in(campaign):
    response = Client().get(detail_url(campaign))

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={detail_url(campaign)}"


def test_a_stranger_gets_404_so_the_campaign_does_not_leak(client_for, campaign, carol):
    assert client_for(carol).get(detail_url(campaign)).status_code == 404


def test_a_missing_campaign_is_404(client_for, alice):
    response = client_for(alice).get(reverse("table:campaign-detail", args=[999]))

    assert response.status_code == 404


def test_the_gm_sees_name_system_xp_and_the_full_invite_link(client_for, campaign, alice):
    content = client_for(alice).get(detail_url(campaign)).content.decode()

    assert "The Drift" in content
    assert "Maelstrom" in content
    assert "Starting XP 30" in content
    assert f"http://testserver/campaigns/join/{campaign.invite_token}/" in content
    assert reverse("campaigns:campaign-invite-renew", args=[campaign.pk]) in content
    assert reverse("campaigns:campaign-invite-revoke", args=[campaign.pk]) in content


def test_the_gm_sees_remove_buttons_for_players_but_not_for_themself(client_for, campaign, alice):
    """On the settings page: the members are configuration, the dashboard is play."""
    bobs_seat = Membership.objects.get(campaign=campaign, user__username="bob")
    alices_seat = Membership.objects.get(campaign=campaign, user=alice)
    remove_bob = reverse("campaigns:membership-remove", args=[campaign.pk, bobs_seat.pk])

    content = client_for(alice).get(
        reverse("campaigns:campaign-settings", args=[campaign.pk])).content.decode()

    assert remove_bob in content
    assert reverse("campaigns:membership-remove", args=[campaign.pk, alices_seat.pk]) not in content
    assert remove_bob not in client_for(alice).get(detail_url(campaign)).content.decode()


def test_a_player_sees_the_page_and_members_but_no_invite_link_or_remove_buttons(
    client_for, campaign, bob
):
    content = client_for(bob).get(detail_url(campaign)).content.decode()

    assert "The Drift" in content
    assert "alice" in content and "bob" in content
    assert campaign.invite_token not in content
    assert "Invite players" not in content
    assert "/remove/" not in content


def test_the_gm_sees_every_character_with_a_link_and_its_player(
    client_for, campaign, alice, bobs_character
):
    content = client_for(alice).get(detail_url(campaign)).content.decode()

    assert f'href="{bobs_character.get_absolute_url()}"' in content
    assert "Rook" in content
    assert "played by bob" in content


def test_a_player_opens_their_own_sheets_but_sees_fellow_characters_by_name_only(
    client_for, campaign, bob, bobs_character
):
    dave = UserFactory(username="dave")
    daves_character = CharacterFactory(
        campaign=campaign, owner=dave, name="Wren", concept="Salvage diver"
    )
    # The GM keeps the party's sheets to their players (tests/campaigns/test_party_sheets.py
    # has them shown, the default).
    Campaign.objects.filter(pk=campaign.pk).update(party_sheets=False)

    content = client_for(bob).get(detail_url(campaign)).content.decode()

    assert f'href="{bobs_character.get_absolute_url()}"' in content
    assert "Wren" in content and "Salvage diver" in content
    assert daves_character.get_absolute_url() not in content


def test_everyone_at_the_table_may_create_a_character(client_for, campaign, alice, bob):
    create_url = reverse("characters:character-create", args=[campaign.pk])

    for user in (alice, bob):
        assert create_url in client_for(user).get(detail_url(campaign)).content.decode()


def test_an_empty_campaign_says_so(client_for, campaign, alice):
    content = client_for(alice).get(detail_url(campaign)).content.decode()

    assert "No characters yet" in content
    assert "No rolls yet" in content
    assert reverse("rolls:roll-list", args=[campaign.pk]) in content


def test_recent_rolls_show_the_last_ten_with_character_or_gm(
    client_for, campaign, alice, bob, bobs_character
):
    for n in range(11):
        make_roll(campaign, bob, bobs_character, description=f"Old roll {n:02d}")
    make_roll(campaign, alice, description="Tension check")

    content = client_for(bob).get(detail_url(campaign)).content.decode()

    assert "Tension check" in content
    assert "<strong>GM</strong>" in content
    assert "<strong>Rook</strong>" in content
    assert "2 successes" in content
    assert "Old roll 10" in content
    assert "Old roll 02" in content
    assert "Old roll 01" not in content
    assert "Old roll 00" not in content
    assert "Full roll log" in content


def count_detail_queries(client: Client, campaign) -> int:  # type: ignore[no-untyped-def]
    with CaptureQueriesContext(connection) as queries:
        response = client.get(detail_url(campaign))
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("viewer", ["alice", "bob"])
def test_the_page_costs_the_same_queries_with_one_or_five_characters(
    client_for, campaign, bob, django_assert_max_num_queries, viewer
):
    CharacterFactory(campaign=campaign, owner=bob)
    make_roll(campaign, bob)
    client = client_for(UserFactory(username=viewer))
    client.get(detail_url(campaign))  # warm up: the session and content types
    with django_assert_max_num_queries(MAX_DETAIL_QUERIES):
        small = count_detail_queries(client, campaign)

    for n in range(4):
        player = UserFactory(username=f"player{n}")
        character = CharacterFactory(campaign=campaign, owner=player)
        make_roll(campaign, player, character)
    with django_assert_max_num_queries(MAX_DETAIL_QUERIES):
        large = count_detail_queries(client, campaign)

    assert large == small
