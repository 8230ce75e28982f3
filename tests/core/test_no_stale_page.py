"""No open page is left stale by any write path (issue 18).

For every system and every way the table changes (a track marked on the sheet or on the GM's
card, XP awarded, spent and undone, a roll, an NPC roll, a GM's roll request and its answer,
the campaign's system data, a character retired, restored, edited, moved, created, imported
and accepted, an encounter started and its first turn), the test opens every page the table
has open (the GM's dashboard, each player's campaign page, the GM's and the owner's view of
the sheet, the GM's settings page),
records each live region as its browser asks for it (``LivePage.url_for(region.ids)``, one
htmx request per region, each id taken from the answer), makes the change as the product's UI
does (the POST its page's form sends), collects what the services announce (through the
channel layer, once the transaction commits), then asks every region again.

A region whose content changed must have heard one of its events, or one of a region that
holds it (the GM's party holds its cards), on its viewer's stream (a GM-only event never
reaches a player's); a region that holds others is compared without them, as the browser
redraws each on its own events. A page its viewer may no longer see (the former owner's sheet
of a moved character) must at least have heard something. Each write path must change what
it is about (``WritePath.expect``), so the test can fail, and must bump the campaign's live
version (campaigns.versions: a region asked at an unchanged version answers 304). It
found, and the same change fixed: a rename that left the roll lists stale, Shahquest's
tension panel deaf to plot points, Shattered World's achievement list deaf to awards, the
campaign's system data (Genesys skills, 3d6 trait names) deaf everywhere but its panel, and
an import's rolls and acceptance announced to nobody.

Only the declared regions are compared: what a page shows outside every region is redrawn by
no event, and is not this test's to judge (docs/performance.md lists what is left there).
"""

from __future__ import annotations

import datetime
import difflib
import random
from collections.abc import Callable, Iterator, Mapping
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.html import Element, parse_html
from django.urls import reverse

import systems
from campaigns.models import Campaign
from characters import services as character_services
from characters.models import Character
from core import submissions
from core.live import group_name
from core.regions import LivePage
from encounters import services as encounter_services
from rulesets import registry
from table.services import session_create
from tests.core.test_live_regions import blank_tokens, find
from tests.system_fixtures import (
    demo_campaign,
    first_purchase,
    fixtures_for,
    form_data,
    selectable_systems,
)
from transfer import export as transfer_export
from transfer import imports as transfer_imports

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()
HTMX = {"HX-Request": "true"}


# --- the table ------------------------------------------------------------------------------


@dataclass
class World:
    """A demo campaign of one system: alice GMs it, bob and dave play in it.

    Attributes:
        campaign: the campaign.
        character: bob's character (the one the write paths change).
        users: ``{"gm": alice, "player": bob, "other": dave}``.
        clients: a logged-in client for each of ``users``.
    """

    campaign: Campaign
    character: Character
    users: dict[str, Any]
    clients: dict[str, Client]

    @property
    def system(self) -> systems.SheetSystem:
        return systems.for_campaign(self.campaign)

    def reread(self) -> None:
        """Read the campaign and bob's character again (after a change)."""
        self.campaign = Campaign.objects.get(pk=self.campaign.pk)
        self.character = Character.objects.get(pk=self.character.pk)


@dataclass(frozen=True)
class Page:
    """An open page: who looks at it, and where it is."""

    name: str
    viewer: str
    url: Callable[[World], str]


PAGES = (
    Page("the GM's dashboard", "gm", lambda w: w.campaign.get_absolute_url()),
    Page("bob's campaign page", "player", lambda w: w.campaign.get_absolute_url()),
    Page("dave's campaign page", "other", lambda w: w.campaign.get_absolute_url()),
    Page("the GM's view of bob's sheet", "gm", lambda w: w.character.get_absolute_url()),
    Page("bob's own sheet", "player", lambda w: w.character.get_absolute_url()),
    Page("the GM's settings page", "gm",
         lambda w: reverse("campaigns:campaign-settings", args=[w.campaign.pk])),
)


# --- what a page shows, region by region ------------------------------------------------------

ABSENT = "(not drawn)"
"""A declared region the page does not draw (a system without that part)."""
GONE = "(404: the viewer may no longer see it)"
"""A region its page no longer answers for (a card whose character left the party, or a
page the viewer may no longer see)."""


