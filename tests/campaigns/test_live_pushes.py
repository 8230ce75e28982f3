"""A live page's stream brings the regions a change redraws (issue 36, campaigns.live,
core.regions.draw_heard): the stream of ``/campaigns/<id>/events/?page=<path>`` sends, before
a change's own frames, ``liveRegions`` with the regions of that page that hear it, drawn by
the page's own view for the stream's viewer, at the version they were drawn at. Only a page
whose view answers regions is drawn, only as its viewer may see it, and a region whose change
comes as a line with the event is left to the line."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import Client
from django.urls import reverse

import systems
from campaigns.models import Campaign
from characters.views import live_sheet
from core.regions import draw_heard, live_page
from tests.campaigns.test_live import Stream, _damage, _scope, stream_test
from tests.core.test_live_drawn import roll_data, roll_from


def _stream(user: Any, campaign_id: int, page: str, *, hears: str | None = None) -> Stream:
    """``user``'s stream of the campaign, naming the live page at ``page`` (and what it
    hears, ``hears``, as the page's own URL says it)."""
    scope = _scope(user, campaign_id)
    query = {"page": page, **({"hears": hears} if hears else {})}
    scope["query_string"] = urlencode(query).encode()
    return Stream(user, campaign_id, scope=scope)


def _data(frame: bytes) -> Any:
    return json.loads(frame.split(b"\ndata: ", 1)[1])


