"""A campaign's live version (issue 18, campaigns.versions): every announced change bumps it
once committed, before the event goes out; a live region asked at the version its page holds
answers 304 without building or rendering anything, and one asked at an older version
answers the regions with the new version as its ETag."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from characters.services import character_update
from core import live
from core.regions import LivePage, etag
from tests.system_fixtures import demo_campaign, selectable_systems

pytestmark = pytest.mark.django_db

SYSTEMS = selectable_systems()


@pytest.fixture
def table(request: pytest.FixtureRequest, alice: Any, bob: Any) -> tuple[Campaign, Character]:
    campaign = demo_campaign(getattr(request, "param", SYSTEMS[0]), name="Versions", gm=alice,
                             players=[bob], rng=random.Random(18))
    return campaign, campaign.characters.get(owner=bob)


def version(campaign: Campaign) -> int:
    return Campaign.objects.get(pk=campaign.pk).live_version


def pages(campaign: Campaign, character: Character) -> list[str]:
    return [character.get_absolute_url(), campaign.get_absolute_url(),
            reverse("campaigns:campaign-settings", args=[campaign.pk])]


@pytest.mark.parametrize("table", ["shahquest"], indirect=True)  # a panel on every page
def test_a_region_asked_at_the_current_version_is_not_modified(
        table: tuple[Campaign, Character], alice: Any,
        client_for: Callable[..., Client]) -> None:
    """Nothing changed since the page was drawn: 304, no body, and no query past the
    viewer's check (the session, the user, the viewer's seat with the campaign)."""
    campaign, character = table
    gm = client_for(alice)
    for url in pages(campaign, character):
        page: LivePage = gm.get(url).context["live"]
        assert page.version == version(campaign)
        asked = page.url_for(page.sync_ids)
        with CaptureQueriesContext(connection) as queries:
            answer = gm.get(asked, headers={"If-None-Match": etag(page.version)})
        assert answer.status_code == 304, url
        assert answer.content == b"" and answer["ETag"] == etag(page.version)
        assert len(queries) == 3, [q["sql"] for q in queries]
        drawn = gm.get(asked, headers={"If-None-Match": etag(page.version - 1)})
        assert drawn.status_code == 200 and drawn["ETag"] == etag(page.version)
        assert drawn.content.strip()


@pytest.mark.parametrize("table", SYSTEMS, indirect=True)
def test_a_change_bumps_the_version_and_the_region_is_drawn_again(
        table: tuple[Campaign, Character], alice: Any, bob: Any,
        client_for: Callable[..., Client],
        django_capture_on_commit_callbacks: Any) -> None:
    campaign, character = table
    player = client_for(bob)
    page: LivePage = player.get(character.get_absolute_url()).context["live"]
    held = {"If-None-Match": etag(page.version)}
    assert player.get(page.url_for(page.ids), headers=held).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        character_update(character=character, by=alice, name="Renamed at the table")
    assert version(campaign) > page.version
    again = player.get(page.url_for(page.ids), headers=held)
    assert again.status_code == 200 and again["ETag"] == etag(version(campaign))


def test_the_version_is_bumped_before_anyone_hears_of_the_change(
        table: tuple[Campaign, Character], alice: Any, monkeypatch: pytest.MonkeyPatch,
        django_capture_on_commit_callbacks: Any) -> None:
    """A page that hears the event asks at once: by then the version must be the new one,
    or it would be told "not modified" and keep the old regions."""
    campaign, character = table
    before = version(campaign)
    seen: list[int] = []
    monkeypatch.setattr(live, "_send_on_commit", lambda *args, **kwargs: (
        live.transaction.on_commit(lambda: seen.append(version(campaign)))))
    with django_capture_on_commit_callbacks(execute=True):
        live.announce(campaign.pk, "trackChanged", character_id=character.pk)
    assert seen == [before + 1]


def test_a_change_rolled_back_bumps_nothing(table: tuple[Campaign, Character]) -> None:
    campaign, character = table
    before = version(campaign)
    from django.db import transaction

    with pytest.raises(RuntimeError), transaction.atomic():
        live.announce(campaign.pk, "trackChanged", character_id=character.pk)
        raise RuntimeError("the change fails")
    assert version(campaign) == before
