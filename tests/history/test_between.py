"""Between sessions (history/between.py, history/between_views.py): a character as it stood at
the end of a session, rebuilt from the activity log, and what changed between two sessions or
since the last one, on its page and on the sheet.

The table plays in New York here, so that the end of a session (the end of its date in the
site's time zone) is not midnight UTC: a change at 22:00 on the session's evening is 03:00
UTC the next day, and still the session's. The server's clock is the test's
(:func:`clock`): every row's ``created_at`` and "today" read it.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Membership, Session
from characters import services as character_services
from characters.models import Character
from equipment import services as equipment_services
from history.between import (
    BOUGHT,
    CHARACTER,
    ITEMS,
    SHEET,
    XP,
    between,
    facts_at,
    session_end,
    since_last_session,
)
from history.facts import XP_AVAILABLE, XP_EARNED, character_facts
from history.log import changes, record
from history.models import Activity
from tests.factories import CharacterFactory, UserFactory
from tests.system_fixtures import first_purchase, sheet_change

UTC = datetime.UTC
DAY_1 = datetime.date(2026, 2, 10)
DAY_2 = datetime.date(2026, 2, 17)
TODAY = datetime.date(2026, 2, 20)


class Clock:
    """The server's clock, set by the test: ``clock.at = <aware datetime>``."""

    def __init__(self) -> None:
        self.at = datetime.datetime(2026, 2, 10, 17, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Any) -> Clock:
    settings.TIME_ZONE = "America/New_York"
    moment = Clock()
    monkeypatch.setattr(timezone, "now", lambda: moment.at)
    return moment


@pytest.fixture
def rook(clock: Clock, campaign: Any, bob: Any) -> Character:
    """Bob's Maelstrom character, made on the afternoon of the first session."""
    return CharacterFactory(campaign=campaign, owner=bob, name="Rook")


def at(clock: Clock, when: datetime.datetime) -> None:
    clock.at = when


def fresh(character: Character) -> Character:
    return Character.objects.select_related("campaign").get(pk=character.pk)


def known(facts: dict[str, str] | None) -> dict[str, str]:
    """Facts as the log can tell them: a fact with an empty value is one it does not list."""
    assert facts is not None
    return {label: value for label, value in facts.items() if value != ""}


def lines(diff: Any) -> set[tuple[str, str, str]]:
    return {(line.label, line.before, line.after) for group in diff.groups
            for line in group.lines}


def labels_of(diff: Any, title: str) -> set[str]:
    return {line.label for group in diff.groups if group.title == title
            for line in group.lines}


class Played:
    """Two sessions of play and a day after them, through the real services, with the
    character's facts captured at the end of each session and now."""

    def __init__(self, clock: Clock, rook: Character, alice: Any, bob: Any) -> None:
        # Session 1, the evening of DAY_1 in New York.
        at(clock, datetime.datetime(2026, 2, 10, 23, 0, tzinfo=UTC))
        character_services.xp_award(character=rook, amount=10, reason="Chapter", by=alice)
        _, self.cost, spend = first_purchase(fresh(rook), by=bob)
        self.bought = {label for label, _, _ in Activity.objects.get(
            character=rook, kind=Activity.Kind.XP, action="spend").changes
            if label not in (XP_AVAILABLE, XP_EARNED)}
        sheet_change(fresh(rook), "damage", {"kind": "lethal", "levels": 2}, by=bob)
        # 22:00 in New York, 03:00 UTC the next day: still the first session.
        at(clock, datetime.datetime(2026, 2, 11, 3, 0, tzinfo=UTC))
        self.rope = equipment_services.item_add(character=fresh(rook), name="Rope",
                                                quantity=2, note="", details={}, by=bob)
        self.session_1 = Session.objects.create(campaign=rook.campaign, date=DAY_1)
        self.at_1 = character_facts(fresh(rook))
        # Midnight in New York: the first thing after the first session.
        at(clock, session_end(DAY_1))
        sheet_change(fresh(rook), "heal", {"kind": ""}, by=bob)
        # Session 2.
        at(clock, datetime.datetime(2026, 2, 17, 23, 0, tzinfo=UTC))
        character_services.xp_award(character=fresh(rook), amount=5, reason="Story",
                                    by=alice)
        character_services.character_update(character=fresh(rook), by=bob,
                                            name="Rook the Bold")
        equipment_services.item_change(item=self.rope, name="Rope", quantity=1,
                                       note="frayed", details={}, by=bob)
        self.session_2 = Session.objects.create(campaign=rook.campaign, date=DAY_2)
        self.at_2 = character_facts(fresh(rook))
        # Today, between sessions.
        at(clock, datetime.datetime(2026, 2, 20, 15, 0, tzinfo=UTC))
        sheet_change(fresh(rook), "damage", {"kind": "bashing", "levels": 1}, by=bob)
        equipment_services.item_add(character=fresh(rook), name="Lantern", quantity=1,
                                    note="", details={}, by=bob)
        self.now = character_facts(fresh(rook))


