"""Genesys narrative dice drawn as SVG with their symbols (templates/systems/genesys/_die.html):
every face of every die says what it shows in words, and no die is told apart by colour
alone."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
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


# --- The stylesheet (the system's own, css/systems/genesys.css) -----------------------------

GENESYS_CSS = (settings.BASE_DIR / "systems" / "genesys" / "static" / "css" / "systems"
               / "genesys.css")


def _luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_genesys_die_outline_stands_out_on_the_dark_card():
    """WCAG 1.4.11: a graphic's outline at 3:1 against what is around it. The dark card is
    sheetkeeper.css's --card in the dark scheme; the setback die is nearly black."""
    blocks = [b for b in re.findall(r":root\s*\{(.*?)\}", GENESYS_CSS.read_text(), re.S)
              if "--gdie-" in b]
    assert len(blocks) == 2, "the dice's colours are declared in a plain and an @supports :root"
    paired = blocks[1]
    dark_card = "#1d2128"
    edges = re.findall(r"(--gdie-[a-z]+-edge):\s*light-dark\((#[0-9a-f]+),\s*(#[0-9a-f]+)\)",
                       paired)
    assert len(edges) == 6
    for name, _, dark in edges:
        assert _contrast(dark, dark_card) >= 3, name


def test_the_dice_of_a_fresh_roll_settle_in_only_without_a_wish_for_less_motion() -> None:
    """As the shared dice do (tests/rolls/test_roll_results.py), with the shared keyframes."""
    css = re.sub(r"/\*.*?\*/", "", GENESYS_CSS.read_text(), flags=re.S)
    block = re.search(r"@media \(prefers-reduced-motion: no-preference\) \{(.*?)\}\s*\}", css,
                      re.S)
    assert block, "the animation sits in a prefers-reduced-motion: no-preference block"
    assert re.search(r"\.roll-result\.roll-fresh svg\.gdie\s*\{\s*animation:\s*roll-die-settle",
                     block[1])
    assert css.count("animation") == 1
