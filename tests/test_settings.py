"""Settings come from the environment and refuse nonsense (docs/configuration.md)."""

from __future__ import annotations

import logging
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


# Every variable docs/configuration.md lists, so the machine's own environment can't leak in.
_OURS = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "SECURE_SSL_REDIRECT",
         "SECURE_PROXY_SSL_HEADER", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
         "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
         "CSRF_TRUSTED_ORIGINS", "AXES_ENABLED", "AXES_FAILURE_LIMIT", "AXES_COOLOFF_MINUTES",
         "STATIC_ROOT", "LOG_LEVEL", "DATABASE_POOL", "DATABASE_POOL_MAX", "SIGNUP_RATE",
         "INVITE_JOIN_RATE", "RATELIMIT_ENABLED"}


def _settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings module in a fresh interpreter with the given environment."""
    clean = {k: v for k, v in os.environ.items() if k not in _OURS}
    code = ("import sheetkeeper.settings as s; "
            "print(s.DEBUG, s.ALLOWED_HOSTS, s.DATABASES['default']['ENGINE'])")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)


def test_debug_is_off_unless_turned_on_so_a_bare_host_asks_for_a_secret_key() -> None:
    result = _settings()
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_turned_on_the_defaults_are_for_local_use_on_sqlite_and_loopback() -> None:
    result = _settings(DEBUG="on")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "True"
    assert "['127.0.0.1', 'localhost', '[::1]']" in result.stdout
    assert "sqlite3" in result.stdout


@pytest.mark.parametrize("env", [
    {"DEBUG": "on", "ALLOWED_HOSTS": "table.example.org"},
    {"DEBUG": "on", "ALLOWED_HOSTS": "127.0.0.1,*"},
    {"DEBUG": "off", "ALLOWED_HOSTS": "table.example.org",
     "SECRET_KEY": "sheetkeeper-insecure-development-key-do-not-use-in-production"},
])
def test_the_public_development_key_serves_no_host_but_loopback(env: dict[str, str]) -> None:
    result = _settings(**env)
    assert result.returncode != 0
    assert "the development SECRET_KEY is public" in result.stderr


def test_a_postgres_database_url_selects_postgresql() -> None:
    result = _settings(DEBUG="on", DATABASE_URL="postgres://postgres@127.0.0.1:5432/test")
    assert result.returncode == 0, result.stderr
    assert "postgresql" in result.stdout


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG must be one of"),
        ({"DEBUG": "false", "ALLOWED_HOSTS": "example.org"}, "SECRET_KEY must be set"),
        ({"DEBUG": "false", "SECRET_KEY": "x" * 50}, "ALLOWED_HOSTS must be set"),
        ({"SECRET_KEY": "short"}, "at least 32 characters"),
        ({"DATABASE_URL": "nosuchdb://whatever"}, "DATABASE_URL"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS must be a whole number"),
        ({"AXES_FAILURE_LIMIT": "0"}, "AXES_FAILURE_LIMIT must be a whole number >= 1"),
        ({"SIGNUP_RATE": "ten an hour"}, "SIGNUP_RATE must be a count per period"),
        ({"INVITE_JOIN_RATE": "10/0m"}, "INVITE_JOIN_RATE must be a count per period"),
        ({"RATELIMIT_ENABLED": "sometimes"}, "RATELIMIT_ENABLED must be one of"),
    ],
)
def test_nonsense_stops_start_up_naming_the_variable(env: dict[str, str], message: str) -> None:
    result = _settings(**{"DEBUG": "on", **env})
    assert result.returncode != 0
    assert message in result.stderr


def test_production_settings_load_when_everything_is_given() -> None:
    result = _settings(DEBUG="off", SECRET_KEY="s" * 50, ALLOWED_HOSTS="table.example.org")
    assert result.returncode == 0, result.stderr
    assert "['table.example.org']" in result.stdout


def test_the_deploy_check_is_clean_with_production_settings() -> None:
    """`DEBUG=False manage.py check --deploy --fail-level WARNING` passes (docs/deploy.md)."""
    clean = {k: v for k, v in os.environ.items() if k not in _OURS}
    env = {**clean, "DEBUG": "off", "SECRET_KEY": secrets.token_urlsafe(50),
           "ALLOWED_HOSTS": "table.example.org"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues (0 silenced)" in result.stdout


def test_the_deploy_check_names_what_a_loopback_test_turned_off() -> None:
    """The same check fails loudly when HTTPS protections are switched off."""
    clean = {k: v for k, v in os.environ.items() if k not in _OURS}
    env = {**clean, "DEBUG": "off", "SECRET_KEY": secrets.token_urlsafe(50),
           "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "off",
           "SESSION_COOKIE_SECURE": "off", "SECURE_HSTS_SECONDS": "0"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode != 0
    for check in ("security.W004", "security.W008", "security.W012"):
        assert check in result.stderr


def _pool(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in _OURS}
    code = ("import sheetkeeper.settings as s; "
            "print(s.DATABASES['default'].get('OPTIONS', {}).get('pool'))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                            env={**clean, "DEBUG": "on", **env},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_postgresql_connections_come_from_a_pool_per_process() -> None:
    url = "postgres://postgres@127.0.0.1:5432/test"
    assert "'max_size': 10" in _pool(DATABASE_URL=url)
    assert "'max_size': 4" in _pool(DATABASE_URL=url, DATABASE_POOL_MAX="4")
    assert _pool(DATABASE_URL=url, DATABASE_POOL="off") == "None"


def test_a_server_process_hands_the_interpreter_between_threads_every_millisecond() -> None:
    """The server's entry point (what each uvicorn worker imports) shortens Python's thread
    switch interval from 5 ms to 1 ms: a request back from a database round trip waits less
    for the interpreter (sheetkeeper/asgi.py, docs/performance.md)."""
    clean = {k: v for k, v in os.environ.items() if k not in _OURS}
    code = "import sys; import sheetkeeper.asgi; print(sys.getswitchinterval())"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, "DEBUG": "on"},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) == pytest.approx(0.001)


def test_a_record_of_django_s_is_printed_once() -> None:
    """The development server's access line (daphne's ``django.channels.server``) and
    Django's own warnings reach one console handler, not Django's and the root's both."""
    printing: list[logging.Handler] = []
    logger: logging.Logger | None = logging.getLogger("django.channels.server")
    while logger is not None:
        printing += [h for h in logger.handlers if type(h) is logging.StreamHandler]
        logger = logger.parent if logger.propagate else None
    assert len(printing) == 1, printing
    assert logging.getLogger("django.channels.server").isEnabledFor(logging.INFO)
