"""A roll dialog sent twice (a double click, a browser resending the form) makes one roll,
and the second request is answered with the first one's result; the same for the GM's
session award grid (docs/security.md, "Double submits"; core/submissions.py). Every system's
dialog, as its sheet renders it and a browser would send it."""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import systems
from campaigns.models import Campaign, Session
from characters.models import Character, XpEntry
from core.models import FormSubmission
from rolls.models import Roll
from rulesets import registry
from table.services import session_create
from tests import shahquest_cast, shattered_world_cast, three_d6_cast
from tests.systems.genesys import test_genesys_cast

pytestmark = pytest.mark.django_db

# Each system's character of bob's, in a campaign alice GMs (the systems' own test casts).
sq_campaign, demetri = shahquest_cast.sq_campaign, shahquest_cast.demetri
table, mara = three_d6_cast.table, three_d6_cast.mara
gx_campaign, kes = test_genesys_cast.gx_campaign, test_genesys_cast.kes
sw_campaign, kaelin = shattered_world_cast.sw_campaign, shattered_world_cast.kaelin
CHARACTERS = {"maelstrom": "bobs_character", "shahquest": "demetri", "three_d6": "mara",
              "genesys": "kes", "shattered_world": "kaelin"}


class _FormReader(HTMLParser):
    """What a browser sends for the form ``form_id``: its successful controls with their
    current values (checked boxes, selected options), and those tied to it by ``form=``."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.options: list[tuple[str, bool]] = []

    def _ours(self, attrs: dict[str, str | None]) -> bool:
        return self.inside if "form" not in attrs else attrs["form"] == self.form_id

    def handle_starttag(self, tag: str, attr_list: list[tuple[str, str | None]]) -> None:
        attrs = dict(attr_list)
        if tag == "form" and attrs.get("id") == self.form_id:
            self.inside = True
        elif tag == "input" and attrs.get("name") and self._ours(attrs):
            kind = attrs.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            if kind not in ("submit", "button", "file"):
                self.fields.append((attrs["name"] or "", attrs.get("value") or (
                    "on" if kind in ("checkbox", "radio") else "")))
        elif tag == "select" and attrs.get("name") and self._ours(attrs):
            self.select, self.options = attrs["name"], []
        elif tag == "option" and self.select is not None:
            self.options.append((attrs.get("value") or "", "selected" in attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select is not None:
            chosen = [v for v, on in self.options if on] or [v for v, _ in self.options[:1]]
            self.fields += [(self.select, v) for v in chosen]
            self.select = None


def browser_form(html: str, form_id: str) -> dict[str, list[str]]:
    reader = _FormReader(form_id)
    reader.feed(html)
    data: dict[str, list[str]] = {}
    for name, value in reader.fields:
        data.setdefault(name, []).append(value)
    return data


@dataclass
class World:
    """One system's table: its GM, a player, the player's character, an open session."""

    system: str
    campaign: Campaign
    gm: Any
    player: Any
    character: Character
    session: Session


@pytest.fixture(params=sorted(CHARACTERS))
def world(request, alice, bob, seeded_rng) -> World:  # type: ignore[no-untyped-def]
    # The server's dice are seeded. With the OS's, the Maelstrom Willpower roll now and then
    # botched with three 1s, which takes a current dot per botch (Rolling Willpower): Rook's
    # three were gone, the next roll was refused (no willpower left), and the test failed
    # on a roll of the dice (seen once in CI's PostgreSQL pass).
    character = request.getfixturevalue(CHARACTERS[request.param])
    assert character.campaign.ruleset == request.param
    session = session_create(campaign=character.campaign, date=datetime.date(2026, 11, 21))
    return World(request.param, character.campaign, alice, bob, character, session)


def in_play(campaign: Campaign) -> int:
    """How many of the campaign's characters an award "for everyone" reaches (not the ones
    its system counts out of play: Maelstrom's dead)."""
    system = systems.for_campaign(campaign)
    return sum(1 for c in campaign.characters.all() if not system.is_out_of_play(c))


