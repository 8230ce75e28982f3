"""Sessions of play and the GM's end-of-session awards (Maelstrom rules.md, Chapter and
Story Experience Awards): the GM opens a session, ticks each character's awards and hands
them out in one go; every member reads what the session gave.

After every test the ledger must balance: each character's available and total XP equal the
sums of its ledger entries.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.db.models import RestrictedError
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Session
from campaigns.services import campaign_delete
from characters.models import Character, XpEntry
from rulesets.maelstrom import RuleError
from table import services as session_services
from table.services import session_award, session_create
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.helpers import fresh, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ledger_stays_balanced")]


def list_url(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("table:session-list", args=[campaign.pk])


def awards_in(session: Session) -> list[tuple[str, str, int]]:
    """(character, reason, XP) of every ledger entry linked to the session, sorted."""
    return sorted(session.xp_entries.values_list("character__name", "reason", "available_delta"))


@pytest.fixture
def dave(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="dave")


@pytest.fixture
def daves_character(campaign, dave) -> Character:  # type: ignore[no-untyped-def]
    """Dave, a second player at Alice's table, plays Vex (30 XP)."""
    return CharacterFactory(campaign=campaign, owner=dave, name="Vex")


@pytest.fixture
def session(campaign) -> Session:  # type: ignore[no-untyped-def]
    return session_create(campaign=campaign, date=datetime.date(2026, 11, 21),
                          title="The wreck of the Osprey", recap="Rook found the black box.")


@pytest.fixture
def outsider(db) -> Character:  # type: ignore[no-untyped-def]
    """A character at another table, whose GM is not Alice."""
    return CharacterFactory(campaign=CampaignFactory(name="Elsewhere"), name="Stranger")


# --- Creating sessions --------------------------------------------------------------------


def test_the_new_session_form_is_dated_today(client_for, alice, campaign):
    response = client_for(alice).get(list_url(campaign))

    assert response.status_code == 200
    assert f'value="{timezone.localdate():%Y-%m-%d}"' in response.content.decode()
    assert "New session" in text_of(response)


def test_the_gm_creates_a_session_and_lands_on_its_page(client_for, alice, campaign):
    response = client_for(alice).post(
        list_url(campaign), {"date": "2026-11-21", "title": "The wreck", "recap": ""},
        follow=True,
    )

    session = Session.objects.get(campaign=campaign)
    assert response.redirect_chain == [(session.get_absolute_url(), 302)]
    assert (session.date, session.title) == (datetime.date(2026, 11, 21), "The wreck")
    assert "The wreck is open. Award XP here when it ends." in text_of(response)


def test_an_untitled_session_is_named_after_its_date(campaign):
    session = session_create(campaign=campaign, date=datetime.date(2026, 11, 21))

    assert str(session) == "Session of Nov. 21, 2026"


@pytest.mark.parametrize(("date", "message"), [
    ("", "Give the session a date."),
    ("next tuesday", "Enter the date as YYYY-MM-DD, e.g. 2026-11-21."),
    ("2026-02-30", "Enter the date as YYYY-MM-DD, e.g. 2026-11-21."),
])
def test_a_session_without_a_valid_date_is_refused_with_a_clear_message(
    client_for, alice, campaign, date, message
):
    response = client_for(alice).post(list_url(campaign), {"date": date, "title": "The wreck"})

    assert response.status_code == 200
    assert message in text_of(response)
    assert 'value="The wreck"' in response.content.decode()
    assert not Session.objects.exists()


def test_a_title_longer_than_120_characters_is_refused(client_for, alice, campaign):
    response = client_for(alice).post(list_url(campaign),
                                      {"date": "2026-11-21", "title": "x" * 121})

    assert "Keep the title to 120 characters (it has 121)." in text_of(response)
    assert not Session.objects.exists()


def test_sessions_are_listed_newest_first_with_the_xp_they_gave(
    client_for, alice, campaign, bobs_character
):
    older = session_create(campaign=campaign, date=datetime.date(2026, 10, 1), title="Older")
    newer = session_create(campaign=campaign, date=datetime.date(2026, 11, 1), title="Newer")
    session_award(session=older, awards={bobs_character.pk: ["Heroism", "Victory"]}, by=alice)

    text = text_of(client_for(alice).get(list_url(campaign)))

    assert list(campaign.sessions.all()) == [newer, older]
    assert text.index("Newer") < text.index("Older")
    assert "Older 2 XP (2 awards)" in text
    assert "Newer none yet" in text


# --- Who sees what ------------------------------------------------------------------------


def test_a_player_sees_the_sessions_but_not_the_new_session_form(
    client_for, bob, campaign, session
):
    response = client_for(bob).get(list_url(campaign))

    assert response.status_code == 200
    assert "The wreck of the Osprey" in text_of(response)
    assert "New session" not in text_of(response)