@dataclass
class Seen:
    """One open page as its browser holds it: its live declaration, each region's content
    (normalised HTML, as asked alone, the regions it holds left out: they are compared on
    their own), and for each region the regions that hold it."""

    page: Page
    live: LivePage
    content: dict[str, str]
    holders: dict[str, set[str]]


def _without(node: Element, ids: set[str]) -> Element:
    """A copy of ``node`` with every element whose id is in ``ids`` replaced by a marker:
    a region that holds others (the party holds its cards) is compared without them, since
    the browser redraws an inner region on its own events."""
    copy = deepcopy(node)

    def strip(parent: Element) -> None:
        for index, child in enumerate(parent.children):
            if isinstance(child, str):
                continue
            inner = dict(child.attributes).get("id")
            if inner in ids:
                parent.children[index] = f"[region #{inner}]"
            else:
                strip(child)

    strip(copy)
    return copy


def _regions(client: Client, live: LivePage) -> dict[str, str] | None:
    """Each region's content, as the page's browser holds it.

    One request asks for every region at once (as the page asks after a reconnection):
    core.regions draws each asked region alone, one after the other, from the same partials
    and context as a region asked by itself (tests/core/test_live_regions.py checks both
    against the whole page). A region drawn twice in the answer (a party card, alone and
    inside the party) must be drawn the same both times. When that request is refused
    (404), each region is asked alone, as the page asks when one of its events arrives: a
    region its viewer may no longer see answers 404 alone. None when every region does
    and the page itself is gone for the viewer."""
    content: dict[str, str] = {}
    declared = set(live.ids)
    answer = client.get(live.url_for(live.ids), headers=HTMX)
    if answer.status_code == 200:
        answers = [(live.ids, answer)]
    else:
        assert answer.status_code == 404, (live.url_for(live.ids), answer.status_code)
        if client.get(live.url).status_code == 404:
            return None
        answers = [(region.ids, client.get(live.url_for(region.ids), headers=HTMX))
                   for region in live.regions]
    for ids, answer in answers:
        if answer.status_code == 404:
            content.update(dict.fromkeys(ids, GONE))
            continue
        assert answer.status_code == 200, (ids, answer.status_code)
        tree = parse_html(answer.content.decode())  # once: parsing is most of the test's time
        for i in ids:
            found = find(tree, i)
            if not found:
                content[i] = ABSENT
                continue
            # Blank the tokens that are new at every rendering (csrf, submission).
            drawn = set()
            for node in found:
                blank_tokens(node)
                drawn.add(str(_without(node, declared - {i})))
            assert len(drawn) == 1, f"#{i} is drawn {len(drawn)} ways in one answer"
            content[i] = drawn.pop()
    return content


def _holders(html: str, ids: tuple[str, ...]) -> dict[str, set[str]]:
    """For each region id, the other region ids whose element holds it in the page."""
    tree = parse_html(html)
    inside: dict[str, set[str]] = {i: set() for i in ids}
    for outer in ids:
        for found in find(tree, outer):
            for inner in ids:
                if inner != outer and any(find(child, inner) for child in found.children):
                    inside[inner].add(outer)
    return inside


def look(world: World, page: Page) -> Seen:
    """``page`` opened by its viewer, and each of its regions asked alone."""
    client = world.clients[page.viewer]
    whole = client.get(page.url(world))
    assert whole.status_code == 200, (page.name, whole.status_code)
    live: LivePage = whole.context["live"]
    assert live.regions, f"{page.name} declares no live region"
    content = _regions(client, live)
    assert content is not None, page.name
    return Seen(page, live, content, _holders(whole.content.decode(), live.ids))


def look_again(world: World, seen: Seen) -> dict[str, str] | None:
    """The regions the page had, asked again (the page is not reloaded: its browser still
    has the regions it was drawn with); None when its viewer may no longer see the page."""
    return _regions(world.clients[seen.page.viewer], seen.live)


# --- what is announced ------------------------------------------------------------------------


