"""Posting to the group's chat, off the request path: :func:`deliver`, a task (django-tasks)
run by the worker (``manage.py db_worker``), queued after the change it tells of is
committed (``chat.relay``) or by the GM's "send a test post" (``chat.services``).

What the queue stores of a task is the hook's id and the entry's, never the URL: the URL is
read from the hook when the post is sent, checked again (``chat.addresses``: a DNS answer
may have changed since it was saved) and connected to at the address checked. A post the
channel refuses for a while (a 5xx, a 429, no answer) is tried again later, up to
:data:`ATTEMPTS` times, by queueing the task again with ``run_after``; the hook's status
says how the last attempt went (docs/history.md, "The group's chat").
"""

from __future__ import annotations

import logging
from datetime import timedelta

import httpx
from django.conf import settings
from django.utils import timezone
from django_tasks import task

from chat import posts
from chat.addresses import Target, UnsafeWebhook, check_url
from chat.events import relayed
from chat.models import ChatHook
from history.models import Activity

logger = logging.getLogger(__name__)

__all__ = ["ATTEMPTS", "RETRY_DELAYS", "deliver", "send"]

RETRY_DELAYS: tuple[int, ...] = (10, 60, 300)
"""Seconds before the second, third and fourth attempt of a post that failed for a while."""

ATTEMPTS = len(RETRY_DELAYS) + 1
"""How many times a post is tried before it is given up (its error stays on the hook)."""

RETRY_AFTER_MAX = 300
"""The longest wait a channel's ``Retry-After`` may ask for (seconds); longer is cut here."""


class Refused(Exception):
    """The channel did not take the post. ``str()`` says why for the GM, never with the URL;
    ``status`` is the HTTP status (None: no answer), ``again`` whether to try again, and
    ``after`` the seconds the channel asked to wait (None: ours)."""

    def __init__(self, reason: str, *, status: int | None, again: bool,
                 after: int | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.again = again
        self.after = after


def _retry_after(response: httpx.Response) -> int | None:
    """The seconds a 429's ``Retry-After`` asks for (whole seconds; Discord also says it in
    the body's ``retry_after``), held between 1 and :data:`RETRY_AFTER_MAX`; None if it
    says none we can read."""
    raw = response.headers.get("Retry-After", "")
    try:
        seconds = float(raw)
    except ValueError:
        return None
    return int(min(max(seconds, 1), RETRY_AFTER_MAX))


def send(target: Target, body: dict[str, object]) -> int:
    """POST ``body`` as JSON to ``target``, connecting to the address checked (TLS still
    verifies the certificate for the host's name), following no redirect, ignoring any proxy
    of the environment, within ``settings.CHAT_WEBHOOK_TIMEOUT`` seconds. Returns the HTTP
    status of a 2xx answer. Raises :class:`Refused` for anything else."""
    host = target.host if ":" not in target.host else f"[{target.host}]"
    default_port = 443 if target.scheme == "https" else 80
    headers = {"Host": host if target.port == default_port else f"{host}:{target.port}",
               "User-Agent": "Sheetkeeper"}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    try:
        with httpx.Client(timeout=settings.CHAT_WEBHOOK_TIMEOUT, follow_redirects=False,
                          trust_env=False) as client:
            response = client.post(target.pinned_url, json=body, headers=headers,
                                   extensions=extensions)
    except httpx.TimeoutException as exc:
        raise Refused("The channel did not answer in time.", status=None, again=True) from exc
    except httpx.HTTPError as exc:
        # The exception's text may hold the URL: the GM is told its kind alone.
        raise Refused(f"Could not reach the channel ({type(exc).__name__}).",
                      status=None, again=True) from exc
    status = response.status_code
    if 200 <= status < 300:
        return status
    if status == 429:
        raise Refused("The channel asked us to slow down (HTTP 429).", status=status,
                      again=True, after=_retry_after(response))
    if status >= 500:
        raise Refused(f"The channel's server failed (HTTP {status}).", status=status,
                      again=True)
    if status in (401, 403, 404):
        raise Refused(f"The channel refused the webhook (HTTP {status}): it may have been "
                      "deleted; connect a new one.", status=status, again=False)
    raise Refused(f"The channel refused the post (HTTP {status}).", status=status,
                  again=False)


def _post_for(hook: ChatHook, activity_id: int | None) -> posts.Post | None:
    """The post to send: the entry's, if the hook relays it now, or the test post."""
    if activity_id is None:
        return posts.test_post(hook.campaign)
    activity = (Activity.objects.select_related("campaign", "character", "actor", "roll")
                .filter(pk=activity_id).first())
    if activity is None or not relayed(activity, hook):
        return None
    return posts.activity_post(activity)


@task()
def deliver(*, hook_id: int, activity_id: int | None = None, attempt: int = 1) -> str:
    """Post one entry of the activity log (``activity_id``; None: the GM's test post) to the
    campaign's chat through the hook ``hook_id``, and set the hook's status.

    Nothing is sent when the hook is gone (disconnected since) or no longer posts the entry
    (its switch turned off, the entry hidden). A URL that fails the address check now, a
    refusal that will not change (4xx) or the last attempt's failure is kept on the hook
    as its last error; a failure that may pass (5xx, 429, no answer) queues attempt
    ``attempt + 1`` after :data:`RETRY_DELAYS` (or the channel's ``Retry-After``), up to
    :data:`ATTEMPTS`. Returns what happened, in a word, for the queue's row: ``"sent"``,
    ``"skipped"``, ``"retrying"`` or ``"failed"``.
    """
    hook = ChatHook.objects.select_related("campaign").filter(pk=hook_id).first()
    if hook is None:
        return "skipped"
    post = _post_for(hook, activity_id)
    if post is None:
        return "skipped"
    now = timezone.now
    try:
        target = check_url(hook.url)
        status = send(target, posts.body(hook, post))
    except UnsafeWebhook as exc:
        ChatHook.objects.filter(pk=hook.pk).update(
            last_error=str(exc)[:300], last_error_at=now(), last_status=None)
        logger.warning("chat post for campaign %s not sent: the URL failed its check",
                       hook.campaign_id)
        return "failed"
    except Refused as exc:
        again = exc.again and attempt < ATTEMPTS
        reason = str(exc) + (f" Trying again (attempt {attempt + 1} of {ATTEMPTS})."
                             if again else "")
        ChatHook.objects.filter(pk=hook.pk).update(
            last_error=reason[:300], last_error_at=now(), last_status=exc.status)
        logger.warning("chat post for campaign %s not delivered (attempt %s): %s",
                       hook.campaign_id, attempt, exc)
        if not again:
            return "failed"
        delay = exc.after if exc.after is not None else RETRY_DELAYS[attempt - 1]
        retry = deliver
        if retry.get_backend().supports_defer:
            retry = retry.using(run_after=now() + timedelta(seconds=delay))
        retry.enqueue(hook_id=hook_id, activity_id=activity_id, attempt=attempt + 1)
        return "retrying"
    ChatHook.objects.filter(pk=hook.pk).update(last_delivery_at=now(), last_status=status)
    return "sent"
