"""An archived campaign is read-only, and its pages say so instead of offering what would be
refused: in every system, no page of it (the campaign's page with its party cards, the
sessions, a session, a sheet, an XP page) carries a form or an htmx attribute that writes,
but the GM's restore and deletion and everyone's logout. The pages are read as HTML, plain
and as htmx asks for them (the live refresh)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Session
from characters.models import Character
from rolls.models import RequestedRoll
from table.services import session_create
from tests.system_fixtures import demo_campaign, fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()
READ_ONLY = "Archived: read-only."


class WriteTargets(HTMLParser):
    """Where a page's controls would write: the action of each form that posts, each htmx
    write attribute's URL, and each button's own posting ``formaction``."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {name: value or "" for name, value in attrs}
        if tag == "form" and named.get("method", "get").lower() == "post":
            self.targets.append(f"form {named.get('action', '')}")
        for name in ("hx-post", "hx-put", "hx-patch", "hx-delete"):
            if name in named:
                self.targets.append(f"{name} {named[name]}")
        if named.get("formmethod", "").lower() == "post":
            self.targets.append(f"formaction {named.get('formaction', '')}")


def writes_on(client: Client, url: str, campaign: Campaign) -> list[str]:
    """The write targets of the page at ``url``, but the archive's own (restore, delete) and
    the logout."""
    response = client.get(url)
    assert response.status_code == 200, url
    parser = WriteTargets()
    parser.feed(response.content.decode())
    allowed = {reverse("campaigns:campaign-restore", args=[campaign.pk]),
               reverse("campaigns:campaign-delete", args=[campaign.pk]), reverse("logout")}
    return [t for t in parser.targets if t.split(" ", 1)[1] not in allowed]


def pages(campaign: Campaign, session: Session, characters: list[Character]) -> list[str]:
    """The campaign's page, its sessions, a session, and each character's sheet and XP
    page."""
    return [
        campaign.get_absolute_url(),
        reverse("table:session-list", args=[campaign.pk]),
        session.get_absolute_url(),
        *(c.get_absolute_url() for c in characters),
        *(reverse("characters:character-xp", args=[c.pk]) for c in characters),
    ]


@pytest.fixture
def table(alice: Any, bob: Any, client_for: Callable[..., Client], request: Any
          ) -> tuple[Campaign, Session, list[Character]]:
    """A demo campaign of the system, GMed by Alice with Bob at the table, a session open and
    a roll asked of Bob's character (so his sheet shows the answer form); not archived yet."""
    slug = request.param
    campaign = demo_campaign(slug, name=f"The {slug} table", gm=alice, players=[bob],
                             rng=random.Random(16))
    session = session_create(campaign=campaign, date=timezone.localdate(), title="Last one")
    bobs = campaign.characters.filter(owner=bob).first()
    assert bobs is not None
    asked = client_for(alice).post(reverse("rolls:requested-roll-create", args=[campaign.pk]),
                                   {"character": str(bobs.pk), **fixtures_for(slug).request})
    assert asked.status_code == 302
    assert RequestedRoll.objects.filter(character=bobs).exists()
    return campaign, session, list(campaign.characters.order_by("pk"))


def archive(campaign: Campaign) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_no_page_of_an_archived_campaign_offers_the_gm_a_write(
        table: tuple[Campaign, Session, list[Character]], alice: Any,
        client_for: Callable[..., Client], htmx: bool) -> None:
    campaign, session, characters = table
    client = client_for(alice, htmx=htmx)
    # The same pages offer writes while the campaign is played: the check below can fail.
    for url in pages(campaign, session, characters):
        assert writes_on(client, url, campaign), url
    archive(campaign)
    for url in pages(campaign, session, characters):
        assert writes_on(client, url, campaign) == [], url


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_no_page_of_an_archived_campaign_offers_a_player_a_write(
        table: tuple[Campaign, Session, list[Character]], bob: Any,
        client_for: Callable[..., Client], htmx: bool) -> None:
    campaign, session, characters = table
    client = client_for(bob, htmx=htmx)
    own = [c for c in characters if c.owner_id == bob.pk]
    # Bob's sheet shows the GM's request and its track controls while the campaign is played.
    assert writes_on(client, own[0].get_absolute_url(), campaign)
    archive(campaign)
    for url in pages(campaign, session, own):
        assert writes_on(client, url, campaign) == [], url


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
CONTROLS = {"button", "label", "legend", "option", "select", "summary", "textarea"}
"""Elements whose words name a control (its label, its options), not a value it shows."""


