"""A session's recap, written by the GM and read by every member on the session's page beside
the rolls made on the session's date and the awards it gave."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Session
from core.markdown import MAX_LENGTH
from rolls.models import Roll
from table.services import session_create, session_recap_update
from tests.factories import CampaignFactory
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

XSS_RECAP = (
    "The crew <script>alert('recap')</script> escaped.\n\n"
    "<img src=x onerror=alert(1)>\n\n"
    "[the log](javascript:alert(2)) and <a href=\"javascript:alert(3)\">a link</a>\n\n"
    "<iframe src=\"https://evil.example\"></iframe><svg onload=alert(4)>"
)


def recap_url(session: Session) -> str:
    return reverse("table:session-recap", args=[session.campaign_id, session.pk])


@pytest.fixture
def session(campaign) -> Session:  # type: ignore[no-untyped-def]
    """Tonight's session of The Drift, without a recap yet."""
    return session_create(campaign=campaign, date=timezone.localdate(), title="The wreck")


def make_roll(campaign, by, *, character=None, gm_only=False,  # type: ignore[no-untyped-def]
              description="Drive through the storm") -> Roll:
    return Roll.objects.create(
        campaign=campaign, character=character, rolled_by=by, ruleset="maelstrom",
        kind=Roll.Kind.ACTION, description=description, outcome=Roll.Outcome.SUCCESS, net=2,
        summary="2 successes", gm_only=gm_only)


# --- Writing the recap ---------------------------------------------------------------------------


def test_the_gm_writes_the_recap_and_is_sent_back_to_the_session(client_for, alice, session):
    response = client_for(alice).post(recap_url(session),
                                      {"recap": "  We found **the black box**.  "})

    assert response.status_code == 302
    assert response.url == session.get_absolute_url()
    assert fresh(session).recap == "We found **the black box**."


def test_the_gm_sees_the_recap_form_holding_the_stored_recap(client_for, alice, session):
    session_recap_update(session=session, recap="Rook *drove*.", by=alice)

    page = client_for(alice).get(session.get_absolute_url()).content.decode()

    assert f'action="{recap_url(session)}"' in page
    assert "Rook *drove*.</textarea>" in page
    assert "Edit the recap" in page


def test_an_htmx_save_answers_with_the_recap_fragment_rendered(client_for, alice, session):
    response = client_for(alice, htmx=True).post(recap_url(session),
                                                 {"recap": "We found **the black box**."})

    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<section class="card" id="session-recap"')
    assert "<html" not in page
    assert "<strong>the black box</strong>" in page
    assert "The recap is saved" in page
    assert fresh(session).recap == "We found **the black box**."


def test_an_empty_recap_clears_it(client_for, alice, session):
    session_recap_update(session=session, recap="Something happened.", by=alice)

    client_for(alice).post(recap_url(session), {"recap": "   "})

    assert fresh(session).recap == ""


def test_a_recap_longer_than_the_limit_is_refused_with_the_reason_and_the_text_kept(
        client_for, alice, session):
    session_recap_update(session=session, recap="The old recap.", by=alice)
    too_long = "x" * (MAX_LENGTH + 1)

    response = client_for(alice).post(recap_url(session), {"recap": too_long})

    assert response.status_code == 200
    assert (f"Keep the recap to {MAX_LENGTH:,} characters (it has {MAX_LENGTH + 1})."
            in text_of(response))
    assert too_long in response.content.decode()  # the GM's text, to shorten
    assert fresh(session).recap == "The old recap."


def test_an_htmx_recap_that_is_too_long_shows_the_reason_in_the_fragment(
        client_for, alice, session):
    response = client_for(alice, htmx=True).post(recap_url(session),
                                                 {"recap": "x" * (MAX_LENGTH + 1)})

    assert response.status_code == 200
    assert "<html" not in response.content.decode()
    assert f"Keep the recap to {MAX_LENGTH:,} characters" in text_of(response)
    assert fresh(session).recap == ""


