"""The browser harness: Debian's Chromium driven by Playwright against the project's ASGI
application served by daphne in a child process (the live table needs ASGI), axe-core for
accessibility, phone and desktop viewports.

Never downloads a browser: it launches ``/usr/bin/chromium`` (the ``chromium`` package, which
``.ci/run`` installs when missing). Run with ``make e2e``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Response,
    expect,
    sync_playwright,
)

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests make
# between browser steps are still plain synchronous code, so Django's guard does not apply.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(__file__).parent / "assets" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR", "build/screenshots"))
PASSWORD = "a-long-table-password"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def fast_password_hashing() -> None:
    """The real password hasher here: the server runs in another process, with the settings
    it started with, and must check the passwords these tests create."""


@pytest.fixture(scope="session")
def django_db_modify_db_settings(tmp_path_factory: pytest.TempPathFactory,
                                 django_db_modify_db_settings_parallel_suffix: None) -> None:
    """The browser talks to a server in another process, which must see the test database:
    on SQLite that means a file, not the default in-memory database (pytest-django hook).
    Each xdist worker has its own: the file is under the worker's own temporary folder, and
    a server database's name takes the worker's suffix (``_gw0``) as pytest-django's own
    hook gives it."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("e2e") / "test.sqlite3"
        )


class AsgiLiveServer:
    """Daphne serving the project's ASGI application (the live table's event streams need
    ASGI) in a child process, on the test database; ``url`` is its address."""

    def __init__(self) -> None:
        from channels.testing.live import make_application, set_database_connection
        from daphne.testing import DaphneProcess
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        self.process = DaphneProcess(
            "127.0.0.1",
            partial(make_application, static_wrapper=ASGIStaticFilesHandler),
            setup=set_database_connection,
        )
        self.process.start()
        if not self.process.ready.wait(timeout=20):
            self.process.terminate()
            raise RuntimeError("daphne did not start within 20 s")
        self.url = f"http://127.0.0.1:{self.process.port.value}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.join(timeout=10)


@pytest.fixture(scope="session")
def asgi_server(django_db_setup, django_db_blocker) -> Iterator[AsgiLiveServer]:  # type: ignore[no-untyped-def]
    """The ASGI live server (daphne) for the whole session; tests that use it must commit
    their data (``django_db(transaction=True)``) for the server's process to see it."""
    from django.conf import settings

    # Every journey signs its people up from one address (127.0.0.1), more than the ten an
    # hour a real address may: the server, forked from this process, gets a budget for the
    # whole session. The limit itself is tested in tests/test_abuse_limits.py.
    settings.SIGNUP_RATE = "200/h"
    # The group's chat posts to a channel a test starts on this machine (tests/chat/receiver.py),
    # an address a real server refuses: the server, forked now, may post to it. What is
    # refused without the setting is tested in tests/chat.
    settings.CHAT_WEBHOOKS_ALLOW_LOCAL = True
    with django_db_blocker.unblock():
        server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture
def new_page(browser: Browser, asgi_server: AsgiLiveServer) -> Iterator[Callable[..., Page]]:
    """``new_page(phone=False)``: a page in a fresh browser context (its own cookies: one
    person), at desktop or phone size, its base URL the live server."""
    contexts: list[BrowserContext] = []

    def make(*, phone: bool = False) -> Page:
        context = browser.new_context(
            base_url=asgi_server.url,
            viewport=PHONE if phone else DESKTOP,
            has_touch=phone,
            is_mobile=phone,
            device_scale_factor=2 if phone else 1,
        )
        context.set_default_timeout(10_000)
        # axe-core arrives through the browser's own channel (as an extension would), which
        # the Content Security Policy does not govern; a <script> tag added to the page
        # would be refused by it, as it should be.
        context.add_init_script(path=str(AXE))
        # Every page of the context is watched, a second tab a test opens included.
        context.on("page", watch)
        contexts.append(context)
        return context.new_page()

    def watch(page: Page) -> None:
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        refused: list[str] = []
        console_errors: list[tuple[str, str]] = []
        page.on("console", lambda message: _note_console(message, refused, console_errors))
        page.csp_refusals = refused  # type: ignore[attr-defined]
        page.console_seen = console_errors  # type: ignore[attr-defined]
        failed_pages: set[str] = set()
        page.on("response", lambda response: _note_failed_page(page, response, failed_pages))
        page.failed_pages = failed_pages  # type: ignore[attr-defined]
        page.console_allowed = []  # type: ignore[attr-defined]
        pages.append(page)

    pages: list[Page] = []
    yield make
    refusals = {page.url: page.csp_refusals for page in pages if page.csp_refusals}  # type: ignore[attr-defined]
    console = {page.url: console_errors(page) for page in pages if console_errors(page)}
    for context in contexts:
        context.close()
    assert not refusals, f"the Content Security Policy refused something: {refusals}"
    assert not console, f"errors in the browser's console: {console}"


