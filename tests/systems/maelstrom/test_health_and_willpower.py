"""Marking damage, healing and willpower in place on the sheet (Maelstrom rules.md, Health,
Marking Damage, Incapacitation and Death, Willpower): the sheet actions "damage", "heal" and
"willpower" of characters:character-action.

Each endpoint answers an HTMX request with its partial and a plain POST with a redirect to
the sheet and a message (POST/redirect/GET).
"""

from __future__ import annotations

import re

import pytest

from characters.models import Character
from systems.maelstrom import sheet
from tests.helpers import action_url, fresh, text_of

pytestmark = pytest.mark.django_db


def damage_url(character: Character) -> str:
    return action_url(character, "damage")


def heal_url(character: Character) -> str:
    return action_url(character, "heal")


def willpower_url(character: Character) -> str:
    return action_url(character, "willpower")


def box_marks(response) -> list[str]:  # type: ignore[no-untyped-def]
    """The health chart's boxes top to bottom, as the labels a screen reader hears."""
    return re.findall(r'role="img" aria-label="[A-Za-z ]+: (\w+)"', response.content.decode())


def set_health(character: Character, *, bashing: int = 0, lethal: int = 0,
               aggravated: int = 0, dead: bool = False) -> None:
    stored = fresh(character).sheet
    stored["health"].update(bashing=bashing, lethal=lethal, aggravated=aggravated, dead=dead)
    Character.objects.filter(pk=character.pk).update(sheet=stored)


def set_current_willpower(character: Character, current: int) -> None:
    stored = fresh(character).sheet
    stored["willpower"]["current"] = current
    Character.objects.filter(pk=character.pk).update(sheet=stored)


def health_of(character: Character) -> tuple[int, int, int, bool]:
    chart = sheet.health(fresh(character).sheet)
    return chart.bashing, chart.lethal, chart.aggravated, chart.dead


def willpower_of(character: Character) -> tuple[int, int]:
    return sheet.willpower(fresh(character).sheet)


# --- Marking damage -----------------------------------------------------------------------


def test_marking_two_lethal_levels_shows_scratched_and_a_one_die_wound_penalty(
    client_for, bob, bobs_character
):
    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "lethal", "levels": "2"})

    text = text_of(response)
    assert "Scratched · wound penalty −1 die" in text
    assert "Marked 2 lethal: Scratched." in text
    assert box_marks(response)[:3] == ["lethal", "lethal", "empty"]
    assert health_of(bobs_character) == (0, 2, 0, False)


def test_the_htmx_answer_is_the_health_partial_and_updates_the_wound_note_out_of_band(
    client_for, bob, bobs_character
):
    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "lethal", "levels": "2"})

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert 'id="health-track"' in content
    assert 'id="wound-penalty-note" class="help" hx-swap-oob="true"' in content
    assert "Wound penalty: −1 die (Scratched) on actions." in text_of(response)


def test_one_level_of_bashing_is_bruised_with_no_wound_penalty(client_for, bob, bobs_character):
    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "bashing", "levels": "1"})

    text = text_of(response)
    assert "Bruised" in text
    assert "wound penalty −" not in text
    assert "No wound penalty." in text


def test_a_plain_damage_post_redirects_to_the_sheet_which_shows_a_message(
    client_for, bob, bobs_character
):
    client = client_for(bob)

    response = client.post(damage_url(bobs_character), {"kind": "lethal", "levels": "2"})
    page = client.get(response.url)

    assert response.status_code == 302
    assert response.url == bobs_character.get_absolute_url()
    assert "Marked 2 lethal: Scratched." in text_of(page)
    assert "Scratched · wound penalty −1 die" in text_of(page)


def test_a_new_lethal_level_pushes_bashing_down_as_in_the_seed_example(
    client_for, bob, bobs_character
):
    set_health(bobs_character, bashing=2, lethal=1)  # [X][/][/][ ][ ][ ][ ][ ]

    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "lethal", "levels": "1"})

    # [X][X][/][/][ ][ ][ ][ ]
    assert box_marks(response) == ["lethal", "lethal", "bashing", "bashing", "empty", "empty",
                                   "empty", "empty"]
    assert health_of(bobs_character) == (2, 2, 0, False)