class RecordingLayer:
    """A channel layer that keeps what is sent to groups: ``(group, message)``."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.sent.append((group, message))


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> RecordingLayer:
    """What ``core.live`` sends once a transaction commits, recorded instead of sent."""
    recording = RecordingLayer()
    monkeypatch.setattr("core.live.get_channel_layer", lambda: recording)
    return recording


def heard(layer: RecordingLayer, campaign_id: int, *, is_gm: bool) -> set[str]:
    """The event names a viewer's stream carried: the campaign's group, and for the GM the
    GM's group too (campaigns/live.py)."""
    groups = {group_name(campaign_id)}
    if is_gm:
        groups.add(group_name(campaign_id, gm_only=True))
    return {name for group, message in layer.sent
            if group in groups and message.get("type") == "campaign.event"
            for name in message["names"]}


# --- forms as the browser sends them ------------------------------------------------------------


def _walk(node: Element | str) -> Iterator[Element]:
    if isinstance(node, str):
        return
    yield node
    for child in node.children:
        yield from _walk(child)


def _text(node: Element) -> str:
    return "".join(c if isinstance(c, str) else _text(c) for c in node.children)


def submit(form: Element, button: Element | None = None) -> tuple[str, dict[str, list[str]]]:
    """What the browser sends when ``button`` (by default the form's first enabled submit
    button) of ``form`` is pressed: the URL (the button's ``hx-post``/``formaction``, else
    the form's) and the form's data, each control as drawn."""
    buttons = [b for b in _walk(form) if b.name == "button"
               and dict(b.attributes).get("type", "submit") == "submit"
               and "disabled" not in dict(b.attributes)]
    if button is None and buttons:
        button = buttons[0]
    data: dict[str, list[str]] = {}

    def add(name: str | None, value: str | None) -> None:
        if name:
            data.setdefault(name, []).append(value or "")

    for control in _walk(form):
        attrs = dict(control.attributes)
        if "disabled" in attrs:
            continue
        if control.name == "input":
            kind = attrs.get("type") or "text"
            if kind in {"submit", "button", "image", "reset", "file"}:
                continue
            if kind in {"checkbox", "radio"} and "checked" not in attrs:
                continue
            add(attrs.get("name"), attrs.get("value", "on" if kind == "checkbox" else ""))
        elif control.name == "select":
            options = [o for o in _walk(control) if o.name == "option"]
            chosen = [o for o in options if "selected" in dict(o.attributes)]
            if not chosen and options and "multiple" not in attrs:
                chosen = options[:1]
            for option in chosen:
                add(attrs.get("name"), dict(option.attributes).get("value", _text(option)))
        elif control.name == "textarea":
            add(attrs.get("name"), _text(control))
    url = dict(form.attributes).get("hx-post") or dict(form.attributes).get("action") or ""
    if button is not None:
        pressed = dict(button.attributes)
        add(pressed.get("name"), pressed.get("value"))
        url = pressed.get("hx-post") or pressed.get("formaction") or url
    return url, data


def forms_in(html: str, element_id: str) -> list[Element]:
    """The forms inside the element ``element_id`` of ``html``."""
    [found] = find(parse_html(html), element_id)
    return [node for node in _walk(found) if node.name == "form"]


def token() -> str:
    """A fresh submission token, as a form draws one (core/submissions.py)."""
    return submissions.new_token()


def posted(response: Any, *allowed: int) -> None:
    """The write was taken: one of ``allowed`` (200 for htmx, 302 for a plain form)."""
    assert response.status_code in allowed, (response.status_code,
                                             response.content.decode()[:2000])


# --- the write paths ------------------------------------------------------------------------------

Act = Callable[[World], None]


@dataclass(frozen=True)
class WritePath:
    """One way the table changes.

    Attributes:
        act: makes the change, as the UI does.
        before: what is made first, unrecorded (a spend to undo, a request to answer).
        expect: ``(page name, region id)`` pairs that must change (``{pk}`` is bob's
            character), so the path is known to have done what it is about.
        lacks: why the system has no such path (the test is skipped), or ``""``.
    """

    act: Act
    before: Act | None = None
    expect: tuple[tuple[str, str], ...] = ()
    lacks: Callable[[World], str] = field(default=lambda world: "")


def _sheet_action(world: World) -> tuple[str, dict[str, Any]]:
    """The first of the fixtures' sheet actions the owner changes on the sheet itself (not
    the XP page's, not the GM's, none that needs another change first)."""
    fixtures = fixtures_for(world.campaign.ruleset)
    actions = world.system.actions
    for name, data in fixtures.sheet_actions.items():
        action = actions[name]
        if action.on_xp_page or action.gm_only or name in fixtures.matrix_before:
            continue
        return name, form_data(data, world.character)
    raise AssertionError(f"{world.campaign.ruleset} has no sheet action for its owner")


