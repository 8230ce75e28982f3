"""The live-table benchmark (benchmarks/tables.py) reads what it does from the pages: these
tests hold it to the pages as the product draws them, for every system, so that a template
change that the benchmark can no longer follow fails here rather than measuring nothing."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from benchmarks.browser import timings
from benchmarks.tables import ROLL_EVENT, SUBMISSION
from benchmarks.tables_pages import hidden_value, hx_trigger_names, parse_page
from benchmarks.tables_seed import seed
from core.live import TIMINGS
from rulesets import registry
from systems import demos

pytestmark = pytest.mark.django_db

SYSTEMS = [ruleset.slug for ruleset in registry.RULESETS.values()
           if ruleset.selectable and demos.demo_for(ruleset.slug) is not None]


def _client(session: str) -> Client:
    client = Client()
    client.cookies["sessionid"] = session
    return client


@pytest.fixture
def tables() -> list[dict[str, Any]]:
    """One benchmark table per system that has a demo."""
    return seed(len(SYSTEMS))


def test_every_table_has_a_gm_and_four_players_with_characters(
        tables: list[dict[str, Any]]) -> None:
    assert sorted(table["system"] for table in tables) == sorted(SYSTEMS)
    for table in tables:
        assert len(table["players"]) == 4
        assert len({player["character"] for player in table["players"]}) == 4


def test_the_dashboard_shows_its_stream_its_live_regions_and_the_card_controls(
        tables: list[dict[str, Any]]) -> None:
    for table in tables:
        url = f"/campaigns/{table['campaign']}/"
        answer = _client(table["gm"]["session"]).get(url)
        assert answer.status_code == 200
        page = parse_page(answer.content.decode())
        # The stream names its page, which pushes that page's regions (campaigns.live).
        assert page.stream.startswith(f"/campaigns/{table['campaign']}/events/?page={url}&")
        assert "x-csrftoken" in page.headers
        heard = {name for region in page.regions for name in region.sse}
        assert ROLL_EVENT in heard, table["system"]
        for player in table["players"]:
            assert f"trackChanged-{player['character']}" in heard, table["system"]
        cards = [form for form in page.forms if form.target.startswith("#card-")]
        assert any(form.submits() for form in cards), table["system"]


def test_a_sheet_rolls_from_what_it_shows_as_drawn_or_with_a_players_choices(
        tables: list[dict[str, Any]]) -> None:
    """As benchmarks.tables.choose_roll tries: the dialog as drawn, then the first box of
    the first group, then the first two; one of them is a roll the rules accept, and its
    answer hands the dialog the next submission token."""
    for table in tables:
        player = table["players"][0]
        client = _client(player["session"])
        url = f"/characters/{player['character']}/"
        page = parse_page(client.get(url).content.decode())
        assert page.stream.startswith(f"/campaigns/{table['campaign']}/events/?page={url}&")
        # How the page reconnects, read from the page as static/js/live.js reads it.
        assert page.timings and timings(page.timings) == timings(json.dumps(TIMINGS))
        assert any(f"{ROLL_EVENT}-{player['character']}" in region.sse
                   for region in page.regions), table["system"]
        assert all(region.live_sync for region in page.regions if region.url == url)
        form = page.form("roll-form")
        assert form is not None, table["system"]
        accepted = False
        tries: list[Callable[[], list[tuple[str, str]]]] = [
            form.values, functools.partial(form.choices, None, boxes=1),
            functools.partial(form.choices, None, boxes=2),
            functools.partial(form.choices, random.Random(1), boxes=2)]
        for make in tries:  # each with the token of the last answer that handed one
            answer = client.post(form.action, _pairs(make()), HTTP_HX_REQUEST="true",
                                 HTTP_X_CSRFTOKEN=page.headers["x-csrftoken"])
            token = hidden_value(answer.content.decode(), SUBMISSION)
            if ROLL_EVENT in hx_trigger_names(answer.headers.get("HX-Trigger")):
                assert token, table["system"]
                accepted = True
                break
            if token:  # a refused roll keeps its token (nothing was submitted)
                for control in form.fields:
                    if control.name == SUBMISSION:
                        control.value = token
        assert accepted, table["system"]


def _pairs(data: list[tuple[str, str]]) -> dict[str, list[str]]:
    pairs: dict[str, list[str]] = {}
    for name, value in data:
        pairs.setdefault(name, []).append(value)
    return pairs
