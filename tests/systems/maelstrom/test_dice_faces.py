"""Maelstrom's d10s on a roll's page (systems/maelstrom/templates/systems/maelstrom/_roll.html,
drawing each die with templates/rolls/_die.html): regular dice, the bonus dice of exploding
tens and the experience die, each named with its state in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from rolls.models import Roll
from tests.factories import CharacterFactory
from tests.rolls.test_dice_faces import SVG_DIE, faces_of


@pytest.fixture
def sniper(campaign, bob) -> Character:  # type: ignore[no-untyped-def]
    """Precision 3, Firearms 1, an advanced Extreme Range specialty (tens explode)."""
    return CharacterFactory(
        campaign=campaign, owner=bob, name="Sniper",
        attributes={"Precision": 3}, abilities={"Firearms": 1},
        specialties=[("Firearms", "Extreme Range", True)],
    )


@pytest.mark.django_db
def test_the_roll_page_draws_every_die_as_a_d10_with_its_state_in_words(
    client_for, bob, scripted_dice, sniper
):
    scripted_dice([1, 4, 8, 10, 1, 10, 4, 8])
    client = client_for(bob)

    response = client.post(reverse("rolls:roll-create", args=[sniper.pk]), {
        "trait": ["Precision", "Firearms"], "specialty": ["Firearms: Extreme Range"],
        "kind": "action", "difficulty": "8", "threshold": "0",
        "required_specialties": "Extreme Range",
    })
    page = client.get(response.url)

    roll = Roll.objects.get()
    assert (roll.result["dice"], roll.result["bonus_dice"]) == ([1, 4, 8, 10], [1, 10, 4, 8])
    dice = SVG_DIE.findall(page.content.decode())
    assert [name for _, name, _ in dice] == [
        "1 botch", "4", "8 success", "10 success",
        "bonus 1", "bonus 10 success", "bonus 4", "bonus 8 success",
    ]
    assert all("die-d10" in classes for classes, _, _ in dice)
    assert [faces_of(body) for _, _, body in dice] == [
        ["1"], ["4"], ["8"], ["10"], ["1"], ["10"], ["4"], ["8"]]
    classes = [set(c.split()) for c, _, _ in dice]
    assert {"botch"} <= classes[0] and {"success"} <= classes[2]
    assert {"bonus", "ignored"} <= classes[4] and {"bonus", "success"} <= classes[5]
    assert "<span class=\"die" not in page.content.decode()


@pytest.mark.django_db
def test_the_experience_die_is_drawn_dashed_and_named_as_the_experience_die(
    client_for, bob, scripted_dice, sniper
):
    client = client_for(bob)
    scripted_dice([3, 4, 8, 9])
    response = client.post(reverse("rolls:roll-create", args=[sniper.pk]), {
        "trait": ["Precision", "Firearms"], "kind": "action", "difficulty": "8",
        "threshold": "0",
    })
    roll = Roll.objects.get()
    scripted_dice([9])

    client.post(reverse("rolls:roll-act", args=[roll.code, "experience-die"]),
                {"key": "ability:Firearms"})
    page = client.get(response.url)

    names = [name for _, name, _ in SVG_DIE.findall(page.content.decode())]
    assert names[-1] == "experience 9 success"
    assert names.count("8 success") == 2  # the roll and its follow-up both show the dice