def test_a_player_cannot_create_a_session(client_for, bob, campaign):
    response = client_for(bob).post(list_url(campaign), {"date": "2026-11-21"})

    assert response.status_code == 404
    assert not Session.objects.exists()


def test_a_player_sees_every_award_of_the_session_but_no_award_form(
    client_for, alice, bob, session, bobs_character, daves_character
):
    session_award(session=session, awards={bobs_character.pk: ["Heroism"],
                                           daves_character.pk: ["Creativity"]}, by=alice)

    response = client_for(bob).get(session.get_absolute_url())

    text, content = text_of(response), response.content.decode()
    assert response.status_code == 200
    assert "Rook Heroism award (+1) 1 XP" in text
    assert "Vex Creativity award (+1) 1 XP" in text
    assert "Award XP" not in text
    assert 'name="awards-' not in content
    # Bob may open his own XP page, never Dave's (docs/decisions.md, "Who sees what").
    assert reverse("characters:character-xp", args=[bobs_character.pk]) in content
    assert reverse("characters:character-xp", args=[daves_character.pk]) not in content


def test_a_player_cannot_award_xp(client_for, bob, session, bobs_character):
    response = client_for(bob).post(session.get_absolute_url(),
                                    {f"awards-{bobs_character.pk}": ["Heroism"]})

    assert response.status_code == 404
    assert not XpEntry.objects.filter(session=session).exists()
    assert fresh(bobs_character).xp_available == 30


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_stranger_gets_404_for_the_sessions_and_each_session(
    client_for, carol, campaign, session, bobs_character, method
):
    client = client_for(carol)

    assert getattr(client, method)(list_url(campaign), {"date": "2026-11-21"}).status_code == 404
    assert getattr(client, method)(
        session.get_absolute_url(), {f"awards-{bobs_character.pk}": ["Heroism"]}
    ).status_code == 404
    assert Session.objects.count() == 1
    assert not XpEntry.objects.filter(session=session).exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client, campaign, session):
    response = client.get(session.get_absolute_url())

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_session_is_found_only_under_its_own_campaign(client_for, alice, session):
    other = CampaignFactory(created_by=alice)

    url = reverse("table:session-detail", args=[other.pk, session.pk])
    assert client_for(alice).get(url).status_code == 404


# --- Awarding XP --------------------------------------------------------------------------


def test_the_award_grid_has_a_row_per_living_character_with_the_seven_awards(
    client_for, alice, session, bobs_character, daves_character
):
    ghost = CharacterFactory(campaign=session.campaign, owner=daves_character.owner,
                             name="Ghost", dead=True)

    response = client_for(alice).get(session.get_absolute_url())

    content = response.content.decode()
    for character in (bobs_character, daves_character):
        boxes = re.findall(rf'name="awards-{character.pk}" value="(\w+)"', content)
        assert boxes == ["Participation", "Creativity", "Roleplaying", "Heroism",
                         "Victory", "Hazard", "Ingenuity"]
        assert f'name="amount-{character.pk}"' in content
        assert f'name="reason-{character.pk}"' in content
    assert f'name="awards-{ghost.pk}"' not in content


def test_one_submit_awards_everything_ticked_one_ledger_entry_per_award_per_character(
    client_for, alice, session, bobs_character, daves_character
):
    response = client_for(alice).post(session.get_absolute_url(), {
        f"awards-{bobs_character.pk}": ["Participation", "Heroism", "Victory"],
        f"amount-{bobs_character.pk}": "3", f"reason-{bobs_character.pk}": "Saved the ship",
        f"awards-{daves_character.pk}": ["Creativity"],
        "amount_all": "2", "reason_all": "Finished the chapter",
        "expected_entries": "0",
    }, follow=True)

    assert response.redirect_chain == [(session.get_absolute_url(), 302)]
    assert "Awarded 11 XP in this session: Rook 8, Vex 3." in text_of(response)
    assert awards_in(session) == [
        ("Rook", "Finished the chapter", 2), ("Rook", "Heroism award", 1),
        ("Rook", "Participation award", 1), ("Rook", "Saved the ship", 3),
        ("Rook", "Victory award", 1),
        ("Vex", "Creativity award", 1), ("Vex", "Finished the chapter", 2),
    ]
    assert (fresh(bobs_character).xp_available, fresh(bobs_character).xp_total) == (38, 38)
    assert (fresh(daves_character).xp_available, fresh(daves_character).xp_total) == (33, 33)
    assert set(XpEntry.objects.filter(session=session).values_list("created_by", flat=True)) \
        == {alice.pk}


