"""Shahquest under concurrency: stress and plot points stepped on one sheet from Bob's sheet
and the GM's dashboard at once (Shahquest wiki, Stress and Trauma; Stressing Out and Trauma;
Plot Points), and the GM's tension pool worked from two dashboard tabs while both players roll
and spend plot points (Shahquest wiki, Tension Pool; Building the Tension; Using the Tension
Pool). Every step the pages confirmed happened exactly once, the stress dice stay within the
die range, the tension pool stays a pool of step dice, and the plot points balance."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import transaction
from django.test import Client

from campaigns.models import Membership
from characters.ledger import lock_character
from characters.models import Character
from characters.services import character_create_from_data
from core.dice import get_rng
from rolls.models import Roll
from rolls.services import roll_create
from rulesets import shahquest as sq
from rulesets.errors import RuleError
from rulesets.shahquest import TensionPool
from systems.shahquest import actions as shahquest_actions
from systems.shahquest import tension as shahquest_tension
from systems.shahquest.demo import DEMO_DATA
from systems.shahquest.sheet import STARTING_PLOT_POINTS
from systems.shahquest.sheet import stress_track as stored_stress
from systems.shahquest.system import SYSTEM
from table.services import campaign_system_change
from tests import shahquest_cast as cast
from tests.concurrency import storm
from tests.concurrency.held import Background
from tests.concurrency.storm import Attempt, made, refused, tried
from tests.factories import UserFactory
from tests.helpers import campaign_action_url, roll_url
from tests.shahquest_cast import action_url, fresh, plot_points
from tests.systems.shahquest.fixtures import SEED_POOL

pytestmark = storm.POSTGRES_ONLY

# The Shahquest cast (tests/shahquest_cast.py): alice GMs "The Heist", Bob plays Demetri. His
# roll is the seed's example (SEED_POOL: Coordination d10, I've got your back d8, Physical
# spread by Athletics, the GM's d6): one feature of each type, so no plot point is spent.
sq_campaign, demetri = cast.sq_campaign, cast.demetri


def engine_steps(track: sq.StressTrack, step: Callable[[sq.StressTrack], sq.StressTrack]
                 ) -> tuple[int, sq.StressTrack]:
    """How many times ``step`` applies before the engine refuses, and the track then: what
    any number of confirmed steps beyond the range must come to."""
    count = 0
    while True:
        try:
            track = step(track)
        except RuleError:
            return count, track
        count += 1


# --- stress and plot points on one sheet ---------------------------------------------------


def test_stress_and_plot_points_stepped_from_the_sheet_and_the_dashboard_are_never_lost(
    demetri, client_for, alice, bob
):
    """Four sessions take turns: take a d4 physical stress effect (a step up), recover
    mental stress with a d4 (a step down), gain a plot point, spend one. Physical stress
    steps up exactly until the character is taken out, mental stress steps down exactly
    until it is gone, and the plot points are the start plus the gains minus the spends."""
    sessions = storm.sheet_and_card(client_for, player=bob, gm=alice)
    bob_sheet, _ = sessions["player-sheet"]
    assert storm.post(bob_sheet, action_url(demetri, "stress-take"),
                      {"kind": "mental", "die": "12"}, who="bob", action="setup").ok
    start = stored_stress(fresh(demetri))
    assert start.line("mental").stress == 12
    plot_points_url = action_url(demetri, "plot-points")
    moves = [
        ("stress-take", action_url(demetri, "stress-take"), {"kind": "physical", "die": "4"}),
        ("stress-recover", action_url(demetri, "stress-recover"),
         {"kind": "mental", "die": "4"}),
        ("gain", plot_points_url, {"change": "1"}),
        ("spend", plot_points_url, {"change": "-1"}),
    ]

    attempts = storm.storm(storm.taking_turns(sessions, moves), rounds=24)

    assert all(len(tried(attempts, move)) == 24 for move, _, _ in moves)
    track = stored_stress(fresh(demetri))
    ups, after_ups = engine_steps(start, lambda t: sq.take_stress(t, "physical", 4))
    downs, after_downs = engine_steps(start, lambda t: sq.recover_stress(t, "mental", 4))
    assert len(made(attempts, "stress-take")) == ups
    assert len(made(attempts, "stress-recover")) == downs
    assert track.physical == after_ups.physical and track.physical.taken_out
    assert track.mental == after_downs.mental and track.mental.stress is None
    assert track.emotional == sq.StressLine()
    gained, spent = made(attempts, "gain"), made(attempts, "spend")
    assert len(gained) == 24
    assert plot_points(demetri) == STARTING_PLOT_POINTS + len(gained) - len(spent) >= 0
    for attempt in refused(attempts):
        assert any(reason in attempt.message for reason in (
            "already taken out", "no mental stress to recover", "would leave -1")), attempt


# --- the tension pool --------------------------------------------------------------------------


@pytest.fixture
def dana(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="dana")


@pytest.fixture
def lysa(sq_campaign, dana) -> Character:  # type: ignore[no-untyped-def]
    """Dana's Lysa, the second player's character at the table (Demetri's sheet, renamed)."""
    Membership.objects.create(campaign=sq_campaign, user=dana, role=Membership.Role.PLAYER)
    return character_create_from_data(campaign=sq_campaign, owner=dana,
                                      data={**DEMO_DATA, "name": "Lysa"})


def test_the_tension_pool_worked_from_two_tabs_while_both_players_roll_stays_a_valid_pool(
    sq_campaign, demetri, lysa, client_for, alice, bob, dana
):
    """The GM's two tabs cycle through every move (an opportunity adding a d6 or stepping a
    d6 up, each with a plot point; a die taken out for an NPC or spent; a d6 returned for a
    plot point or dropped) while Bob and Dana roll from their sheets and spend plot points.
    The dice set aside are exactly those taken for NPCs and not yet returned or dropped; the
    pool's count and total size follow the confirmed moves; every plot point given or spent
    is on the sheets; every roll confirmed is in the log. Opportunities and returns lock the
    campaign, then the player's character, while a roll locks the character, then stores a
    row that points at the campaign: the two must queue, never deadlock."""
    players = [demetri, lysa]
    gm_moves: list[tuple[str, dict[str, str]]] = [
        ("tension-opportunity", {"grow": "add"}),
        ("tension-take", {"die": "6", "purpose": "npc"}),
        ("tension-opportunity", {"grow": "step-6"}),
        ("tension-return", {"die": "6"}),
        ("tension-take", {"die": "8", "purpose": "spend"}),
        ("tension-take", {"die": "6", "purpose": "npc"}),
        ("tension-drop", {"die": "6"}),
    ]

    def gm(who: str, client: Client, offset: int) -> Callable[[int], Attempt]:
        def act(n: int) -> Attempt:
            move, data = gm_moves[(offset + n) % len(gm_moves)]
            data = dict(data)
            if "character" in shahquest_actions.CAMPAIGN_ACTIONS[move].form.base_fields:
                data["character"] = str(players[n % 2].pk)
            return storm.post(client, campaign_action_url(sq_campaign, move), data, who=who,
                              action=move, **data)
        return act

    def player(who: str, client: Client, character: Character) -> Callable[[int], Attempt]:
        def act(n: int) -> Attempt:
            if n % 3 == 2:
                return storm.post(client, action_url(character, "plot-points"),
                                  {"change": "-1"}, who=who, action="spend",
                                  character=character.pk)
            return storm.post(client, roll_url(character), SEED_POOL, who=who, action="roll",
                              character=character.pk)
        return act

    attempts = storm.storm({
        "alice-dashboard": gm("alice-dashboard", client_for(alice), 0),
        "alice-tab": gm("alice-tab", client_for(alice), 3),
        "bob": player("bob", client_for(bob), demetri),
        "dana": player("dana", client_for(dana), lysa),
    }, rounds=28)

    sq_campaign.refresh_from_db()
    state = shahquest_tension.tension_state(sq_campaign.system_data)
    pool: TensionPool = state["pool"]
    assert TensionPool.from_dict(pool.as_dict()) == pool
    assert list(pool.dice) == sorted(pool.dice, reverse=True)

    def sizes(move: str, **match: str) -> list[int]:
        return [int(a.detail["die"]) for a in made(attempts, move)
                if all(a.detail.get(k) == v for k, v in match.items())]

    added = [a for a in made(attempts, "tension-opportunity") if a.detail["grow"] == "add"]
    stepped = [a for a in made(attempts, "tension-opportunity") if a.detail["grow"] != "add"]
    taken, returned = sizes("tension-take"), sizes("tension-return")
    to_npc, dropped = sizes("tension-take", purpose="npc"), sizes("tension-drop")
    # No die came back or left play that was not lent (none came back twice), and the dice
    # aside are exactly those lent to NPCs and not yet back or dropped.
    assert not (Counter(returned) + Counter(dropped)) - Counter(to_npc)
    assert Counter(state["aside"]) == Counter(to_npc) - Counter(returned) - Counter(dropped)
    assert len(pool.dice) == 3 + len(added) - len(taken) + len(returned)
    assert sum(pool.dice) == 18 + 6 * len(added) + 2 * len(stepped) - sum(taken) + sum(returned)
    # Plot points: given with each opportunity and return, spent from the sheets.
    for character in players:
        given = [a for a in made(attempts) if a.detail.get("character") == str(character.pk)]
        spent = [a for a in made(attempts, "spend") if a.detail["character"] == character.pk]
        assert plot_points(character) == STARTING_PLOT_POINTS + len(given) - len(spent), (
            character)
        rolls = [a for a in made(attempts, "roll") if a.detail["character"] == character.pk]
        assert Roll.objects.filter(character=character).count() == len(rolls) > 0
    assert len(made(attempts, "tension-opportunity")) > 0 and len(returned) > 0
    for attempt in refused(attempts):
        assert any(reason in attempt.message for reason in (
            "there is no d", "no d6 was set aside", "would leave -1")), attempt


def test_a_roll_stored_while_an_opportunity_waits_for_the_same_character_does_not_deadlock(
    sq_campaign, demetri, alice, bob
):
    """The race the storm above can hit, made certain: Bob's roll holds Demetri's row; the
    GM's opportunity locks the campaign and waits for Demetri (to give the plot point); the
    roll then stores its row, which points at the campaign. The roll must not wait for the
    GM's lock on the campaign (PostgreSQL would find a deadlock and fail one of them): the
    roll commits, then the opportunity, and Demetri has both its effects."""
    locked, go = threading.Event(), threading.Event()
    gm_pid: list[int] = []

    def bobs_roll() -> Roll:
        with transaction.atomic():
            # The roll's transaction has Demetri's row, as roll_create takes it.
            lock_character(demetri.pk)
            locked.set()
            assert go.wait(30)
            form = SYSTEM.roll_form(demetri, SEED_POOL)
            assert form.is_valid(), form.errors
            return roll_create(character=demetri, data=form.cleaned_data, by=bob,
                               rng=get_rng())

    def gm_opportunity() -> object:
        gm_pid.append(storm.backend_pid())
        return campaign_system_change(
            campaign=sq_campaign, action=shahquest_actions.CAMPAIGN_ACTIONS[
                "tension-opportunity"],
            data={"grow": "add", "character": demetri.pk}, by=alice, rng=get_rng())

    roll = Background(bobs_roll)
    assert locked.wait(30)
    opportunity = Background(gm_opportunity)
    try:
        storm.wait_until(lambda: bool(gm_pid) and storm.waits_for_a_lock(gm_pid[0]),
                         "the GM's opportunity waits for Demetri's row")
    finally:
        go.set()
        roll.join()
        opportunity.join()

    assert isinstance(roll.result, Roll), roll.error
    assert isinstance(opportunity.result, tuple), opportunity.error
    assert plot_points(demetri) == STARTING_PLOT_POINTS + 1
    sq_campaign.refresh_from_db()
    assert shahquest_tension.tension_state(sq_campaign.system_data)["pool"].dice == (6, 6, 6, 6)
