"""The live table: events go out after the transaction commits, only to the campaign's
members, GM-only events only to the GM; the stream is a Django view under ASGI, driven here
with Channels' communicator (campaigns/live.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import DEFAULT_CHANNEL_LAYER, channel_layers, get_channel_layer
from channels.testing import ApplicationCommunicator
from django.db import transaction
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Membership
from characters.services import sheet_change, xp_award
from core.live import announce, group_name, seat_group_name
from sheetkeeper.asgi import application

pytestmark = pytest.mark.django_db


def heard(
    campaign_id: int, action: Callable[[], object], *, gm_only: bool = False
) -> list[dict]:
    """What a page subscribed to the campaign's group hears while ``action`` runs (then 0.3 s
    of silence ends the list). One event loop throughout, as the Redis layer requires."""
    layer = get_channel_layer()
    messages: list[dict] = []

    async def scenario() -> None:
        channel = await layer.new_channel()
        await layer.group_add(group_name(campaign_id, gm_only=gm_only), channel)
        await sync_to_async(action)()
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), 0.3))
            except TimeoutError:
                break
        await layer.group_discard(group_name(campaign_id, gm_only=gm_only), channel)

    async_to_sync(scenario)()
    return messages


def test_an_event_goes_out_only_after_the_transaction_commits(
    campaign, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        announce(campaign.pk, "rollMade", character_id=5)
    assert callbacks  # waiting for the commit
    assert heard(campaign.pk, lambda: None) == []  # not committed yet: nobody hears of it
    [message] = heard(campaign.pk, lambda: [callback() for callback in callbacks])
    assert message["names"] == ["rollMade", "rollMade-5"]
    # The campaign's live version after the change (campaigns.versions), bumped before it.
    campaign.refresh_from_db()
    assert message["data"] == {"campaign": campaign.pk, "character": 5,
                               "version": campaign.live_version}
    assert campaign.live_version == 1


def _damage(character: Any, *, kind: str, levels: int) -> None:
    """Damage marked through the sheet's own action, as the health box posts it."""
    system = systems.for_campaign(character.campaign)
    sheet_change(character=character, action=system.actions["damage"],
                 data={"kind": kind, "levels": levels}, by=character.owner)


def test_a_rolled_back_change_is_never_announced(
    campaign, bobs_character, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    pending: list[object] = []

    def fail_after_marking() -> None:
        # Runs every callback that survives to the commit; a rolled-back one must not.
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(RuntimeError),
            transaction.atomic(),
        ):
            _damage(bobs_character, kind="lethal", levels=1)
            raise RuntimeError("the request failed after the damage was marked")
        pending.extend(callbacks)

    assert heard(campaign.pk, fail_after_marking) == []
    assert pending == []


def test_damage_and_xp_are_announced_for_the_party_and_the_sheet(
    campaign, bobs_character, alice, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    def play() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            _damage(bobs_character, kind="bashing", levels=2)
        with django_capture_on_commit_callbacks(execute=True):
            xp_award(character=bobs_character, amount=2, reason="Heroism", by=alice)

    names = [message["names"] for message in heard(campaign.pk, play)]
    pk = bobs_character.pk
    assert names == [["trackChanged", f"trackChanged-{pk}"], ["xpChanged", f"xpChanged-{pk}"]]


def test_a_gm_only_event_reaches_the_gm_group_alone(
    campaign, django_capture_on_commit_callbacks
) -> None:  # type: ignore[no-untyped-def]
    def gm_only_roll() -> None:
        with django_capture_on_commit_callbacks(execute=True):
            announce(campaign.pk, "rollMade", gm_only=True)

    assert heard(campaign.pk, gm_only_roll) == []
    assert [m["names"] for m in heard(campaign.pk, gm_only_roll, gm_only=True)] == [["rollMade"]]


# --- The stream, over ASGI ----------------------------------------------------------------
# The stream reads the session and the membership on other threads than the test's, so these
# tests commit their data (transaction=True) for every database connection to see.
stream_test = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def one_layer_per_event_loop() -> Iterator[None]:
    """A fresh channel layer for each test, as each test runs its streams in an event loop
    of its own (``async_to_sync``). channels_redis keeps one receive lock per layer object,
    not per loop, and binds it to the loop that first waits on it: a server process has one
    loop for its life, but a layer kept across these tests' loops could hand a test a lock
    bound to the previous test's closed loop ("is bound to a different event loop", about one
    run in seven on Redis before this fixture)."""
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)
    yield
    channel_layers.backends.pop(DEFAULT_CHANNEL_LAYER, None)


def _scope(user, campaign_id: int) -> dict:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": f"/campaigns/{campaign_id}/events/", "raw_path": b"",
        "query_string": b"", "root_path": "", "headers": [(b"host", b"testserver"),
                                                         (b"cookie", cookie)],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }


