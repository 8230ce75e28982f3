"""A 3d6 campaign's table readings at the table (docs/systems/three_d6.md, Table readings): the
GM counts favor and disfavor apart, and Mara's odds and roll follow; the engine's side is
tests/rulesets/three_d6/test_three_d6_readings.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rolls.models import Roll
from systems.three_d6.system import SYSTEM
from tests import three_d6_cast as cast
from tests.helpers import odds_url, roll_url
from tests.systems.three_d6.test_three_d6_rolls import TEST, die_labels
from tests.three_d6_cast import text_of

pytestmark = pytest.mark.django_db

table, mara = cast.table, cast.mara

MIXED = {**TEST, "favor": "1", "disfavor": "1"}


def test_the_gm_counts_favor_and_disfavor_apart_and_maras_odds_and_roll_follow(
    client_for, alice, bob, table, mara, scripted_dice
):
    player = client_for(bob, htmx=True)
    before = text_of(player.get(odds_url(mara), MIXED))

    client_for(alice).post(reverse("campaigns:campaign-readings", args=[table.pk]),
                           {"favor_disfavor": "counted_apart", "disfavor_critical": "by_dice"})

    after = text_of(player.get(odds_url(mara), MIXED))
    assert "Power test: 3d6 + 3 vs TD 12 (1 favor, 1 disfavor)" in before
    assert ("Power test: 4d6 + 3 vs TD 12 (1 favor, 1 disfavor, table reading: the highest "
            "die rolled is removed)") in after
    assert "Success 74.1 %" in before and "Success 51.2 %" in after
    scripted_dice([6, 2, 5, 3])
    response = player.post(roll_url(mara), MIXED)
    roll = Roll.objects.get()
    assert roll.readings == {"favor_disfavor": "counted_apart"}
    assert (roll.result["dropped"], roll.result["total"], roll.outcome) == ([0], 13, "success")
    assert die_labels(response) == ["6, removed by disfavor", "2", "5", "3"]
    assert "Disfavor removes the highest die rolled (table reading). Dice 10 +3 = 13" \
        in text_of(response)


def test_a_contest_whose_sides_carry_notes_reads_short_by_its_sides_names():
    apart = "(1 disfavor, table reading: the highest die rolled is removed)"
    roll = Roll(ruleset="three_d6", kind="contest",
                description=f"Contest: Mara (the Quill) (Power test: 3d6 + 3 {apart}) against "
                            f"Dock guard (3d6 + 2 (1 favor))")

    header = SYSTEM.roll_header(roll)

    assert header.short == "Power test · Mara (the Quill) against Dock guard"
    assert header.details == (f"Mara (the Quill): Power test: 3d6 + 3 {apart}; "
                              "Dock guard: 3d6 + 2 (1 favor)")
