"""Rounds and turns: starting with the party, one encounter at a time, Begin, Next wrapping
into the next round, Previous, Delay, removing the defeated, ending, and a turn change from a
page that showed an older turn (docs/encounters.md)."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from encounters import services
from encounters.models import Encounter
from rulesets.errors import RuleError
from tests.encounters.helpers import order, shown, turn, url, whose
from tests.helpers import text_of

pytestmark = pytest.mark.django_db


def _next(encounter, by):  # type: ignore[no-untyped-def]
    return services.turn_next(encounter=encounter, shown=shown(encounter), by=by)


def test_an_encounter_starts_with_the_party_in_play_and_no_turn_yet(fight, campaign, alice):
    assert order(fight) == ["Rook", "Wren"]
    assert whose(fight) is None
    assert (fight.round, fight.begun) == (1, False)


def test_a_retired_character_is_not_preloaded(campaign, alice, rook, wren):
    rook.status = rook.Status.RETIRED
    rook.save()

    encounter = services.encounter_start(campaign=campaign, by=alice)

    assert order(encounter) == ["Wren"]
    assert encounter.name == "Encounter 1"


def test_one_encounter_at_a_time(fight, campaign, alice):
    with pytest.raises(RuleError, match="Ambush at the docks is still running"):
        services.encounter_start(campaign=campaign, by=alice)

    services.encounter_end(encounter=fight, by=alice)
    second = services.encounter_start(campaign=campaign, by=alice)

    assert second.name == "Encounter 2"
    assert Encounter.objects.filter(campaign=campaign, ended_at__isnull=True).count() == 1


def test_begin_gives_the_first_turn_and_next_wraps_into_the_next_round(fight, alice, grub):
    services.combatants_add(encounter=fight, characters=[grub], by=alice)

    seen = []
    for _ in range(7):
        _next(fight, alice)
        fight.refresh_from_db()
        seen.append((fight.round, whose(fight)))

    assert seen == [(1, "Rook"), (1, "Wren"), (1, "Grub the Lurker"),
                    (2, "Rook"), (2, "Wren"), (2, "Grub the Lurker"), (3, "Rook")]


def test_previous_goes_back_across_a_round_and_not_before_the_first_turn(fight, alice):
    for _ in range(3):  # Rook, Wren, then Rook of round 2
        _next(fight, alice)
    services.turn_previous(encounter=fight, shown=shown(fight), by=alice)
    fight.refresh_from_db()
    assert (fight.round, whose(fight)) == (1, "Wren")

    services.turn_previous(encounter=fight, shown=shown(fight), by=alice)
    with pytest.raises(RuleError, match="first turn"):
        services.turn_previous(encounter=fight, shown=shown(fight), by=alice)
    fight.refresh_from_db()
    assert (fight.round, whose(fight)) == (1, "Rook")


def test_delay_lets_the_next_act_first_and_holds_until_the_round_ends(fight, alice, grub):
    services.combatants_add(encounter=fight, characters=[grub], by=alice)
    _next(fight, alice)  # Rook's turn

    services.turn_delay(encounter=fight, shown=shown(fight), by=alice)

    assert order(fight) == ["Wren", "Rook", "Grub the Lurker"]
    assert whose(fight) == "Wren"
    assert fight.combatants.get(name="Rook").delayed
    _next(fight, alice)
    assert whose(fight) == "Rook"
    _next(fight, alice)
    _next(fight, alice)  # round 2 begins: the delay is spent, the order keeps the swap
    fight.refresh_from_db()
    assert (fight.round, whose(fight)) == (2, "Wren")
    assert not fight.combatants.filter(delayed=True).exists()


def test_the_last_of_a_round_cannot_delay(fight, alice):
    _next(fight, alice)
    _next(fight, alice)  # Wren, last

    with pytest.raises(RuleError, match="Wren acts last this round already"):
        services.turn_delay(encounter=fight, shown=shown(fight), by=alice)


def test_removing_the_defeated_whose_turn_it_is_passes_the_turn(fight, alice, grub):
    services.combatants_add(encounter=fight, characters=[grub], by=alice)
    _next(fight, alice)
    _next(fight, alice)
    _next(fight, alice)  # Grub's turn, last of round 1
    code = str(fight.combatants.get(name="Grub the Lurker").code)

    services.combatant_remove(encounter=fight, code=code, by=alice)

    fight.refresh_from_db()
    assert order(fight) == ["Rook", "Wren"]
    assert (fight.round, whose(fight)) == (2, "Rook")
    assert fight.combatants.get(name="Grub the Lurker").defeated  # kept for the record


def test_a_removed_combatant_can_come_back_in_at_the_end(fight, alice, rook):
    _next(fight, alice)
    rooks = str(fight.combatants.get(name="Rook").code)
    services.combatant_remove(encounter=fight, code=rooks, by=alice)
    assert whose(fight) == "Wren"

    services.combatants_add(encounter=fight, characters=[rook], by=alice)

    assert order(fight) == ["Wren", "Rook"]


def test_a_character_already_in_the_fight_is_not_added_twice(fight, alice, rook):
    with pytest.raises(RuleError, match="Rook is already in the fight"):
        services.combatants_add(encounter=fight, characters=[rook], by=alice)


def test_a_next_from_a_page_that_saw_an_older_turn_changes_nothing(fight, alice):
    _next(fight, alice)
    seen = shown(fight)  # Rook's turn, as both of the GM's tabs show it
    services.turn_next(encounter=fight, shown=seen, by=alice)

    with pytest.raises(services.StaleTurn, match="already moved on"):
        services.turn_next(encounter=fight, shown=seen, by=alice)

    assert whose(fight) == "Wren"


def test_an_ended_encounter_takes_no_change(fight, alice):
    services.encounter_end(encounter=fight, by=alice)

    with pytest.raises(RuleError, match="has ended"):
        _next(fight, alice)
    with pytest.raises(RuleError, match="has ended"):
        services.encounter_end(encounter=fight, by=alice)


# --- through the pages ----------------------------------------------------------------------


def test_the_player_ends_their_own_turn_and_no_one_elses(fight, alice, bob, dave, client_for):
    _next(fight, alice)  # Rook's (bob's) turn
    now = turn(fight)

    refused = client_for(dave).post(url("turn-next", fight), now)
    assert refused.status_code == 302
    assert [str(m) for m in get_messages(refused.wsgi_request)] == [
        "It is not your character's turn: only the GM moves the turn on now."]
    assert whose(fight) == "Rook"

    done = client_for(bob).post(url("turn-next", fight), now)
    assert done.status_code == 302
    assert whose(fight) == "Wren"


def test_a_player_may_not_go_back_delay_remove_or_end(fight, alice, bob, client_for):
    _next(fight, alice)
    client = client_for(bob)
    code = str(fight.combatants.get(name="Rook").code)

    for name, data in (("turn-previous", turn(fight)), ("turn-delay", turn(fight)),
                       ("combatant-remove", {"combatant": code}), ("encounter-end", {})):
        assert client.post(url(name, fight), data).status_code == 404
    assert client.get(url("encounter-end", fight)).status_code == 404
    fight.refresh_from_db()
    assert (whose(fight), fight.ended_at) == ("Rook", None)


def test_next_answers_htmx_with_the_card_and_a_plain_post_with_a_redirect(fight, alice,
                                                                          client_for):
    plain = client_for(alice).post(url("turn-next", fight), turn(fight))
    assert plain.status_code == 302 and plain.url == fight.campaign.get_absolute_url()

    htmx = client_for(alice, htmx=True).post(url("turn-next", fight), turn(fight))

    assert htmx.status_code == 200
    assert 'id="turn-order"' in htmx.content.decode()
    assert "Wren's turn" in text_of(htmx)
    assert "Round 1: the turn passed on." in text_of(htmx)


def test_a_stale_next_is_refused_with_the_reason_both_ways(fight, alice, client_for):
    old = turn(fight)
    _next(fight, alice)

    plain = client_for(alice).post(url("turn-next", fight), old)
    htmx = client_for(alice, htmx=True).post(url("turn-next", fight), old)

    said = [str(m) for m in get_messages(plain.wsgi_request)]
    assert said and "already moved on" in said[0]
    assert 'role="alert"' in htmx.content.decode()
    assert "already moved on" in htmx.content.decode()
    assert whose(fight) == "Rook"


def test_end_and_remove_ask_to_confirm_first(fight, alice, client_for):
    client = client_for(alice)
    code = str(fight.combatants.get(name="Wren").code)

    remove_page = client.get(url("combatant-remove", fight), {"combatant": code})
    end_page = client.get(url("encounter-end", fight))

    assert remove_page.status_code == end_page.status_code == 200
    assert "Take Wren out of Ambush at the docks?" in remove_page.content.decode()
    assert "End Ambush at the docks?" in end_page.content.decode()
    assert order(fight) == ["Rook", "Wren"] and Encounter.objects.get(pk=fight.pk).is_running

    client.post(url("combatant-remove", fight), {"combatant": code})
    ended = client.post(url("encounter-end", fight))

    assert order(fight) == ["Rook"]
    assert ended.status_code == 302 and ended.url == fight.get_absolute_url()
    assert not Encounter.objects.get(pk=fight.pk).is_running


def test_the_gm_starts_one_from_the_dashboard_card(campaign, alice, rook, client_for):
    page = client_for(alice).get(campaign.get_absolute_url()).content.decode()
    assert 'id="encounter-start"' in page

    answer = client_for(alice, htmx=True).post(
        reverse("encounters:encounter-list", args=[campaign.pk]), {"name": "Bridge fight"})

    assert answer.status_code == 200
    assert "Bridge fight" in answer.content.decode()
    assert Encounter.objects.get(campaign=campaign).name == "Bridge fight"
