"""The GM hands the GM seat to one of the campaign's players."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.models import Campaign, Membership
from campaigns.services import MembershipError, campaign_handover
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db


def handover_url(campaign: Campaign) -> str:
    return reverse("campaigns:campaign-handover", args=[campaign.pk])


def seat(campaign: Campaign, user) -> Membership:  # type: ignore[no-untyped-def]
    return Membership.objects.get(campaign=campaign, user=user)


def test_the_gm_chooses_among_the_players_and_is_told_what_they_lose(
    client_for, alice, bob, campaign
):
    bob.first_name = "Bob the Bold"
    bob.save()

    response = client_for(alice).get(handover_url(campaign))

    content = text_of(response)
    assert response.status_code == 200
    assert "Bob the Bold" in content
    assert "You lose the GM's rights at once" in content
    assert "GM notes" in content
    assert f'value="{seat(campaign, alice).pk}"' not in response.content.decode()


def test_with_no_player_the_page_says_to_invite_someone_first(client_for, alice):
    lonely = CampaignFactory(name="Solo", created_by=alice)

    response = client_for(alice).get(handover_url(lonely))

    assert "Invite someone first" in text_of(response)
    assert "<select" not in response.content.decode()


def test_the_handover_swaps_the_roles_and_sends_the_old_gm_to_the_campaign(
    client_for, alice, bob, campaign
):
    response = client_for(alice).post(handover_url(campaign),
                                      {"membership": seat(campaign, bob).pk}, follow=True)

    assert response.redirect_chain == [(campaign.get_absolute_url(), 302)]
    assert "bob is now the GM of The Drift" in text_of(response)
    assert seat(campaign, bob).role == Membership.Role.GM
    assert seat(campaign, alice).role == Membership.Role.PLAYER
    # Who started the campaign stays on record; the seat is what counts.
    assert fresh(campaign).created_by == alice
    assert "You are a player" in text_of(response)


def test_the_new_gm_sees_the_dashboard_and_the_old_one_loses_the_gm_pages(
    client_for, alice, bob, campaign, bobs_character
):
    wren = CharacterFactory(campaign=campaign, owner=alice, name="Wren")
    client_for(alice).post(handover_url(campaign), {"membership": seat(campaign, bob).pk})

    page = client_for(bob).get(campaign.get_absolute_url())
    assert "You are the GM" in text_of(page)
    assert 'id="party-heading"' in page.content.decode()
    assert client_for(bob).get(reverse("campaigns:campaign-settings",
                                       args=[campaign.pk])).status_code == 200
    assert client_for(alice).get(reverse("campaigns:campaign-settings",
                                         args=[campaign.pk])).status_code == 404
    assert client_for(alice).get(handover_url(campaign)).status_code == 404
    assert client_for(alice).get(wren.get_absolute_url()).status_code == 200  # her own
    # Rook is a party-mate's now: his sheet is hers to read (Campaign.party_sheets), no more.
    rook = client_for(alice).get(bobs_character.get_absolute_url())
    assert rook.status_code == 200 and 'id="read-only-sheet"' in rook.content.decode()
    assert client_for(alice).get(reverse("characters:character-edit",
                                         args=[bobs_character.pk])).status_code == 404


def test_the_campaign_join_page_names_the_gm_who_holds_the_seat(
    client_for, alice, bob, campaign
):
    bob.first_name = "Bob the Bold"
    bob.save()
    campaign_handover(campaign=campaign, to_membership=seat(campaign, bob), by=alice)

    response = client_for(UserFactory(username="erin")).get(
        reverse("campaigns:campaign-join", args=[campaign.invite_token]))

    assert "GM Bob the Bold?" in text_of(response)


def test_an_unknown_or_gm_seat_is_refused_with_the_reason(client_for, alice, carol, campaign):
    elsewhere = CampaignFactory(created_by=carol)
    for choice in (seat(campaign, alice).pk, seat(elsewhere, carol).pk, "", "x"):
        response = client_for(alice).post(handover_url(campaign), {"membership": choice})

        assert response.status_code == 200
        assert ("Choose one of the campaign's players." in text_of(response)
                or "Choose the player who becomes the GM." in text_of(response))
    assert seat(campaign, alice).role == Membership.Role.GM


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_player_and_a_stranger_get_404_and_nothing_changes(
    client_for, alice, bob, carol, campaign, method
):
    for user in (bob, carol):
        response = getattr(client_for(user), method)(
            handover_url(campaign), {"membership": seat(campaign, bob).pk})
        assert response.status_code == 404
    assert seat(campaign, alice).role == Membership.Role.GM
    assert seat(campaign, bob).role == Membership.Role.PLAYER


def test_a_stale_form_from_a_former_gm_changes_nothing(alice, bob, campaign, dave):
    campaign_handover(campaign=campaign, to_membership=seat(campaign, bob), by=alice)

    with pytest.raises(MembershipError):
        campaign_handover(campaign=campaign, to_membership=seat(campaign, dave), by=alice)
    assert seat(campaign, bob).role == Membership.Role.GM
    assert seat(campaign, dave).role == Membership.Role.PLAYER


def test_the_seat_can_be_handed_back(alice, bob, campaign):
    campaign_handover(campaign=campaign, to_membership=seat(campaign, bob), by=alice)
    campaign_handover(campaign=campaign, to_membership=seat(campaign, alice), by=bob)

    assert seat(campaign, alice).role == Membership.Role.GM
    assert Membership.objects.filter(campaign=campaign, role=Membership.Role.GM).count() == 1
