"""The browser harness: Debian's Chromium driven by Playwright against the project's ASGI
application served by daphne in a child process (the live table needs ASGI), axe-core for
accessibility, phone and desktop viewports.

Never downloads a browser: it launches ``/usr/bin/chromium`` (the ``chromium`` package, which
``.ci/run`` installs when missing). Run with ``make e2e``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
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
def django_db_modify_db_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The browser talks to a server in another process, which must see the test database:
    on SQLite that means a file, not the default in-memory database (pytest-django hook)."""
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
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        refused: list[str] = []
        page.on("console", lambda message: _note_csp_refusal(message, refused))
        page.csp_refusals = refused  # type: ignore[attr-defined]
        pages.append(page)
        return page

    pages: list[Page] = []
    yield make
    refusals = {page.url: page.csp_refusals for page in pages if page.csp_refusals}  # type: ignore[attr-defined]
    for context in contexts:
        context.close()
    assert not refusals, f"the Content Security Policy refused something: {refusals}"


def _note_csp_refusal(message: ConsoleMessage, refused: list[str]) -> None:
    """Keep the browser's console reports of anything the Content Security Policy refused."""
    if "Content Security Policy" in message.text:
        refused.append(message.text)


def audit(page: Page, *, label: str = "") -> None:
    """Run axe-core on the page as it is now; fail on any serious or critical violation.

    Also fails on JavaScript errors and Content Security Policy refusals seen so far on the
    page.
    """
    results = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)"
    )
    bad = [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in results
        if v["impact"] in ("serious", "critical")
    ]
    where = label or page.url
    assert bad == [], f"axe on {where}:\n{json.dumps(bad, indent=2)}"
    errors = getattr(page, "js_errors", [])
    assert errors == [], f"JavaScript errors on {where}: {errors}"
    refused = getattr(page, "csp_refusals", [])
    assert refused == [], f"Content Security Policy refusals on {where}: {refused}"


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
