"""Hidden activity leaves no trace on a player's pages (issue 31, finding 5; docs/security.md,
"Hidden activity").

A GM-only roll used to show as a gap: it bumped the live version every page counts (a
player's stream went from 24 to 26), and roll ids are handed out in order (a player's log
showed 11, then 13). Now a player's versions move by exactly one per change players hear of,
a GM-only roll moves only the GM's (campaigns.versions), and pages name rolls by their random
code, never their id (Roll.code). The GM's pages still learn of the GM-only roll at once.

Every roll here is made by the real services (or the roll dialog's view), as at the table.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Max
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign
from characters.models import Character
from core.live import group_name
from core.regions import LivePage, etag
from rolls import services as roll_services
from rolls.models import Roll
from tests.campaigns.test_live import Stream, one_layer_per_event_loop  # noqa: F401 (fixture)
from tests.core.test_no_stale_page import RecordingLayer, layer  # noqa: F401 (fixture)
from tests.security.urlmap import quick_roll_example
from tests.system_fixtures import demo_campaign, fixtures_for, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()

FIRST_ID = 987650
"""The roll log's ids start past this (at least) in the test that looks for them: a number
no page shows for anything else, so finding it anywhere is finding an id."""


@pytest.fixture(params=SYSTEMS)
def table(request: pytest.FixtureRequest, alice: User, bob: User) -> tuple[Campaign, Character]:
    """Alice GMs a demo campaign of each system; Bob plays in it."""
    campaign = demo_campaign(request.param, name="Hidden", gm=alice, players=[bob],
                             rng=random.Random(31))
    return campaign, campaign.characters.get(owner=bob)


def player_roll(character: Character, by: User) -> Roll:
    """The system's fixtures' pool rolled for ``character`` through its roll dialog's form
    and the roll service."""
    character = Character.objects.select_related("campaign").get(pk=character.pk)
    form = systems.for_campaign(character.campaign).roll_form(
        character, fixtures_for(character.campaign.ruleset).roll_pool)
    assert form.is_valid(), form.errors
    return roll_services.roll_create(character=character, data=form.cleaned_data, by=by,
                                     rng=random.Random(7))


def hidden_roll(campaign: Campaign, gm: User) -> Roll:
    """The GM's quick NPC roll, for the GM's eyes alone."""
    return roll_services.npc_roll_create(
        campaign=campaign, text=quick_roll_example(campaign.ruleset), gm_only=True, by=gm,
        rng=random.Random(5))


def live_page(client: Client, url: str) -> LivePage:
    page: LivePage = client.get(url).context["live"]
    return page


def versions_sent(layer: RecordingLayer, group: str) -> list[int]:  # noqa: F811
    return [message["data"]["version"] for sent_to, message in layer.sent
            if sent_to == group and message.get("type") == "campaign.event"]


def test_a_players_versions_run_on_by_one_across_a_gm_only_roll_and_the_gms_count_it(
        table: tuple[Campaign, Character], alice: User, bob: User,
        client_for: Callable[..., Client], layer: RecordingLayer,  # noqa: F811
        django_capture_on_commit_callbacks: Any) -> None:
    campaign, character = table
    player, gm = client_for(bob), client_for(alice)
    sheet, board = character.get_absolute_url(), campaign.get_absolute_url()
    held = live_page(player, sheet).version
    assert live_page(player, board).version == held
    gm_held = live_page(gm, board).version

    for change in (lambda: player_roll(character, bob), lambda: hidden_roll(campaign, alice),
                   lambda: player_roll(character, bob)):
        with django_capture_on_commit_callbacks(execute=True):
            change()

    # The players' stream: one more per change they hear of, and no gap where the GM rolled.
    heard = versions_sent(layer, group_name(campaign.pk))
    assert heard and heard == list(range(held + 1, held + 1 + len(heard)))
    # The GM's: one more per change, the GM-only roll among them.
    gm_heard = versions_sent(layer, group_name(campaign.pk, gm_only=True))
    assert gm_heard == list(range(gm_held + 1, gm_held + 1 + len(heard) + 1))
    # The pages drawn now are at the version their stream last said.
    assert live_page(player, sheet).version == live_page(player, board).version == heard[-1]
    assert live_page(gm, board).version == gm_heard[-1]
    # What the players' group is sent names nothing but the campaign, the character and
    # the players' version (and the lines every member may read).
    for sent_to, message in layer.sent:
        if sent_to == group_name(campaign.pk):
            assert set(message["data"]) <= {"campaign", "character", "version"}, message


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_a_gm_only_roll_moves_nothing_a_players_page_holds_and_the_gms_asks_again(
        table: tuple[Campaign, Character], alice: User, bob: User,
        client_for: Callable[..., Client], django_capture_on_commit_callbacks: Any) -> None:
    campaign, character = table
    player, gm = client_for(bob), client_for(alice)
    pages = {"sheet": (player, live_page(player, character.get_absolute_url())),
             "board": (player, live_page(player, campaign.get_absolute_url())),
             "gm": (gm, live_page(gm, campaign.get_absolute_url()))}

    def asked(who: str) -> Any:
        client, page = pages[who]
        return client.get(page.url_for(page.sync_ids), headers={
            "If-None-Match": etag(page.version), "HX-Request": "true"})

    assert {who: asked(who).status_code for who in pages} == {
        "sheet": 304, "board": 304, "gm": 304}
    with django_capture_on_commit_callbacks(execute=True):
        secret = hidden_roll(campaign, alice)

    # The player's regions, asked at the version their pages hold, have nothing new.
    for who in ("sheet", "board"):
        answer = asked(who)
        assert answer.status_code == 304, who
        assert answer["ETag"] == etag(pages[who][1].version)
    # The GM's are drawn again, at the GM's next version, with the roll in them.
    answer = asked("gm")
    assert answer.status_code == 200
    assert answer["ETag"] == etag(pages["gm"][1].version + 1)
    assert str(secret.code) in answer.content.decode()


@pytest.mark.parametrize("table", ["shahquest"], indirect=True)
def test_a_general_danger_rolled_in_secret_reaches_the_gms_pages_alone(
        table: tuple[Campaign, Character], alice: User, bob: User,
        client_for: Callable[..., Client], layer: RecordingLayer,  # noqa: F811
        django_capture_on_commit_callbacks: Any) -> None:
    """Shahquest's tension pool rolled as general danger, GM only: the roll, and the change
    of the campaign's data that keeps it for the GM's panel, are the GM's news alone."""
    campaign, character = table
    held = live_page(client_for(bob), character.get_absolute_url()).version
    gm_held = live_page(client_for(alice), campaign.get_absolute_url()).version
    url = reverse("table:campaign-system-action", args=[campaign.pk, "tension-danger"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client_for(alice).post(url, {"setting_die": "10", "gm_only": "on"})
    assert answer.status_code == 302
    assert campaign.rolls.get(kind="general_danger").gm_only
    assert versions_sent(layer, group_name(campaign.pk)) == []
    assert versions_sent(layer, group_name(campaign.pk, gm_only=True)) == [
        gm_held + 1, gm_held + 2]
    assert live_page(client_for(bob), character.get_absolute_url()).version == held


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_a_players_stream_says_consecutive_versions_and_the_gms_hears_the_secret_roll(
        table: tuple[Campaign, Character], alice: User, bob: User) -> None:
    campaign, character = table
    player, gm = Stream(bob, campaign.pk), Stream(alice, campaign.pk)

    async def versions(stream: Stream) -> list[int]:
        """The versions of the ``liveVersion`` frames the stream has said, until a silence."""
        said = []
        while not await stream.hears_nothing():
            frame = await stream.next_frame()
            if frame.startswith(b"event: liveVersion\n"):
                said.append(json.loads(frame.split(b"\ndata: ")[1])["version"])
        return said

    async def scenario() -> tuple[list[int], list[int]]:
        await player.open()
        await gm.open()
        await sync_to_async(player_roll)(character, bob)
        await sync_to_async(hidden_roll)(campaign, alice)
        await sync_to_async(player_roll)(character, bob)
        heard = await versions(player), await versions(gm)
        await player.close()
        await gm.close()
        return heard

    heard, gm_heard = async_to_sync(scenario)()
    campaign.refresh_from_db()
    assert heard == list(range(heard[0], heard[0] + len(heard)))
    assert heard[-1] == campaign.live_version  # nothing counted that the player missed
    assert gm_heard == list(range(gm_heard[0], gm_heard[0] + len(heard) + 1))
    assert gm_heard[-1] == campaign.page_version(is_gm=True)


# --- roll ids ---------------------------------------------------------------------------------


def ids_past(number: int) -> int:
    """Make the roll log hand out ids past ``number`` (past its latest id, if that is later:
    PostgreSQL's sequence is not rolled back with an earlier test's rows); returns the id
    the next roll follows."""
    table = Roll._meta.db_table
    last = max(number, Roll.objects.aggregate(last=Max("pk"))["last"] or 0)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)",
                           [table, last])
        elif connection.vendor == "sqlite":  # Django's AutoField is AUTOINCREMENT there
            cursor.execute("UPDATE sqlite_sequence SET seq = %s WHERE name = %s",
                           [last, table])
            if cursor.rowcount == 0:
                cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                               [table, last])
        else:  # pragma: no cover - the project runs on PostgreSQL and SQLite
            pytest.skip(f"no way to move the ids of {connection.vendor}")
    return last


