"""The chat's settings come from the environment and refuse nonsense (docs/configuration.md):
``SITE_URL``, ``CHAT_WEBHOOKS_ALLOW_LOCAL`` and ``CHAT_WEBHOOK_TIMEOUT``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("SITE_URL", "CHAT_WEBHOOKS_ALLOW_LOCAL", "CHAT_WEBHOOK_TIMEOUT", "DEBUG")


def _settings(**env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter with ``env`` (DEBUG on unless it says)."""
    clean = {k: v for k, v in os.environ.items() if k not in OURS}
    code = ("import sheetkeeper.settings as s; "
            "print(s.SITE_URL or '-', s.CHAT_WEBHOOKS_ALLOW_LOCAL, s.CHAT_WEBHOOK_TIMEOUT)")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                          env={**clean, "DEBUG": "on", **env}, capture_output=True, text=True,
                          timeout=60)


def test_the_defaults_link_to_make_run_and_keep_local_addresses_out() -> None:
    result = _settings()
    assert result.stdout.split() == ["http://127.0.0.1:8000", "False", "10"], result.stderr
    production = _settings(DEBUG="off", SECRET_KEY="s" * 50, ALLOWED_HOSTS="table.example.org")
    assert production.stdout.split()[0] == "-", production.stderr  # no link rather than a wrong one


def test_a_site_url_loses_its_trailing_slash() -> None:
    result = _settings(SITE_URL="https://table.example.org/", CHAT_WEBHOOKS_ALLOW_LOCAL="on")
    assert result.stdout.split()[:2] == ["https://table.example.org", "True"], result.stderr


@pytest.mark.parametrize(("env", "message"), [
    ({"SITE_URL": "table.example.org"}, "SITE_URL must be a scheme and a host"),
    ({"SITE_URL": "https://table.example.org/play"}, "SITE_URL must be a scheme and a host"),
    ({"CHAT_WEBHOOKS_ALLOW_LOCAL": "perhaps"}, "CHAT_WEBHOOKS_ALLOW_LOCAL must be one of"),
    ({"CHAT_WEBHOOK_TIMEOUT": "0"}, "CHAT_WEBHOOK_TIMEOUT must be a whole number >= 1"),
])
def test_nonsense_stops_start_up_naming_the_variable(env: dict[str, str], message: str) -> None:
    result = _settings(**env)
    assert result.returncode != 0
    assert message in result.stderr
