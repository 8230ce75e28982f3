"""The list of one's campaigns."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

LIST = reverse("campaigns:campaign-list")


def test_the_list_shows_only_the_users_campaigns_with_role_system_and_size(
    client_for, campaign, bob, carol
):
    CampaignFactory(name="Carol's Secret Game", created_by=carol)

    content = client_for(bob).get(LIST).content.decode()

    assert "The Drift" in content
    assert "Maelstrom" in content
    assert "You play" in content
    assert "2 members" in content
    assert "Carol&#x27;s Secret Game" not in content
    assert "Carol's Secret Game" not in content


def test_the_gm_sees_their_role_in_the_list(client_for, campaign, alice):
    assert b"You are the GM" in client_for(alice).get(LIST).content


def test_a_user_without_campaigns_is_invited_to_create_one(client_for, carol):
    response = client_for(carol).get(LIST)

    assert b"not in any campaign yet" in response.content
    assert reverse("campaigns:campaign-create").encode() in response.content
    assert b"Create a campaign" in response.content


def test_the_list_needs_a_login():
    response = Client().get(LIST)

    assert response.status_code == 302
    assert response.url == f"{reverse('login')}?next={LIST}"
