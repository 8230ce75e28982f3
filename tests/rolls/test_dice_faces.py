"""Dice drawn as SVG (templates/rolls/_die.html): one shape per die size, the face in the
middle, and a state said in words and shown by more than colour."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from characters.models import Character
from rolls.models import Roll
from tests.factories import CharacterFactory

SIZES = [4, 6, 8, 10, 12, 20]
SVG_DIE = re.compile(r'<svg class="die ([^"]*)" role="img" aria-label="([^"]+)"[^>]*>(.*?)</svg>',
                     re.S)


def die(**context: object) -> str:
    return render_to_string("rolls/_die.html", context)


def outline_of(svg: str) -> str:
    """The die's outline: the first shape drawn."""
    match = re.search(r'<(polygon|circle) class="die-edge"[^>]*>', svg)
    assert match, svg
    return match.group(0)


def faces_of(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


# --- The include --------------------------------------------------------------------------


@pytest.mark.parametrize("sides", SIZES)
def test_each_die_size_is_a_small_svg_with_its_face_in_the_middle(sides):
    svg = die(sides=sides, face=sides, state="plain")

    assert svg.strip().startswith("<svg")
    assert 'viewBox="0 0 40 40"' in svg
    assert 'role="img"' in svg
    assert faces_of(svg) == [str(sides)]
    assert 'text-anchor="middle"' in svg and 'dominant-baseline="central"' in svg
    assert f"die-d{sides}" in svg


def test_every_die_size_has_its_own_shape():
    outlines = {sides: outline_of(die(sides=sides, face=1, state="plain")) for sides in SIZES}

    assert len(set(outlines.values())) == len(SIZES), outlines
    corners = {sides: outline.count(",") for sides, outline in outlines.items()}
    # triangle, square, diamond, kite, pentagon, hexagon
    assert corners == {4: 3, 6: 4, 8: 4, 10: 4, 12: 5, 20: 6}


def test_a_d20_also_draws_the_triangle_of_its_top_face():
    assert 'class="die-facet"' in die(sides=20, face=17, state="plain")


@pytest.mark.parametrize(("state", "bonus", "name"), [
    ("success", False, "7 success"),
    ("botch", False, "1 botch"),
    ("ignored", True, "bonus 1 ignored"),
    ("success", True, "bonus 7 success"),
    ("bonus", False, "bonus 7"),
    ("plain", False, "7"),
])
def test_the_accessible_name_says_the_state_in_words(state, bonus, name):
    face = 1 if state in ("botch", "ignored") else 7

    svg = die(sides=10, face=face, state=state, bonus=bonus)

    assert f'aria-label="{name}"' in svg


def test_a_label_given_by_the_caller_is_the_accessible_name():
    svg = die(sides=10, face=10, state="success", label="experience 10 success")

    assert 'aria-label="experience 10 success"' in svg


def test_success_and_botch_are_shown_by_a_mark_and_an_outline_not_by_colour_alone():
    plain = die(sides=10, face=4, state="plain")
    success = die(sides=10, face=8, state="success")
    botch = die(sides=10, face=1, state="botch")

    assert 'class="die-mark"' not in plain
    assert 'class="die-mark"' in success and 'class="die-mark"' in botch
    assert success.count('class="die-edge"') == 1
    assert 'class="die-edge die-edge-inner"' in botch  # the double outline
    bonus = SVG_DIE.search(die(sides=10, face=4, state="ignored", bonus=True))
    assert bonus and "bonus" in bonus.group(1).split()  # the dashed outline


def test_the_svg_has_no_inline_style_or_script_for_the_content_security_policy():
    for sides in SIZES:
        for state in ("plain", "success", "botch", "ignored", "bonus"):
            svg = die(sides=sides, face=3, state=state, bonus=True)
            assert "style=" not in svg
            assert "<script" not in svg
            assert not re.search(r"\son\w+=", svg)


# --- On the roll's page -------------------------------------------------------------------


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
    assert (roll.dice, roll.bonus_dice) == ([1, 4, 8, 10], [1, 10, 4, 8])
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

    client.post(reverse("rolls:roll-experience-die", args=[roll.pk]),
                {"key": "ability:Firearms"})
    page = client.get(response.url)

    names = [name for _, name, _ in SVG_DIE.findall(page.content.decode())]
    assert names[-1] == "experience 9 success"
    assert names.count("8 success") == 2  # the roll and its follow-up both show the dice
