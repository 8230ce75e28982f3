"""The system's options on the campaign's settings page, without JavaScript: each of the
panel's forms names the settings page as its ``next``, and a plain POST comes back there
(a page of this site only); without one, or on the dashboard, it goes to the dashboard.
With htmx the panel is answered in place, whatever ``next`` says."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create
from tests.helpers import settings_url
from tests.system_fixtures import fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db

NAMES = dict(fixtures_for("three_d6").campaign_actions["names"])  # type: ignore[arg-type]
"""A valid change of a 3d6 campaign's trait and subtrait names (t0..t5, s0..s11)."""


class PanelForms(HTMLParser):
    """Each form posting to the system's campaign actions: its action and its hidden
    ``next`` (None without one)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[list[Any]] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "form":
            self.inside = "/system/" in (named.get("action") or "")
            if self.inside:
                self.forms.append([named["action"], None])
        elif tag == "input" and self.inside and named.get("name") == "next":
            self.forms[-1][1] = named.get("value")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def panel_forms(client: Client, url: str) -> list[list[Any]]:
    parser = PanelForms()
    parser.feed(client.get(url).content.decode())
    return parser.forms


def names_url(campaign: Campaign) -> str:
    return reverse("table:campaign-system-action", args=[campaign.pk, "names"])


@pytest.fixture
def table(alice: Any) -> Campaign:
    """A 3d6 campaign Alice GMs: its panel renames traits and subtraits."""
    return campaign_create(name="Dice", ruleset="three_d6", starting_xp=0, gm=alice)


@pytest.mark.parametrize("slug", selectable_systems())
def test_every_form_of_the_settings_panel_names_the_settings_page_as_next(
        slug: str, alice: Any, client_for: Callable[..., Client]) -> None:
    campaign = campaign_create(name=slug, ruleset=slug, starting_xp=0, gm=alice)
    forms = panel_forms(client_for(alice), settings_url(campaign))
    assert bool(forms) == bool(fixtures_for(slug).campaign_actions), forms
    assert all(next_url == settings_url(campaign) for _, next_url in forms), forms


def test_the_dashboards_panel_names_no_next(alice: Any,
                                            client_for: Callable[..., Client]) -> None:
    """The panel a system plays with (SheetSystem.panel_in_play: Shahquest's tension pool)
    is on the dashboard too, whose plain POSTs come back to the dashboard."""
    campaign = campaign_create(name="Road", ruleset="shahquest", starting_xp=0, gm=alice)
    forms = panel_forms(client_for(alice), campaign.get_absolute_url())
    assert forms and all(next_url is None for _, next_url in forms)


@pytest.mark.parametrize("slug", selectable_systems())
def test_a_configuration_panel_is_on_the_settings_page_only(
        slug: str, alice: Any, client_for: Callable[..., Client]) -> None:
    """The dashboard's first screen is play (issue 17): a system's configuration (Genesys's
    skill list, 3d6's names, Shattered World's catalogue) is on the settings page."""
    campaign = campaign_create(name=slug, ruleset=slug, starting_xp=0, gm=alice)
    dashboard = client_for(alice).get(campaign.get_absolute_url()).content.decode()
    in_play = systems.for_ruleset(slug).panel_in_play
    assert ('id="system-panel"' in dashboard) == (in_play and bool(
        fixtures_for(slug).campaign_actions)), slug


def test_a_plain_post_from_the_settings_page_comes_back_to_it(
        table: Campaign, alice: Any, client_for: Callable[..., Client]) -> None:
    client = client_for(alice)
    response = client.post(names_url(table), {**NAMES, "next": settings_url(table)})
    assert response.status_code == 302 and response["Location"] == settings_url(table)
    table.refresh_from_db()
    assert "Renamed0" in str(table.system_data)
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["success"]


def test_a_refused_plain_post_comes_back_to_the_settings_page_with_the_reason(
        table: Campaign, alice: Any, client_for: Callable[..., Client]) -> None:
    response = client_for(alice).post(names_url(table),
                                      {**NAMES, "t0": "", "next": settings_url(table)})
    assert response.status_code == 302 and response["Location"] == settings_url(table)
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["error"]
    table.refresh_from_db()
    assert "Renamed" not in str(table.system_data)


@pytest.mark.parametrize("elsewhere", [
    "https://evil.example/", "//evil.example/settings/", "http://evil.example/x",
    "javascript:alert(1)", "https://testserver.evil.example/",
    # Not a path: a bare word is not read as a page, nor as a view's name ("logout").
    "logout", "²", "settings/",
])
def test_a_next_off_this_site_is_not_followed(
        table: Campaign, alice: Any, client_for: Callable[..., Client], elsewhere: str) -> None:
    response = client_for(alice).post(names_url(table), {**NAMES, "next": elsewhere})
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()


def test_without_next_a_plain_post_goes_to_the_dashboard(
        table: Campaign, alice: Any, client_for: Callable[..., Client]) -> None:
    response = client_for(alice).post(names_url(table), NAMES)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()


def test_an_htmx_post_gets_the_panel_in_place_whatever_next_says(
        table: Campaign, alice: Any, client_for: Callable[..., Client]) -> None:
    response = client_for(alice, htmx=True).post(names_url(table),
                                                 {**NAMES, "next": settings_url(table)})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="system-panel"' in html and "<html" not in html
    assert "Renamed0" in html


def test_a_player_posting_a_next_still_gets_404(
        table: Campaign, alice: Any, bob: Any, client_for: Callable[..., Client]) -> None:
    Membership.objects.create(campaign=table, user=bob)
    response = client_for(bob).post(names_url(table), {**NAMES, "next": settings_url(table)})
    assert response.status_code == 404
