"""A recap's line ends: a browser sends each line break of a textarea as ``\\r\\n`` but counts
it as one character against the box's ``maxlength``; the server counts the recap as the
browser did and stores ``\\n`` (characters.forms.MarkdownField), in the recap form and in the
new-session form alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Session
from core.markdown import MAX_LENGTH
from table.services import session_create
from tests.helpers import fresh, text_of

pytestmark = pytest.mark.django_db

LINE = "x" * 99
FULL = "\r\n".join([LINE] * 200)
"""200 lines of 99 characters: 19,999 characters as the browser counts them (a line break
one), 20,198 with the ``\\r\\n`` it sends."""


@pytest.fixture
def session(campaign: Campaign) -> Session:
    return session_create(campaign=campaign, date=timezone.localdate(), title="The wreck")


def recap_url(session: Session) -> str:
    return reverse("table:session-recap", args=[session.campaign_id, session.pk])


def test_the_browser_would_send_this_recap_within_its_limit() -> None:
    assert len(FULL.replace("\r\n", "\n")) <= MAX_LENGTH < len(FULL)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_recap_is_stored_with_plain_line_ends(
        session: Session, alice: Any, client_for: Callable[..., Client], htmx: bool) -> None:
    client_for(alice, htmx=htmx).post(recap_url(session), {"recap": "One.\r\n\r\nTwo.\rThree."})
    assert fresh(session).recap == "One.\n\nTwo.\nThree."


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_recap_the_browser_let_through_is_not_refused_for_its_line_ends(
        session: Session, alice: Any, client_for: Callable[..., Client], htmx: bool) -> None:
    response = client_for(alice, htmx=htmx).post(recap_url(session), {"recap": FULL})
    assert response.status_code == (200 if htmx else 302)
    assert fresh(session).recap == FULL.replace("\r\n", "\n")


def test_a_recap_over_the_limit_without_its_line_ends_is_still_refused(
        session: Session, alice: Any, client_for: Callable[..., Client]) -> None:
    too_long = FULL + "\r\n" + "x" * 200
    response = client_for(alice).post(recap_url(session), {"recap": too_long})
    assert response.status_code == 200
    # Counted as the browser counts it: 20,200 characters, not the 20,400 sent.
    assert f"Keep the recap to {MAX_LENGTH:,} characters (it has 20200)." in text_of(response)
    assert fresh(session).recap == ""


def test_a_new_sessions_recap_is_stored_with_plain_line_ends_and_counted_alike(
        campaign: Campaign, alice: Any, client_for: Callable[..., Client]) -> None:
    response = client_for(alice).post(reverse("table:session-list", args=[campaign.pk]),
                                      {"date": "2026-11-21", "title": "", "recap": FULL})
    assert response.status_code == 302
    assert campaign.sessions.get().recap == FULL.replace("\r\n", "\n")
