"""A change's own answer redraws regions of its page and says so (issue 18,
core.regions.drawn): the page that made the change then asks for nothing its answer brought
when the change's event arrives on its stream (static/js/live.js holds the event's request
back until the answer is in, then asks only for what it still lacks).

What the answers bring must be exactly what the page would have asked for: the roll's answer
holds the dialog's odds as the odds request draws them for the same choices; the GM's mark on
a party card answers with the card the dashboard's region would draw, labelled with the
version the change brought, never a later one. A roll's lines come with its event instead
(core.live.drawing), to the roller's page as to every other: the latest rolls' line
(table.live) and the sheet's recent rolls' line (characters.live), each exactly the item
its region would draw.

Transactional tests: the version is bumped when the change's transaction really commits,
inside the request, as in production (a test wrapped in a transaction would run no
on-commit work until the test ends)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.test.html import Element, parse_html
from django.urls import reverse

import systems
from campaigns.models import Campaign
from characters.live import recent_roll_line
from characters.models import Character
from characters.recent import RECENT_ROLLS as SHEET_ROLLS
from core import submissions
from core.regions import DRAWN_HEADER
from rolls.models import Roll
from table.live import roll_line
from table.views import RECENT_ROLLS
from tests.campaigns.test_live import heard
from tests.core.test_live_regions import element, find
from tests.core.test_no_stale_page import _walk as walk
from tests.core.test_no_stale_page import forms_in, submit
from tests.system_fixtures import demo_campaign, fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db(transaction=True)

SYSTEMS = selectable_systems()


@pytest.fixture(params=SYSTEMS)
def table(request: pytest.FixtureRequest, alice: Any, bob: Any) -> tuple[Campaign, Character]:
    campaign = demo_campaign(request.param, name="Drawn", gm=alice, players=[bob],
                             rng=random.Random(18))
    return campaign, campaign.characters.get(owner=bob)


def version(campaign: Campaign) -> int:
    return Campaign.objects.get(pk=campaign.pk).live_version


def roll_data(character: Character) -> dict[str, Any]:
    return {**fixtures_for(character.campaign.ruleset).roll_pool,
            submissions.FIELD: submissions.new_token()}


def roll_from(client: Client, character: Character, page: str,
              data: dict[str, Any], trigger: str = "roll-form") -> Any:
    """The roll dialog's POST as htmx sends it from ``page`` (its ``HX-Current-URL``);
    ``trigger``: the form's id (``HX-Trigger``), "" for a form without one."""
    answer = client.post(reverse("rolls:roll-create", args=[character.pk]), data,
                         headers={"HX-Request": "true", "HX-Target": "roll-result",
                                  "HX-Trigger": trigger,
                                  "HX-Current-URL": f"http://testserver{page}"})
    assert answer.status_code == 200, answer.content.decode()[:2000]
    return answer


def out_of_band(html: str, element_id: str) -> Element:
    """The element ``element_id`` of an answer, drawn out of band."""
    [found] = find(parse_html(html), element_id)
    assert dict(found.attributes).get("hx-swap-oob") == "true", found
    return found


def without(node: Element, *names: str) -> Element:
    """``node`` without the attributes ``names`` (what htmx takes off before it swaps)."""
    node.attributes = [(k, v) for k, v in node.attributes if k not in names]
    return node


def test_a_roll_from_the_sheet_brings_the_dialogs_odds_and_labels_no_region(
        table: tuple[Campaign, Character], bob: Any,
        client_for: Callable[..., Client]) -> None:
    campaign, character = table
    player = client_for(bob)
    sheet = character.get_absolute_url()
    before = version(campaign)
    data = roll_data(character)
    answer = roll_from(player, character, sheet, data)
    assert version(campaign) > before
    # The recent rolls come with the roll's event (below), not in its answer: no region of
    # the page is drawn at the new version, so none is labelled.
    assert DRAWN_HEADER not in answer
    html = answer.content.decode()
    assert not find(parse_html(html), "recent-rolls")

    # The odds are the dialog's for the same choices, as the odds request draws them, with
    # their headline for the phone's roll bar.
    odds = out_of_band(html, "roll-odds")
    headline = dict(odds.attributes)["data-headline"]
    choices = {k: v for k, v in data.items()
               if k not in (submissions.FIELD, "csrfmiddlewaretoken")}
    asked_odds = player.get(reverse("rolls:roll-odds", args=[character.pk]), choices,
                            headers={"HX-Request": "true"}).content.decode()
    [expected] = find(parse_html(asked_odds), "roll-odds")
    assert without(odds, "hx-swap-oob", "data-headline") == expected
    bar = re.search(r'<span id="roll-bar-odds">(.*?)</span>', asked_odds)
    assert bar is not None and headline == bar[1]