@pytest.fixture
def played(clock: Clock, rook: Character, alice: Any, bob: Any) -> Played:
    return Played(clock, rook, alice, bob)


# --- The character as it stood -------------------------------------------------------------


def test_the_facts_at_the_end_of_each_session_are_the_facts_it_had_then(played, rook):
    assert played.at_1 != played.at_2 != played.now  # each day changed something
    for gm in (True, False):
        assert known(facts_at(fresh(rook), session_end(DAY_1), gm=gm)) == known(played.at_1)
        assert known(facts_at(fresh(rook), session_end(DAY_2), gm=gm)) == known(played.at_2)


def test_a_change_on_the_sessions_evening_is_the_sessions_though_utc_says_the_next_day(
        played, rook):
    # The rope was picked up at 03:00 UTC on the 11th (22:00 on the 10th in New York); the
    # heal came at midnight in New York, the session's end.
    stood = facts_at(fresh(rook), session_end(DAY_1), gm=True)
    assert stood is not None and stood["Inventory · Rope"] == "2"
    health = [label for label, before, after in changes(played.at_1, played.at_2)
              if label in played.at_1 and "Inventory" not in label and "XP" not in label
              and label != "Name"]
    assert health, "the heal after the session changed a fact that stood at its end"
    assert all(stood[label] == played.at_1[label] for label in health)


def test_a_character_made_after_the_session_did_not_stand_at_its_end(played, rook):
    assert facts_at(fresh(rook), session_end(DAY_1 - datetime.timedelta(days=1)),
                    gm=True) is None


# --- What changed ----------------------------------------------------------------------------


def test_the_diff_between_two_sessions_lists_exactly_the_facts_that_changed(played, rook):
    diff = between(fresh(rook), session_end(DAY_1), session_end(DAY_2), gm=False)

    assert lines(diff) == {tuple(row) for row in changes(known(played.at_1),
                                                          known(played.at_2))}
    assert diff.xp_earned == 5 and diff.xp_spent == 0
    stood = {label: value for group in diff.facts or () for label, value in group.facts}
    assert stood == known(played.at_1)


def test_the_diff_to_now_lists_what_changed_since_and_the_ledgers_sums(played, rook):
    diff = between(fresh(rook), session_end(DAY_1), gm=False)

    assert lines(diff) == {tuple(row) for row in changes(known(played.at_1),
                                                          known(played.now))}
    assert (diff.xp_earned, diff.xp_spent) == (5, 0)
    whole = between(fresh(rook), session_end(DAY_1 - datetime.timedelta(days=1)), gm=False)
    assert (whole.xp_earned, whole.xp_spent) == (30 + 10 + 5, played.cost)  # starting XP too