def test_a_recap_of_exactly_the_limit_is_saved(client_for, alice, session):
    client_for(alice).post(recap_url(session), {"recap": "y" * MAX_LENGTH})

    assert len(fresh(session).recap) == MAX_LENGTH


def test_a_new_session_with_a_recap_longer_than_the_limit_is_refused(client_for, alice, campaign):
    response = client_for(alice).post(
        reverse("table:session-list", args=[campaign.pk]),
        {"date": "2026-11-21", "title": "Too much", "recap": "z" * (MAX_LENGTH + 1)})

    assert response.status_code == 200
    assert f"Keep the recap to {MAX_LENGTH:,} characters" in text_of(response)
    assert not Session.objects.filter(title="Too much").exists()


# --- Who may write and read it -------------------------------------------------------------------


def test_a_player_reads_the_recap_rendered_from_markdown_and_gets_no_form(
        client_for, alice, bob, session):
    session_recap_update(session=session, recap="Rook found **the black box**.\n\n- Vex lied",
                         by=alice)

    page = client_for(bob).get(session.get_absolute_url()).content.decode()

    assert "<strong>the black box</strong>" in page
    assert "<li>Vex lied</li>" in page
    assert recap_url(session) not in page
    assert "<textarea" not in page


def test_a_player_sees_that_no_recap_was_written_yet(client_for, bob, session):
    response = client_for(bob).get(session.get_absolute_url())

    assert "The GM has not written a recap of this session yet." in text_of(response)


def test_a_player_cannot_write_the_recap(client_for, alice, bob, session):
    session_recap_update(session=session, recap="The GM's words.", by=alice)

    for client in (client_for(bob), client_for(bob, htmx=True)):
        response = client.post(recap_url(session), {"recap": "Bob's version."})
        assert response.status_code == 404

    assert fresh(session).recap == "The GM's words."


def test_a_stranger_gets_404_and_changes_nothing(client_for, carol, session):
    response = client_for(carol).post(recap_url(session), {"recap": "Carol was here."})

    assert response.status_code == 404
    assert fresh(session).recap == ""


def test_an_anonymous_visitor_is_sent_to_log_in(session):
    response = Client().post(recap_url(session), {"recap": "Anyone?"})

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))
    assert fresh(session).recap == ""


def test_the_recap_url_takes_only_a_post(client_for, alice, session):
    assert client_for(alice).get(recap_url(session)).status_code == 405


def test_a_session_of_another_campaign_is_404_under_this_one(client_for, alice, campaign):
    elsewhere = session_create(campaign=CampaignFactory(created_by=alice),
                               date=timezone.localdate())
    url = reverse("table:session-recap", args=[campaign.pk, elsewhere.pk])

    assert client_for(alice).post(url, {"recap": "Misplaced."}).status_code == 404
    assert fresh(elsewhere).recap == ""


def test_an_archived_campaign_refuses_the_recap_and_keeps_the_old_one(
        client_for, alice, campaign, session):
    session_recap_update(session=session, recap="As it was.", by=alice)
    campaign.archived_at = timezone.now()
    campaign.save(update_fields=["archived_at"])

    response = client_for(alice).post(recap_url(session), {"recap": "Rewritten."})

    assert response.status_code == 403
    assert fresh(session).recap == "As it was."


# --- Stored XSS ----------------------------------------------------------------------------------


def active_markup(page: str) -> list[str]:
    """Every tag in ``page`` that could run or load something: a script, an image, a frame,
    an svg, an event handler, a javascript: link."""
    return re.findall(r"<(?:script|img|iframe|svg)\b[^>]*>|<[a-z]+\b[^>]*\son[a-z]+=[^>]*>"
                      r"|<a\b[^>]*href=[\"']?javascript:[^>]*>", page, flags=re.IGNORECASE)