def _note_console(
    message: ConsoleMessage, refused: list[str], errors: list[tuple[str, str]]
) -> None:
    """Keep the browser's console reports of anything the Content Security Policy refused,
    and every other error the console shows (htmx reports its own errors there with
    console.error: an out-of-band swap with no target, a selector that matches nothing, a
    request cut off), with the address it names."""
    if "Content Security Policy" in message.text:
        refused.append(message.text)
    elif message.type == "error":
        errors.append((message.text, message.location.get("url", "")))


def _note_failed_page(page: Page, response: Response, failed: set[str]) -> None:
    """Keep the addresses that answered with an error status as the page the browser goes
    to: a page the browser went to (a 404 or a 403 a test asks for on purpose, and then
    reads), or an htmx request refused with a redirect to the page that says why
    (``HX-Redirect``, e.g. campaigns.archive's refusal of a write to an archived campaign)."""
    request = response.request
    on_page = request.is_navigation_request() and request.frame == page.main_frame
    sent_on = "hx-redirect" in response.headers
    if response.status >= 400 and (on_page or sent_on):
        failed.add(response.url)


def console_errors(page: Page) -> list[str]:
    """The errors the page's console showed, except the browser's own report of an error
    status that is the page the browser went to (:func:`_note_failed_page`) and those the
    test allowed (:func:`allow_console_errors`)."""
    failed = getattr(page, "failed_pages", set())
    allowed: list[re.Pattern[str]] = getattr(page, "console_allowed", [])
    found = []
    for text, where in getattr(page, "console_seen", []):
        if text.startswith("Failed to load resource") and where in failed:
            continue
        line = f"{text} ({where})" if where else text
        if not any(pattern.search(line) for pattern in allowed):
            found.append(line)
    return found


def allow_console_errors(page: Page, *patterns: str) -> None:
    """Let the page's console show errors matching any of ``patterns`` (regular expressions,
    searched in "text (address)"): for a test that breaks something on purpose, e.g. the
    event stream, and checks how the page copes."""
    page.console_allowed.extend(re.compile(pattern) for pattern in patterns)  # type: ignore[attr-defined]


EVENTS = re.compile(r"/campaigns/\d+/events/(\?|$)")
"""The URL of a page's event stream (``?page=`` names the live page whose regions it brings:
campaigns.live)."""


def without_pushes(page: Page) -> None:
    """Open ``page``'s event streams without ``?page=``: they name changes but bring no
    region (no ``liveRegions``), so every region asks for itself, as after a stream whose
    drawing failed. For tests of what asking alone must get right."""
    page.route(EVENTS, lambda route: route.continue_(url=route.request.url.split("?")[0]))


def audit(page: Page, *, label: str = "") -> None:
    """Run axe-core on the page as it is now, in its colour scheme and again in the dark one
    (``prefers-color-scheme: dark``); fail on any serious or critical violation.

    Also fails on JavaScript errors, console errors and Content Security Policy refusals seen
    so far on the page.
    """
    where = label or page.url
    scheme = page.evaluate(
        """() => ['dark', 'light'].find(s => matchMedia(`(prefers-color-scheme: ${s})`).matches)
                 || 'no-preference'"""
    )
    failures = {scheme: _serious_violations(page)}
    if scheme != "dark":
        page.emulate_media(color_scheme="dark")
        try:
            failures["dark"] = _serious_violations(page)
        finally:
            page.emulate_media(color_scheme=scheme)
    for name, bad in failures.items():
        assert bad == [], f"axe on {where} ({name} scheme):\n{json.dumps(bad, indent=2)}"
    errors = getattr(page, "js_errors", [])
    assert errors == [], f"JavaScript errors on {where}: {errors}"
    console = console_errors(page)
    assert console == [], f"errors in the browser's console on {where}: {console}"
    refused = getattr(page, "csp_refusals", [])
    assert refused == [], f"Content Security Policy refusals on {where}: {refused}"