def test_the_diff_groups_what_was_bought_the_xp_the_tracks_and_the_inventory(played, rook):
    diff = between(fresh(rook), session_end(DAY_1 - datetime.timedelta(days=1)),
                   session_end(DAY_1), gm=False)

    assert diff.facts is None  # made that day
    assert [group.title for group in diff.groups] == [BOUGHT, XP, SHEET, ITEMS]
    assert labels_of(diff, BOUGHT) == played.bought
    assert labels_of(diff, XP) == {XP_AVAILABLE, XP_EARNED}
    assert labels_of(diff, ITEMS) == {"Inventory · Rope"}
    assert labels_of(diff, SHEET)  # the lethal damage, in the system's words
    renamed = between(fresh(rook), session_end(DAY_1), session_end(DAY_2), gm=False)
    assert [line.label for group in renamed.groups if group.title == CHARACTER
            for line in group.lines] == ["Name"]


def test_the_sessions_may_be_given_in_either_order_and_a_session_to_itself_changes_nothing(
        played, rook):
    same = between(fresh(rook), session_end(DAY_2), session_end(DAY_2), gm=True)
    assert not same.changed and same.groups == ()


# --- GM-only changes ---------------------------------------------------------------------------


def test_a_gm_only_change_is_in_the_gms_diff_and_never_in_a_players(played, rook, alice,
                                                                    clock):
    at(clock, datetime.datetime(2026, 2, 20, 16, 0, tzinfo=UTC))
    record(campaign_id=rook.campaign_id, kind=Activity.Kind.SHEET, text="A secret.",
           by=alice, character=rook, changed=[["Marked by the GM", "", "yes"]], gm_only=True)

    gm = between(fresh(rook), session_end(DAY_2), gm=True)
    player = between(fresh(rook), session_end(DAY_2), gm=False)
    assert "Marked by the GM" in {label for label, _, _ in lines(gm)}
    assert "Marked by the GM" not in {label for label, _, _ in lines(player)}
    summary = since_last_session(fresh(rook), gm=False)
    assert summary is not None
    assert "Marked by the GM" not in {line.label for line in summary.shown}


# --- The page ----------------------------------------------------------------------------------


def page(character: Character, **query: Any) -> str:
    url = reverse("history:character-between", args=[character.pk])
    return url + ("?" + "&".join(f"{key}={value}" for key, value in query.items())
                  if query else "")


def test_the_page_shows_the_two_sessions_chosen(played, rook, client_for, bob):
    response = client_for(bob).get(page(rook, **{"from": played.session_1.pk,
                                                 "to": played.session_2.pk}))

    assert response.status_code == 200
    body = response.content.decode()
    assert "Rook the Bold between sessions" in body
    assert "<strong>5 XP earned</strong>" in body
    assert "<span>Name</span> <span>Rook <span" in body  # renamed Rook the Bold in session 2
    assert "frayed" in body  # the rope's note, changed in session 2
    assert "Lantern" not in body  # bought today, after the second session


def test_the_page_answers_htmx_with_its_between_partial(played, rook, client_for, bob):
    response = client_for(bob, htmx=True).get(page(rook, **{"from": played.session_2.pk,
                                                             "to": played.session_1.pk}))

    body = response.content.decode()
    assert body.lstrip().startswith('<div id="between">') and "<h1>" not in body
    assert "from the end of Session of Feb. 10, 2026 to the end of" in body  # reordered


def test_the_page_defaults_to_the_last_session_and_now_and_ignores_a_malformed_choice(
        played, rook, client_for, bob):
    for query in ({}, {"from": "nonsense", "to": "12345678"}):
        body = client_for(bob).get(page(rook, **query)).content.decode()
        assert "Session of Feb. 17, 2026 to now" in body
        assert "Lantern" in body


def test_the_page_without_a_session_says_so(clock, rook, client_for, bob):
    body = client_for(bob).get(page(rook)).content.decode()
    assert "No session yet" in body


