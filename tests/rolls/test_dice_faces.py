"""Dice drawn as SVG (templates/rolls/_die.html, which every system's _roll.html draws its
dice with): one shape per die size, the face in the middle, and a state said in words and
shown by more than colour. How Maelstrom's roll page uses it: tests/systems/maelstrom/
test_dice_faces.py."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string

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
    # triangle, square, diamond, six-cornered kite, pentagon, hexagon
    assert corners == {4: 3, 6: 4, 8: 4, 10: 6, 12: 5, 20: 6}


def test_a_d8_and_a_d10_are_told_apart_by_their_outline_not_only_by_their_number():
    # Shahquest rolls d8s and d10s side by side: a diamond beside a four-cornered kite read as
    # one size at 40 px. The d10 has corners of its own and draws the V of its top face.
    d8, d10 = die(sides=8, face=5, state="plain"), die(sides=10, face=5, state="plain")

    assert outline_of(d8).count(",") != outline_of(d10).count(",")
    assert 'class="die-facet"' in d10
    assert 'class="die-facet"' not in d8


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


# --- The stylesheet -----------------------------------------------------------------------

DICE_CSS = settings.BASE_DIR / "static" / "css" / "dice.css"
HEX = re.compile(r"#[0-9a-fA-F]{3,8}\b")


def _root_blocks(css: str) -> list[str]:
    """The bodies of dice.css's :root blocks: the plain one (the light colours, for browsers
    without light-dark()), then the light-dark() pairs inside @supports."""
    blocks = re.findall(r":root\s*\{(.*?)\}", css, re.S)
    assert len(blocks) == 2, "dice.css declares its colours in a plain and an @supports :root"
    return blocks


def test_every_die_colour_is_a_custom_property_a_theme_can_set():
    css = DICE_CSS.read_text()
    rules = re.sub(r"@supports[^{]*", "@supports", css)  # its test names two colours
    for block in _root_blocks(css):
        rules = rules.replace(block, "")
    # Outside :root, a colour is only a var() fallback (var(--ink, #1d2430)), never a value.
    bare = [m.group(0) for m in HEX.finditer(re.sub(r"var\([^)]*\)", "var()", rules))]

    assert bare == []


def test_the_light_scheme_keeps_the_dice_as_they_were():
    plain, paired = _root_blocks(DICE_CSS.read_text())

    for name, light in (("--die-success-fill", "#dff0e4"), ("--die-botch-fill", "#f7dddd"),
                        ("--die-ignored-fill", "#f1efea"), ("--die-mark-ink", "#fff")):
        assert re.search(rf"{name}:\s*{light};", plain), name
        assert re.search(rf"{name}:\s*light-dark\({light},", paired), name
