"""The reset email is sent off the request path (issue 31, "The reset's timing tells"): the
request queues one task carrying the address and the host, for a known address and an unknown
one alike, and never looks the address up; the worker finds the accounts, writes the links and
sends the mail. What the queue stores can reset no password, a host outside ``ALLOWED_HOSTS``
gets no link, and a mail server that refuses is logged while the worker goes on."""

from __future__ import annotations

import json
import logging
import re
import smtplib
from collections.abc import Sequence

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage
from django.db import connection
from django.forms.models import model_to_dict
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tasks import TaskResultStatus

from accounts.tasks import password_reset_mail
from tests import task_queue
from tests.factories import PASSWORD, UserFactory
from tests.task_queue import queued, run_the_worker

pytestmark = pytest.mark.django_db

database_queue = task_queue.database_queue

RESET_TASK = "accounts.tasks.password_reset_mail"
NEW_PASSWORD = "lantern-quarry-mosaic-41"


@pytest.fixture
def dora(db):  # type: ignore[no-untyped-def]
    return UserFactory(username="dora", email="dora@example.org")


def ask_for_a_link(address: str, **extra: object):  # type: ignore[no-untyped-def]
    return Client().post(reverse("password_reset"), {"email": address}, **extra)


def the_link(message: EmailMessage) -> str:
    found = re.findall(r"https?://[^/\s]+/reset/[^/\s]+/[^/\s]+/", message.body)
    assert len(found) == 1, message.body
    return str(found[0])


def test_asking_sends_nothing_and_queues_one_task_with_the_address_and_host_only(
    database_queue, dora
) -> None:  # type: ignore[no-untyped-def]
    response = ask_for_a_link("DORA@example.org")

    assert response.status_code == 302
    assert response.url == reverse("password_reset_done")
    assert mail.outbox == []
    [row] = queued()
    assert row.task_path == RESET_TASK
    assert row.status == TaskResultStatus.READY
    assert row.args_kwargs == {"args": [], "kwargs": {
        "email": "DORA@example.org", "domain": "testserver", "use_https": False}}


def test_an_unknown_address_costs_the_request_the_same_work_as_a_known_one(
    database_queue, dora
) -> None:  # type: ignore[no-untyped-def]
    def statements(address: str) -> list[str]:
        with CaptureQueriesContext(connection) as queries:
            assert ask_for_a_link(address).status_code == 302
        # The task's id and the address aside, the same SQL.
        return [re.sub(r"'[^']*'", "?", q["sql"]) for q in queries.captured_queries]

    known, unknown = statements("dora@example.org"), statements("nobody@example.org")

    assert known == unknown
    assert len(known) == 1 and known[0].startswith("INSERT")  # the queued task, nothing else
    assert not any("auth_user" in sql for sql in known)  # the address is never looked up
    assert [row.args_kwargs["kwargs"]["email"] for row in queued(RESET_TASK)] == [
        "dora@example.org", "nobody@example.org"]


def test_a_forged_host_is_refused_before_anything_is_queued(database_queue, dora) -> None:  # type: ignore[no-untyped-def]
    response = Client(raise_request_exception=False).post(
        reverse("password_reset"), {"email": "dora@example.org"}, HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert queued() == []


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_one_mail_whose_link_sets_a_new_password(database_queue, dora) -> None:  # type: ignore[no-untyped-def]
    ask_for_a_link("DORA@example.org", secure=True)
    assert mail.outbox == []

    run_the_worker()

    [message] = mail.outbox
    assert message.to == ["dora@example.org"]
    assert message.subject == "Reset your Sheetkeeper password"
    link = the_link(message)
    assert link.startswith("https://testserver/reset/")  # the request's host and scheme
    client = Client()
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(form_page.redirect_chain[-1][0], {
        "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.url == reverse("password_reset_complete")
    dora.refresh_from_db()
    assert dora.check_password(NEW_PASSWORD) and not dora.check_password(PASSWORD)
    # What the queue keeps of the task can reset nothing: the link's token is nowhere in it.
    [row] = queued(RESET_TASK)
    assert row.status == TaskResultStatus.SUCCESSFUL
    assert row.return_value is None
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert token not in json.dumps(model_to_dict(row), default=str)


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_nothing_for_an_unknown_address(database_queue, dora) -> None:  # type: ignore[no-untyped-def]
    ask_for_a_link("nobody@example.org")

    run_the_worker()

    assert mail.outbox == []
    assert [row.status for row in queued(RESET_TASK)] == [TaskResultStatus.SUCCESSFUL]


@pytest.mark.django_db(transaction=True)
def test_a_queued_host_outside_the_allowed_hosts_gets_no_link(
    database_queue, dora, caplog
) -> None:  # type: ignore[no-untyped-def]
    password_reset_mail.enqueue(email="dora@example.org", domain="evil.example",
                                use_https=True)

    with caplog.at_level(logging.WARNING, logger="accounts.tasks"):
        run_the_worker()

    assert mail.outbox == []
    assert "host 'evil.example' is not in ALLOWED_HOSTS" in caplog.text


class RefusingBackend(BaseEmailBackend):
    """A mail server that refuses every message."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        raise smtplib.SMTPDataError(554, b"Transaction failed")


@pytest.mark.django_db(transaction=True)
def test_a_refused_mail_is_logged_without_the_link_and_the_worker_goes_on(
    database_queue, dora, settings, caplog
) -> None:  # type: ignore[no-untyped-def]
    wren = UserFactory(username="wren", email="wren@example.org")
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    ask_for_a_link("dora@example.org")
    ask_for_a_link("wren@example.org")

    with caplog.at_level(logging.INFO):
        run_the_worker()

    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in failures] == [
        f"Failed to send password reset email to {user.pk}" for user in (dora, wren)]
    assert "/reset/" not in caplog.text
    assert [row.status for row in queued(RESET_TASK)] == [TaskResultStatus.SUCCESSFUL] * 2
