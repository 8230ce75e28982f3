"""Results readable from across the table (issue 17, "The look"): the outcome is the first and
largest thing in a roll's result, above the dice; the header over it is short ("Precision +
Driving · 7 dice · diff 6") with the rest of the pool folded (SheetSystem.roll_header); the
logs read the same short header; only a roll just made has its dice settle in, and never for
someone who asked for less motion (static/css/results.css). In a browser:
tests/e2e/test_roll_results.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

import systems
from rolls.models import Roll
from rulesets import maelstrom, shattered_world, three_d6
from tests.factories import CampaignFactory
from tests.helpers import text_of

pytestmark = pytest.mark.django_db

# An NPC quick roll in each system's notation: the one roll every system makes from the same
# view, drawn by its own _roll.html in full.
NPC_ROLLS = {
    "maelstrom": "5 dice diff 7 threshold 1",
    "genesys": "2A 1P vs 3D 1C",
    "shahquest": "d10 2d8 d6",
    "shattered_world": "d8+1 vs 6",
    "three_d6": "3d6+2",
}
DIE = re.compile(r'<svg class="g?die\b')
OUTCOME = re.compile(r'<p class="([^"]*\boutcome\b[^"]*)"')


def npc_roll(client_for, alice, ruleset: str):  # type: ignore[no-untyped-def]
    """Alice, the GM, rolls for an NPC on a new campaign of ``ruleset``: the HTMX answer."""
    campaign = CampaignFactory(name="Table", created_by=alice, ruleset=ruleset)
    return client_for(alice, htmx=True).post(
        reverse("rolls:npc-roll-create", args=[campaign.pk]), {"text": NPC_ROLLS[ruleset]})


def roll_of(ruleset: str, description: str, **fields: object) -> Roll:
    """An unsaved roll of ``ruleset`` as stored with ``description``."""
    return Roll(ruleset=ruleset, kind=fields.pop("kind", "action"), description=description,
                **fields)


def header(roll: Roll) -> tuple[str, str]:
    found = systems.for_ruleset(roll.ruleset).roll_header(roll)
    return found.short, found.details


# --- The outcome first, and large -------------------------------------------------------


@pytest.mark.parametrize("ruleset", sorted(NPC_ROLLS))
def test_a_fresh_result_shows_its_outcome_large_before_the_dice(
    ruleset, client_for, alice, seeded_rng
) -> None:  # type: ignore[no-untyped-def]
    content = npc_roll(client_for, alice, ruleset).content.decode()

    outcome = OUTCOME.search(content)
    die = DIE.search(content)
    assert outcome and die, content
    assert outcome.start() < die.start(), "the outcome comes before the dice"
    assert "roll-outcome" in outcome.group(1).split()


def test_only_a_roll_just_made_is_marked_fresh(client_for, alice, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    fresh = npc_roll(client_for, alice, "maelstrom").content.decode()
    roll = Roll.objects.get()
    again = client_for(alice).get(roll.get_absolute_url()).content.decode()

    assert 'class="roll-result roll-fresh"' in fresh
    assert 'class="roll-result"' in again and "roll-fresh" not in again


# --- The short header -----------------------------------------------------------------------


def test_a_maelstrom_pool_reads_its_traits_dice_and_difficulty_the_rest_folded() -> None:
    pool = maelstrom.ActionPool(kind="action", dice=7, difficulty=6, threshold=1,
                                exploding=True, wound_penalty=0,
                                traits=("Precision", "Driving"), specialties=("Motorcycles",),
                                experience_die_allowed=True)
    roll = roll_of("maelstrom", pool.describe())

    assert header(roll) == ("Precision + Driving · 7 dice · diff 6",
                            "threshold 1, specialties Motorcycles, exploding tens")


def test_a_maelstrom_npc_and_a_willpower_roll_read_as_short() -> None:
    npc = roll_of("maelstrom", "NPC: NPC: 5 dice, difficulty 7, threshold 1", kind="npc")
    willpower = roll_of("maelstrom", "Willpower: 1 die, difficulty 8, threshold 0")

    assert header(npc) == ("NPC · 5 dice · diff 7", "threshold 1")
    assert header(willpower) == ("Willpower · 1 die · diff 8", "threshold 0")


def test_a_description_a_system_does_not_recognise_is_shown_whole() -> None:
    # An old roll keeps its words: the log is append-only.
    assert header(roll_of("maelstrom", "Rook drives")) == ("Rook drives", "")
    assert header(roll_of("three_d6", "Power, TD 12")) == ("Power, TD 12", "")


def test_a_genesys_check_reads_its_skill_and_difficulty_the_dice_folded() -> None:
    roll = roll_of("genesys", "Agility + Ranged, Average: 1 ability, 2 proficiency vs 2 "
                              "difficulty, 1 boost", kind="check")
    npc = roll_of("genesys", "NPC: 2 ability vs 3 difficulty", kind="npc")

    assert header(roll) == ("Agility + Ranged · Average",
                            "1 ability, 2 proficiency vs 2 difficulty, 1 boost")
    assert header(npc) == ("2 ability vs 3 difficulty", "")


def test_a_shahquest_pool_reads_its_attribute_affiliation_and_dice() -> None:
    description = ("d10 3d8 (Partner d8, Coordination d10, Physical d8, Setting die d8); "
                   "1 plot point spent")
    pool = {"notation": "d10 3d8", "dice": [
        {"size": 8, "source": "affiliation", "name": "Partner"},
        {"size": 10, "source": "attribute", "name": "Coordination"},
        {"size": 8, "source": "distinction", "name": "Physical"},
        {"size": 8, "source": "setting", "name": "Setting die"}]}
    roll = roll_of("shahquest", description, result={"pool": pool})
    npc = roll_of("shahquest", "NPC: d10 2d8 (Die d10, Die d8, Die d8)", kind="npc")

    assert header(roll) == ("Coordination + Partner · d10 3d8",
                            "Partner d8, Coordination d10, Physical d8, Setting die d8; "
                            "1 plot point spent")
    assert header(npc) == ("d10 2d8", "Die d10, Die d8, Die d8")


def test_a_shattered_world_roll_reads_its_action_die_and_target() -> None:
    pool = shattered_world.ActionPool(die=8, die_kind="field role die", target=6,
                                      modifiers=(2,), action="Sword strike")
    plain = shattered_world.ActionPool(die=8, die_kind="field role die", target=6)

    assert header(roll_of("shattered_world", pool.describe())) == (
        "Sword strike · d8 +2 · target 6", "field role die")
    assert header(roll_of("shattered_world", plain.describe())) == (
        "Field role die d8 · target 6", "")


def test_a_three_d6_test_and_contest_read_short() -> None:
    pool = three_d6.TestPool(label="Agility", modifier=1, td=10, favor=1)
    contest = roll_of("three_d6", "Contest: Mara Quill (Power test: 3d6 + 3) against Dock "
                                  "guard (3d6 + 2)", kind="contest")

    assert header(roll_of("three_d6", pool.describe(), kind="test")) == (
        "Agility test · 4d6 + 1 · TD 10", "1 favor")
    assert header(contest) == ("Power test · Mara Quill against Dock guard",
                               "Mara Quill: Power test: 3d6 + 3; Dock guard: 3d6 + 2")
    # Names are free text, brackets included.
    bracketed = roll_of("three_d6", "Contest: Mara (the Quill) (Power test: 3d6 + 3) against "
                                    "Guard (night) (3d6 + 2)", kind="contest")
    assert header(bracketed) == ("Power test · Mara (the Quill) against Guard (night)",
                                 "Mara (the Quill): Power test: 3d6 + 3; Guard (night): 3d6 + 2")


def test_the_result_and_the_log_show_the_short_header(
    client_for, alice, campaign, seeded_rng
) -> None:  # type: ignore[no-untyped-def]
    client_for(alice, htmx=True).post(reverse("rolls:npc-roll-create", args=[campaign.pk]),
                                      {"text": "5 dice diff 7 threshold 1"})
    roll = Roll.objects.get()

    page = text_of(client_for(alice).get(roll.get_absolute_url()))
    log = text_of(client_for(alice).get(reverse("rolls:roll-list", args=[campaign.pk])))

    assert "GM · NPC quick roll · NPC · 5 dice · diff 7" in page
    assert "threshold 1" in page  # folded under the header
    assert "NPC · 5 dice · diff 7" in log
    assert roll.description not in log


# --- The dice settle in, unless asked not to ------------------------------------------------


def test_the_dice_animation_runs_only_without_a_wish_for_less_motion() -> None:
    css = Path(settings.BASE_DIR, "static", "css", "results.css").read_text()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    block = re.search(r"@media \(prefers-reduced-motion: no-preference\) \{", css)
    assert block, "the animation sits in a prefers-reduced-motion: no-preference block"
    depth, end = 1, block.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(css[end], 0)
        end += 1
    inside, outside = css[block.end():end], css[:block.start()] + css[end:]

    assert re.search(r"\.roll-result\.roll-fresh svg\.die\b", inside)
    assert re.search(r"animation:\s*roll-die-settle", inside)
    assert "animation" not in outside and "@keyframes" not in outside
