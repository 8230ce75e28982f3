"""The table's history of the campaign's side (docs/history.md, "Activity log"): every change
of a campaign, its seats, its sessions, its encounters, its NPCs and the system's campaign
actions appends one entry (who, what, in plain words) in the change's own transaction, so
that a refused change leaves none; and an entry naming what the players may not see is the
GM's alone.

The cast: alice GMs The Drift, bob plays Rook in it, dave plays Wren, carol is a stranger;
Grub the Lurker is an NPC hidden from the players. The services are called directly: their
pages are the authorization matrix's and the fuzz's."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest

import systems
from campaigns import services as campaigns
from campaigns.models import Campaign, Membership
from characters import npcs
from characters.models import Character
from encounters import services as encounters
from encounters.models import Encounter
from history.models import Activity
from rulesets.errors import RuleError
from table import services as table
from tests.encounters.helpers import npc, shown
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

Kind = Activity.Kind


TABLE_SIDE = (Kind.CAMPAIGN, Kind.MEMBER, Kind.SESSION, Kind.ENCOUNTER)
"""The kinds these services write besides the NPCs' (a character's own changes, its rolls and
its XP are tests/history/test_activity_character.py's)."""


def log(campaign: Campaign, **filters: Any) -> list[tuple[str, str, str, str, bool]]:
    """The campaign's entries of :data:`TABLE_SIDE` (or of ``kind``), oldest first:
    ``(kind, action, text, actor's name, gm_only)``."""
    if "kind" not in filters:
        filters["kind__in"] = TABLE_SIDE
    rows = (Activity.objects.filter(campaign=campaign, **filters)
            .select_related("actor").order_by("created_at", "pk"))
    return [(a.kind, a.action, a.text, a.actor.username if a.actor else "", a.gm_only)
            for a in rows]


def players_read(campaign: Campaign) -> str:
    """Every word of the entries a player of ``campaign`` (bob) may read."""
    player = Membership.objects.get(campaign=campaign, user__username="bob").user_id
    return " ".join(a.text for a in Activity.objects.filter(campaign=campaign).visible_to(
        user_id=player, is_gm=False, party_sheets=campaign.party_sheets))


# --- the campaign and its seats ---------------------------------------------------------------


def test_a_new_campaign_starts_its_history_with_its_gm() -> None:
    gm = UserFactory(username="mara")
    campaign = campaigns.campaign_create(name="Ashfall", ruleset="maelstrom", starting_xp=30,
                                         gm=gm)
    assert log(campaign) == [(Kind.CAMPAIGN, "create", "Started the campaign Ashfall.",
                              "mara", False)]


def test_renaming_the_campaign_says_from_what_to_what(campaign, alice) -> None:  # type: ignore[no-untyped-def]
    campaigns.campaign_update(campaign=campaign, name="The Deep", description="",
                              starting_xp=40, by=alice)
    assert log(campaign) == [(
        Kind.CAMPAIGN, "settings",
        "Renamed the campaign from The Drift to The Deep. Changed the starting XP from 30 to "
        "40.", "alice", False)]
    entry = Activity.objects.get(campaign=campaign)
    assert entry.changes == [["Name", "The Drift", "The Deep"], ["Starting XP", "30", "40"]]
    # Saving the same settings again changes nothing, and logs nothing.
    campaigns.campaign_update(campaign=campaign, name="The Deep", description="",
                              starting_xp=40, by=alice)
    assert len(log(campaign)) == 1


def test_a_refused_settings_change_logs_nothing(campaign, bob) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(campaigns.MembershipError):
        campaigns.campaign_update(campaign=campaign, name="Bob's game", description="",
                                  starting_xp=30, by=bob)
    assert log(campaign) == []


def test_a_table_reading_changed_is_logged_in_the_rules_words(campaign, alice) -> None:  # type: ignore[no-untyped-def]
    campaigns.readings_update(campaign=campaign, values={"tens_explode": "always"}, by=alice)
    [(kind, action, text, actor, gm_only)] = log(campaign)
    assert (kind, action, actor, gm_only) == (Kind.CAMPAIGN, "readings", "alice", False)
    assert text.startswith("Changed the table readings. From now on: Exploding tens: Tens "
                           "explode on every action roll")
    [[label, before, after]] = Activity.objects.get(campaign=campaign).changes
    assert label == "Exploding tens" and "specialty" in before and "every" in after


