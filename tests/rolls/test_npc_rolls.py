"""The GM's quick NPC rolls, typed in the campaign's system's notation, and GM-only rolls
that players never see (issue "The GM's campaign dashboard and the live table")."""

from __future__ import annotations

import pytest
from django.urls import reverse

import systems
from rolls.models import Roll
from tests.factories import CampaignFactory, UserFactory
from tests.helpers import text_of

pytestmark = pytest.mark.django_db


def npc_url(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("rolls:npc-roll-create", args=[campaign.pk])


def test_the_gm_rolls_for_an_npc_in_maelstrom_notation(
    client_for, alice, campaign, seeded_rng
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(
        npc_url(campaign), {"text": "5 dice diff 7 threshold 1"}
    )
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert (roll.kind, roll.character, roll.rolled_by, roll.gm_only) == ("npc", None, alice, False)
    assert len(roll.result["dice"]) == 5
    assert roll.pool["difficulty"] == 7 and roll.pool["threshold"] == 1
    assert roll.result["system"] == "maelstrom"
    assert roll.summary in text_of(response)
    assert "rollMade" in response.headers["HX-Trigger"]


def test_another_systems_notation_is_read_by_its_own_engine(client_for, alice, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    genesys = CampaignFactory(name="Edge", created_by=alice, ruleset="genesys")
    client_for(alice, htmx=True).post(npc_url(genesys), {"text": "2A 1P vs 3D 1C"})
    roll = Roll.objects.get(campaign=genesys)
    assert roll.ruleset == "genesys"
    assert roll.result["system"] == "genesys"
    assert roll.outcome in {"success", "failure"}
    assert roll.summary


def test_notation_the_system_cannot_read_is_named_and_nothing_is_rolled(
    client_for, alice, campaign
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(npc_url(campaign), {"text": "5 dice dif 7"})
    assert response.status_code == 200
    assert "'dif 7' is not understood" in text_of(response)
    assert Roll.objects.count() == 0


def test_without_htmx_a_bad_roll_comes_back_to_the_dashboard_with_the_text(
    client_for, alice, campaign
) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).post(npc_url(campaign), {"text": "5 dice dif 7"}, follow=True)
    assert response.redirect_chain[-1][0].startswith(campaign.get_absolute_url() + "?npc=")
    assert 'value="5 dice dif 7"' in response.content.decode()
    assert "is not understood" in text_of(response)


def test_without_htmx_a_roll_lands_on_its_page(client_for, alice, campaign, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).post(npc_url(campaign), {"text": "3 dice"})
    assert response.status_code == 302
    assert response["Location"] == Roll.objects.get().get_absolute_url()


def test_players_and_strangers_cannot_roll_for_npcs(client_for, bob, carol, campaign) -> None:  # type: ignore[no-untyped-def]
    assert client_for(bob).post(npc_url(campaign), {"text": "3 dice"}).status_code == 404
    assert client_for(carol).post(npc_url(campaign), {"text": "3 dice"}).status_code == 404
    assert Roll.objects.count() == 0


@pytest.fixture
def secret_roll(client_for, alice, campaign, seeded_rng) -> Roll:  # type: ignore[no-untyped-def]
    client_for(alice, htmx=True).post(npc_url(campaign), {"text": "4 dice", "gm_only": "on"})
    return Roll.objects.get()


def test_a_gm_only_roll_is_the_gms_alone(client_for, alice, bob, campaign, secret_roll) -> None:  # type: ignore[no-untyped-def]
    assert secret_roll.gm_only
    log = reverse("rolls:roll-list", args=[campaign.pk])
    player, gm = client_for(bob), client_for(alice)
    # The logs show a roll's short header (SheetSystem.roll_header), the dashboard its
    # description: neither reaches the player.
    header = str(systems.for_ruleset(secret_roll.ruleset).roll_header(secret_roll))
    assert header not in player.get(log).content.decode()
    assert secret_roll.description not in player.get(campaign.get_absolute_url()).content.decode()
    assert header not in player.get(campaign.get_absolute_url()).content.decode()
    assert player.get(secret_roll.get_absolute_url()).status_code == 404
    assert header in gm.get(log).content.decode()
    assert "GM only" in text_of(gm.get(secret_roll.get_absolute_url()))


def test_a_gm_only_roll_is_announced_to_the_gm_alone(
    client_for, alice, campaign, seeded_rng, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    announced: list[tuple[int, str, bool]] = []
    monkeypatch.setattr("rolls.log.announce",
                        lambda campaign_id, event, *, gm_only=False, **_: announced.append(
                            (campaign_id, event, gm_only)))
    client = client_for(alice, htmx=True)
    client.post(npc_url(campaign), {"text": "4 dice", "gm_only": "on"})
    client.post(npc_url(campaign), {"text": "4 dice"})
    assert announced == [(campaign.pk, "rollMade", True), (campaign.pk, "rollMade", False)]


def test_the_dashboard_offers_the_systems_examples(client_for, alice, campaign) -> None:  # type: ignore[no-untyped-def]
    page = text_of(client_for(alice).get(campaign.get_absolute_url()))
    assert "Quick NPC roll" in page
    assert "5 dice diff 7 threshold 1" in page
    assert "Quick NPC roll" not in text_of(client_for(UserFactory()).get("/"))