def test_whoever_reads_the_sheet_reads_the_page_and_a_stranger_gets_404(
        clock, rook, client_for, client, alice, carol, campaign):
    dave = UserFactory(username="dave")
    Membership.objects.create(campaign=campaign, user=dave, role=Membership.Role.PLAYER)
    assert client_for(alice).get(page(rook)).status_code == 200
    assert client_for(dave).get(page(rook)).status_code == 200  # the party's sheets
    assert client_for(carol).get(page(rook)).status_code == 404
    assert client.get(page(rook)).status_code == 302  # to log in
    assert client_for(alice).post(page(rook)).status_code == 405
    campaign.party_sheets = False
    campaign.save(update_fields=["party_sheets"])
    assert client_for(dave).get(page(rook)).status_code == 404


# --- The sheet's "Since last session" -----------------------------------------------------------


def test_the_sheet_shows_since_last_session_after_a_change_and_not_before(
        clock, rook, campaign, client_for, bob):
    at(clock, datetime.datetime(2026, 2, 17, 23, 0, tzinfo=UTC))
    Session.objects.create(campaign=campaign, date=DAY_2)
    at(clock, datetime.datetime(2026, 2, 20, 15, 0, tzinfo=UTC))
    sheet = client_for(bob)
    assert 'id="since-last-session"' not in sheet.get(rook.get_absolute_url()).content.decode()

    sheet_change(fresh(rook), "damage", {"kind": "lethal", "levels": 2}, by=bob)

    body = sheet.get(rook.get_absolute_url()).content.decode()
    assert 'id="since-last-session"' in body
    assert "since Session of Feb. 17, 2026" in body
    assert reverse("history:character-between", args=[rook.pk]) in body


def test_the_sheet_counts_from_the_last_session_before_today(clock, rook, campaign,
                                                           client_for, bob):
    # A session of today is still being played: "since last session" counts from the one
    # before it, so today's changes show.
    at(clock, datetime.datetime(2026, 2, 17, 23, 0, tzinfo=UTC))
    Session.objects.create(campaign=campaign, date=DAY_2)
    at(clock, datetime.datetime(2026, 2, 20, 15, 0, tzinfo=UTC))
    Session.objects.create(campaign=campaign, date=TODAY)
    sheet_change(fresh(rook), "damage", {"kind": "lethal", "levels": 2}, by=bob)

    summary = since_last_session(fresh(rook), gm=False)
    assert summary is not None and summary.session.date == DAY_2
    assert "since Session of Feb. 17, 2026" in (
        client_for(bob).get(rook.get_absolute_url()).content.decode())


def test_since_last_session_costs_the_sheet_two_queries(played, rook, client_for, bob,
                                                        django_assert_num_queries):
    character = fresh(rook)
    with django_assert_num_queries(2):
        summary = since_last_session(character, gm=False)
    assert summary is not None and summary.count == len(
        changes(known(played.at_2), known(played.now)))

    client = client_for(bob)
    client.get(rook.get_absolute_url())  # warm the session
    with CaptureQueriesContext(connection) as queries:
        client.get(rook.get_absolute_url())
    read = [q["sql"] for q in queries.captured_queries]
    assert sum('"campaigns_session"' in sql for sql in read) == 1
    assert sum('"history_activity"' in sql for sql in read) == 1



def test_a_session_at_either_end_of_the_calendar_is_a_page_not_a_server_error(
        played, rook, client_for, bob, settings):
    """A session the GM dated 9999-12-31 (or 0001-01-01, in a time zone east of UTC) has an
    end the calendar cannot hold one day further: it ends within the calendar instead."""
    for zone, day in (("America/New_York", datetime.date.max),
                      ("Asia/Tokyo", datetime.date.min)):
        settings.TIME_ZONE = zone
        far = Session.objects.create(campaign=rook.campaign, date=day)
        for query in ({"from": far.pk}, {"from": played.session_1.pk, "to": far.pk}):
            assert client_for(bob).get(page(rook, **query)).status_code == 200
        history = reverse("history:campaign-history", args=[rook.campaign_id])
        assert client_for(bob).get(history, {"session": far.pk}).status_code == 200