class Words(HTMLParser):
    """The words of the element with id ``root``, but those inside ``skipped`` elements."""

    def __init__(self, root: str, skipped: set[str]) -> None:
        super().__init__()
        self.root, self.skipped = root, skipped
        self.stack: list[str] = []  # open elements inside the root, the root first
        self.skipping = 0  # how many of them are skipped
        self.words: list[str] = []
        self.forms = 0  # the forms open around the parser's place
        self.in_form = False  # whether the root is inside a form

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in VOID:
            return
        self.forms += tag == "form"
        if not self.stack and dict(attrs).get("id") == self.root:
            self.in_form = self.forms > 0
        if self.stack or dict(attrs).get("id") == self.root:
            self.stack.append(tag)
            self.skipping += tag in self.skipped

    def handle_endtag(self, tag: str) -> None:
        self.forms -= tag == "form"
        if self.stack and self.stack[-1] == tag:
            self.skipping -= self.stack.pop() in self.skipped

    def handle_data(self, data: str) -> None:
        if self.stack and not self.skipping:
            self.words += data.split()


def words_of(html: str, root: str, skipped: set[str]) -> list[str]:
    parser = Words(root, skipped)
    parser.feed(html)
    return parser.words


def inside_a_form(html: str, root: str) -> bool:
    parser = Words(root, set())
    parser.feed(html)
    return parser.in_form


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
def test_the_archived_party_cards_keep_every_value_they_show(
        table: tuple[Campaign, Session, list[Character]], alice: Any,
        client_for: Callable[..., Client]) -> None:
    """The cards lose their controls, not what they show: every word of a card but its
    controls' own (a button's, a label's, an option's) is still there once archived."""
    campaign, _, _ = table
    client = client_for(alice)
    played = client.get(campaign.get_absolute_url())
    archive(campaign)
    archived = client.get(campaign.get_absolute_url())
    assert READ_ONLY in archived.content.decode()
    ids = [f"card-{card['character'].pk}" for card in played.context["party"]]
    assert ids == [f"card-{card['character'].pk}" for card in archived.context["party"]] != []
    for card in ids:
        shown = words_of(played.content.decode(), card, CONTROLS)
        assert shown and words_of(archived.content.decode(), card, set()) == shown, card


def live_regions(html: str) -> list[str]:
    """The ids of the sheet's regions a track change redraws (its ``live_tracks`` block, as
    the live refresh's ``hx-select-oob`` names them)."""
    found = re.search(r'hx-trigger="sse:trackChanged-[^"]*"\s+hx-select-oob="([^"]+)"', html)
    assert found is not None
    return [selector.strip().lstrip("#") for selector in found[1].split(",")]


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
def test_an_archived_sheet_loses_only_its_forms(
        table: tuple[Campaign, Session, list[Character]], alice: Any,
        client_for: Callable[..., Client]) -> None:
    """Every region of the sheet that shows the character's tracks, and the GM's requests,
    keeps its words once archived, but those of its forms (and of a disclosure that held only
    a form)."""
    campaign, _, characters = table
    client = client_for(alice)
    for character in characters:
        played = client.get(character.get_absolute_url()).content.decode()
        archive(campaign)
        archived = client.get(character.get_absolute_url()).content.decode()
        Campaign.objects.filter(pk=campaign.pk).update(archived_at=None)
        for region in [*live_regions(played), "roll-requests"]:
            if inside_a_form(played, region):  # a note of the roll dialog: gone with it
                assert f'id="{region}"' not in archived
                continue
            before = words_of(played, region, {"form", "summary"})
            assert words_of(archived, region, {"form", "summary"}) == before, region


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_the_gm_is_told_why_the_forms_are_gone(
        table: tuple[Campaign, Session, list[Character]], alice: Any,
        client_for: Callable[..., Client], htmx: bool) -> None:
    campaign, session, characters = table
    archive(campaign)
    client = client_for(alice, htmx=htmx)
    sessions = client.get(reverse("table:session-list", args=[campaign.pk])).content.decode()
    assert 'id="sessions-read-only"' in sessions and READ_ONLY in sessions
    detail = client.get(session.get_absolute_url()).content.decode()
    assert 'id="awards-read-only"' in detail and READ_ONLY in detail
    if not htmx:  # the htmx answer is the award fragment alone
        assert 'id="recap-read-only"' in detail
    xp = client.get(reverse("characters:character-xp", args=[characters[0].pk]))
    assert xp.context["archived"] and xp.context["undoable"] == set()
    assert 'id="spend-closed"' in xp.content.decode()
    assert 'id="award-closed"' in xp.content.decode()


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_a_player_is_not_told_of_forms_they_never_had(
        table: tuple[Campaign, Session, list[Character]], bob: Any,
        client_for: Callable[..., Client]) -> None:
    campaign, session, _ = table
    archive(campaign)
    client = client_for(bob)
    sessions = client.get(reverse("table:session-list", args=[campaign.pk])).content.decode()
    detail = client.get(session.get_absolute_url()).content.decode()
    assert READ_ONLY not in sessions and READ_ONLY not in detail


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_a_restored_campaign_offers_its_forms_again(
        table: tuple[Campaign, Session, list[Character]], alice: Any,
        client_for: Callable[..., Client]) -> None:
    campaign, session, characters = table
    archive(campaign)
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=None)
    client = client_for(alice)
    for url in pages(campaign, session, characters):
        assert writes_on(client, url, campaign), url