def test_the_session_page_lists_what_each_character_received_with_totals(
    client_for, alice, session, bobs_character, daves_character
):
    session_award(session=session, awards={bobs_character.pk: ["Participation", "Heroism"]},
                  custom={daves_character.pk: (4, "Hacked the lock")}, by=alice)

    text = text_of(client_for(alice).get(session.get_absolute_url()))

    assert "Rook Participation award (+1), Heroism award (+1) 2 XP" in text
    assert "Vex Hacked the lock (+4) 4 XP" in text
    assert "Total 3 awards 6 XP" in text


def test_awards_outside_a_session_do_not_show_on_its_page(
    client_for, alice, session, bobs_character
):
    from characters.services import xp_award

    xp_award(character=bobs_character, amount=5, reason="Between sessions", by=alice)

    text = text_of(client_for(alice).get(session.get_absolute_url()))
    assert "Between sessions" not in text
    assert "No XP awarded in this session yet." in text


@pytest.mark.parametrize(("amount", "message"), [
    ("0", "A custom award is between 1 and 100 XP."),
    ("101", "A custom award is between 1 and 100 XP."),
    ("lots", "Enter a whole number of XP."),
])
def test_a_bad_custom_amount_awards_nothing_and_shows_the_gms_input_again(
    client_for, alice, session, bobs_character, daves_character, amount, message
):
    response = client_for(alice).post(session.get_absolute_url(), {
        f"awards-{bobs_character.pk}": ["Heroism"],
        f"awards-{daves_character.pk}": ["Victory"],
        f"amount-{daves_character.pk}": amount, f"reason-{daves_character.pk}": "Hacked it",
    })

    content = response.content.decode()
    assert response.status_code == 200
    assert message in text_of(response)
    assert not XpEntry.objects.filter(session=session).exists()
    assert fresh(bobs_character).xp_available == fresh(daves_character).xp_available == 30
    assert re.search(rf'name="awards-{bobs_character.pk}" value="Heroism"[^>]*checked', content)
    assert f'name="reason-{daves_character.pk}" value="Hacked it"' in content


def test_a_custom_amount_needs_a_reason(client_for, alice, session, bobs_character):
    response = client_for(alice).post(session.get_absolute_url(), {
        f"amount-{bobs_character.pk}": "5", f"reason-{bobs_character.pk}": "  ",
    })

    assert "Give a reason for the custom award." in text_of(response)
    assert not XpEntry.objects.filter(session=session).exists()


def test_a_reason_without_an_amount_is_refused_rather_than_dropped(
    client_for, alice, session, bobs_character
):
    response = client_for(alice).post(session.get_absolute_url(), {
        f"awards-{bobs_character.pk}": ["Heroism"], "reason_all": "Finished the chapter",
    })

    assert "Enter the XP this reason is worth." in text_of(response)
    assert not XpEntry.objects.filter(session=session).exists()


def test_a_character_from_another_campaign_changes_nothing_and_says_why(
    client_for, alice, session, bobs_character, outsider
):
    response = client_for(alice).post(session.get_absolute_url(), {
        f"awards-{bobs_character.pk}": ["Heroism"],
        f"awards-{outsider.pk}": ["Victory"],
    })

    assert response.status_code == 200
    assert (f"Character #{outsider.pk} is not in this campaign; awards go to its characters "
            "only.") in text_of(response)
    assert "Stranger" not in text_of(response)
    assert not XpEntry.objects.filter(session=session).exists()
    assert fresh(bobs_character).xp_available == fresh(outsider).xp_available == 30


def test_an_empty_award_is_refused_with_a_message(client_for, alice, session, bobs_character):
    response = client_for(alice).post(session.get_absolute_url(), {"expected_entries": "0"})

    assert response.status_code == 200
    assert ("Tick at least one award or enter an amount of XP, for a character or for "
            "everyone.") in text_of(response)
    assert not XpEntry.objects.filter(session=session).exists()


def test_submitting_the_same_page_twice_awards_only_once(
    client_for, alice, session, bobs_character
):
    client = client_for(alice)
    form = {f"awards-{bobs_character.pk}": ["Heroism"], "expected_entries": "0"}

    client.post(session.get_absolute_url(), form)
    response = client.post(session.get_absolute_url(), form)

    assert "Awards were given in this session since you opened the page" in text_of(response)
    assert awards_in(session) == [("Rook", "Heroism award", 1)]
    assert fresh(bobs_character).xp_available == 31