def test_aggravated_damage_sits_on_top_of_lethal_and_bashing(client_for, bob, bobs_character):
    set_health(bobs_character, bashing=1, lethal=1)

    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "aggravated", "levels": "1"})

    assert box_marks(response)[:4] == ["aggravated", "lethal", "bashing", "empty"]


def test_filling_the_incapacitated_box_leaves_the_character_unconscious(
    client_for, bob, bobs_character
):
    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "bashing", "levels": "8"})

    assert "Incapacitated · unconscious" in text_of(response)
    assert "wound penalty" not in text_of(response).split("Bruised")[0]
    assert health_of(bobs_character) == (8, 0, 0, False)


def test_bashing_on_a_chart_full_of_bashing_converts_the_top_most_bashing_to_lethal(
    client_for, bob, bobs_character
):
    set_health(bobs_character, bashing=8)

    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "bashing", "levels": "1"})

    assert health_of(bobs_character) == (7, 1, 0, False)
    assert box_marks(response) == ["lethal"] + ["bashing"] * 7


@pytest.mark.parametrize("kind", ["lethal", "aggravated"])
def test_lethal_or_aggravated_on_a_chart_full_of_bashing_takes_the_place_of_a_bashing_level(
    kind, client_for, bob, bobs_character
):
    set_health(bobs_character, bashing=8)

    client_for(bob).post(damage_url(bobs_character), {"kind": kind, "levels": "1"})

    expected = (7, 1, 0, False) if kind == "lethal" else (7, 0, 1, False)
    assert health_of(bobs_character) == expected


def test_any_damage_when_the_incapacitated_box_holds_lethal_kills_the_character(
    client_for, bob, bobs_character
):
    set_health(bobs_character, lethal=8)

    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "bashing", "levels": "1"})

    text = text_of(response)
    assert health_of(bobs_character)[3] is True
    assert "Dead" in text
    assert "Rook is dead." in text
    assert "Mark damage" not in text


def test_damage_to_a_dead_character_is_refused_and_changes_nothing(
    client_for, bob, bobs_character
):
    set_health(bobs_character, lethal=8, dead=True)

    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "lethal", "levels": "1"})

    assert "the character is dead and cannot take more damage" in text_of(response)
    assert 'role="alert"' in response.content.decode()
    assert health_of(bobs_character) == (0, 8, 0, True)


@pytest.mark.parametrize("levels", ["0", "11", "abc", ""])
def test_an_invalid_number_of_levels_rerenders_with_an_error_and_changes_nothing(
    levels, client_for, bob, bobs_character
):
    set_health(bobs_character, bashing=1)

    response = client_for(bob, htmx=True).post(damage_url(bobs_character),
                                               {"kind": "lethal", "levels": levels})

    content = response.content.decode()
    assert response.status_code == 200
    assert 'id="health-track"' in content
    assert re.search(r'<p class="errorlist" role="alert">[^<]+</p>', content)
    assert health_of(bobs_character) == (1, 0, 0, False)


def test_an_invalid_damage_type_is_refused_with_a_message_on_the_sheet(
    client_for, bob, bobs_character
):
    response = client_for(bob).post(damage_url(bobs_character),
                                    {"kind": "psychic", "levels": "1"}, follow=True)

    assert "Select a valid choice. psychic is not one of the available choices." in text_of(
        response
    )
    assert 'class="message error"' in response.content.decode()
    assert health_of(bobs_character) == (0, 0, 0, False)


# --- Healing ------------------------------------------------------------------------------