def test_joining_leaving_and_being_removed_are_logged_once(campaign, alice, bob, carol) -> None:  # type: ignore[no-untyped-def]
    campaigns.membership_join(campaign=campaign, user=carol)
    campaigns.membership_join(campaign=campaign, user=carol)  # a double submit: one seat
    campaigns.membership_remove(membership=Membership.objects.get(user=carol), by=alice)
    campaigns.membership_leave(membership=Membership.objects.get(user=bob))
    assert log(campaign) == [
        (Kind.MEMBER, "join", "carol joined the table.", "carol", False),
        (Kind.MEMBER, "remove", "Removed carol from the table.", "alice", False),
        (Kind.MEMBER, "leave", "bob left the table.", "bob", False),
    ]


def test_a_refused_removal_logs_nothing(campaign, bob, dave) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(campaigns.MembershipError):
        campaigns.membership_remove(membership=Membership.objects.get(user=dave), by=bob)
    assert log(campaign) == []


def test_seats_changing_hands_are_logged(campaign, alice, bob, dave) -> None:  # type: ignore[no-untyped-def]
    campaigns.membership_seat(membership=Membership.objects.get(user=dave), co_gm=True,
                              by=alice)
    campaigns.membership_seat(membership=Membership.objects.get(user=dave), co_gm=False,
                              by=dave)
    campaigns.campaign_handover(campaign=campaign,
                                to_membership=Membership.objects.get(user=bob), by=alice)
    assert log(campaign) == [
        (Kind.MEMBER, "co-gm", "Seated dave as co-GM.", "alice", False),
        (Kind.MEMBER, "player", "dave stepped down as co-GM.", "dave", False),
        (Kind.MEMBER, "handover", "Handed the GM seat to bob.", "alice", False),
    ]


def test_a_refused_handover_logs_nothing(campaign, bob, dave) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(campaigns.MembershipError):
        campaigns.campaign_handover(campaign=campaign,
                                    to_membership=Membership.objects.get(user=dave), by=bob)
    assert log(campaign) == []


def test_archiving_and_restoring_are_logged_when_they_change_something(campaign, alice) -> None:  # type: ignore[no-untyped-def]
    campaigns.campaign_archive(campaign=campaign, by=alice)
    campaigns.campaign_archive(campaign=campaign, by=alice)
    campaigns.campaign_restore(campaign=campaign, by=alice)
    assert [row[1] for row in log(campaign)] == ["archive", "restore"]


# --- sessions and the system's campaign actions -----------------------------------------------


def test_a_session_opened_and_its_recap_are_logged_with_a_link_to_it(campaign, alice) -> None:  # type: ignore[no-untyped-def]
    session = table.session_create(campaign=campaign, date=datetime.date(2026, 12, 5),
                                   title="The heist", by=alice)
    table.session_recap_update(session=session, recap="We got away.", by=alice)
    table.session_recap_update(session=session, recap="We got away, mostly.", by=alice)
    # The same recap sent again (a second tab, a double click) changes nothing, so it is
    # neither logged nor posted to the group's chat.
    table.session_recap_update(session=session, recap="We got away, mostly. ", by=alice)
    assert log(campaign) == [
        (Kind.SESSION, "create", "Opened the session The heist.", "alice", False),
        (Kind.SESSION, "recap", "Wrote the recap of The heist.", "alice", False),
        (Kind.SESSION, "recap", "Rewrote the recap of The heist.", "alice", False),
    ]
    assert {a.link for a in Activity.objects.filter(campaign=campaign)} == {
        session.get_absolute_url()}


@pytest.fixture
def road(alice: Any, bob: Any) -> Campaign:
    """A Shahquest campaign: alice GMs, bob plays Shawn (one plot point)."""
    campaign = CampaignFactory(name="The Shah's Road", ruleset="shahquest", created_by=alice)
    Membership.objects.create(campaign=campaign, user=bob, role=Membership.Role.PLAYER)
    Character.objects.create(campaign=campaign, owner=bob, name="Shawn",
                             sheet={"plot_points": 1, "features": [], "stress": {}})
    return campaign


def system_change(campaign: Campaign, name: str, data: dict[str, Any], by: Any) -> str:
    """Run the system's campaign action ``name`` as its page would, with its form's data."""
    action = systems.for_campaign(campaign).campaign_actions[name]
    form = action.form(data)
    assert form.is_valid(), form.errors
    _, message, _ = table.campaign_system_change(campaign=campaign, action=action,
                                                 data=form.cleaned_data, by=by,
                                                 rng=random.Random(7))
    return message


def test_a_campaign_action_is_logged_with_the_character_it_changed(road, alice) -> None:  # type: ignore[no-untyped-def]
    shawn = Character.objects.get(campaign=road)
    message = system_change(road, "tension-opportunity",
                            {"grow": "add", "character": shawn.pk}, alice)
    entry = Activity.objects.get(campaign=road)
    assert (entry.kind, entry.action, entry.text, entry.actor, entry.gm_only) == (
        Kind.CAMPAIGN, "tension-opportunity", message, alice, False)
    assert entry.character == shawn
    [[label, before, after]] = entry.changes  # the plot point, and nothing else
    assert "lot point" in label and (before, after) == ("1", "2")