def test_markup_in_a_recap_is_shown_inert_to_every_member(client_for, alice, bob, session):
    session_recap_update(session=session, recap=XSS_RECAP, by=alice)

    for user in (alice, bob):
        page = client_for(user).get(session.get_absolute_url()).content.decode()
        assert active_markup(page.split("<main", 1)[1]) == []  # the site's own scripts aside
        assert "&lt;script&gt;alert('recap')&lt;/script&gt;" in page  # shown as text


def test_markup_in_a_saved_recap_is_inert_in_the_htmx_answer_too(client_for, alice, session):
    page = client_for(alice, htmx=True).post(recap_url(session),
                                             {"recap": XSS_RECAP}).content.decode()

    assert active_markup(page) == []
    assert "&lt;script&gt;" in page.split("<details", 1)[0]  # the recap as read, as text


def test_the_markup_check_finds_active_markup() -> None:
    """The check above can fail: it sees each kind of active tag."""
    assert len(active_markup('<script>x</script><img src=x><a href="javascript:y">'
                             '<p onclick="z"><svg onload=1><iframe>')) == 6


# --- The session's rolls -------------------------------------------------------------------------


def test_every_member_sees_the_rolls_made_on_the_sessions_date(
        client_for, alice, bob, bobs_character, session, monkeypatch):
    make_roll(session.campaign, bob, character=bobs_character, description="Tonight's chase")
    last_week = timezone.now() - datetime.timedelta(days=7)
    monkeypatch.setattr(timezone, "now", lambda: last_week)
    make_roll(session.campaign, bob, character=bobs_character, description="Last week's heist")
    monkeypatch.undo()

    for user in (alice, bob):
        text = text_of(client_for(user).get(session.get_absolute_url()))
        assert "Tonight's chase" in text
        assert "Last week's heist" not in text


def test_a_gm_only_roll_of_the_date_is_shown_to_the_gm_alone(client_for, alice, bob, session):
    make_roll(session.campaign, alice, gm_only=True, description="The ambush behind the door")

    assert "The ambush behind the door" in text_of(client_for(alice).get(
        session.get_absolute_url()))
    assert "The ambush behind the door" not in text_of(client_for(bob).get(
        session.get_absolute_url()))


def test_rolls_of_another_campaign_on_the_same_day_are_not_shown(client_for, alice, session):
    elsewhere = CampaignFactory(created_by=alice)
    make_roll(elsewhere, alice, description="Another table's roll")

    assert "Another table's roll" not in text_of(client_for(alice).get(
        session.get_absolute_url()))


def test_a_day_without_rolls_says_so(client_for, bob, session):
    assert "No rolls were made in this campaign on" in text_of(
        client_for(bob).get(session.get_absolute_url()))


def test_the_session_page_names_who_rolled_by_their_display_name(
        client_for, alice, bob, bobs_character, session):
    bob.first_name = "Robert the Bold"
    bob.save(update_fields=["first_name"])
    make_roll(session.campaign, bob, character=bobs_character)

    assert "Robert the Bold" in text_of(client_for(alice).get(session.get_absolute_url()))


def test_the_session_list_marks_sessions_with_a_recap(client_for, alice, bob, session):
    url = reverse("table:session-list", args=[session.campaign_id])
    assert "recap" not in text_of(client_for(bob).get(url)).split("Sessions played", 1)[1]

    session_recap_update(session=session, recap="Done.", by=alice)

    assert "The wreck recap" in text_of(client_for(bob).get(url))


def test_session_recap_update_strips_the_text_and_writes_only_the_recap(alice, session):
    stale = Session.objects.get(pk=session.pk)
    Session.objects.filter(pk=session.pk).update(title="Renamed meanwhile")

    session_recap_update(session=stale, recap="\n  The end.  \n", by=alice)

    stored = fresh(session)
    assert stored.recap == "The end."
    assert stored.title == "Renamed meanwhile"
