"""Shattered World's achievements in the GM's end-of-session award grid: the seed's universal
milestones and feats are ticked per character, 1 XP each, written exactly as the sheet's "Log
an achievement" writes them and linked to the session; a milestone already earned is refused
for the whole grid (Shattered World Core Engine, Achievements and Buy-Ins; Universal
Achievements)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from campaigns.models import Membership, Session
from characters.models import Character, XpEntry
from characters.services import character_create_from_data
from rulesets.errors import RuleError
from systems.shattered_world.actions import achievement_append
from systems.shattered_world.system import SYSTEM
from table.services import session_award, session_create
from tests import shattered_world_cast as sheet_tests
from tests.factories import UserFactory
from tests.helpers import fresh, text_of
from tests.shattered_world_cast import KAELIN

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]
kaelin = sheet_tests.kaelin  # the fixture, shared
sw_campaign = sheet_tests.sw_campaign  # the fixture, shared

INN = "Milestone: Talk to strangers at the inn"
ENEMY = "Feat: Defeat any enemy"
QUEST_FEAT = "Feat: Complete a quest successfully"
QUEST_MILESTONE = "Milestone: Complete a quest successfully"


@pytest.fixture
def brin(sw_campaign) -> Character:  # type: ignore[no-untyped-def]
    """Dave's Brin, a human Mage, at the same table."""
    dave = UserFactory(username="dave")
    Membership.objects.create(campaign=sw_campaign, user=dave, role=Membership.Role.PLAYER)
    return character_create_from_data(campaign=sw_campaign, owner=dave, data={
        **KAELIN, "name": "Brin", "human": "on", "field_role": "Mage", "subrole": "Elementalist"})


@pytest.fixture
def session(sw_campaign) -> Session:  # type: ignore[no-untyped-def]
    return session_create(campaign=sw_campaign, date=datetime.date(2026, 11, 21),
                          title="The drowned chapel")


def detail_url(session: Session) -> str:
    return reverse("table:session-detail", args=[session.campaign_id, session.pk])


def test_the_grid_offers_every_universal_milestone_then_every_feat(sw_campaign):
    names = SYSTEM.session_awards(sw_campaign)

    assert len(names) == 36
    assert names[0] == "Milestone: Defeat first legendary enemy"
    assert names[-1] == "Feat: GM Fiat"
    assert QUEST_MILESTONE in names and QUEST_FEAT in names  # in both columns of the seed


def test_the_gm_sees_the_achievements_in_the_grid(client_for, alice, kaelin, session):
    response = client_for(alice).get(detail_url(session))

    assert response.status_code == 200
    # 36 achievements: a block per character (a grid that wide is unusable on a phone).
    assert "Awards for Kaelin" in text_of(response)
    assert (f'name="awards-{kaelin.pk}" value="{ENEMY}"'
            in response.content.decode().replace("&#x27;", "'"))


def test_milestones_and_feats_are_awarded_in_bulk_and_linked_to_the_session(
    client_for, alice, kaelin, brin, session
):
    response = client_for(alice).post(detail_url(session), {
        f"awards-{kaelin.pk}": [INN, ENEMY, QUEST_FEAT],
        f"awards-{brin.pk}": [ENEMY, QUEST_MILESTONE],
        "expected_entries": "0",
    })

    assert response.status_code == 302
    entries = XpEntry.objects.filter(session=session).order_by("pk")
    assert [(e.character.name, e.trait_key, e.available_delta, e.total_delta)
            for e in entries] == [
        ("Kaelin", "milestone:Talk to strangers at the inn", 1, 1),
        ("Kaelin", "feat:Defeat any enemy", 1, 1),
        ("Kaelin", "feat:Complete a quest successfully", 1, 1),
        ("Brin", "feat:Defeat any enemy", 1, 1),
        ("Brin", "milestone:Complete a quest successfully", 1, 1),
    ]
    assert all(e.kind == XpEntry.Kind.AWARD for e in entries)
    kaelin, brin = fresh(kaelin), fresh(brin)
    assert kaelin.xp_available == 3 and brin.xp_available == 2
    assert kaelin.sheet["achievements"] == {
        "total": 3, "milestones": ["Talk to strangers at the inn"],
        "feats": {"Defeat any enemy": 1, "Complete a quest successfully": 1}}
    assert brin.sheet["achievements"]["milestones"] == ["Complete a quest successfully"]