def roll_dialog(client: Client, world: World) -> dict[str, list[str]]:
    """The player's roll dialog as the sheet renders it, filled in as it comes (Maelstrom:
    a Willpower roll, which needs no trait ticked; Shahquest: its first feature; Genesys: Cool)."""
    sheet = client.get(world.character.get_absolute_url())
    assert sheet.status_code == 200
    data = browser_form(sheet.content.decode(), "roll-form")
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", data["submission"][0])
    if world.system == "maelstrom":
        data["kind"] = ["willpower"]
    if world.system == "shahquest":  # no feature is ticked until the player ticks one
        data["feature"] = re.findall(r'name="feature" value="(\d+)"', sheet.content.decode())[:1]
    if world.system == "genesys":  # a check needs a skill chosen
        data["skill"] = ["Cool"]
    return data


def test_the_same_roll_form_sent_twice_rolls_once_and_answers_with_the_first_roll(world):
    client = Client()
    client.force_login(world.player)
    url = reverse("rolls:roll-create", args=[world.character.pk])
    data = roll_dialog(client, world)
    before = Roll.objects.count()

    first = client.post(url, data)
    second = client.post(url, data)

    assert first.status_code == 302, first.content.decode()[:500]
    assert Roll.objects.count() == before + 1
    assert second.status_code == 302
    assert second.url == first.url == Roll.objects.latest("pk").get_absolute_url()


def test_with_htmx_the_second_copy_shows_the_same_roll_and_the_dialog_gets_a_new_token(world):
    client = Client(headers={"HX-Request": "true"})
    client.force_login(world.player)
    url = reverse("rolls:roll-create", args=[world.character.pk])
    data = roll_dialog(client, world)

    first = client.post(url, data)
    second = client.post(url, data)

    roll = Roll.objects.latest("pk")
    assert Roll.objects.filter(character=world.character, created_at__gte=roll.created_at
                               ).count() == 1
    for response in (first, second):
        assert response.status_code == 200
        assert json.loads(response["HX-Trigger"]) == {"rollMade": {"id": str(roll.code)}}
        assert f"#{roll.label}" in response.content.decode()
    fresh = re.findall(r'name="submission" value="([^"]+)" id="roll-submission" '
                       r'hx-swap-oob="true"', first.content.decode())
    assert len(fresh) == 1 and fresh[0] != data["submission"][0]
    # The next roll from the same dialog, with the token it was handed, is a new roll.
    third = client.post(url, {**data, "submission": fresh})
    assert "HX-Trigger" in third, third.content.decode()  # a refusal says why
    assert json.loads(third["HX-Trigger"])["rollMade"]["id"] != str(roll.code)


def test_a_form_without_a_token_rolls_every_time_as_before(world):
    client = Client()
    client.force_login(world.player)
    url = reverse("rolls:roll-create", args=[world.character.pk])
    data = roll_dialog(client, world)
    del data["submission"]
    before = Roll.objects.count()
    client.post(url, data)
    client.post(url, data)
    assert Roll.objects.count() == before + 2


@pytest.mark.parametrize("token", ["x", "a" * 65, "not a token at all!", "\x00" * 20])
def test_a_token_no_page_wrote_is_refused_naming_the_field(world, token):
    client = Client()
    client.force_login(world.player)
    url = reverse("rolls:roll-create", args=[world.character.pk])
    data = {**roll_dialog(client, world), "submission": [token]}
    before = Roll.objects.count()
    response = client.post(url, data, follow=True)
    assert response.status_code == 400
    assert "The form's 'submission' token is not one this site wrote" in \
        response.content.decode().replace("&#x27;", "'")
    assert Roll.objects.count() == before


def test_tokens_of_different_people_never_meet(world):
    url = reverse("rolls:roll-create", args=[world.character.pk])
    player, gm = Client(), Client()
    player.force_login(world.player)
    gm.force_login(world.gm)
    data = roll_dialog(player, world)
    before = Roll.objects.count()
    player.post(url, data)
    gm.post(url, data)  # the GM rolls for the character, with a copy of the player's token
    assert Roll.objects.count() == before + 2


def test_the_award_grid_sent_twice_awards_once_and_says_so(world):
    client = Client()
    client.force_login(world.gm)
    url = world.session.get_absolute_url()
    page = client.get(url).content.decode()
    form_id = "award-grid"
    data = browser_form(page.replace('<form method="post" action="' + url + '"',
                                     f'<form id="{form_id}" method="post" action="{url}"', 1),
                        form_id)
    assert data["submission"]
    data.update({"amount_all": ["2"], "reason_all": ["Survived the heist"]})
    before = XpEntry.objects.count()

    first = client.post(url, data, follow=True)
    second = client.post(url, data, follow=True)

    added = XpEntry.objects.count() - before
    assert added == in_play(world.campaign) > 0
    assert "Awarded" in first.content.decode()
    assert "These awards were already given" in second.content.decode()
    assert second.redirect_chain == first.redirect_chain == [(url, 302)]
    assert FormSubmission.objects.filter(form="session-award").count() == 1


