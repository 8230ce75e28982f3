"""Maelstrom health and willpower under concurrency: Bob on his sheet and the GM on the
dashboard mark and heal damage on the same chart at the same moment (Maelstrom rules.md,
Marking Damage; Incapacitation and Death; Spending Willpower). Every level the pages
confirmed is on the chart, no more, and the chart stays one the rules engine accepts."""

from __future__ import annotations

import pytest

from characters.models import Character
from rulesets import maelstrom
from systems.maelstrom import sheet
from tests.concurrency import storm
from tests.concurrency.storm import made, refused, tried
from tests.helpers import action_url, fresh

pytestmark = storm.POSTGRES_ONLY


def valid_chart(character: Character) -> maelstrom.HealthChart:
    """The stored chart as the rules engine reads it; its constructor refuses a chart whose
    damage is negative or does not fit the boxes (Maelstrom rules.md, Marking Damage)."""
    chart = sheet.health(fresh(character).sheet)
    assert chart.marks() == (["*"] * chart.aggravated + ["X"] * chart.lethal
                             + ["/"] * chart.bashing + [" "] * (chart.boxes - chart.damaged))
    return chart


@pytest.fixture
def sessions(client_for, alice, bob) -> storm.Sessions:  # type: ignore[no-untyped-def]
    """Bob's sheet in two tabs and the GM's dashboard in two tabs; the GM's marks come from
    the dashboard's party card (``from=dashboard``)."""
    return storm.sheet_and_card(client_for, player=bob, gm=alice)


def test_marks_and_heals_from_the_sheet_and_the_dashboard_are_each_counted_once(
    bobs_character, sessions
):
    """Each round two sessions mark one bashing level and two heal one, taking turns: the
    bashing on the chart is exactly the marks confirmed minus the heals confirmed (a heal
    that finds nothing to heal is refused), and the chart never holds anything else."""
    moves = [("mark", action_url(bobs_character, "damage"), {"kind": "bashing", "levels": "1"}),
             ("heal", action_url(bobs_character, "heal"), {"kind": "bashing"})]

    attempts = storm.storm(storm.taking_turns(sessions, moves), rounds=30)

    assert len(attempts) == 120
    chart = valid_chart(bobs_character)
    marks, heals = made(attempts, "mark"), made(attempts, "heal")
    # Two marks a round never fill eight boxes (two heals follow them): every mark lands.
    assert len(marks) == 60
    assert (chart.bashing, chart.lethal, chart.aggravated, chart.dead) == (
        len(marks) - len(heals), 0, 0, False)
    assert all("only 0 levels of bashing" in a.message for a in refused(attempts)), [
        a.message for a in refused(attempts)]


def test_lethal_marks_from_everyone_at_once_kill_exactly_once(bobs_character, sessions):
    """One lethal level at a time from four sessions: eight fill the chart, the ninth is
    fatal, and every mark after that is refused because the character is dead."""
    mark = ("mark", action_url(bobs_character, "damage"), {"kind": "lethal", "levels": "1"})

    attempts = storm.storm(storm.taking_turns(sessions, [mark]), rounds=5)

    chart = valid_chart(bobs_character)
    assert len(made(attempts)) == 9
    assert (chart.bashing, chart.lethal, chart.aggravated, chart.dead) == (0, 8, 0, True)
    assert len(tried(attempts, "mark")) == 20
    assert all("dead" in a.message for a in refused(attempts))


def test_willpower_spent_from_the_sheet_and_the_dashboard_is_never_spent_twice(
    bobs_character, sessions, client_for, alice, bob
):
    """Three current dots, four sessions spending one each, three rounds: three spends are
    confirmed, the rest are told none is left, and the dots never go below 0."""
    url = action_url(bobs_character, "willpower")
    current = sheet.willpower(fresh(bobs_character).sheet)[1]

    attempts = storm.storm(storm.taking_turns(sessions, [("spend", url, {"action": "spend"})]),
                           rounds=3)

    assert current == maelstrom.STARTING_WILLPOWER and len(attempts) == 12 > current
    assert len(made(attempts)) == current
    assert sheet.willpower(fresh(bobs_character).sheet)[1] == 0
    assert all("No willpower dot is left" in a.message for a in refused(attempts))