def test_a_grid_award_is_the_same_entry_the_sheet_writes(client_for, alice, kaelin, session):
    client_for(alice, htmx=True).post(
        reverse("characters:character-action", args=[kaelin.pk, "achievement"]),
        {"kind": "feat", "name": "Defeat any enemy", "category": "universal"})
    client_for(alice, htmx=True).post(detail_url(session), {
        f"awards-{kaelin.pk}": [ENEMY], "expected_entries": "0"})

    by_sheet, by_grid = XpEntry.objects.filter(character=kaelin).order_by("pk")
    assert (by_sheet.trait_key, by_sheet.reason, by_sheet.available_delta) == (
        by_grid.trait_key, by_grid.reason, by_grid.available_delta)
    assert by_sheet.session is None and by_grid.session == session
    assert fresh(kaelin).sheet["achievements"]["feats"] == {"Defeat any enemy": 2}


def test_the_htmx_grid_answers_with_what_the_session_gave(client_for, alice, kaelin, session):
    response = client_for(alice, htmx=True).post(detail_url(session), {
        f"awards-{kaelin.pk}": [INN], "expected_entries": "0"})

    assert response.status_code == 200
    assert 'id="session-awards"' in response.content.decode()
    assert "Milestone: Talk to strangers at the inn (universal) (+1)" in text_of(response)


def test_a_milestone_already_earned_refuses_the_whole_grid_naming_the_character(
    client_for, alice, kaelin, brin, session
):
    achievement_append(kaelin, kind="milestone", name="Talk to strangers at the inn",
                       category="universal", by=alice)
    kaelin.save()
    before = list(XpEntry.objects.values_list("pk", flat=True))

    response = client_for(alice, htmx=True).post(detail_url(session), {
        f"awards-{brin.pk}": [INN, ENEMY],      # fine for Brin ...
        f"awards-{kaelin.pk}": [ENEMY, INN],    # ... but Kaelin has been to the inn
        f"amount-{brin.pk}": "2", f"reason-{brin.pk}": "Good plan",
        "expected_entries": "0",
    })

    assert response.status_code == 200
    assert ("Kaelin: the milestone 'Talk to strangers at the inn' was already earned: "
            "milestones are collected once per lifetime") in text_of(response)
    assert list(XpEntry.objects.values_list("pk", flat=True)) == before
    assert not session.xp_entries.exists()
    assert fresh(brin).sheet["achievements"]["total"] == 0
    assert fresh(kaelin).sheet["achievements"]["total"] == 1
    assert fresh(brin).xp_available == 0 and fresh(kaelin).xp_available == 1


def test_a_milestone_undone_may_be_awarded_again(client_for, alice, kaelin, session):
    client_for(alice).post(
        reverse("characters:character-action", args=[kaelin.pk, "achievement"]),
        {"kind": "milestone", "name": "Talk to strangers at the inn", "category": "universal"})
    logged = XpEntry.objects.get(character=kaelin)
    client_for(alice).post(
        reverse("characters:character-action", args=[kaelin.pk, "achievement_undo"]),
        {"entry": logged.pk})

    entries = session_award(session=session, awards={kaelin.pk: [INN]}, by=alice)

    assert [e.trait_key for e in entries] == ["milestone:Talk to strangers at the inn"]
    assert fresh(kaelin).sheet["achievements"]["milestones"] == ["Talk to strangers at the inn"]


def test_a_name_the_grid_does_not_offer_is_refused(alice, kaelin, session):
    with pytest.raises(RuleError, match="not one of this campaign's awards"):
        session_award(session=session, awards={kaelin.pk: ["Heroism"]}, by=alice)

    with pytest.raises(RuleError, match="not one of the universal achievements"):
        SYSTEM.session_award(kaelin, "Feat: Slay a kraken", by=alice, session=session)
    assert not XpEntry.objects.exists()


def test_total_achievements_on_the_sheet_include_the_sessions_awards(
    client_for, alice, bob, kaelin, session
):
    client_for(alice).post(detail_url(session), {
        f"awards-{kaelin.pk}": [INN, ENEMY, QUEST_FEAT], "expected_entries": "0"})

    text = text_of(client_for(bob).get(kaelin.get_absolute_url()))

    assert "XP: 3 available · 3 total achievements" in text
    assert "Talk to strangers at the inn" in text and "Defeat any enemy" in text


def test_a_player_cannot_award_achievements(client_for, bob, kaelin, session):
    response = client_for(bob).post(detail_url(session), {
        f"awards-{kaelin.pk}": [ENEMY], "expected_entries": "0"})

    assert response.status_code == 404
    assert not XpEntry.objects.exists()
