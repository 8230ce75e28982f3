"""The GM's dashboard (the campaign page, for the GM) of a Maelstrom table: a card per
character with health, wound penalty, willpower and XP, edited in place from the card through
the sheet's own actions; live through the campaign's event stream."""

from __future__ import annotations

import pytest

from systems.maelstrom import sheet
from tests.factories import CharacterFactory, sheet_update
from tests.helpers import action_url, text_of

pytestmark = pytest.mark.django_db


def test_the_gm_sees_a_card_per_character_with_the_tracks(client_for, alice, campaign,
                                                          bobs_character) -> None:  # type: ignore[no-untyped-def]
    bobs_character = sheet_update(bobs_character, health_lethal=2)
    page = client_for(alice).get(campaign.get_absolute_url())
    content = page.content.decode()
    assert f'id="card-{bobs_character.pk}"' in content
    assert 'aria-label="Scratched: lethal"' in content  # each box named, not colour alone
    text = text_of(page)
    assert "Scratched · wound penalty −1 die" in text
    permanent, current = sheet.willpower(bobs_character.sheet)
    assert f"Willpower {current}/{permanent}" in text
    assert f"XP {bobs_character.xp_available} available" in text


def test_a_player_gets_no_party_cards(client_for, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    content = client_for(bob).get(campaign.get_absolute_url()).content.decode()
    assert 'class="card party-card"' not in content
    assert "Mark damage" not in content


def test_the_page_listens_to_the_campaigns_events(client_for, alice, campaign,
                                                  bobs_character) -> None:  # type: ignore[no-untyped-def]
    content = client_for(alice).get(campaign.get_absolute_url()).content.decode()
    # The stream names the page, whose regions it brings (campaigns.live).
    assert (f'sse-connect="/campaigns/{campaign.pk}/events/?page=/campaigns/{campaign.pk}/&amp;'
            in content)
    assert f"sse:trackChanged-{bobs_character.pk}" in content
    assert "sse:rollMade" in content


def test_damage_marked_from_a_card_answers_with_the_card(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(
        action_url(bobs_character, "damage"),
        {"from": "dashboard", "kind": "lethal", "levels": "3"},
    )
    assert response.status_code == 200
    content = response.content.decode()
    card = f'<article class="card party-card" id="card-{bobs_character.pk}"'
    assert content.lstrip().startswith(card)
    assert "Marked 3 lethal: Hurt." in text_of(response)
    bobs_character.refresh_from_db()
    assert sheet.health(bobs_character.sheet).lethal == 3


def test_without_htmx_the_card_redirects_back_to_the_dashboard(client_for, alice, campaign,
                                                               bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice).post(
        action_url(bobs_character, "willpower"), {"from": "dashboard", "action": "spend"},
        follow=True
    )
    assert response.redirect_chain[-1][0] == campaign.get_absolute_url()
    assert "Spent a willpower dot." in text_of(response)


def test_a_refusal_shows_on_the_card_and_changes_nothing(client_for, alice, bobs_character) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(
        action_url(bobs_character, "heal"), {"from": "dashboard", "kind": ""}
    )
    assert "errorlist" in response.content.decode()
    bobs_character.refresh_from_db()
    chart = sheet.health(bobs_character.sheet)
    assert (chart.bashing, chart.lethal) == (0, 0)


def test_the_dashboard_costs_the_same_queries_for_a_bigger_party(
    client_for, alice, campaign, bob, django_assert_max_num_queries
) -> None:  # type: ignore[no-untyped-def]
    for n in range(6):
        CharacterFactory(campaign=campaign, owner=bob, name=f"Hireling {n}")
    client = client_for(alice)
    with django_assert_max_num_queries(7):  # and the running encounter (encounters)
        response = client.get(campaign.get_absolute_url())
    assert response.content.decode().count('class="card party-card"') == 6