def test_a_refused_campaign_action_logs_nothing(road, alice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError):
        system_change(road, "tension-drop", {"die": "6"}, alice)  # no die was set aside
    assert log(road) == []


def test_a_secret_general_danger_roll_is_the_gms_alone(road, alice) -> None:  # type: ignore[no-untyped-def]
    system_change(road, "tension-danger", {"gm_only": "on", "note": "The ambush"}, alice)
    system_change(road, "tension-danger", {}, alice)
    assert [(a.gm_only, a.link != "") for a in Activity.objects.filter(
        campaign=road, kind=Kind.CAMPAIGN).order_by("pk")] == [(True, True), (False, True)]


# --- encounters ------------------------------------------------------------------------------


@pytest.fixture
def rook(campaign: Any, bob: Any, dave: Any) -> Character:
    """Bob's Rook; dave's Wren is in the party too."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rook")


@pytest.fixture
def grub(campaign: Any, alice: Any, rook: Character) -> Character:
    """An NPC hidden from the players."""
    return npc(campaign, alice, "Grub the Lurker", sheet=rook.sheet)


@pytest.fixture
def fight(campaign: Any, alice: Any, rook: Character) -> Encounter:
    """A running encounter with the party (Rook, Wren), its first entry already logged."""
    return encounters.encounter_start(campaign=campaign, by=alice, name="Ambush")


def test_an_encounter_started_names_the_party_and_links_the_fight(campaign, fight) -> None:  # type: ignore[no-untyped-def]
    assert log(campaign) == [(Kind.ENCOUNTER, "start", "Started Ambush with Rook, Wren.",
                              "alice", False)]
    assert Activity.objects.get(campaign=campaign).link == fight.get_absolute_url()


def test_a_hidden_npc_joining_the_fight_is_the_gms_entry_alone(campaign, alice, fight,
                                                               grub) -> None:  # type: ignore[no-untyped-def]
    vell = npc(campaign, alice, "Captain Vell", shown=Character.Shown.NAME, sheet=grub.sheet)
    encounters.combatants_add(encounter=fight, characters=[grub, vell], by=alice)
    assert log(campaign, action="add") == [
        (Kind.ENCOUNTER, "add", "Added Captain Vell to the fight.", "alice", False),
        (Kind.ENCOUNTER, "add", "Added Grub the Lurker to the fight, hidden from the players.",
         "alice", True),
    ]


def test_the_order_the_players_read_leaves_the_hidden_npc_out(campaign, alice, fight,
                                                              grub) -> None:  # type: ignore[no-untyped-def]
    encounters.combatants_add(encounter=fight, characters=[grub], by=alice)
    codes = {c.name: str(c.code) for c in fight.combatants.all()}
    entries = {codes["Rook"]: encounters.Entry("", 17), codes["Wren"]: encounters.Entry("", 5),
               codes["Grub the Lurker"]: encounters.Entry("", 12)}
    encounters.initiative_set(encounter=fight, entries=entries, by=alice,
                              rng=random.Random(1))
    order = log(campaign, action="order")
    assert [gm_only for *_, gm_only in order] == [False, True]
    assert "Rook" in order[0][2] and "Wren" in order[0][2]
    assert "Grub" not in order[0][2] and "Grub the Lurker" in order[1][2]
    # Only the hidden NPC's initiative changed: the players' order is as it was, and they
    # read no new entry.
    entries[codes["Grub the Lurker"]] = encounters.Entry("", 3)
    encounters.initiative_set(encounter=fight, entries=entries, by=alice, rng=random.Random(1))
    assert [gm_only for *_, gm_only in log(campaign, action="order")] == [False, True, True]
    assert "Grub" not in players_read(campaign)


def test_each_turn_passing_is_logged_and_a_hidden_npcs_turn_is_the_gms(campaign, alice, bob,
                                                                       fight, grub) -> None:  # type: ignore[no-untyped-def]
    encounters.combatants_add(encounter=fight, characters=[grub], by=alice)
    for _ in range(4):  # Rook, Wren, Grub, then round 2: Rook
        encounters.turn_next(encounter=fight, shown=shown(fight), by=alice)
    encounters.turn_previous(encounter=fight, shown=shown(fight), by=alice)
    assert log(campaign, action__startswith="turn") == [
        (Kind.ENCOUNTER, "turn", "Round 1: Rook's turn.", "alice", False),
        (Kind.ENCOUNTER, "turn", "Round 1: Wren's turn.", "alice", False),
        (Kind.ENCOUNTER, "turn", "Round 1: Grub the Lurker's turn.", "alice", True),
        (Kind.ENCOUNTER, "turn", "Round 2: Rook's turn.", "alice", False),
        (Kind.ENCOUNTER, "turn-back", "Back one turn. Round 1: Grub the Lurker's turn.",
         "alice", True),
    ]
    assert "Grub" not in players_read(campaign)


def test_a_stale_or_refused_turn_change_logs_nothing(campaign, alice, bob, fight) -> None:  # type: ignore[no-untyped-def]
    stale = shown(fight)
    encounters.turn_next(encounter=fight, shown=stale, by=alice)
    count = len(log(campaign))
    with pytest.raises(encounters.StaleTurn):
        encounters.turn_next(encounter=fight, shown=stale, by=alice)
    with pytest.raises(RuleError):  # Rook's turn: "Done" is bob's, not dave's
        encounters.turn_next(encounter=fight, shown=shown(fight),
                             by=Membership.objects.get(user__username="dave").user,
                             players_own=True)
    assert len(log(campaign)) == count


def test_a_delay_a_removal_and_the_end_are_logged(campaign, alice, bob, fight, grub) -> None:  # type: ignore[no-untyped-def]
    encounters.combatants_add(encounter=fight, characters=[grub], by=alice)
    encounters.turn_next(encounter=fight, shown=shown(fight), by=alice)  # Rook's turn
    encounters.turn_delay(encounter=fight, shown=shown(fight), by=bob)  # Wren's turn
    grub_code = str(fight.combatants.get(name="Grub the Lurker").code)
    encounters.combatant_remove(encounter=fight, code=grub_code, by=alice)
    wren_code = str(fight.combatants.get(name="Wren").code)
    encounters.combatant_remove(encounter=fight, code=wren_code, by=alice)  # its turn passes
    encounters.encounter_end(encounter=fight, by=alice)
    assert log(campaign)[1:] == [
        (Kind.ENCOUNTER, "add", "Added Grub the Lurker to the fight, hidden from the players.",
         "alice", True),
        (Kind.ENCOUNTER, "turn", "Round 1: Rook's turn.", "alice", False),
        (Kind.ENCOUNTER, "delay", "Rook delays.", "bob", False),
        (Kind.ENCOUNTER, "turn", "Round 1: Wren's turn.", "bob", False),
        (Kind.ENCOUNTER, "remove", "Took Grub the Lurker out of the fight.", "alice", True),
        (Kind.ENCOUNTER, "remove", "Took Wren out of the fight.", "alice", False),
        (Kind.ENCOUNTER, "turn", "Round 1: Rook's turn.", "alice", False),
        (Kind.ENCOUNTER, "end", "Ended Ambush after 1 round.", "alice", False),
    ]


# --- the GM's NPCs -------------------------------------------------------------------------


def test_an_npc_is_logged_as_the_gms_until_it_is_revealed(campaign, alice, rook) -> None:  # type: ignore[no-untyped-def]
    form = systems.for_campaign(campaign).npc_form(campaign, {
        "name": "Grub the Lurker", **_npc_fields(campaign)})
    assert form.is_valid(), form.errors
    grub = npcs.npc_create(campaign=campaign, by=alice, data=form.cleaned_data)
    npcs.npc_copy(source=grub, by=alice)
    npcs.npc_show(npc=grub, shown=Character.Shown.NAME, by=alice)
    npcs.npc_archive(npc=grub, archived=True, by=alice)
    assert log(campaign, kind=Kind.CHARACTER) == [
        (Kind.CHARACTER, "npc-create", "Made the NPC Grub the Lurker.", "alice", True),
        (Kind.CHARACTER, "npc-copy", "Made the NPC Grub the Lurker 2, a copy of Grub the "
         "Lurker.", "alice", True),
        (Kind.CHARACTER, "npc-show", "Showed the players Grub the Lurker by name.", "alice",
         False),
        (Kind.CHARACTER, "npc-archive", "Archived the NPC Grub the Lurker.", "alice", False),
    ]
    assert Activity.objects.filter(character=grub).count() == 3
    with pytest.raises(RuleError):  # already archived
        npcs.npc_archive(npc=grub, archived=True, by=alice)
    assert len(log(campaign, kind=Kind.CHARACTER)) == 4


def _npc_fields(campaign: Campaign) -> dict[str, Any]:
    """The stat-block form's other fields at their initial values."""
    form = systems.for_campaign(campaign).npc_form(campaign)
    return {name: field.initial for name, field in form.fields.items()
            if name != "name" and field.initial is not None}