def _serious_violations(page: Page) -> list[dict[str, object]]:
    """axe-core's serious and critical violations on the page as it is now."""
    results = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)"
    )
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in results
        if v["impact"] in ("serious", "critical")
    ]


def no_horizontal_scroll(page: Page) -> None:
    """Assert the page fits its viewport's width (no sideways scrolling on a phone)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    if width > viewport["width"]:
        culprits = page.evaluate(
            """(limit) => [...document.querySelectorAll('body *')]
                 .filter(e => e.getBoundingClientRect().right > limit + 1)
                 .slice(-5).map(e => e.outerHTML.slice(0, 120))""",
            viewport["width"],
        )
        raise AssertionError(
            f"{page.url} is {width}px wide in {viewport['width']}px; widest: {culprits}"
        )


def small_touch_targets(page: Page, scope: str = "main") -> list[str]:
    """Controls in ``scope`` smaller than 44x44 CSS px (a checkbox or radio counts by its
    label, which is what a thumb presses). Inline links in running text are exempt (WCAG
    2.5.8)."""
    return page.evaluate(
        """(scope) => {
          const small = [];
          const root = document.querySelector(scope);
          const controls = root.querySelectorAll(
            'button, input:not([type=hidden]), select, textarea, a.button, summary');
          for (const el of controls) {
            if (el.closest('[hidden]') || el.offsetParent === null) continue;
            const target = (el.type === 'checkbox' || el.type === 'radio')
              ? (el.closest('label') || el) : el;
            const box = target.getBoundingClientRect();
            if (box.height < 44 || (box.width < 44)) {
              const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
              small.push(`${el.outerHTML.slice(0, 80)} ${size}`);
            }
          }
          return small;
        }""",
        scope,
    )


def sign_up(page: Page, username: str) -> None:
    """Sign up through the form (lands logged in)."""
    page.goto("/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button:has-text('Create account')")
    page.wait_for_load_state()


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """Save a screenshot as ``SCREENSHOTS_DIR/<name>.png`` (``make screenshots`` writes the
    README's into docs/screenshots)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def create_campaign(gm: Page, *, name: str, ruleset: str, starting_xp: int | None = None) -> str:
    """The signed-up GM creates a campaign through the form; returns its invite link."""
    gm.goto("/campaigns/new/")
    gm.fill("input[name=name]", name)
    gm.select_option("select[name=ruleset]", ruleset)
    if starting_xp is not None:
        gm.fill("input[name=starting_xp]", str(starting_xp))
    gm.click("button:has-text('Create campaign')")
    expect(gm.locator("h1")).to_have_text(name)
    return gm.input_value("#invite-link")


def join_by_invite(player: Page, invite: str, *, username: str, campaign: str) -> None:
    """A new player follows the invite link, signs up on the way and joins ``campaign``."""
    sign_up(player, username)
    player.goto(invite)
    player.click("button:has-text('Join')")
    expect(player.locator("h1")).to_have_text(campaign)


def small_buttons(page: Page) -> list[str]:
    """The buttons in ``main`` smaller than 44x44 CSS px (see small_touch_targets)."""
    return [control for control in small_touch_targets(page) if control.startswith("<button")]


def phone_checks(page: Page, label: str, *, buttons_only: bool = False) -> None:
    """axe, no sideways scroll, and 44 px touch targets (buttons only, when asked)."""
    audit(page, label=label)
    no_horizontal_scroll(page)
    small = small_buttons(page) if buttons_only else small_touch_targets(page)
    assert small == [], f"{label}: too small to touch: {small}"
