"""The luck pages (history.luck_views): who may see them, what a player's figures count, the
session's span, the charts' images and their policy, XP over sessions, and a figure never
stale after a new roll (docs/history.md, "How the dice ran").

Each roll's luck is the system's (``LuckPart.roll_luck``); but for the last test, here the
campaign's system's is replaced by a coin (``coins``): a success is 1 of a measure at even
odds, so each figure can be worked out by hand.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone

import systems
from campaigns.models import Session
from characters.models import XpEntry
from rolls.models import Roll
from rulesets.luck import RollLuck
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db

COIN = (Fraction(1, 2), Fraction(1, 2))


def coin_luck(self, roll: Roll) -> RollLuck | None:  # type: ignore[no-untyped-def]
    """A roll's luck as a coin's: 1 for a success, 0 otherwise; none for a follow-up."""
    if roll.parent_id is not None:
        return None
    return RollLuck("hits", 0, COIN, 1 if roll.outcome == Roll.Outcome.SUCCESS else 0)


@pytest.fixture
def coins(monkeypatch, campaign):  # type: ignore[no-untyped-def]
    kind = type(systems.for_campaign(campaign))
    monkeypatch.setattr(kind, "roll_luck", coin_luck)
    monkeypatch.setattr(kind, "luck_measure", "hits")


def roll(character, by, *, success: bool, gm_only: bool = False) -> Roll:  # type: ignore[no-untyped-def]
    return Roll.objects.create(
        campaign=character.campaign, character=character, rolled_by=by,
        ruleset=character.campaign.ruleset, kind=Roll.Kind.ACTION, description="a coin",
        outcome=Roll.Outcome.SUCCESS if success else Roll.Outcome.FAILURE,
        net=int(success), summary="", gm_only=gm_only)


def table_url(campaign, **query) -> str:  # type: ignore[no-untyped-def]
    url = reverse("history:campaign-luck", args=[campaign.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def chart_url(campaign, chart: str) -> str:  # type: ignore[no-untyped-def]
    return reverse("history:campaign-luck-chart", args=[campaign.pk, chart])


def test_members_see_the_table_s_luck_and_a_stranger_gets_404_for_pages_and_charts(
        coins, client_for, alice, bob, carol, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    roll(bobs_character, bob, success=True)
    own = reverse("history:character-luck", args=[bobs_character.pk])
    own_chart = reverse("history:character-luck-chart", args=[bobs_character.pk, "time"])
    for user in (alice, bob):
        assert client_for(user).get(table_url(campaign)).status_code == 200
        assert client_for(user).get(own).status_code == 200
        assert client_for(user).get(chart_url(campaign, "outcomes")).status_code == 200
    for url in (table_url(campaign), own, chart_url(campaign, "time"), own_chart):
        assert client_for(carol).get(url).status_code == 404
    assert client_for(bob).get(chart_url(campaign, "pie")).status_code == 404


def test_the_figures_are_the_exact_odds_of_the_rolls_in_words(
        coins, client_for, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    roll(bobs_character, bob, success=True)
    roll(bobs_character, bob, success=True)
    page = client_for(bob).get(table_url(campaign))
    (line,) = page.context["lines"]
    # Two hits of two coins: P(X < 2) + P(X = 2) / 2 = 3/4 + 1/8.
    assert line["luck"].percentile == Fraction(175, 2)
    assert (line["luck"].rolls, line["expected"], line["luck"].actual) == (2, "1.0", 2)
    text = page.content.decode()
    assert "Luckier than 88 of 100 tables rolling the same dice." in text
    assert "50 is as expected" in text


def test_a_gm_only_roll_counts_for_the_gm_and_never_in_a_player_s_figures_or_charts(
        coins, client_for, alice, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    goon = CharacterFactory(campaign=campaign, owner=alice, name="Hidden Goon", is_npc=True)
    roll(goon, alice, success=True, gm_only=True)
    roll(bobs_character, bob, success=False)
    players = client_for(bob).get(table_url(campaign))
    gms = client_for(alice).get(table_url(campaign))
    assert players.context["table_line"]["luck"].rolls == 1
    assert gms.context["table_line"]["luck"].rolls == 2
    assert "Hidden Goon" in gms.content.decode()
    for chart in ("time", "outcomes"):
        svg = client_for(bob).get(chart_url(campaign, chart)).content.decode()
        assert "Hidden Goon" not in svg
    assert "Hidden Goon" in client_for(alice).get(chart_url(campaign, "time")).content.decode()
    assert "Hidden Goon" not in players.content.decode()
    npc_page = reverse("history:character-luck", args=[goon.pk])
    assert client_for(bob).get(npc_page).status_code == 404


def test_a_session_counts_the_rolls_of_its_date_and_says_when_it_has_none(
        coins, client_for, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    roll(bobs_character, bob, success=True)
    today = Session.objects.create(campaign=campaign, date=timezone.localdate())
    before = Session.objects.create(campaign=campaign,
                                    date=timezone.localdate() - datetime.timedelta(days=7))
    page = client_for(bob).get(table_url(campaign, session=today.pk))
    assert page.context["table_line"]["luck"].rolls == 1
    empty = client_for(bob).get(table_url(campaign, session=before.pk))
    assert empty.context["table_line"] is None
    assert "No rolls yet in this session." in empty.content.decode()
    # A session of another campaign is no choice here: the whole campaign, and the form says so.
    elsewhere = client_for(bob).get(table_url(campaign, session=before.pk + 100))
    assert elsewhere.context["session"] is None
    assert "Choose a session of this campaign" in elsewhere.content.decode()


def test_choosing_a_session_with_htmx_answers_the_figures_alone(
        coins, client_for, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    roll(bobs_character, bob, success=True)
    today = Session.objects.create(campaign=campaign, date=timezone.localdate())
    fragment = client_for(bob, htmx=True).get(table_url(campaign, session=today.pk))
    text = fragment.content.decode()
    assert text.lstrip().startswith('<div id="luck-figures">') and "<html" not in text
    assert f"time.svg?session={today.pk}" in text


def test_a_new_roll_is_counted_at_once_never_a_stale_figure(
        coins, client_for, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    roll(bobs_character, bob, success=True)
    assert client_for(bob).get(table_url(campaign)).context["table_line"]["luck"].rolls == 1
    roll(bobs_character, bob, success=False)
    again = client_for(bob).get(table_url(campaign)).context["table_line"]["luck"]
    # Taken up where the first figure left it: one hit of two coins is exactly the middle.
    assert (again.rolls, again.actual, again.percentile) == (2, 1, 50)
    roll(bobs_character, bob, success=True)
    third = client_for(bob).get(table_url(campaign)).context["table_line"]["luck"]
    assert (third.rolls, third.actual, third.percentile) == (3, 2, Fraction(275, 4))


def test_a_chart_is_an_svg_image_under_its_own_policy_with_names_escaped(
        coins, client_for, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    bobs_character.name = "<script>alert(1)</script>"
    bobs_character.save(update_fields=["name"])
    roll(bobs_character, bob, success=True)
    response = client_for(bob).get(chart_url(campaign, "time"))
    assert response["Content-Type"] == "image/svg+xml"
    policy = response["Content-Security-Policy"]
    assert "script-src 'none'" in policy and "style-src 'unsafe-inline'" in policy
    svg = response.content.decode()
    assert svg.startswith("<?xml") and "<svg" in svg
    assert "<script>alert" not in svg and "&lt;script&gt;alert" in svg
    page = client_for(bob).get(table_url(campaign))
    assert "'unsafe-inline'" not in page["Content-Security-Policy"]


def test_xp_over_sessions_counts_each_session_s_awards(
        coins, client_for, alice, bob, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    session = Session.objects.create(campaign=campaign, date=timezone.localdate())
    XpEntry.objects.create(character=bobs_character, kind=XpEntry.Kind.AWARD,
                           available_delta=3, total_delta=3, reason="Survived",
                           created_by=alice, session=session)
    page = client_for(bob).get(table_url(campaign))
    assert page.context["xp_rows"] == [(session, [3])]
    assert client_for(bob).get(chart_url(campaign, "xp"))["Content-Type"] == "image/svg+xml"


POOL = {"trait": ["Precision", "Driving"], "kind": "action", "difficulty": "6",
        "threshold": "0"}


def test_real_rolls_count_as_their_system_measures_them_and_a_hidden_npc_s_stay_the_gm_s(
        client_for, alice, bob, campaign, bobs_character, seeded_rng) -> None:  # type: ignore[no-untyped-def]
    goon = CharacterFactory(campaign=campaign, owner=alice, name="Goon", is_npc=True)
    for _ in range(3):
        client_for(bob, htmx=True).post(reverse("rolls:roll-create", args=[bobs_character.pk]),
                                        POOL)
    client_for(alice, htmx=True).post(reverse("rolls:roll-create", args=[goon.pk]), POOL)
    system = systems.for_campaign(campaign)
    seen = [system.roll_luck(r) for r in Roll.objects.filter(character=bobs_character)]
    assert len(seen) == 3 and all(luck is not None for luck in seen)
    page = client_for(bob).get(table_url(campaign))
    table = page.context["table_line"]["luck"]
    assert (table.rolls, table.measure) == (3, system.luck_measure)
    assert table.actual == sum(luck.actual for luck in seen if luck is not None)
    assert table.expected == sum(luck.expected for luck in seen if luck is not None)
    assert client_for(alice).get(table_url(campaign)).context["table_line"]["luck"].rolls == 4


def test_a_character_s_page_counts_that_character_s_rolls_alone(
        coins, client_for, bob, dave, campaign, bobs_character) -> None:  # type: ignore[no-untyped-def]
    wren = campaign.characters.get(name="Wren")
    roll(bobs_character, bob, success=True)
    roll(wren, dave, success=False)
    roll(wren, dave, success=False)
    page = client_for(bob).get(reverse("history:character-luck", args=[bobs_character.pk]))
    (line,) = page.context["lines"]
    assert (line["name"], line["luck"].rolls, line["luck"].actual) == ("Rook", 1, 1)
    assert "Wren" not in page.content.decode()
    empty = client_for(dave).get(reverse("history:character-luck", args=[wren.pk]) + "?session="
                                 + str(Session.objects.create(
                                     campaign=campaign, date=timezone.localdate()
                                     - datetime.timedelta(days=1)).pk))
    assert "No rolls yet in this session." in empty.content.decode()


def test_the_page_of_figures_already_worked_out_costs_a_fixed_few_queries(
        coins, client_for, bob, campaign, bobs_character, django_assert_num_queries
        ) -> None:  # type: ignore[no-untyped-def]
    for success in (True, False, True):
        roll(bobs_character, bob, success=success)
    client = client_for(bob)
    client.get(table_url(campaign))
    # The session and user, the membership, the rolls' ids, the characters' names, the
    # party, the sessions and the XP entries for XP over sessions, and the sessions to
    # choose from: however many rolls.
    with django_assert_num_queries(9):
        client.get(table_url(campaign))
    roll(bobs_character, bob, success=True)
    with django_assert_num_queries(10):  # and the new roll, read for its luck
        client.get(table_url(campaign))
