"""The signal receiver that queues a post to the group's chat once the change it tells of is
committed: connected in ``chat.apps`` to the activity log's ``post_save``, because the log's
writer, below the services, cannot import the chat. What is posted is ``chat.events``'.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction

from chat.events import switch
from chat.models import ChatHook
from chat.tasks import deliver
from history.models import Activity

__all__ = ["activity_saved"]


def _queue(activity_id: int, campaign_id: int, event: str) -> None:
    """After the commit: queue the post when the campaign has a hook with the ``event``
    switch on (one query; nothing queued for a campaign without one)."""
    hooks = ChatHook.objects.filter(campaign_id=campaign_id, **{event: True})
    hook_id = hooks.values_list("pk", flat=True).first()
    if hook_id is not None:
        deliver.enqueue(hook_id=hook_id, activity_id=activity_id)


def activity_saved(sender: type[Activity], instance: Activity, created: bool,
                   **kwargs: Any) -> None:
    """``post_save`` of :class:`Activity`: a new entry of a kind the chat may post is queued
    for delivery once its transaction commits (nothing is queued for a change that is rolled
    back), off the request path. Whether the hook posts it is decided again by the task."""
    event = switch(instance)
    if not created or kwargs.get("raw") or event is None:
        return
    transaction.on_commit(partial(_queue, instance.pk, instance.campaign_id, event),
                          robust=True)
