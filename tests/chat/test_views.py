"""The GM's chat page (chat/views.py): connect, change, test and disconnect, by plain POST
and by htmx; a refused URL shown again with the reason; the URL shown to nobody once saved,
never in a player's page or the campaign's export; read-only once archived."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Membership
from chat.models import ChatHook
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SECRET = "s3cr3t-token"
"""The secret part of every webhook URL here."""


def _page(campaign: Campaign) -> str:
    return reverse("chat:campaign-chat", args=[campaign.pk])


def _connect(client, campaign, url, **more):  # type: ignore[no-untyped-def]
    return client.post(_page(campaign), {"url": url, "format": "discord", "post_rolls": "on",
                                         "post_xp": "on", **more})


def test_the_gm_connects_a_channel_and_sees_it_masked(campaign, alice, client_for,  # type: ignore[no-untyped-def]
                                                     resolver) -> None:
    resolver({"discord.com": ["162.159.135.232"]})
    client = client_for(alice)
    url = f"https://discord.com/api/webhooks/42/{SECRET}"

    response = _connect(client, campaign, url)

    assert response.status_code == 302 and response["Location"] == _page(campaign)
    hook = ChatHook.objects.get(campaign=campaign)
    assert (hook.url, hook.post_rolls, hook.post_xp, hook.post_recaps) == (url, True, True, False)
    page = client.get(_page(campaign)).content.decode()
    assert "Chat connected" in page
    assert "https://discord.com/…/…oken" in page
    assert SECRET not in page


def test_a_refused_url_is_shown_again_with_the_reason(campaign, alice, client_for  # type: ignore[no-untyped-def]
                                                     ) -> None:
    for htmx in (False, True):
        response = _connect(client_for(alice, htmx=htmx), campaign,
                            "https://10.0.0.7/api/webhooks/1/x")

        assert response.status_code == 200
        body = response.content.decode()
        assert "A webhook must be on a public host: a private network" in body
        assert 'value="https://10.0.0.7/api/webhooks/1/x"' in body
        assert ("<html" in body) is not htmx
    assert not ChatHook.objects.exists()


def test_htmx_gets_the_region_back_after_a_change(campaign, alice, client_for,  # type: ignore[no-untyped-def]
                                                  receiver) -> None:
    client = client_for(alice, htmx=True)

    response = _connect(client, campaign, receiver.url)

    body = response.content.decode()
    assert response.status_code == 200 and body.startswith('\n<div id="chat-hook">')
    assert "Chat connected" in body and receiver.url not in body


def test_a_blank_url_keeps_the_saved_one_and_a_new_url_starts_a_new_status(  # type: ignore[no-untyped-def]
        campaign, alice, client_for, receiver) -> None:
    hook = ChatHook.objects.create(campaign=campaign, url=receiver.url, last_status=500,
                                   last_error="HTTP 500", last_error_at=timezone.now())
    client = client_for(alice)

    _connect(client, campaign, "", format="slack")
    hook.refresh_from_db()
    assert (hook.url, hook.format, hook.last_status) == (receiver.url, "slack", 500)

    _connect(client, campaign, receiver.url + "2")
    hook.refresh_from_db()
    assert (hook.url, hook.last_status, hook.last_error) == (receiver.url + "2", None, "")


def test_the_test_post_reaches_the_channel_and_the_status_says_so(  # type: ignore[no-untyped-def]
        campaign, alice, client_for, receiver, django_capture_on_commit_callbacks) -> None:
    ChatHook.objects.create(campaign=campaign, url=receiver.url)
    client = client_for(alice)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("chat:campaign-chat-test", args=[campaign.pk]))

    assert response.status_code == 302
    [post] = receiver.posts
    assert post.body["embeds"][0]["title"] == "Sheetkeeper is connected to this channel"
    page = client.get(_page(campaign)).content.decode()
    assert "Posts are arriving." in page and "HTTP 204" in page


def test_the_status_shows_the_last_error(campaign, alice, client_for) -> None:  # type: ignore[no-untyped-def]
    ChatHook.objects.create(campaign=campaign, url=f"https://162.159.135.232/{SECRET}",
                            last_error="The channel's server failed (HTTP 502).",
                            last_error_at=timezone.now(), last_status=502)

    page = client_for(alice).get(_page(campaign)).content.decode()

    assert "The last post did not arrive: The channel&#x27;s server failed (HTTP 502)." in page


def test_disconnecting_asks_first_then_deletes_the_hook(campaign, alice, client_for,  # type: ignore[no-untyped-def]
                                                       receiver) -> None:
    ChatHook.objects.create(campaign=campaign, url=receiver.url)
    client = client_for(alice)
    url = reverse("chat:campaign-chat-delete", args=[campaign.pk])

    asked = client.get(url)
    assert asked.status_code == 200 and "Disconnect The Drift from its chat?" in (
        asked.content.decode())
    assert ChatHook.objects.exists()

    response = client.post(url)
    assert response.status_code == 302 and not ChatHook.objects.exists()


def test_a_co_gm_keeps_the_chat_as_the_gm_does(campaign, client_for, receiver  # type: ignore[no-untyped-def]
                                               ) -> None:
    co_gm = UserFactory(username="cora")
    Membership.objects.create(campaign=campaign, user=co_gm, role=Membership.Role.CO_GM)

    response = _connect(client_for(co_gm), campaign, receiver.url)

    assert response.status_code == 302 and ChatHook.objects.get().connected_by == co_gm


def test_the_url_never_reaches_a_player_or_the_export(  # type: ignore[no-untyped-def]
        campaign, alice, bob, bobs_character, client_for, receiver) -> None:
    ChatHook.objects.create(campaign=campaign, url=receiver.url)
    player = client_for(bob)

    for name, args in (("chat:campaign-chat", [campaign.pk]),
                       ("chat:campaign-chat-delete", [campaign.pk])):
        assert player.get(reverse(name, args=args)).status_code == 404
    for page in (campaign.get_absolute_url(), bobs_character.get_absolute_url(),
                 reverse("rolls:roll-list", args=[campaign.pk])):
        body = player.get(page).content.decode()
        assert SECRET not in body and "api/webhooks" not in body
    export = client_for(alice).get(reverse("transfer:campaign-export", args=[campaign.pk]))
    document = json.loads(b"".join(export.streaming_content) if export.streaming
                          else export.content)
    assert SECRET not in json.dumps(document)


def test_an_archived_campaign_shows_the_page_read_only_and_refuses_changes(  # type: ignore[no-untyped-def]
        campaign, alice, client_for, receiver) -> None:
    ChatHook.objects.create(campaign=campaign, url=receiver.url)
    Campaign.objects.filter(pk=campaign.pk).update(archived_at=timezone.now())
    client = client_for(alice)

    page = client.get(_page(campaign)).content.decode()
    refused = _connect(client, campaign, receiver.url, format="slack")

    assert "Read-only while the campaign is archived" in page
    assert "Send a test post" not in page and 'name="url" ' in page and "disabled" in page
    assert refused.status_code == 403
    assert ChatHook.objects.get().format == "discord"
