"""A live page carries how it reconnects (core.live.TIMINGS): static/js/live.js and the
benchmarks' pages read the same figures from it, so neither keeps a copy to drift."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from characters.models import Character
from core.live import TIMINGS

pytestmark = pytest.mark.django_db


def test_a_live_page_carries_the_reconnection_timings(client_for: Any, bob: Any,
                                                      bobs_character: Character) -> None:
    html = client_for(bob).get(bobs_character.get_absolute_url()).content.decode()
    main = re.search(r'<main id="main"[^>]*\bdata-live-timings="([^"]*)"', html)
    assert main is not None, "the page's <main> carries no data-live-timings"
    assert json.loads(main.group(1).replace("&quot;", '"')) == TIMINGS


def test_live_js_keeps_no_figure_of_its_own() -> None:
    from django.conf import settings

    script = (settings.BASE_DIR / "static" / "js" / "live.js").read_text()
    for name in TIMINGS:
        assert f"T.{name}" in script, f"live.js does not read {name} from the page"
        assert not re.search(rf"\b{name}\s*=\s*\d", script), f"live.js sets {name} itself"