class Stream:
    """One open page's event stream, driven through the ASGI application."""

    def __init__(self, user, campaign_id: int, *, scope: dict | None = None) -> None:  # type: ignore[no-untyped-def]
        # ``scope``: one logged-in request's scope, for many tabs of one person.
        self.communicator = ApplicationCommunicator(
            application, scope if scope is not None else _scope(user, campaign_id)
        )
        self.pending: list[bytes] = []

    async def open(self) -> tuple[int, bytes]:
        await self.communicator.send_input({"type": "http.request", "body": b""})
        start = await self.communicator.receive_output(timeout=5)
        if start["status"] != 200:
            body = await self.communicator.receive_output(timeout=5)
            await self.communicator.wait(timeout=5)  # let the request finish and clean up
            return start["status"], body.get("body", b"")
        first = await self.communicator.receive_output(timeout=5)
        return 200, first["body"]

    async def next_chunk(self, timeout: float = 2) -> bytes:
        """The next piece of the body as the server wrote it."""
        message = await self.communicator.receive_output(timeout=timeout)
        return message["body"]

    async def next_frame(self, timeout: float = 2) -> bytes:
        """The next SSE frame (an event's frames come in one write: campaigns.live)."""
        if not self.pending:
            chunk = await self.next_chunk(timeout)
            self.pending = [part + b"\n\n" for part in chunk.split(b"\n\n") if part] or [chunk]
        return self.pending.pop(0)

    async def hears_nothing(self) -> bool:
        return not self.pending and await self.communicator.receive_nothing(timeout=0.3)

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(timeout=5)


def send(campaign_id: int, *, gm_only: bool = False, names: tuple[str, ...] = ("rollMade",),  # type: ignore[no-untyped-def]
         lines: dict[str, dict[str, str]] | None = None, **data):
    layer = get_channel_layer()
    return layer.group_send(
        group_name(campaign_id, gm_only=gm_only),
        {"type": "campaign.event", "names": list(names),
         "data": {"campaign": campaign_id, **data}, **({"lines": lines} if lines else {})},
    )


@stream_test
def test_a_member_hears_the_campaign_as_server_sent_events(campaign, bob) -> None:  # type: ignore[no-untyped-def]
    stream = Stream(bob, campaign.pk)

    async def scenario() -> None:
        status, first = await stream.open()
        assert status == 200
        assert first.startswith(b"retry: 2000\n")
        await send(campaign.pk, names=("rollMade", "rollMade-7"))
        frames = [await stream.next_frame(), await stream.next_frame()]
        assert frames[0] == (b'event: rollMade\ndata: ' + json.dumps(
            {"campaign": campaign.pk}).encode() + b"\n\n")
        assert frames[1].startswith(b"event: rollMade-7\n")
        await stream.close()

    async_to_sync(scenario)()


@stream_test
def test_an_event_s_frames_come_in_one_write_each_line_with_the_name_its_region_hears(
        campaign, bob) -> None:  # type: ignore[no-untyped-def]
    # One write per event, not one per frame: a roll is three frames on each open page.
    stream = Stream(bob, campaign.pk)
    line = '<li data-roll="9">Ana</li>'

    async def scenario() -> None:
        await stream.open()
        await send(campaign.pk, names=("rollMade", "rollMade-7", "rollMade-8"), version=4,
                   lines={"rollMade": {"campaign-rolls": line},
                          "rollMade-7": {"recent-rolls": "<li>7</li>"}})
        chunk = await stream.next_chunk()
        frames = [part for part in chunk.split(b"\n\n") if part]
        assert [frame.split(b"\n")[0] for frame in frames] == [
            b"event: rollMade", b"event: rollMade-7", b"event: rollMade-8",
            b"event: liveVersion"]
        data = [json.loads(frame.split(b"\ndata: ")[1]) for frame in frames]
        assert data[0] == {"campaign": campaign.pk, "version": 4,
                           "prepend": {"campaign-rolls": line}}
        assert data[1] == {"campaign": campaign.pk, "version": 4,
                           "prepend": {"recent-rolls": "<li>7</li>"}}
        assert data[2] == {"campaign": campaign.pk, "version": 4}  # a name without lines
        assert data[3] == {"version": 4, "names": ["rollMade", "rollMade-7", "rollMade-8"]}
        await stream.close()

    async_to_sync(scenario)()


@stream_test
def test_a_player_never_hears_a_gm_only_roll_and_the_gm_does(campaign, alice, bob) -> None:  # type: ignore[no-untyped-def]
    player, gm = Stream(bob, campaign.pk), Stream(alice, campaign.pk)

    async def scenario() -> None:
        await player.open()
        await gm.open()
        await send(campaign.pk, gm_only=True)
        assert (await gm.next_frame()).startswith(b"event: rollMade\n")
        assert await player.hears_nothing()
        await player.close()
        await gm.close()

    async_to_sync(scenario)()


