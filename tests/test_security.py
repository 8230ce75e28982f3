"""Production hardening (issue 7): security headers, the CSP, login rate limiting, the admin.

The deploy check itself runs in tests/test_settings.py, in a fresh interpreter with the
production environment.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-table-password"


def _policy(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The Content-Security-Policy header as {directive: sources}."""
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


# --- Content Security Policy ---------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_carries_a_policy_without_inline_code(client: Client) -> None:
    policy = _policy(client.get(reverse("login")))
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in " ".join(policy.values())


def _template_files() -> list[Path]:
    # Where Django looks: the project's templates/ and every installed app's own (a system
    # package's included), as long as it is the project's code rather than a library's.
    dirs = [ROOT / "templates",
            *(Path(config.path) / "templates" for config in apps.get_app_configs()
              if Path(config.path).is_relative_to(ROOT)
              and "site-packages" not in Path(config.path).parts)]
    return sorted(p for d in dirs if d.is_dir() for p in d.rglob("*.html"))


# What the policy would refuse: a <script> with a body, a <style> element, a style attribute,
# an on…= handler attribute, a javascript: URL, and htmx's string-evaluating hx-on / js: values.
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"<style\b", re.I), "a <style> element"),
    (re.compile(r"\sstyle\s*=", re.I), "a style= attribute"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an event-handler attribute"),
    (re.compile(r"javascript:", re.I), "a javascript: URL"),
    (re.compile(r"\shx-on", re.I), "an hx-on attribute (htmx evaluates it)"),
    (re.compile(r"""hx-vals\s*=\s*['"]\s*js:""", re.I), "hx-vals with js: (evaluated)"),
]


def test_no_template_needs_unsafe_inline() -> None:
    files = _template_files()
    assert len(files) > 40  # the scan really found the project's templates
    found = [
        f"{path.relative_to(ROOT)}: {what}"
        for path in files
        for pattern, what in INLINE
        if pattern.search(path.read_text())
    ]
    assert found == []


def test_the_scan_catches_what_the_policy_refuses() -> None:
    samples = ['<script>alert(1)</script>', "<style>p{}</style>", '<p style="x">',
               '<a onclick="x()">', '<a href="javascript:x()">', '<b hx-on:click="x">',
               """<b hx-vals='js:{a: 1}'>"""]
    for sample in samples:
        assert any(pattern.search(sample) for pattern, _ in INLINE), sample
    assert not any(p.search('<script src="/static/js/live.js" defer></script>') for p, _ in INLINE)


@pytest.mark.django_db
def test_htmx_is_configured_not_to_add_styles_or_evaluate(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    assert '"includeIndicatorStyles": false' in page
    assert '"allowEval": false' in page
    assert '"attributesToSettle": ["class", "width", "height"]' in page  # no style attribute


# --- Login rate limiting (django-axes) ---------------------------------------------------


def _log_in(client: Client, username: str, password: str):  # type: ignore[no-untyped-def]
    return client.post(reverse("login"), {"username": username, "password": password})


@pytest.mark.django_db
def test_repeated_wrong_passwords_lock_that_login_with_a_clear_429() -> None:
    UserFactory(username="gwen", password=PASSWORD)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = _log_in(client, "gwen", "wrong")
        assert response.status_code == 200  # the form again, with its error
        assert b"Please enter a correct username and password" in response.content
    locked = _log_in(client, "gwen", "wrong")
    assert locked.status_code == 429
    assert b"Too many failed log-ins" in locked.content
    assert b"15 minutes" in locked.content
    # Even the right password is refused while the pause lasts, and nobody is logged in.
    assert _log_in(client, "gwen", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_lockout_is_for_that_username_from_that_address_only() -> None:
    UserFactory(username="gwen", password=PASSWORD)
    UserFactory(username="hal", password=PASSWORD)
    attacker = Client(REMOTE_ADDR="203.0.113.9")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _log_in(attacker, "gwen", "wrong")
    assert _log_in(attacker, "gwen", PASSWORD).status_code == 429
    # Another account from the same address, and the same account from home, still log in.
    assert _log_in(attacker, "hal", PASSWORD).status_code == 302
    assert _log_in(Client(REMOTE_ADDR="198.51.100.7"), "gwen", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_an_over_long_username_is_refused_by_the_form_not_the_database() -> None:
    """django-axes records failed logins in a 255-character column; PostgreSQL refused a
    longer name with a 500 (tests/fuzz found it). The form now stops it first."""
    response = _log_in(Client(), "x" * 256, "anything")
    assert response.status_code == 200
    assert b"at most 150 characters" in response.content


@pytest.mark.django_db
def test_a_good_login_clears_earlier_failures() -> None:
    UserFactory(username="gwen", password=PASSWORD)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        _log_in(client, "gwen", "wrong")
    assert _log_in(client, "gwen", PASSWORD).status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _log_in(client, "gwen", "wrong").status_code == 200
    assert _log_in(client, "gwen", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_signing_up_still_logs_the_new_account_in(client: Client) -> None:
    response = client.post(reverse("signup"), {"username": "ivy", "email": "ivy@example.org",
                                               "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("campaigns:campaign-list")).status_code == 200


# --- The admin -------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_admin_is_for_staff_only() -> None:
    player = Client()
    player.force_login(UserFactory(username="pat"))
    response = player.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
    staff = Client()
    staff.force_login(UserFactory(username="sam", is_staff=True, is_superuser=True))
    assert staff.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_the_admin_login_is_rate_limited_too() -> None:
    UserFactory(username="sam", password=PASSWORD, is_staff=True)
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "sam", "password": "wrong"})
    response = client.post("/admin/login/", {"username": "sam", "password": PASSWORD})
    assert response.status_code == 429


# --- Security headers ---------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_refuse_framing_and_sniffing(client: Client) -> None:
    response = client.get(reverse("login"))
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.mark.django_db
def test_behind_a_tls_proxy_https_is_enforced_and_remembered(settings) -> None:  # type: ignore[no-untyped-def]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = Client().get(reverse("login"))
    assert plain.status_code == 301
    assert plain["Location"].startswith("https://")
    secure = Client().get(reverse("login"), headers={"X-Forwarded-Proto": "https"})
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