def track_from_sheet(world: World) -> None:
    name, data = _sheet_action(world)
    url = reverse("characters:character-action", args=[world.character.pk, name])
    posted(world.clients["player"].post(url, data, headers=HTMX), 200)


def track_from_card(world: World) -> None:
    """The first button of the GM's party card, pressed (``from=dashboard``)."""
    card = f"card-{world.character.pk}"
    page = world.clients["gm"].get(world.campaign.get_absolute_url())
    form = next(f for f in forms_in(page.content.decode(), card)
                if any(b.name == "button" and "disabled" not in dict(b.attributes)
                       for b in _walk(f)))
    url, data = submit(form)
    assert data.get("from") == ["dashboard"], data
    posted(world.clients["gm"].post(url, data, headers={**HTMX, "HX-Target": card}), 200)


def xp_award(world: World) -> None:
    url = reverse("characters:character-xp-award", args=[world.character.pk])
    posted(world.clients["gm"].post(url, {"amount": "2", "reason": "Kept the peace",
                                          submissions.FIELD: token()}, headers=HTMX), 200)


def _session(world: World) -> None:
    session_create(campaign=world.campaign, date=datetime.date(2026, 3, 1), title="Stale")


def session_award(world: World) -> None:
    session = world.campaign.sessions.get(title="Stale")
    url = reverse("table:session-detail", args=[world.campaign.pk, session.pk])
    posted(world.clients["gm"].post(url, {"amount_all": "2", "reason_all": "Attendance",
                                          submissions.FIELD: token()}, headers=HTMX), 200)


def xp_spend(world: World) -> None:
    # What the XP page offers and the rules allow now, found in a rolled-back savepoint: its
    # announcements are dropped with it, as a rolled-back change's are in production.
    key, cost, _ = first_purchase(world.character, by=world.users["player"], keep=False)
    url = reverse("characters:character-xp-spend", args=[world.character.pk])
    posted(world.clients["player"].post(url, {"key": key, "expected_cost": str(cost)},
                                        headers=HTMX), 200)


def _spent(world: World) -> None:
    first_purchase(world.character, by=world.users["player"])


def xp_undo(world: World) -> None:
    entry = world.character.xp_entries.filter(kind="spend").latest("created_at", "id")
    url = reverse("characters:character-xp-undo", args=[world.character.pk, entry.pk])
    posted(world.clients["player"].post(url, {}, headers=HTMX), 200)


def roll(world: World) -> None:
    url = reverse("rolls:roll-create", args=[world.character.pk])
    data = {**fixtures_for(world.campaign.ruleset).roll_pool, submissions.FIELD: token()}
    posted(world.clients["player"].post(url, data, headers=HTMX), 200)


def _quick_roll(gm_only: bool) -> Act:
    def npc_roll(world: World) -> None:
        module = registry.get(world.campaign.ruleset).module
        assert module is not None
        data = {"text": module.QUICK_ROLL_EXAMPLES[0], submissions.FIELD: token(),
                **({"gm_only": "on"} if gm_only else {})}
        url = reverse("rolls:npc-roll-create", args=[world.campaign.pk])
        posted(world.clients["gm"].post(url, data, headers=HTMX), 200)
    return npc_roll


def _no_requests(world: World) -> str:
    if world.system.request_form(world.campaign) is None:
        return f"{world.campaign.ruleset_name} has no roll requests"
    return ""


def roll_request(world: World) -> None:
    url = reverse("rolls:requested-roll-create", args=[world.campaign.pk])
    data = {"character": str(world.character.pk), "note": "Climb",
            **fixtures_for(world.campaign.ruleset).request}
    posted(world.clients["gm"].post(url, data, headers=HTMX), 200)


def roll_answer(world: World) -> None:
    """Bob presses "Roll it" on the request his sheet shows."""
    sheet = world.clients["player"].get(world.character.get_absolute_url())
    [form] = forms_in(sheet.content.decode(), "roll-requests")
    url, data = submit(form)
    posted(world.clients["player"].post(url, data, headers=HTMX), 200)