def test_an_htmx_award_answers_with_the_awards_fragment(
    client_for, alice, session, bobs_character
):
    response = client_for(alice, htmx=True).post(session.get_absolute_url(), {
        f"awards-{bobs_character.pk}": ["Roleplaying"], "expected_entries": "0",
    })

    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<div id="session-awards">')
    assert "<html" not in content
    assert "Awarded 1 XP in this session: Rook 1." in text_of(response)
    assert "Rook Roleplaying award (+1) 1 XP" in text_of(response)
    assert 'name="expected_entries" value="1"' in content
    # A fresh grid: nothing ticked for the next round.
    assert re.search(rf'name="awards-{bobs_character.pk}" value="Roleplaying" id="[^"]+">',
                     content)


def test_an_htmx_award_that_is_refused_shows_the_reason_in_the_fragment(
    client_for, alice, session, bobs_character
):
    response = client_for(alice, htmx=True).post(session.get_absolute_url(), {
        f"amount-{bobs_character.pk}": "500", f"reason-{bobs_character.pk}": "Too much",
    })

    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="session-awards">')
    assert "A custom award is between 1 and 100 XP." in text_of(response)
    assert not XpEntry.objects.filter(session=session).exists()


def test_the_session_page_costs_the_same_queries_however_many_awards(
    client_for, alice, session, bobs_character, daves_character
):
    client = client_for(alice)
    session_award(session=session, awards={bobs_character.pk: ["Heroism"]}, by=alice)
    with CaptureQueriesContext(connection) as few:
        client.get(session.get_absolute_url())
    session_award(session=session, awards={bobs_character.pk: ["Victory", "Hazard"],
                                           daves_character.pk: ["Creativity"]}, by=alice)
    with CaptureQueriesContext(connection) as many:
        client.get(session.get_absolute_url())

    assert len(many) == len(few)


# --- The service --------------------------------------------------------------------------


def test_session_award_is_all_or_nothing_when_a_later_character_fails(
    alice, session, bobs_character, daves_character, monkeypatch
):
    real = session_services.xp_award_many
    calls: list[int] = []

    def fail_on_the_second_character(**kwargs):  # type: ignore[no-untyped-def]
        calls.append(kwargs["character"].pk)
        if len(calls) == 2:
            raise RuleError("The database hiccuped.", "test")
        return real(**kwargs)

    monkeypatch.setattr(session_services, "xp_award_many", fail_on_the_second_character)

    with pytest.raises(RuleError):
        session_award(session=session, awards={bobs_character.pk: ["Heroism"],
                                               daves_character.pk: ["Victory"]}, by=alice)

    assert len(calls) == 2
    assert not XpEntry.objects.filter(session=session).exists()
    assert fresh(bobs_character).xp_available == 30


def test_session_award_refuses_an_award_that_is_not_one_of_the_seven(
    alice, session, bobs_character
):
    with pytest.raises(RuleError, match="'Bravery' is not one of this campaign's awards"):
        session_award(session=session, awards={bobs_character.pk: ["Heroism", "Bravery"]},
                      by=alice)

    assert not XpEntry.objects.filter(session=session).exists()


@pytest.mark.parametrize(("custom", "message"), [
    ((0, "Nothing"), "The custom award for Rook must be between 1 and 100 XP."),
    ((101, "Everything"), "The custom award for Rook must be between 1 and 100 XP."),
    ((5, " "), "Give a reason for the custom award for Rook."),
])
def test_session_award_refuses_a_bad_custom_amount_naming_the_character(
    alice, session, bobs_character, custom, message
):
    with pytest.raises(RuleError, match=re.escape(message)):
        session_award(session=session, custom={bobs_character.pk: custom}, by=alice)


def test_an_award_for_everyone_goes_to_every_living_character_only(
    alice, session, bobs_character, daves_character
):
    CharacterFactory(campaign=session.campaign, owner=daves_character.owner, name="Ghost",
                     dead=True)

    session_award(session=session, custom_for_all=(2, "Survived the wreck"), by=alice)

    assert awards_in(session) == [("Rook", "Survived the wreck", 2),
                                  ("Vex", "Survived the wreck", 2)]


def test_a_session_with_awards_cannot_be_deleted_so_the_ledger_keeps_its_entries(
    alice, session, bobs_character
):
    session_award(session=session, awards={bobs_character.pk: ["Heroism"]}, by=alice)

    with pytest.raises(RestrictedError):
        session.delete()
    assert XpEntry.objects.filter(session=session).count() == 1


def test_a_campaign_whose_sessions_gave_awards_can_still_be_deleted_whole(
    alice, campaign, session, bobs_character
):
    session_award(session=session, awards={bobs_character.pk: ["Heroism"]}, by=alice)

    campaign_delete(campaign=campaign, by=alice)  # the one way a campaign's logs go

    assert not Session.objects.exists()
    assert not XpEntry.objects.exists()