def listed(client: Client, page: str, region_id: str, limit: int) -> list[Element]:
    """The items of the list of ``page``'s region ``region_id`` as the region draws them;
    the list takes lines (``data-live-list``) and keeps ``limit`` of them."""
    answer = client.get(f"{page}?live={region_id}", headers={"HX-Request": "true"})
    [region] = find(parse_html(answer.content.decode()), region_id)
    [listing] = [child for child in region.children
                 if isinstance(child, Element) and child.name == "ul"]
    attributes = dict(listing.attributes)
    assert "data-live-list" in attributes and attributes["data-live-limit"] == str(limit)
    return [child for child in listing.children if isinstance(child, Element)]


def recent(client: Client, character: Character) -> list[Element]:
    """The items of the sheet's recent rolls (``recent-rolls``) as its region draws them."""
    return listed(client, character.get_absolute_url(), "recent-rolls", SHEET_ROLLS)


def test_a_roll_s_event_brings_its_line_as_the_sheets_recent_rolls_draw_it(
        table: tuple[Campaign, Character], alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    """For the roller's page and every other open copy of the sheet (the GM's among them):
    a page current just before the roll puts the line on top of what it holds and drops
    what falls past the limit, which is exactly what it would have asked for."""
    campaign, character = table
    gm, player = client_for(alice), client_for(bob)
    for _ in range(SHEET_ROLLS):  # a full list: the line pushes the oldest out
        roll_from(player, character, character.get_absolute_url(), roll_data(character))
    before = {"gm": recent(gm, character), "player": recent(player, character)}
    assert len(before["player"]) == SHEET_ROLLS
    held = version(campaign)

    messages = heard(campaign.pk, lambda: roll_from(
        player, character, character.get_absolute_url(), roll_data(character)))

    [made] = [m for m in messages if m["names"][0] == "rollMade"]
    assert made["names"] == ["rollMade", f"rollMade-{character.pk}"]
    assert made["data"]["version"] == held + 1
    line = parse_html(made["lines"][f"rollMade-{character.pk}"]["recent-rolls"])
    assert "recent-rolls" not in made["lines"]["rollMade"]  # the campaign's page has none
    roll = Roll.objects.filter(character=character).latest("pk")
    assert dict(line.attributes)["data-live-key"] == f"roll-{roll.code}"
    assert roll.get_absolute_url() in str(line)
    for who, client in (("gm", gm), ("player", player)):
        assert recent(client, character) == [line, *before[who]][:SHEET_ROLLS], who


def test_a_roll_elsewhere_labels_nothing_and_a_repeated_one_draws_nothing(
        table: tuple[Campaign, Character], bob: Any,
        client_for: Callable[..., Client]) -> None:
    """From the roll page (no recent rolls there) the answer brings the odds alone and
    labels no region; the same form sent twice (a double click) rolls once, and its second
    answer draws nothing out of band: nothing changed."""
    _, character = table
    player = client_for(bob)
    page = reverse("rolls:roll-create", args=[character.pk])
    data = roll_data(character)
    rolls = Roll.objects.filter(character=character).count()
    first = roll_from(player, character, page, data)
    assert DRAWN_HEADER not in first
    assert not find(parse_html(first.content.decode()), "recent-rolls")
    out_of_band(first.content.decode(), "roll-odds")
    again = roll_from(player, character, character.get_absolute_url(), data)
    assert Roll.objects.filter(character=character).count() == rolls + 1
    assert DRAWN_HEADER not in again
    assert not find(parse_html(again.content.decode()), "roll-odds")


def test_a_gms_request_answered_on_the_sheet_draws_no_odds(
        table: tuple[Campaign, Character], alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    """The request's "Roll it" rolls the GM's pool, not the dialog's choices: the dialog's
    odds stay as the player left them."""
    campaign, character = table
    if systems.for_campaign(campaign).request_form(campaign) is None:
        pytest.skip(f"{campaign.ruleset_name} has no roll requests")
    ask = client_for(alice).post(
        reverse("rolls:requested-roll-create", args=[campaign.pk]),
        {**fixtures_for(campaign.ruleset).request, "character": str(character.pk),
         "note": "Climb"}, headers={"HX-Request": "true"})
    assert ask.status_code == 200
    player = client_for(bob)
    [form] = forms_in(player.get(character.get_absolute_url()).content.decode(),
                      "roll-requests")
    _, data = submit(form)
    answer = roll_from(player, character, character.get_absolute_url(), data, trigger="")
    assert character.requested_rolls.get().answer is not None
    assert DRAWN_HEADER not in answer
    assert not find(parse_html(answer.content.decode()), "roll-odds")


def test_a_refused_roll_labels_nothing(table: tuple[Campaign, Character], bob: Any,
                                       client_for: Callable[..., Client]) -> None:
    _, character = table
    player = client_for(bob)
    rolls = Roll.objects.filter(character=character).count()
    answer = roll_from(player, character, character.get_absolute_url(),
                       {**roll_data(character), submissions.FIELD: "not a token"})
    assert Roll.objects.filter(character=character).count() == rolls
    assert DRAWN_HEADER not in answer
    assert 'role="alert"' in answer.content.decode()


@pytest.fixture
def card_control(table: tuple[Campaign, Character], alice: Any,
                 client_for: Callable[..., Client]) -> tuple[Client, str, str,
                                                             dict[str, list[str]]]:
    """The GM's client, the party card of the table's character on the dashboard, and what
    its first enabled form sends: ``(client, card id, URL, data)``."""
    campaign, character = table
    gm = client_for(alice)
    card = f"card-{character.pk}"
    form = next(f for f in forms_in(gm.get(campaign.get_absolute_url()).content.decode(), card)
                if "disabled" not in str(f))
    url, data = submit(form)
    return gm, card, url, data


def test_the_gms_mark_on_a_card_answers_with_the_card_at_its_version(
        table: tuple[Campaign, Character],
        card_control: tuple[Client, str, str, dict[str, list[str]]]) -> None:
    campaign, _ = table
    gm, card, url, data = card_control
    dashboard = campaign.get_absolute_url()
    before = version(campaign)
    answer = gm.post(url, data, headers={"HX-Request": "true", "HX-Target": card})
    assert answer.status_code == 200
    after = version(campaign)
    assert after > before, "the card's first control changed nothing"
    assert answer[DRAWN_HEADER] == f"{after} {card}"
    region = gm.get(f"{dashboard}?live={card}", headers={"HX-Request": "true"})
    # The card as the region draws it, but for the fresh tokens and the line that says
    # what was done (the answer's alone).
    drawn = element(answer.content.decode(), card)
    said = [node for node in walk(drawn) if dict(node.attributes).get("role") == "status"]
    assert len(said) == 1 and said[0].children
    for node in walk(drawn):
        node.children = [c for c in node.children if c is not said[0]]
    assert drawn == element(region.content.decode(), card)


def test_a_refused_mark_on_a_card_labels_nothing(
        table: tuple[Campaign, Character],
        card_control: tuple[Client, str, str, dict[str, list[str]]]) -> None:
    campaign, _ = table
    gm, card, url, data = card_control
    # A value no track takes: the form refuses it, nothing changes.
    broken = {k: ["not a number"] if k not in ("from", "csrfmiddlewaretoken") else v
              for k, v in data.items()}
    before = version(campaign)
    answer = gm.post(url, broken, headers={"HX-Request": "true", "HX-Target": card})
    assert answer.status_code == 200
    assert version(campaign) == before
    assert DRAWN_HEADER not in answer


def latest_rolls(client: Client, campaign: Campaign) -> list[Element]:
    """The items of the latest rolls (``campaign-rolls``) as the page's region draws them."""
    return listed(client, campaign.get_absolute_url(), "campaign-rolls", RECENT_ROLLS)


def test_a_roll_s_event_brings_its_line_as_the_latest_rolls_draw_it_for_everyone(
        table: tuple[Campaign, Character], alice: Any, bob: Any,
        client_for: Callable[..., Client]) -> None:
    campaign, character = table
    gm, player = client_for(alice), client_for(bob)
    roll_from(player, character, character.get_absolute_url(), roll_data(character))
    before = {"gm": latest_rolls(gm, campaign), "player": latest_rolls(player, campaign)}
    held = version(campaign)

    messages = heard(campaign.pk, lambda: roll_from(
        player, character, character.get_absolute_url(), roll_data(character)))

    [made] = [m for m in messages if m["names"][0] == "rollMade"]
    # A page current just before the roll (its event's version minus one) puts the line on
    # top of what it holds and drops the last: exactly what it would have asked for.
    assert made["data"]["version"] == held + 1
    line = parse_html(made["lines"]["rollMade"]["campaign-rolls"])
    roll = Roll.objects.filter(character=character).latest("pk")
    assert dict(line.attributes)["data-roll"] == str(roll.code)
    for who, client in (("gm", gm), ("player", player)):
        after = latest_rolls(client, campaign)
        assert after == [line, *before[who]][:len(after)], who
        assert len(after) == min(len(before[who]) + 1, RECENT_ROLLS)


def test_only_a_new_roll_of_the_list_has_a_line() -> None:
    for line in (roll_line, recent_roll_line):
        assert line(event="rollMade", subject=Roll(pk=2, parent_id=1, character_id=3)) is None
        assert line(event="rollMade", subject=None) is None  # an import: pages ask
        assert line(event="trackChanged", subject=Roll(pk=2, character_id=3)) is None
        assert line(event="rollMade", subject=Roll(pk=2, character_id=3)) is not None
    # An NPC's roll joins the latest rolls, and no sheet's.
    assert roll_line(event="rollMade", subject=Roll(pk=2)) is not None
    assert recent_roll_line(event="rollMade", subject=Roll(pk=2)) is None