@stream_test
def test_a_sheets_stream_brings_what_the_gms_mark_redraws_drawn_for_its_player(
        campaign, alice, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    sheet = bobs_character.get_absolute_url()
    stream = _stream(bob, campaign.pk, sheet)

    async def scenario() -> None:
        await stream.open()
        await sync_to_async(_damage)(bobs_character, kind="lethal", levels=2)
        pushed = await stream.next_frame()
        assert pushed.startswith(b"event: liveRegions\n")
        note = _data(pushed)
        version = (await sync_to_async(Campaign.objects.get)(pk=campaign.pk)).live_version
        assert note["version"] == version
        # The regions the sheet's trackChanged-<id> redraws, as Bob's own request draws them.
        asked = await sync_to_async(_as_asked)(bob, bobs_character)
        assert 'id="health-track"' in note["html"]
        assert _tokenless(note["html"]) == asked
        # Then the change's own frames, as before.
        assert (await stream.next_frame()).startswith(b"event: trackChanged\n")
        assert (await stream.next_frame()).startswith(
            f"event: trackChanged-{bobs_character.pk}\n".encode())
        assert (await stream.next_frame()).startswith(b"event: liveVersion\n")
        await stream.close()

    async_to_sync(scenario)()


def _as_asked(user: Any, character: Any) -> str:
    """What ``user``'s own request draws now for the regions of ``character``'s sheet that a
    track change redraws."""
    client = Client()
    client.force_login(user)
    character.refresh_from_db()
    ids = live_sheet(character, systems.for_campaign(character.campaign)).hearing(
        ["trackChanged", f"trackChanged-{character.pk}"])
    answer = client.get(character.get_absolute_url(), {"live": ids},
                        headers={"HX-Request": "true"})
    assert answer.status_code == 200
    return _tokenless(answer.content.decode())


def _tokenless(html: str) -> str:
    """``html`` without its forms' CSRF tokens (masked anew in every drawing)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


@stream_test
def test_a_stream_naming_a_page_its_viewer_may_not_read_brings_nothing_of_it(
        campaign, alice, bob, dave) -> None:  # type: ignore[no-untyped-def]
    # Dave's sheet, which Bob may not read (the campaign does not show the party's sheets):
    # his stream hears the change's names, as any member's does, and no region of it.
    wren = dave.characters.get()
    Campaign.objects.filter(pk=campaign.pk).update(party_sheets=False)
    stream = _stream(bob, campaign.pk, wren.get_absolute_url())

    async def scenario() -> None:
        await stream.open()
        await sync_to_async(_damage)(wren, kind="lethal", levels=1)
        assert (await stream.next_frame()).startswith(b"event: trackChanged\n")
        assert (await stream.next_frame()).startswith(b"event: trackChanged-")
        await stream.close()

    async_to_sync(scenario)()


@stream_test
def test_a_change_no_region_of_the_page_hears_is_not_drawn(  # type: ignore[no-untyped-def]
        campaign, bob, bobs_character, dave, monkeypatch) -> None:
    # Marks on Wren concern Rook's sheet not at all: the first asks the sheet's view, which
    # draws nothing and says what the sheet hears (Live-Hears); the next are not asked about.
    calls: list[list[str]] = []

    def counted(*args: Any) -> Any:
        calls.append(args[4])
        return draw_heard(*args)

    monkeypatch.setattr("campaigns.live.draw_heard", counted)
    wren = dave.characters.get()
    stream = _stream(bob, campaign.pk, bobs_character.get_absolute_url())

    async def mark(character: Any) -> list[bytes]:
        await sync_to_async(_damage)(character, kind="bashing", levels=1)
        frames = [await stream.next_frame()]
        while not frames[-1].startswith(b"event: liveVersion\n"):
            frames.append(await stream.next_frame())
        return frames

    async def scenario() -> None:
        await stream.open()
        assert len(await mark(wren)) == 3 and len(calls) == 1
        assert len(await mark(wren)) == 3 and len(calls) == 1
        assert (await mark(bobs_character))[0].startswith(b"event: liveRegions\n")
        assert len(calls) == 2
        await mark(wren)
        assert len(calls) == 2
        await stream.close()

    async_to_sync(scenario)()


@stream_test
def test_a_stream_told_what_its_page_hears_asks_about_nothing_else(  # type: ignore[no-untyped-def]
        campaign, bob, bobs_character, dave, monkeypatch) -> None:
    # The page's stream URL carries what its regions hear (LivePage.hears), so not even the
    # first mark on Wren asks Rook's sheet's view.
    calls: list[object] = []
    monkeypatch.setattr("campaigns.live.draw_heard",
                        lambda *args: calls.append(args) or draw_heard(*args))
    page = live_sheet(bobs_character, systems.for_campaign(campaign))
    stream = _stream(bob, campaign.pk, bobs_character.get_absolute_url(), hears=page.hears)
    wren = dave.characters.get()

    async def scenario() -> None:
        await stream.open()
        await sync_to_async(_damage)(wren, kind="bashing", levels=1)
        for name in (b"trackChanged\n", f"trackChanged-{wren.pk}\n".encode(), b"liveVersion\n"):
            assert (await stream.next_frame()).startswith(b"event: " + name)
        await sync_to_async(_damage)(bobs_character, kind="bashing", levels=1)
        frames = [await stream.next_frame() for _ in range(4)]
        assert frames[0].startswith(b"event: liveRegions\n") and len(calls) == 1
        await stream.close()

    async_to_sync(scenario)()


@stream_test
def test_a_roll_s_line_is_left_to_the_line(campaign, bob, bobs_character) -> None:  # type: ignore[no-untyped-def]
    # A roll redraws the sheet's recent rolls only, and its line comes with the event: the
    # stream brings no region for it.
    stream = _stream(bob, campaign.pk, bobs_character.get_absolute_url())

    def roll() -> None:
        client = Client()
        client.force_login(bob)
        sheet = bobs_character.get_absolute_url()
        roll_from(client, bobs_character, sheet, roll_data(bobs_character))

    async def scenario() -> None:
        await stream.open()
        await sync_to_async(roll)()
        frame = await stream.next_frame()
        assert frame.startswith(b"event: rollMade\n")
        assert (await stream.next_frame()).startswith(
            f"event: rollMade-{bobs_character.pk}\n".encode())
        await stream.close()

    async_to_sync(scenario)()


@pytest.mark.parametrize("then", ["logs out", "another logs in"])
@stream_test
def test_a_stream_draws_nothing_once_its_session_has_ended(  # type: ignore[no-untyped-def]
        campaign, alice, bob, bobs_character, then: str) -> None:
    # Bob's sheet is open in a browser; in another tab of that browser he logs out, or the
    # GM logs in there: the open page's stream, which read Bob when it opened, draws nothing
    # more (the change's names still come; the page asks, and is sent to log in).
    browser = Client()
    browser.force_login(bob)
    scope = _scope(bob, campaign.pk)
    scope["headers"] = [(b"host", b"testserver"),
                        (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())]
    scope["query_string"] = f"page={quote(bobs_character.get_absolute_url())}".encode()
    stream = Stream(bob, campaign.pk, scope=scope)

    def session_ends() -> None:
        if then == "logs out":
            assert browser.post(reverse("logout")).status_code == 302
        else:
            browser.force_login(alice)

    async def scenario() -> None:
        await stream.open()
        await sync_to_async(_damage)(bobs_character, kind="lethal", levels=1)
        assert (await stream.next_frame()).startswith(b"event: liveRegions\n")
        for _ in range(3):
            await stream.next_frame()  # the change's own frames
        await sync_to_async(session_ends)()
        await sync_to_async(_damage)(bobs_character, kind="lethal", levels=1)
        assert (await stream.next_frame()).startswith(b"event: trackChanged\n")
        await stream.close()

    async_to_sync(scenario)()


@pytest.mark.parametrize("path", [
    "/campaigns/", "/admin/", "/accounts/login/", "//evil.example/characters/1/",
    "https://evil.example/characters/1/", "/characters/1/?live=x", "characters/1/",
    "/no/such/page/",
])
def test_only_a_page_whose_view_answers_regions_is_drawn(path: str) -> None:
    assert live_page(path) is None


@pytest.mark.parametrize("name,kwargs", [
    ("characters:character-detail", {"pk": 1}),
    ("table:campaign-detail", {"pk": 1}),
    ("campaigns:campaign-settings", {"pk": 1}),
])
def test_every_live_page_is_drawn_by_its_own_view(name: str, kwargs: dict[str, int]) -> None:
    match = live_page(reverse(name, kwargs=kwargs))
    assert match is not None and match.kwargs == kwargs