def test_healing_takes_the_least_serious_damage_first(client_for, bob, bobs_character):
    set_health(bobs_character, bashing=1, lethal=1, aggravated=1)
    client = client_for(bob, htmx=True)

    client.post(heal_url(bobs_character), {"kind": ""})
    assert health_of(bobs_character) == (0, 1, 1, False)

    response = client.post(heal_url(bobs_character), {"kind": ""})
    assert health_of(bobs_character) == (0, 0, 1, False)
    assert "Healed one level: Bruised." in text_of(response)


def test_healing_a_chosen_type_removes_only_that_type(client_for, bob, bobs_character):
    set_health(bobs_character, bashing=2, lethal=1)

    client_for(bob).post(heal_url(bobs_character), {"kind": "lethal"})

    assert health_of(bobs_character) == (2, 0, 0, False)


def test_healing_an_undamaged_character_is_refused_with_a_message(
    client_for, bob, bobs_character
):
    response = client_for(bob).post(heal_url(bobs_character), {"kind": ""},
                                    follow=True)

    assert "there are only 0 levels of damage to heal, not 1" in text_of(response)
    assert health_of(bobs_character) == (0, 0, 0, False)


def test_a_dead_character_cannot_be_healed(client_for, bob, bobs_character):
    set_health(bobs_character, lethal=8, dead=True)

    response = client_for(bob, htmx=True).post(heal_url(bobs_character),
                                               {"kind": ""})

    assert "the character is dead; damage cannot be healed" in text_of(response)
    assert health_of(bobs_character) == (0, 8, 0, True)


# --- Willpower ----------------------------------------------------------------------------


def test_spending_a_willpower_dot_lowers_current_but_not_permanent(
    client_for, bob, bobs_character
):
    response = client_for(bob, htmx=True).post(willpower_url(bobs_character),
                                               {"action": "spend"})

    content = response.content.decode()
    assert "<html" not in content
    assert 'id="willpower-track"' in content
    assert "Current 2 of 3:" in text_of(response)
    assert "Spent a willpower dot." in text_of(response)
    assert willpower_of(bobs_character) == (3, 2)


def test_a_plain_willpower_post_redirects_to_the_sheet_which_shows_a_message(
    client_for, bob, bobs_character
):
    client = client_for(bob)

    response = client.post(willpower_url(bobs_character), {"action": "spend"})
    page = client.get(response.url)

    assert response.status_code == 302
    assert response.url == bobs_character.get_absolute_url()
    assert "Spent a willpower dot." in text_of(page)
    assert "Current 2 of 3:" in text_of(page)


def test_willpower_cannot_be_spent_below_zero(client_for, bob, bobs_character):
    set_current_willpower(bobs_character, 0)

    response = client_for(bob, htmx=True).post(willpower_url(bobs_character),
                                               {"action": "spend"})

    assert "No willpower dot is left to spend." in text_of(response)
    assert 'role="alert"' in response.content.decode()
    assert willpower_of(bobs_character) == (3, 0)


def test_recovering_a_willpower_dot_raises_current(client_for, bob, bobs_character):
    set_current_willpower(bobs_character, 1)

    response = client_for(bob).post(willpower_url(bobs_character), {"action": "recover"},
                                    follow=True)

    assert "Recovered a willpower dot." in text_of(response)
    assert willpower_of(bobs_character) == (3, 2)


def test_willpower_cannot_be_recovered_above_the_permanent_rank(client_for, bob, bobs_character):
    response = client_for(bob).post(willpower_url(bobs_character), {"action": "recover"},
                                    follow=True)

    assert "Current willpower is already at its permanent rank (3)." in text_of(response)
    assert 'class="message error"' in response.content.decode()
    assert willpower_of(bobs_character) == (3, 3)


def test_an_unknown_willpower_action_is_refused_and_changes_nothing(
    client_for, bob, bobs_character
):
    response = client_for(bob, htmx=True).post(willpower_url(bobs_character),
                                               {"action": "double"})

    assert "Choose to spend or recover willpower, or resolve the incapacitation." in (
        text_of(response))
    assert willpower_of(bobs_character) == (3, 3)