def _no_campaign_actions(world: World) -> str:
    if not fixtures_for(world.campaign.ruleset).campaign_actions:
        return f"{world.campaign.ruleset_name} has no campaign actions"
    return ""


def system_change(world: World) -> None:
    name, data = next(iter(fixtures_for(world.campaign.ruleset).campaign_actions.items()))
    url = reverse("table:campaign-system-action", args=[world.campaign.pk, name])
    posted(world.clients["gm"].post(url, form_data(data, world.character), headers=HTMX), 200)


def retire(world: World) -> None:
    url = reverse("characters:character-retire", args=[world.character.pk])
    posted(world.clients["player"].post(url, {"status": "retired"}), 302)


def _retired(world: World) -> None:
    character_services.character_retire(character=world.character, status="retired",
                                        by=world.users["player"])


def restore(world: World) -> None:
    url = reverse("characters:character-restore", args=[world.character.pk])
    posted(world.clients["gm"].post(url), 302)


def edit(world: World) -> None:
    url = reverse("characters:character-edit", args=[world.character.pk])
    posted(world.clients["player"].post(url, {
        "name": "Renamed Rook", "concept": "A new concept",
        "backstory": world.character.backstory, "notes": world.character.notes}), 302)


def move(world: World) -> None:
    url = reverse("characters:character-move", args=[world.character.pk])
    posted(world.clients["gm"].post(url, {"to_user": str(world.users["other"].pk)}), 302)


def create(world: World) -> None:
    """Bob makes a second character: the one-form page, or the system's own pages (each
    step's form sent as drawn, the fixtures' steps first) until one is made."""
    client = world.clients["player"]
    fixtures = fixtures_for(world.campaign.ruleset)
    own = world.system.creation_url(world.campaign)
    if own is None:
        url = reverse("characters:character-create", args=[world.campaign.pk])
        posted(client.post(url, dict(fixtures.new_character)), 302)
        return
    for step in fixtures.creation_steps:
        posted(client.post(own, step), 302)
    made = world.campaign.characters.count()
    for _ in range(10):
        page = client.get(own, follow=True)
        [form] = [f for f in _walk(parse_html(page.content.decode()))
                  if f.name == "form" and dict(f.attributes).get("method") == "post"
                  and any(i.name == "input" and dict(i.attributes).get("name") == "step"
                          for i in _walk(f))]
        buttons = [b for b in _walk(form) if b.name == "button"]
        onward = next((b for b in buttons if dict(b.attributes).get("value") == "next"), None)
        url, data = submit(form, onward)
        posted(client.post(url or own, data), 302)
        if world.campaign.characters.count() > made:
            return
    raise AssertionError("the creation pages never made the character")


def _export(world: World) -> SimpleUploadedFile:
    document = transfer_export.export_character(world.character)
    return SimpleUploadedFile(transfer_export.document_filename(document),
                              transfer_export.document_json(document).encode(),
                              content_type="application/json")


def import_character(world: World) -> None:
    url = reverse("transfer:character-import", args=[world.campaign.pk])
    posted(world.clients["player"].post(url, {"file": _export(world)}), 302)


def _imported(world: World) -> None:
    document = transfer_export.export_character(world.character)
    transfer_imports.import_character(document, world.campaign, world.users["player"])


def encounter_start(world: World) -> None:
    """The GM starts an encounter from the dashboard's card (the party in it)."""
    url = reverse("encounters:encounter-list", args=[world.campaign.pk])
    posted(world.clients["gm"].post(url, {"name": "Stale fight"}, headers=HTMX), 200)


def _encounter(world: World) -> None:
    encounter_services.encounter_start(campaign=world.campaign, by=world.users["gm"])


def encounter_next(world: World) -> None:
    """The GM presses "Begin round 1" on the dashboard's card."""
    page = world.clients["gm"].get(world.campaign.get_absolute_url())
    form = next(f for f in forms_in(page.content.decode(), "turn-order")
                if "/next/" in dict(f.attributes).get("action", ""))
    url, data = submit(form)
    posted(world.clients["gm"].post(url, data, headers=HTMX), 200)


