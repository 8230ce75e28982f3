"""Starting a campaign: the creator becomes its GM."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign, Membership
from tests.conftest import TEST_ONLY_SYSTEMS

pytestmark = pytest.mark.django_db

CREATE = reverse("campaigns:campaign-create")


def test_creating_a_campaign_makes_the_creator_its_gm_with_an_invite_link(client_for, carol):
    response = client_for(carol).post(
        CREATE, {"name": "Night Shift", "ruleset": "maelstrom", "starting_xp": "45"}
    )

    campaign = Campaign.objects.get(name="Night Shift")
    assert response.status_code == 302
    assert response.url == campaign.get_absolute_url()
    assert campaign.ruleset == "maelstrom"
    assert campaign.starting_xp == 45
    assert campaign.created_by == carol
    assert campaign.invite_token
    membership = Membership.objects.get(campaign=campaign)
    assert (membership.user, membership.role) == (carol, Membership.Role.GM)


def test_the_new_campaign_page_greets_its_gm_with_a_message(client_for, carol):
    response = client_for(carol).post(
        CREATE, {"name": "Night Shift", "ruleset": "maelstrom", "starting_xp": "30"}, follow=True
    )

    assert b"Night Shift is ready" in response.content
    assert b"Invite link" in response.content


def test_the_form_starts_at_30_xp_and_offers_only_selectable_rule_systems(client_for, carol):
    response = client_for(carol).get(CREATE)

    assert response.status_code == 200
    form = response.context["form"]
    assert form["starting_xp"].value() == 30
    assert [slug for slug, _ in form.fields["ruleset"].choices] == [
        "maelstrom", "shahquest", "shattered_world", "genesys", "three_d6", *TEST_ONLY_SYSTEMS]


@pytest.mark.parametrize("ruleset", ["dnd5e", ""])
def test_a_rule_system_that_cannot_be_chosen_is_rejected(client_for, carol, ruleset):
    response = client_for(carol).post(
        CREATE, {"name": "Night Shift", "ruleset": ruleset, "starting_xp": "30"}
    )

    assert response.status_code == 200
    assert "ruleset" in response.context["form"].errors
    assert not Campaign.objects.exists()


@pytest.mark.parametrize("starting_xp", ["-1", "1001", ""])
def test_starting_xp_must_be_between_0_and_1000(client_for, carol, starting_xp):
    response = client_for(carol).post(
        CREATE, {"name": "Night Shift", "ruleset": "maelstrom", "starting_xp": starting_xp}
    )

    assert response.status_code == 200
    assert "starting_xp" in response.context["form"].errors
    assert not Campaign.objects.exists()


def test_creating_a_campaign_needs_a_login():
    response = Client().get(CREATE)

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