ID_SHAPES = (r"/rolls/\d+/", r'data-roll="\d+"', r'data-live-key="roll-\d+"', r'xp-key-\d+"',
             r'"rollMade": \{"id": \d+')
"""Where a roll's id used to show: its URL (and its follow-ups'), the latest rolls' line, a
list's item key, a follow-up form's field id, the roll's own answer's event."""


def everything_seen(client: Client, character: Character) -> Iterator[tuple[str, str]]:
    """``(what, text)`` of every page and fragment a member reads of the table: the sheet,
    the campaign's page, each of their live regions, the roll log (whole and its fragment)
    and each roll page the log links to."""
    campaign = character.campaign
    log = reverse("rolls:roll-list", args=[campaign.pk])
    for url in (character.get_absolute_url(), campaign.get_absolute_url()):
        yield url, client.get(url).content.decode()
        page = live_page(client, url)
        yield f"{url} regions", client.get(page.url_for(page.sync_ids),
                                           headers={"HX-Request": "true"}).content.decode()
    whole = client.get(log).content.decode()
    yield log, whole
    yield f"{log} fragment", client.get(log, headers={"HX-Request": "true"}).content.decode()
    for code in sorted(set(re.findall(r"/rolls/([0-9a-f-]{36})/", whole))):
        url = reverse("rolls:roll-detail", args=[code])
        yield url, client.get(url).content.decode()


