"""Connecting a campaign to its group's chat, changing and disconnecting it, and the GM's
test post (docs/history.md, "The group's chat"). The views call these; the posts the table
sends are queued by ``chat.relay`` and sent by ``chat.tasks``."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from chat.addresses import check_url
from chat.models import ChatHook
from chat.tasks import deliver

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from campaigns.models import Campaign

__all__ = ["SWITCHES", "chat_hook_delete", "chat_hook_save", "chat_test_post"]

SWITCHES = ("post_rolls", "post_xp", "post_recaps", "post_turns")
"""The hook's switches, one per kind of post (``ChatHook``)."""


def chat_hook_save(*, campaign: Campaign, url: str | None, format: str,
                   switches: dict[str, bool], by: User) -> ChatHook:
    """Connect ``campaign`` to a chat channel, or change its connection, and return the hook.

    Args:
        campaign: the campaign (whoever calls has checked that ``by`` runs its table).
        url: the channel's incoming-webhook URL; ``None`` keeps the hook's (a new hook needs
            one). Checked here (``chat.addresses.check_url``).
        format: ``ChatHook.Format``: Discord's or Slack's posts.
        switches: each of :data:`SWITCHES` -> on or off (missing: on).
        by: who connects it.

    Raises ``chat.addresses.UnsafeWebhook`` for a URL the server will not post to, and
    ValueError when a new hook is given no URL. A changed URL starts a new status (the old
    channel's deliveries say nothing of the new one).
    """
    if url is not None:
        url = check_url(url).url
    try:
        return _save(campaign=campaign, url=url, format=format, switches=switches, by=by)
    except IntegrityError:
        # Two first connections at once: the other made the campaign's hook; change it.
        return _save(campaign=campaign, url=url, format=format, switches=switches, by=by)


def _save(*, campaign: Campaign, url: str | None, format: str, switches: dict[str, bool],
          by: User) -> ChatHook:
    with transaction.atomic():
        hook = ChatHook.objects.select_for_update().filter(campaign=campaign).first()
        if hook is None:
            if url is None:
                raise ValueError("A new connection needs its webhook URL.")
            hook = ChatHook(campaign=campaign)
        if url is not None and url != hook.url:
            hook.url = url
            hook.last_delivery_at = hook.last_error_at = hook.last_status = None
            hook.last_error = ""
        hook.format = format
        for name in SWITCHES:
            setattr(hook, name, switches.get(name, True))
        hook.connected_by = by
        hook.save()
    return hook


def chat_hook_delete(*, campaign: Campaign) -> bool:
    """Disconnect ``campaign`` from its chat: the hook and its URL are deleted, and posts
    still queued send nothing. Returns whether there was one."""
    deleted, _ = ChatHook.objects.filter(campaign=campaign).delete()
    return deleted > 0


def chat_test_post(*, hook: ChatHook) -> None:
    """Queue a test post to the hook's channel, sent by the worker once this transaction
    commits; its outcome shows in the hook's status."""
    transaction.on_commit(partial(deliver.enqueue, hook_id=hook.pk), robust=True)