def import_accept(world: World) -> None:
    imported = world.campaign.characters.exclude(pk=world.character.pk).get(
        owner=world.users["player"], review=Character.Review.PENDING)
    url = reverse("transfer:import-review", args=[imported.pk])
    posted(world.clients["gm"].post(url, {"decision": "accept", "confirm": "on"},
                                    headers=HTMX), 200)


DASHBOARD, PLAYER_BOARD, OTHER_BOARD, GM_SHEET, OWN_SHEET, SETTINGS = (p.name for p in PAGES)

PATHS: dict[str, WritePath] = {
    "track-from-sheet": WritePath(track_from_sheet, expect=((DASHBOARD, "card-{pk}"),)),
    "track-from-card": WritePath(track_from_card, expect=((DASHBOARD, "card-{pk}"),)),
    "xp-award": WritePath(xp_award, expect=((OWN_SHEET, "sheet-xp"), (GM_SHEET, "sheet-xp"))),
    "session-award": WritePath(session_award, before=_session,
                          expect=((OWN_SHEET, "sheet-xp"), (GM_SHEET, "sheet-xp"))),
    "xp-spend": WritePath(xp_spend, expect=((OWN_SHEET, "sheet-xp"),)),
    "xp-undo": WritePath(xp_undo, before=_spent, expect=((OWN_SHEET, "sheet-xp"),)),
    "roll": WritePath(roll, expect=((OWN_SHEET, "recent-rolls"), (OTHER_BOARD, "campaign-rolls"))),
    "npc-roll": WritePath(_quick_roll(gm_only=False), expect=((PLAYER_BOARD, "campaign-rolls"),)),
    "npc-roll-gm-only": WritePath(_quick_roll(gm_only=True),
                             expect=((DASHBOARD, "campaign-rolls"),)),
    "roll-request": WritePath(roll_request, lacks=_no_requests,
                         expect=((OWN_SHEET, "roll-requests"),)),
    "roll-request-answered": WritePath(roll_answer, before=roll_request, lacks=_no_requests,
                                  expect=((OWN_SHEET, "roll-requests"),
                                          (PLAYER_BOARD, "campaign-rolls"))),
    "system-change": WritePath(system_change, lacks=_no_campaign_actions,
                          expect=((SETTINGS, "system-panel"),)),
    "retire": WritePath(retire, expect=((OWN_SHEET, "character-status"), (DASHBOARD, "party"))),
    "restore": WritePath(restore, before=_retired,
                    expect=((GM_SHEET, "character-status"), (DASHBOARD, "party"))),
    "edit": WritePath(edit, expect=((DASHBOARD, "card-{pk}"),)),
    # Bob may no longer see the character's sheet: his open one is lost (404).
    "move": WritePath(move, expect=((OTHER_BOARD, "campaign-characters"),
                                    (OWN_SHEET, "character-status"))),
    "create": WritePath(create, expect=((PLAYER_BOARD, "campaign-characters"),
                                   (DASHBOARD, "party"))),
    "import": WritePath(import_character, expect=((PLAYER_BOARD, "campaign-characters"),)),
    "import-accepted": WritePath(import_accept, before=_imported,
                            expect=((DASHBOARD, "ask-for-roll"),)),
    "encounter-start": WritePath(encounter_start, expect=((PLAYER_BOARD, "turn-order"),
                                                          (OWN_SHEET, "turn-order"))),
    "encounter-next": WritePath(encounter_next, before=_encounter,
                                expect=((OTHER_BOARD, "turn-order"), (OWN_SHEET, "turn-order"))),
}


# --- the test ------------------------------------------------------------------------------------


@pytest.fixture
def world(request: pytest.FixtureRequest, alice: Any, bob: Any) -> World:
    """A demo campaign of the system ``request.param``, with a second player (dave): the
    one a character can be moved to."""
    dave = get_user_model().objects.create_user(username="dave")
    campaign = demo_campaign(request.param, name="Stale", gm=alice, players=[bob, dave],
                             rng=random.Random(18))
    users = {"gm": alice, "player": bob, "other": dave}
    clients = {}
    for role, user in users.items():
        clients[role] = Client()
        clients[role].force_login(user)
    return World(campaign, campaign.characters.get(owner=bob), users, clients)