def test_a_players_pages_name_rolls_by_code_and_show_no_trace_of_the_gms_secret_roll(
        table: tuple[Campaign, Character], alice: User, bob: User,
        client_for: Callable[..., Client], layer: RecordingLayer,  # noqa: F811
        django_capture_on_commit_callbacks: Any) -> None:
    campaign, character = table
    first = ids_past(FIRST_ID)
    player = client_for(bob)
    roll_url = reverse("rolls:roll-create", args=[character.pk])
    pool = fixtures_for(campaign.ruleset).roll_pool
    seen: list[tuple[str, str]] = []

    # The player rolls from the dialog (htmx), the GM rolls in secret, the player again (a
    # plain POST): the ids run on, 1, 2, 3 past ``first``.
    with django_capture_on_commit_callbacks(execute=True):
        answer = player.post(roll_url, pool, headers={"HX-Request": "true",
                                                      "HX-Trigger": "roll-form"})
    assert answer.status_code == 200
    seen.append(("the roll's answer", answer.content.decode() + answer["HX-Trigger"]))
    with django_capture_on_commit_callbacks(execute=True):
        secret = hidden_roll(campaign, alice)
    with django_capture_on_commit_callbacks(execute=True):
        answer = player.post(roll_url, pool)
    assert answer.status_code == 302
    seen.append(("the second roll's redirect", answer["Location"]))
    made = list(Roll.objects.filter(pk__gt=first).order_by("pk"))
    assert [roll.pk for roll in made] == [first + 1, first + 2, first + 3]
    assert made[1] == secret
    shown = [made[0], made[2]]

    seen += list(everything_seen(player, character))
    seen += [(f"sent to {sent_to}", json.dumps(message)) for sent_to, message in layer.sent
             if sent_to == group_name(campaign.pk)]
    for what, text in seen:
        for roll in made:
            assert str(roll.pk) not in text, (what, roll.pk)
        for shape in ID_SHAPES:
            assert not re.search(shape, text), (what, shape)
        assert str(secret.code) not in text and secret.label not in text, what
    # The rolls the player may see are there, by their codes.
    log = dict(seen)[reverse("rolls:roll-list", args=[campaign.pk])]
    assert all(str(roll.code) in log for roll in shown)
    # The GM's log shows the secret roll, by its code too.
    gm_log = client_for(alice).get(reverse("rolls:roll-list", args=[campaign.pk]))
    assert secret.get_absolute_url() in gm_log.content.decode()


@pytest.mark.parametrize("table", SYSTEMS[:1], indirect=True)
def test_a_roll_by_its_id_is_the_gms_alone_and_no_one_elses_not_even_its_rollers(
        table: tuple[Campaign, Character], alice: User, bob: User, carol: User,
        client_for: Callable[..., Client]) -> None:
    campaign, character = table
    own, secret = player_roll(character, bob), hidden_roll(campaign, alice)
    for roll in (own, secret):
        url = reverse("rolls:roll-by-number", args=[roll.pk])
        found = client_for(alice).get(url)
        assert found.status_code == 302 and found["Location"] == roll.get_absolute_url()
        for someone in (bob, carol):
            assert client_for(someone).get(url).status_code == 404
    missing = reverse("rolls:roll-by-number", args=[secret.pk + 1000])
    assert client_for(alice).get(missing).status_code == 404
