"""What a live page carries for static/js/live.js: ``{% live_timings %}``."""

from __future__ import annotations

import json

from django import template

from core.live import TIMINGS

register = template.Library()

_TIMINGS_JSON = json.dumps(TIMINGS, separators=(",", ":"))


@register.simple_tag
def live_timings() -> str:
    """:data:`core.live.TIMINGS` as JSON, for ``<main data-live-timings="...">`` (escaped
    for the attribute as any tag's text is)."""
    return _TIMINGS_JSON
