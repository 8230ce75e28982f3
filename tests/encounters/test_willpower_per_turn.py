"""Maelstrom's "once per turn" for Willpower spent against wound penalties (Maelstrom rules.md,
Spending Willpower: "Once per turn, a character may spend one Willpower dot to ignore their
injuries"), kept per round of a running encounter under the table reading
``wounds_ignored="per_turn"`` (docs/systems/maelstrom.md, Table readings); the seed's reading
as the engine had it (a dot for each roll) stays the default."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.services import readings_update
from characters.models import Character
from encounters import services
from rolls.models import Roll
from tests.encounters.helpers import shown
from tests.helpers import action_url, fresh, roll_url, text_of

pytestmark = pytest.mark.django_db

IGNORING = {"kind": "action", "trait": ["Precision", "Driving"], "difficulty": "6",
            "threshold": "0", "ignore_wound_penalty": "on"}


def _willpower(character) -> int:  # type: ignore[no-untyped-def]
    return int(fresh(character).sheet["willpower"]["current"])


def test_a_dot_ignores_the_wound_penalty_once_a_round_when_the_table_reads_it_so(
    client_for, alice, bob, campaign, rook, fight, seeded_rng
):
    sheet = fresh(rook).sheet
    Character.objects.filter(pk=rook.pk).update(
        sheet={**sheet, "willpower": {"permanent": 6, "current": 6}})
    client_for(alice).post(action_url(rook, "damage"), {"kind": "bashing", "levels": "2"})
    services.turn_next(encounter=fight, shown=shown(fight), by=alice)  # round 1 begins
    player = client_for(bob, htmx=True)
    start = _willpower(rook)

    # The seed's reading as the engine keeps it by default: a dot for each roll.
    player.post(roll_url(rook), IGNORING)
    player.post(roll_url(rook), IGNORING)
    assert _willpower(rook) == start - 2

    readings_update(campaign=campaign, values={"wounds_ignored": "per_turn"}, by=alice)
    player.post(roll_url(rook), IGNORING)
    preview = player.get(reverse("rolls:roll-odds", args=[rook.pk]), IGNORING)
    refused = player.post(roll_url(rook), IGNORING)

    # The odds next to the Roll button say so before the roll does.
    assert "already spent a dot to ignore the wound penalty this round" in text_of(preview)

    assert "already spent a dot to ignore the wound penalty this round" in text_of(refused)
    assert (_willpower(rook), Roll.objects.count()) == (start - 3, 3)
    while fresh(fight).round == 1:
        encounter = fresh(fight)
        services.turn_next(encounter=encounter, shown=shown(encounter), by=alice)
    player.post(roll_url(rook), IGNORING)
    assert (_willpower(rook), Roll.objects.count()) == (start - 4, 4)


def test_zero_willpowers_incapacitation_resolves_only_out_of_the_fight(
    client_for, alice, bob, rook, fight
):
    # "This requires being fully out of combat for at least one turn" (Zero Willpower).
    sheet = fresh(rook).sheet
    Character.objects.filter(pk=rook.pk).update(
        sheet={**sheet, "willpower": {"permanent": 3, "current": 0}})
    services.turn_next(encounter=fight, shown=shown(fight), by=alice)
    resolve = {"action": "resolve"}

    refused = client_for(bob, htmx=True).post(action_url(rook, "willpower"), resolve)

    assert "fighting in the running encounter" in text_of(refused)
    assert "incapacitation_resolved" not in fresh(rook).sheet["willpower"]
    services.encounter_end(encounter=fresh(fight), by=alice)
    client_for(bob).post(action_url(rook, "willpower"), resolve)
    assert fresh(rook).sheet["willpower"]["incapacitation_resolved"] is True