def test_a_stranger_cannot_subscribe(campaign, carol) -> None:  # type: ignore[no-untyped-def]
    # Refused before any stream starts, so the plain test client can ask.
    client = Client()
    client.force_login(carol)
    assert client.get(f"/campaigns/{campaign.pk}/events/").status_code == 404
    assert Client().get(f"/campaigns/{campaign.pk}/events/").status_code == 302  # log in first


@stream_test
def test_closing_the_page_leaves_the_group(campaign, bob, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    layer = get_channel_layer()
    joined: list[str] = []
    left: list[str] = []
    add, discard = layer.group_add, layer.group_discard

    async def group_add(group: str, channel: str) -> None:
        joined.append(group)
        await add(group, channel)

    async def group_discard(group: str, channel: str) -> None:
        left.append(group)
        await discard(group, channel)

    monkeypatch.setattr(layer, "group_add", group_add)
    monkeypatch.setattr(layer, "group_discard", group_discard)
    stream = Stream(bob, campaign.pk)

    async def scenario() -> None:
        await stream.open()
        assert joined == [group_name(campaign.pk), seat_group_name(campaign.pk, bob.pk)]
        assert left == []
        await stream.close()

    async_to_sync(scenario)()
    assert left == joined


def test_an_unknown_campaign_has_no_stream(campaign, bob) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(bob)
    assert client.get(f"/campaigns/{campaign.pk + 1000}/events/").status_code == 404


@stream_test
def test_a_stream_ends_in_time_so_the_browser_resubscribes(campaign, bob, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("campaigns.live.STREAM_SECONDS", 0.2)
    monkeypatch.setattr("campaigns.live.KEEPALIVE_SECONDS", 0.05)
    stream = Stream(bob, campaign.pk)

    async def scenario() -> None:
        status, _ = await stream.open()
        assert status == 200
        frames = []
        while True:
            message = await stream.communicator.receive_output(timeout=2)
            frames.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        assert b": keepalive\n\n" in frames  # idle streams are kept alive meanwhile

    async_to_sync(scenario)()


@stream_test
def test_a_removed_players_open_stream_is_closed_at_removal(campaign, alice, bob) -> None:  # type: ignore[no-untyped-def]
    player, gm = Stream(bob, campaign.pk), Stream(alice, campaign.pk)
    gm_client = Client()
    gm_client.force_login(alice)
    seat = Membership.objects.get(campaign=campaign, user=bob)
    remove = reverse("campaigns:membership-remove", args=[campaign.pk, seat.pk])

    async def scenario() -> None:
        await player.open()
        await gm.open()
        response = await sync_to_async(gm_client.post)(remove)
        assert response.status_code == 302
        # The player's page hears that its stream is over (it stops reconnecting), and the
        # stream ends: no event name of the campaign reaches it any more.
        closed = b'event: liveClosed\ndata: ' + json.dumps({"campaign": campaign.pk}).encode()
        assert await player.next_frame() == closed + b"\n\n"
        end = await player.communicator.receive_output(timeout=2)
        assert end.get("more_body", False) is False
        await player.communicator.wait(timeout=2)
        # The GM's stream is untouched (it hears the campaign through the GM's group).
        await send(campaign.pk, gm_only=True)
        assert (await gm.next_frame()).startswith(b"event: rollMade\n")
        await gm.close()

    async_to_sync(scenario)()


@stream_test
def test_handing_the_gm_seat_over_reconnects_both_so_gm_only_events_follow_the_seat(  # type: ignore[no-untyped-def]
    campaign, alice, bob
) -> None:
    old_gm, new_gm = Stream(alice, campaign.pk), Stream(bob, campaign.pk)
    # Their pages' next streams, once reconnected.
    player, gm = Stream(alice, campaign.pk), Stream(bob, campaign.pk)
    client = Client()
    client.force_login(alice)
    seat = Membership.objects.get(campaign=campaign, user=bob)
    handover = reverse("campaigns:campaign-handover", args=[campaign.pk])

    async def scenario() -> None:
        await old_gm.open()
        await new_gm.open()
        response = await sync_to_async(client.post)(handover, {"membership": seat.pk})
        assert response.status_code == 302
        # Both pages hear that their seat changed (they reconnect, joining the groups of the
        # seat as it is now), and these streams end.
        changed = (b'event: liveClosed\ndata: '
                   + json.dumps({"campaign": campaign.pk, "changed": True}).encode() + b"\n\n")
        assert await old_gm.next_frame() == changed
        assert await new_gm.next_frame() == changed
        await old_gm.communicator.wait(timeout=2)
        await new_gm.communicator.wait(timeout=2)
        # Reconnected, the new GM hears a GM-only roll and the old GM, now a player, does not.
        await player.open()
        await gm.open()
        await send(campaign.pk, gm_only=True)
        assert (await gm.next_frame()).startswith(b"event: rollMade\n")
        assert await player.hears_nothing()
        await player.close()
        await gm.close()

    async_to_sync(scenario)()
