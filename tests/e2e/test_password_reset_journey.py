"""A player who forgot the password resets it from the emailed link, in a real browser.

From the login page's "Forgot your password?", the player types the address and sees the
"sent" page; the test reads the message the server sent, opens its link on a phone, sets a
new password twice, sees the "complete" page, logs in with the new password, finds the old
one refused and the same link now invalid. An unknown address gets exactly the same "sent"
page and no email (no account enumeration). axe-core audits every page of the way; the phone
never scrolls sideways.

Where the mail goes: the server runs in a forked child process (tests/e2e/conftest.py), so
the locmem backend pytest-django installs would keep its ``mail.outbox`` in the child's
memory, out of this process's reach. This module therefore starts its own live server whose
settings, copied at the fork, send mail with Django's file backend into a temporary
directory that the test reads.
"""

from __future__ import annotations

import email
import email.policy
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PASSWORD, AsgiLiveServer, audit, no_horizontal_scroll
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "a-brand-new-table-password"
EMAIL = "wren@example.com"
SENT_PATH = "/password-reset/sent/"
COMPLETE_PATH = "/reset/done/"
# Django's file backend ends every message it writes with a line of 79 dashes.
SEPARATOR = b"\n" + b"-" * 79 + b"\n"


@dataclass
class Outbox:
    """The directory the live server's file email backend writes to, one file per connection
    (one per reset request), each holding messages separated by :data:`SEPARATOR`."""

    directory: Path

    def messages(self) -> list[EmailMessage]:
        """Every message sent so far, oldest file first (names start with a timestamp)."""
        found: list[EmailMessage] = []
        for path in sorted(self.directory.iterdir()):
            for raw in path.read_bytes().split(SEPARATOR):
                if raw.strip():
                    message = email.message_from_bytes(raw, policy=email.policy.default)
                    assert isinstance(message, EmailMessage)
                    found.append(message)
        return found

    def clear(self) -> None:
        """Forget earlier tests' mail (the files are this module's own)."""
        for path in self.directory.iterdir():
            path.unlink()


@pytest.fixture(scope="module")
def mail_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh directory for this module's server to send its mail to."""
    return tmp_path_factory.mktemp("outbox")


@pytest.fixture(scope="module")
def asgi_server(  # type: ignore[no-untyped-def]  # pytest-django's fixtures are untyped
    django_db_setup, django_db_blocker, mail_directory: Path
) -> Iterator[AsgiLiveServer]:
    """This module's live server (overrides the session's, which ``new_page`` then uses):
    mail goes to ``mail_directory`` through Django's file backend, and the rate limits count
    under a key prefix of their own, so earlier tests' requests never reach this one's."""
    with override_settings(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(mail_directory),
        RATELIMIT_CACHE_PREFIX=f"rl:{uuid.uuid4().hex}:",
    ), django_db_blocker.unblock():
        # The child process copies the settings as they are at the fork, inside this block.
        server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture
def outbox(mail_directory: Path) -> Outbox:
    """The server's sent mail, empty at the start of each test."""
    box = Outbox(mail_directory)
    box.clear()
    return box


def ask_for_a_reset(page: Page, address: str) -> str:
    """From the login page, follow "Forgot your password?", submit ``address`` and arrive on
    the "sent" page; returns that page's main text, for comparison."""
    page.goto("/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page).to_have_url(re.compile(r"/password-reset/$"))
    audit(page, label="password reset form")
    page.get_by_label("Email").fill(address)
    page.get_by_role("button", name="Send the link").click()
    expect(page).to_have_url(re.compile(re.escape(SENT_PATH) + "$"))
    expect(page.locator("#password-reset-sent h1")).to_have_text("Check your email")
    audit(page, label="password reset sent page")
    return page.locator("main").inner_text()


def reset_link(message: EmailMessage) -> str:
    """The one reset link in a reset email's plain-text body."""
    body = message.get_content()
    links = re.findall(r"https?://\S+/reset/[^/\s]+/[^/\s]+/", body)
    assert len(links) == 1, f"expected one reset link in:\n{body}"
    return str(links[0])


def make_wren() -> None:
    """Wren, a player with an email address and the e2e suite's password."""
    UserFactory(  # type: ignore[no-untyped-call]  # factory_boy ships no type hints
        username="wren", email=EMAIL, password=PASSWORD)


def log_in(page: Page, username: str, password: str) -> None:
    """Fill the login form in and submit it (where it lands is the caller's to check)."""
    page.goto("/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button:has-text('Log in')")


def test_a_forgotten_password_is_reset_from_the_emailed_link(  # type: ignore[no-untyped-def]
    new_page, asgi_server: AsgiLiveServer, outbox: Outbox
) -> None:
    make_wren()
    desk = new_page()

    ask_for_a_reset(desk, EMAIL)
    messages = outbox.messages()
    assert len(messages) == 1
    assert messages[0]["To"] == EMAIL
    assert messages[0]["Subject"] == "Reset your Sheetkeeper password"
    link = reset_link(messages[0])
    # Built from the request's host, as Django does (ALLOWED_HOSTS guards it).
    assert link.startswith(f"{asgi_server.url}/reset/")

    # The link is opened on a phone, as someone reading mail would.
    phone = new_page(phone=True)
    phone.goto(link)
    expect(phone.locator("h1")).to_have_text("Choose a new password")
    audit(phone, label="set a new password (phone)")
    no_horizontal_scroll(phone)
    phone.fill("input[name=new_password1]", NEW_PASSWORD)
    phone.fill("input[name=new_password2]", NEW_PASSWORD)
    phone.get_by_role("button", name="Set my password").click()
    expect(phone).to_have_url(re.compile(re.escape(COMPLETE_PATH) + "$"))
    expect(phone.locator("#password-reset-complete h1")).to_have_text(
        "Your new password is set")
    audit(phone, label="password reset complete (phone)")
    no_horizontal_scroll(phone)

    # The new password signs in; the header then names the player.
    log_in(phone, "wren", NEW_PASSWORD)
    expect(phone).to_have_url(re.compile(r"/campaigns/$"))
    expect(phone.locator("header .who")).to_have_text("wren")

    # The old one no longer does (a fresh browser: nobody signed in).
    stranger = new_page()
    log_in(stranger, "wren", PASSWORD)
    expect(stranger.locator("main")).to_contain_text("correct username and password")
    expect(stranger.locator("header")).to_contain_text("Log in")

    # The link worked once: opened again it is refused, and no password field is offered.
    again = new_page(phone=True)
    again.goto(link)
    expect(again.locator("#password-reset-invalid h1")).to_have_text(
        "This reset link does not work")
    expect(again.locator("input[name=new_password1]")).to_have_count(0)
    audit(again, label="reset link used twice (phone)")
    no_horizontal_scroll(again)


def test_an_unknown_address_gets_the_same_page_and_no_email(  # type: ignore[no-untyped-def]
    new_page, outbox: Outbox
) -> None:
    make_wren()

    unknown = ask_for_a_reset(new_page(), "nobody-here@example.com")
    assert outbox.messages() == []

    known = ask_for_a_reset(new_page(), EMAIL)
    assert len(outbox.messages()) == 1
    assert unknown == known