@dataclass
class Verdict:
    """What a write path did to the open pages.

    Attributes:
        changed: every changed ``(page name, region id)``.
        stale: each changed region no event it listens for reached: ``(page name, region
            id)`` -> what it hears and what its viewer heard.
        lost: pages their viewer may no longer see (404), each with whether any of its
            regions heard an event (so the page at least asked; it cannot redraw).
    """

    changed: list[tuple[str, str]] = field(default_factory=list)
    stale: dict[tuple[str, str], str] = field(default_factory=dict)
    lost: dict[str, bool] = field(default_factory=dict)


def judge(world: World, seen: list[Seen], after: Mapping[str, dict[str, str] | None],
          layer: RecordingLayer) -> Verdict:
    """Compare each open page's regions before and after, against what its viewer heard."""
    verdict = Verdict()
    for page in seen:
        names = heard(layer, world.campaign.pk, is_gm=page.page.viewer == "gm")
        now = after[page.page.name]
        if now is None:
            verdict.lost[page.page.name] = any(set(region.events) & names
                                               for region in page.live.regions)
            verdict.changed += [(page.page.name, i) for i in page.content]
            continue
        for region_id, before in page.content.items():
            if now[region_id] == before:
                continue
            verdict.changed.append((page.page.name, region_id))
            listening = {region_id, *page.holders[region_id]}
            events = {event for region in page.live.regions if listening & set(region.ids)
                      for event in region.events}
            if not events & names:
                verdict.stale[(page.page.name, region_id)] = (
                    f"hears {sorted(events)}, its viewer heard {sorted(names)}; "
                    f"{_difference(before, now[region_id])}")
    return verdict


def _difference(before: str, after: str, lines: int = 4) -> str:
    """The first lines that differ between two renderings (one tag a line), for the
    failure's message."""
    def split(html: str) -> list[str]:
        return html.replace(">", ">\n").splitlines()

    changed = [line for line in difflib.unified_diff(split(before), split(after), n=0,
                                                     lineterm="")
               if line[:1] in "+-" and line[:3] not in {"+++", "---"}]
    return "changed lines: " + " | ".join(changed[:lines])


def _cases() -> Iterator[Any]:
    for system in SYSTEMS:
        for name in PATHS:
            yield pytest.param(system, name, id=f"{system}-{name}")


@pytest.mark.parametrize(("world", "path_name"), list(_cases()), indirect=["world"])
def test_no_open_page_is_left_stale(world: World, path_name: str, layer: RecordingLayer,
                                    seeded_rng: random.Random,
                                    django_capture_on_commit_callbacks: Any) -> None:
    path = PATHS[path_name]
    lacking = path.lacks(world)
    if lacking:
        pytest.skip(f"{lacking}: no {path_name} to make")
    if path.before is not None:
        path.before(world)
        world.reread()
    seen = [look(world, page) for page in PAGES]
    before = Campaign.objects.get(pk=world.campaign.pk)
    layer.sent.clear()
    # The test's transaction never commits: the change's on-commit callbacks (the
    # announcements) run here, those of a rolled-back savepoint not at all, as in production.
    with django_capture_on_commit_callbacks(execute=True):
        path.act(world)
    world.reread()
    after = {page.page.name: look_again(world, page) for page in seen}

    verdict = judge(world, seen, after, layer)
    assert verdict.changed, f"{path_name} changed no region of any open page"
    # Every write path bumps the live version of each viewer whose page it changed
    # (campaigns.versions), or a page that asks at the version it holds would be told
    # nothing changed; one hidden from players bumps the GM's alone (docs/security.md).
    now = Campaign.objects.get(pk=world.campaign.pk)
    changed_pages = {name for name, _ in verdict.changed}
    for viewer in {page.page.viewer for page in seen if page.page.name in changed_pages}:
        is_gm = viewer == "gm"
        assert now.page_version(is_gm=is_gm) > before.page_version(is_gm=is_gm), (
            path_name, viewer)
    wanted = [(page, region.format(pk=world.character.pk)) for page, region in path.expect]
    missing = [want for want in wanted if want not in verdict.changed]
    assert not missing, f"{path_name} left {missing} as they were; changed: {verdict.changed}"
    deaf = [page for page, asked in verdict.lost.items() if not asked]
    assert not deaf, f"{deaf}: no longer visible to their viewer, and told nothing"
    stale = "\n".join(f"{page}: #{region} changed, but it {why}"
                      for (page, region), why in verdict.stale.items())
    assert not verdict.stale, stale
