"""An invite link opened while logged out survives the way through logging in or signing up.

The join page sends an anonymous visitor to the login page with ``next``; every "Sign up"
link there (the page's own and the header's) carries it, sign-up lands on the join page, and
the sign-up page's "Log in" links carry it back. An off-site ``next`` is carried nowhere and
followed by nobody.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership

pytestmark = pytest.mark.django_db

STRONG_PASSWORD = "lantern-quarry-mosaic-41"
OFF_SITE = "https://evil.example/phish"


class _Links(HTMLParser):
    """The href of every link, by its text."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href") or ""
            self._text = ""

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._text.strip(), self._href))
            self._href = None


def hrefs(content: bytes, text: str) -> list[str]:
    """The addresses of the links reading ``text`` on the page."""
    parser = _Links()
    parser.feed(content.decode())
    return [href for label, href in parser.links if label == text]


def join_url(campaign) -> str:  # type: ignore[no-untyped-def]
    return reverse("campaigns:campaign-join", args=[campaign.invite_token])


def test_every_sign_up_link_on_the_login_page_keeps_the_invite(campaign):
    client = Client()
    login_url = client.get(join_url(campaign)).url

    response = client.get(login_url)

    links = hrefs(response.content, "Sign up")
    assert len(links) == 2  # the header's and the page's own
    assert links == [f"{reverse('signup')}?next={join_url(campaign)}"] * 2


def test_every_log_in_link_on_the_sign_up_page_keeps_the_invite(campaign):
    response = Client().get(reverse("signup"), {"next": join_url(campaign)})

    links = hrefs(response.content, "Log in")
    assert len(links) == 2  # the header's and the page's own
    assert links == [f"{reverse('login')}?next={join_url(campaign)}"] * 2


def test_a_visitor_who_signs_up_from_the_login_page_lands_on_the_invite_and_can_join(campaign):
    client = Client()
    login_page = client.get(client.get(join_url(campaign)).url)
    signup_url = hrefs(login_page.content, "Sign up")[0]

    signup_page = client.get(signup_url)
    hidden = re.search(rb'name="next" value="([^"]*)"', signup_page.content)
    assert hidden is not None
    response = client.post(reverse("signup"), {
        "username": "dave", "email": "dave@example.org", "password1": STRONG_PASSWORD,
        "password2": STRONG_PASSWORD, "next": hidden.group(1).decode()})

    assert response.status_code == 302
    assert response.url == join_url(campaign)
    join_page = client.get(response.url)
    assert join_page.status_code == 200
    assert b"Join The Drift" in join_page.content
    client.post(join_url(campaign))
    assert Membership.objects.filter(campaign=campaign, user__username="dave").exists()


def test_signing_up_with_an_off_site_next_lands_on_the_campaign_list():
    response = Client().post(reverse("signup"), {
        "username": "dave", "email": "dave@example.org", "password1": STRONG_PASSWORD,
        "password2": STRONG_PASSWORD, "next": OFF_SITE})

    assert response.status_code == 302
    assert response.url == reverse("campaigns:campaign-list")
    assert get_user_model().objects.filter(username="dave").exists()


@pytest.mark.parametrize("page", ["login", "signup"])
def test_an_off_site_next_is_carried_by_no_link_or_form(page):
    response = Client().get(reverse(page), {"next": OFF_SITE})

    assert response.status_code == 200
    assert b"evil.example" not in response.content
    assert hrefs(response.content, "Sign up")[0] == reverse("signup")
    assert hrefs(response.content, "Log in")[0] == reverse("login")


def test_a_refused_sign_up_keeps_the_invite_for_the_next_try(campaign):
    response = Client().post(reverse("signup"), {
        "username": "dave", "email": "dave@example.org", "password1": STRONG_PASSWORD,
        "password2": "something-else-entirely", "next": join_url(campaign)})

    assert response.status_code == 200
    assert f'name="next" value="{join_url(campaign)}"'.encode() in response.content
    login_with_invite = f"{reverse('login')}?next={join_url(campaign)}"
    assert hrefs(response.content, "Log in") == [login_with_invite] * 2
