"""Genesys narrative dice drawn as SVG with their symbols (templates/systems/genesys/_die.html):
every face of every die says what it shows in words, and no die is told apart by colour
alone."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from rulesets import genesys

FACES = [(die, face) for die in genesys.DIE_TYPES for face in genesys.FACES[die]]


def draw(die: str, symbols: tuple[str, ...]) -> str:
    return render_to_string("systems/genesys/_die.html", {"die": die, "symbols": symbols})


def label(svg: str) -> str:
    match = re.search(r'aria-label="([^"]+)"', svg)
    assert match, svg
    return match.group(1)


@pytest.mark.parametrize(("die", "symbols"), FACES)
def test_every_face_of_every_die_is_named_in_words(die: str, symbols: tuple[str, ...]) -> None:
    svg = draw(die, symbols)
    name = label(svg)
    assert name.startswith(f"{die.capitalize()} die: ")
    if not symbols:
        assert name.endswith(": blank")
    for symbol in symbols:
        assert symbol in name
    assert 'role="img"' in svg
    assert f"<title>{name}</title>" in svg


def test_triumph_and_despair_say_what_they_count_as() -> None:
    assert "triumph (counts as a success)" in label(draw("proficiency", ("triumph",)))
    assert "despair (counts as a failure)" in label(draw("challenge", ("despair",)))


def test_each_die_type_has_its_own_shape_class_and_letter() -> None:
    drawn = {die: draw(die, ()) for die in genesys.DIE_TYPES}
    classes = {re.search(r'<svg class="([^"]+)"', svg).group(1) for svg in drawn.values()}  # type: ignore[union-attr]
    assert len(classes) == 6
    for die, svg in drawn.items():
        letter = genesys.DIE_LETTERS[die]
        assert re.search(rf">\s*{letter}\s*</text>", svg), f"{die} has no {letter} badge"


def test_a_blank_face_draws_no_glyph_and_a_face_draws_one_per_symbol() -> None:
    blank = draw("boost", ())
    double = draw("ability", ("success", "success"))
    assert blank.count('class="gg-') == 0
    assert double.count('class="gg-') >= 2


@pytest.mark.parametrize(("die", "symbols"), FACES[:8])
def test_no_inline_style_script_or_handler(die: str, symbols: tuple[str, ...]) -> None:
    svg = draw(die, symbols)
    assert "style=" not in svg
    assert "<script" not in svg
    assert not re.search(r"\son\w+=", svg)
