"""Live regions kept per seat and version (core.regions.recall): a kept answer is served only
to the seat it was drawn for, at the version it was drawn at, with the asking browser's own
CSRF token, and any change a viewer may see (through a view or the admin) makes the next
answer a fresh one. Every write path's next answer is checked in
tests/core/test_no_stale_page.py, which asks each page's regions before and after the change
with the cache on."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Membership
from characters.models import Character
from core import regions

pytestmark = pytest.mark.django_db

ACTIONS = "character-actions"
MOVE = "Move to another player"


def _url(character: Character, *ids: str) -> str:
    return f"{character.get_absolute_url()}?" + "&".join(f"live={i}" for i in ids)


def _tokenless(html: str) -> str:
    """``html`` with its CSRF tokens blanked: each answer masks its browser's anew."""
    return re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]+', r"\1", html)


def _token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found is not None, html[:300]
    return found.group(1)


def test_a_region_asked_again_at_the_same_version_is_not_built_again(
        client_for: Any, bob: Any, bobs_character: Character) -> None:
    owner = client_for(bob)
    url = _url(bobs_character, "sheet-title", "health-track")
    first = owner.get(url)
    with CaptureQueriesContext(connection) as queries:
        again = owner.get(url)
    assert again.status_code == 200
    assert _tokenless(again.content.decode()) == _tokenless(first.content.decode())
    assert again["ETag"] == first["ETag"]
    # The viewer's check only: the session, the user, the character with the seat.
    assert len(queries) <= 3, [q["sql"][:80] for q in queries]
    caches[regions.CACHE].clear()
    with CaptureQueriesContext(connection) as fresh:
        owner.get(url)
    assert len(fresh) > len(queries)


def test_the_gms_kept_answer_never_reaches_a_player(
        client_for: Any, alice: Any, bob: Any, bobs_character: Character) -> None:
    url = _url(bobs_character, ACTIONS)
    gm_answer = client_for(alice).get(url)
    assert MOVE in gm_answer.content.decode()
    players = client_for(bob).get(url)
    assert players.status_code == 200
    assert MOVE not in players.content.decode()
    assert players["ETag"] == gm_answer["ETag"]  # the same version: only the seat differs


class _Fields(HTMLParser):
    """The fields a form posts, as a browser would send them unchanged: inputs (checked
    boxes only), the selected option of each select, textareas."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in {"submit", "button", "file"}:
            if a.get("type") not in {"checkbox", "radio"} or "checked" in a:
                self.data[name] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data


def test_a_seat_changed_in_the_admin_is_drawn_afresh(
        client_for: Any, bob: Any, campaign: Any, bobs_character: Character) -> None:
    url = _url(bobs_character, ACTIONS)
    owner = client_for(bob)
    assert MOVE not in owner.get(url).content.decode()
    # Bob is made a co-GM in the admin's members inline: the campaign's version does not
    # move for it, his seat does, and a co-GM sees what the GM sees.
    staff = client_for(get_user_model().objects.create_superuser("root", "r@example.com", "x"))
    change = reverse("admin:campaigns_campaign_change", args=[campaign.pk])
    fields = _Fields()
    fields.feed(staff.get(change).content.decode())
    row = next(k.removesuffix("-user") for k, v in fields.data.items()
               if k.startswith("memberships-") and k.endswith("-user") and v == str(bob.pk))
    saved = staff.post(change, {**fields.data, f"{row}-role": Membership.Role.CO_GM})
    assert saved.status_code == 302, saved.content.decode()[:2000]
    assert Membership.objects.get(campaign=campaign, user=bob).role == Membership.Role.CO_GM
    assert MOVE in owner.get(url).content.decode()


def test_each_browser_gets_its_own_csrf_token_in_a_kept_answer(
        bob: Any, bobs_character: Character) -> None:
    url = _url(bobs_character, "sheet-inventory")
    phone, laptop = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    for browser in (phone, laptop):
        browser.force_login(bob)
        browser.get(bobs_character.get_absolute_url())  # the page sets the CSRF cookie
    drawn = phone.get(url).content.decode()
    kept = laptop.get(url).content.decode()
    assert regions.TOKEN_MARK not in kept
    assert _token(kept) != _token(drawn)
    # The token the laptop found in the kept answer passes the laptop's CSRF check.
    answer = laptop.post(reverse("characters:character-edit", args=[bobs_character.pk]),
                         {"csrfmiddlewaretoken": _token(kept)})
    assert answer.status_code != 403
    refused = laptop.post(reverse("characters:character-edit", args=[bobs_character.pk]),
                          {"csrfmiddlewaretoken": regions.TOKEN_MARK})
    assert refused.status_code == 403