def test_the_award_grid_with_htmx_sent_twice_awards_once(world):
    client = Client(headers={"HX-Request": "true"})
    client.force_login(world.gm)
    url = world.session.get_absolute_url()
    token = re.search(r'name="submission" value="([^"]+)"',
                      client.get(url).content.decode()).group(1)  # type: ignore[union-attr]
    data: dict[str, Any] = {"submission": token, "amount_all": "1", "reason_all": "Scene"}
    before = XpEntry.objects.count()
    first, second = client.post(url, data), client.post(url, data)
    assert first.status_code == second.status_code == 200
    assert XpEntry.objects.count() - before == in_play(world.campaign)
    assert "These awards were already given" in second.content.decode()


def test_the_gms_quick_npc_roll_sent_twice_rolls_once(world):
    client = Client()
    client.force_login(world.gm)
    page = client.get(world.campaign.get_absolute_url()).content.decode()
    token = re.search(r'name="submission" value="([^"]+)" id="npc-roll-submission"', page)
    assert token is not None
    example = registry.get(world.system).module.QUICK_ROLL_EXAMPLES[0]
    data = {"submission": token.group(1), "text": example}
    url = reverse("rolls:npc-roll-create", args=[world.campaign.pk])

    first, second = client.post(url, data), client.post(url, data)

    rolls = list(Roll.objects.filter(campaign=world.campaign, kind=Roll.Kind.NPC))
    assert len(rolls) == 1
    assert first.status_code == second.status_code == 302
    assert first.url == second.url == rolls[0].get_absolute_url()
    htmx = Client(headers={"HX-Request": "true"})
    htmx.force_login(world.gm)
    answer = htmx.post(url, data)
    assert json.loads(answer["HX-Trigger"]) == {"rollMade": {"id": str(rolls[0].code)}}
    assert 'id="npc-roll-submission" hx-swap-oob="true"' in answer.content.decode()
    assert Roll.objects.filter(campaign=world.campaign, kind=Roll.Kind.NPC).count() == 1


def test_the_token_costs_a_roll_two_queries_and_a_replay_rolls_nothing(
    bobs_character, bob, seeded_rng
):
    """The look-up and the token stored beside the roll; the roll's own transaction, nested
    in the token's, takes no savepoint (issue 18: two round trips fewer; docs/performance.md
    counts the roll POST)."""
    client = Client(headers={"HX-Request": "true"})
    client.force_login(bob)
    page = client.get(bobs_character.get_absolute_url()).content.decode()
    token = re.search(r'name="submission" value="([^"]+)" id="roll-submission"', page)
    assert token is not None
    url = reverse("rolls:roll-create", args=[bobs_character.pk])
    data = {"kind": "willpower", "difficulty": "6", "threshold": "0"}
    with CaptureQueriesContext(connection) as bare:
        client.post(url, data)
    with CaptureQueriesContext(connection) as guarded:
        client.post(url, {**data, "submission": token.group(1)})
    with CaptureQueriesContext(connection) as replayed:
        client.post(url, {**data, "submission": token.group(1)})
    assert len(guarded) == len(bare) + 2
    assert not any(q["sql"].startswith(("INSERT", "UPDATE")) for q in replayed.captured_queries)


def test_the_xp_page_award_sent_twice_awards_once_and_says_so(world):
    client = Client()
    client.force_login(world.gm)
    xp_url = reverse("characters:character-xp", args=[world.character.pk])
    token = re.search(r'name="submission" value="([^"]+)"',
                      client.get(xp_url).content.decode()).group(1)  # type: ignore[union-attr]
    url = reverse("characters:character-xp-award", args=[world.character.pk])
    data = {"submission": token, "amount": "3", "reason": "Saved the ship"}
    before = world.character.xp_entries.count()

    first = client.post(url, data, follow=True)
    second = client.post(url, data, follow=True)

    assert world.character.xp_entries.count() - before == 1
    assert "Awarded 3 XP" in first.content.decode()
    assert "was already given" in second.content.decode()
    assert FormSubmission.objects.filter(form="xp-award").count() == 1
