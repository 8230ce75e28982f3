"""Delivery off the request path: the post waits in the task queue until the worker sends
it; a channel that fails for a while is tried again later, and the hook's status shows the
last error, then the delivery; a refusal that will not change, or a URL that now resolves
inward, is not tried again (chat/tasks.py)."""

from __future__ import annotations

import datetime

import httpx
import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from chat import tasks
from chat.models import ChatHook
from history.log import record
from history.models import Activity
from tests.chat.receiver import Receiver
from tests.task_queue import database_queue, queued, run_the_worker

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = ["database_queue"]  # a fixture, used by name


@pytest.fixture
def hook(campaign, alice, receiver: Receiver, database_queue) -> ChatHook:  # type: ignore[no-untyped-def]
    return ChatHook.objects.create(campaign=campaign, url=receiver.url, connected_by=alice)


def _recap(hook: ChatHook) -> Activity:
    return record(campaign_id=hook.campaign_id, kind=Activity.Kind.SESSION, action="recap",
                  text="Wrote the recap of The heist.", by=None)


def _waiting() -> list[DBTaskResult]:
    return [row for row in queued("chat.tasks.deliver") if row.status == "READY"]


def _make_due() -> None:
    """The clock moves on: every waiting retry is due now."""
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())


def test_the_request_only_queues_the_post_and_the_worker_sends_it(hook, receiver  # type: ignore[no-untyped-def]
                                                                   ) -> None:
    _recap(hook)  # committed at once: the test runs outside a transaction

    assert receiver.posts == []
    [row] = _waiting()
    assert hook.url not in str(row.args_kwargs)  # the queue keeps ids, never the URL

    run_the_worker()

    assert [p.body["embeds"][0]["title"] for p in receiver.posts] == [
        "Wrote the recap of The heist."]
    hook.refresh_from_db()
    assert hook.last_delivery_at is not None and hook.last_status == 204
    assert not hook.failing


def test_a_failing_channel_is_tried_again_and_the_status_shows_the_error_then_the_delivery(
        hook, receiver) -> None:  # type: ignore[no-untyped-def]
    receiver.statuses = [500]
    _recap(hook)

    run_the_worker()

    hook.refresh_from_db()
    assert hook.failing and hook.last_status == 500
    assert hook.last_error.startswith("The channel's server failed (HTTP 500).")
    assert "attempt 2 of 4" in hook.last_error
    [retry] = _waiting()
    assert retry.run_after > timezone.now() + datetime.timedelta(seconds=5)

    _make_due()
    run_the_worker()

    hook.refresh_from_db()
    assert not hook.failing and hook.last_status == 204
    assert len(receiver.posts) == 2 and receiver.posts[0].body == receiver.posts[1].body
    assert _waiting() == []


def test_a_429_waits_as_long_as_the_channel_asks_within_reason(hook, receiver  # type: ignore[no-untyped-def]
                                                                ) -> None:
    receiver.statuses = [(429, {"Retry-After": "2"}), (429, {"Retry-After": "86400"})]
    _recap(hook)

    run_the_worker()
    [retry] = _waiting()
    wait = (retry.run_after - timezone.now()).total_seconds()
    assert 0 < wait <= 2
    _make_due()
    run_the_worker()
    [retry] = _waiting()
    wait = (retry.run_after - timezone.now()).total_seconds()
    assert tasks.RETRY_AFTER_MAX - 5 < wait <= tasks.RETRY_AFTER_MAX


def test_a_channel_that_keeps_failing_is_given_up_after_the_last_attempt(hook, receiver  # type: ignore[no-untyped-def]
                                                                         ) -> None:
    receiver.statuses = [503] * tasks.ATTEMPTS
    _recap(hook)

    for _ in range(tasks.ATTEMPTS):
        run_the_worker()
        _make_due()

    assert len(receiver.posts) == tasks.ATTEMPTS
    assert _waiting() == []
    hook.refresh_from_db()
    assert hook.failing and "Trying again" not in hook.last_error


def test_a_deleted_webhook_is_not_tried_again(hook, receiver) -> None:  # type: ignore[no-untyped-def]
    receiver.statuses = [404]
    _recap(hook)

    run_the_worker()

    assert _waiting() == []
    hook.refresh_from_db()
    assert "may have been deleted" in hook.last_error and hook.last_status == 404


def test_a_url_that_now_resolves_inward_is_not_posted_to(hook, receiver, resolver,  # type: ignore[no-untyped-def]
                                                         settings) -> None:
    # Saved while its name was public; its DNS now answers with the server's own network.
    ChatHook.objects.filter(pk=hook.pk).update(url="https://hooks.example.org/api/webhooks/1/x")
    resolver({"hooks.example.org": ["10.0.0.7"]})
    _recap(hook)

    run_the_worker()

    assert receiver.posts == [] and _waiting() == []
    hook.refresh_from_db()
    assert "private network" in hook.last_error and "api/webhooks" not in hook.last_error


def test_a_channel_that_does_not_answer_in_time_is_tried_again(hook, receiver, settings,  # type: ignore[no-untyped-def]
                                                               monkeypatch) -> None:
    def silent(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise httpx.ReadTimeout("timed out")

    monkeypatch.setattr(httpx.Client, "post", silent)
    _recap(hook)

    run_the_worker()

    hook.refresh_from_db()
    assert hook.last_error.startswith("The channel did not answer in time.")
    assert hook.last_status is None and len(_waiting()) == 1


def test_a_post_queued_before_the_hook_was_disconnected_sends_nothing(hook, receiver  # type: ignore[no-untyped-def]
                                                                      ) -> None:
    _recap(hook)
    ChatHook.objects.filter(pk=hook.pk).delete()

    run_the_worker()

    assert receiver.posts == []


def test_a_hook_on_a_host_name_in_another_script_is_posted_to_by_its_ascii_name(
        hook, receiver, resolver) -> None:  # type: ignore[no-untyped-def]
    """A host name of letters beyond ASCII ("exämple") is checked, resolved and sent in
    ``Host`` as DNS and HTTP spell it (IDNA, "xn--..."), not left to crash the worker."""
    # The system's resolver takes either spelling (it encodes the name itself).
    resolver({"hooks.exämple.test": ["127.0.0.1"], "hooks.xn--exmple-cua.test": ["127.0.0.1"]})
    port = receiver.url.split(":")[2].split("/")[0]
    ChatHook.objects.filter(pk=hook.pk).update(
        url=f"http://hooks.exämple.test:{port}/api/webhooks/42/s3cr3t-token")
    _recap(hook)

    run_the_worker()

    [post] = receiver.posts
    assert post.headers["Host"] == f"hooks.xn--exmple-cua.test:{port}"
    hook.refresh_from_db()
    assert hook.last_status == 204 and not hook.failing
