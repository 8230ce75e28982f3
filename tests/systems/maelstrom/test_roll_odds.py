"""Exact odds in the roll dialog: as the player ticks traits, the odds of the pool they are
building show next to the Roll button, before anything is rolled (Maelstrom rules.md, Dice
Pool, Threshold, Using Specialties, Wound Penalties)."""

from __future__ import annotations

import re

import pytest

from characters.models import Character
from rolls.models import Roll
from rulesets import maelstrom
from tests.factories import CharacterFactory
from tests.helpers import action_url, odds_url, text_of
from tests.systems.maelstrom.sheets import set_tracks

pytestmark = pytest.mark.django_db

RIDER_POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
              "threshold": "0"}


@pytest.fixture
def rider(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Precision 3, Driving 2: five dice; a Cars specialty."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rider",
                            attributes={"Precision": 3}, abilities={"Driving": 2},
                            specialties=[("Driving", "Cars", False)])


def test_the_fragment_shows_the_exact_odds_of_the_ticked_pool(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob, htmx=True).get(odds_url(rider), RIDER_POOL)
    assert response.status_code == 200
    text = text_of(response)
    # 5 dice at difficulty 6: RULES.md worked numbers 84.4 / 10.424 / 5.176 %.
    assert "Precision + Driving: 5 dice, difficulty 6, threshold 0" in text
    assert "Success 84.4 %" in text
    assert "Failure 10.4 %" in text
    assert "Botch 5.2 %" in text
    headline = '<span id="roll-bar-odds">Success 84.4 %, botch 5.2 %</span>'
    assert headline in response.content.decode()


def test_a_specialty_and_a_threshold_change_the_odds(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    query = {**RIDER_POOL, "specialty": ["Driving: Cars"], "threshold": "1"}
    text = text_of(client_for(bob, htmx=True).get(odds_url(rider), query))
    expected = maelstrom.odds(dice=5, difficulty=6, threshold=1, exploding=True)
    assert f"Success {expected.success * 100:.1f} %" in text
    assert "exploding tens" in text


def test_the_wound_penalty_is_in_the_odds(client_for, alice, bob, rider) -> None:  # type: ignore[no-untyped-def]
    set_tracks(rider, health_lethal=2)  # Scratched: -1 die
    text = text_of(client_for(bob, htmx=True).get(odds_url(rider), RIDER_POOL))
    assert "4 dice" in text
    assert f"Success {maelstrom.odds(dice=4).success * 100:.1f} %" in text


def test_an_illegal_pool_shows_the_rule_instead_of_odds(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    query = {**RIDER_POOL, "trait": ["Precision", "Driving", "Strength"]}
    response = client_for(bob, htmx=True).get(odds_url(rider), query)
    assert response.status_code == 200
    assert "(Maelstrom rules, Dice Pool)" in text_of(response)
    assert "Success" not in text_of(response)


def test_with_nothing_ticked_it_asks_for_traits(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    text = text_of(client_for(bob, htmx=True).get(odds_url(rider), {"kind": "action"}))
    assert "Tick one or two traits" in text


def test_asking_for_the_odds_stores_nothing(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    client_for(bob, htmx=True).get(odds_url(rider), RIDER_POOL)
    assert Roll.objects.count() == 0


def test_without_htmx_the_roll_page_shows_the_odds_and_the_form(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    response = client_for(bob).get(odds_url(rider), {**RIDER_POOL, "difficulty": "7"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Roll for Rider" in page
    expected = maelstrom.odds(dice=5, difficulty=7).success * 100
    assert f"Success {expected:.1f} %" in text_of(response)
    assert 'value="7"' in page  # the difficulty typed is kept
    assert re.search(r'<input type="checkbox" name="trait" value="Precision"[^>]*checked', page)


def test_the_sheet_wires_the_odds_to_the_roll_dialog(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    page = client_for(bob).get(rider.get_absolute_url()).content.decode()
    assert f'hx-get="{odds_url(rider)}"' in page
    assert "change from:[form='roll-form']" in page
    assert "Tick traits to see the exact odds before you roll." in page


def test_a_fellow_player_and_a_stranger_get_no_odds(client_for, carol, campaign, rider) -> None:  # type: ignore[no-untyped-def]
    assert client_for(carol, htmx=True).get(odds_url(rider), RIDER_POOL).status_code == 404


def test_the_gm_sees_the_odds_of_a_players_pool(client_for, alice, rider) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).get(odds_url(rider), RIDER_POOL)
    assert "Success 84.4 %" in text_of(response)


def test_marking_damage_tells_the_dialog_to_refresh_its_odds(client_for, alice, rider) -> None:  # type: ignore[no-untyped-def]
    response = client_for(alice, htmx=True).post(action_url(rider, "damage"),
                                                 {"kind": "lethal", "levels": "1"})
    assert response.status_code == 200
    assert "trackChanged" in response.headers.get("HX-Trigger", "")


def test_odds_are_refused_to_a_post(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    assert client_for(bob).post(odds_url(rider), RIDER_POOL).status_code == 405


def test_it_shows_the_chance_of_each_number_of_net_successes(client_for, bob, rider) -> None:  # type: ignore[no-untyped-def]
    text = text_of(client_for(bob, htmx=True).get(odds_url(rider), RIDER_POOL))
    successes = maelstrom.odds(dice=5).successes
    five_or_more = sum(p for net, p in successes.items() if net >= 5)
    expected = " · ".join(
        [f"{net}: {successes[net] * 100:.1f} %" for net in (1, 2, 3, 4)]
        + [f"5+: {five_or_more * 100:.1f} %"]
    )
    assert f"Chance of each number of net successes: {expected}" in text


ODDS_QUERIES = 3  # session, user, the character with the viewer's role (its sheet holds the
# traits, specialties and merits the pool is built from)


@pytest.mark.parametrize("specialties", [0, 12])
def test_the_odds_take_the_same_few_queries_however_many_traits(
    campaign, bob, client_for, django_assert_num_queries, specialties
) -> None:  # type: ignore[no-untyped-def]
    # Asked on every change in the roll dialog: a hot path.
    character = CharacterFactory(
        campaign=campaign, owner=bob, attributes={"Precision": 3}, abilities={"Driving": 2},
        specialties=[("Driving", f"Road {n}", False) for n in range(specialties)],
    )
    client = client_for(bob, htmx=True)
    with django_assert_num_queries(ODDS_QUERIES):
        response = client.get(odds_url(character), RIDER_POOL)
    assert "Success 84.4 %" in text_of(response)


def test_a_willpower_rolls_odds_read_the_merits_from_the_sheet_in_as_few_queries(
    campaign, bob, client_for, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    bonded = CharacterFactory(campaign=campaign, owner=bob, merits_flaws=[
        {"kind": "merit", "name": "Strong Bond", "points": 2}])
    client = client_for(bob, htmx=True)
    with django_assert_num_queries(ODDS_QUERIES):
        response = client.get(odds_url(bonded), {"kind": "willpower", "difficulty": "6",
                                                  "threshold": "0"})
    assert "1 automatic success" in text_of(response)
