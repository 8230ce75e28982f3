"""The luck page's charts, drawn on the server as SVG by pygal (a kept charting library):
luck over time, the outcome mix against expectation, and XP over sessions
(docs/history.md, "How the dice ran").

Each chart is served from its own URL and shown as an ``<img>``: the page's Content Security
Policy refuses inline styles, and pygal's SVG carries its own ``<style>``; an image is its
own document, drawn under its own response's headers (``history.luck_views``), in which no
script ever runs. Every chart has the same figures as a table beside it on the page, for
screen readers and for anyone who would rather read.

Names in a chart (characters, sessions) are the user's text: pygal writes them as XML text
(escaped by its tree builder), never as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygal  # type: ignore[import-untyped]  # pygal ships no type hints
from pygal.style import Style  # type: ignore[import-untyped]  # pygal ships no type hints

if TYPE_CHECKING:
    from history.luck import SessionXp
    from rulesets.luck import Outcome

STYLE = Style(
    background="#ffffff", plot_background="#ffffff", foreground="#1f2328",
    foreground_strong="#1f2328", foreground_subtle="#6e7781", opacity=".85",
    opacity_hover=".95", font_family="system-ui, sans-serif",
    colors=("#1f6feb", "#bf3989", "#1a7f37", "#bc4c00", "#8250df", "#0a7b83", "#cf222e",
            "#6e7781"),
    title_font_size=16, label_font_size=12, major_label_font_size=12, legend_font_size=13,
)
"""Dark text on white, whatever the page's theme: an image keeps its own colours."""

COMMON: dict[str, Any] = {
    "style": STYLE, "width": 720, "height": 360, "js": [], "disable_xml_declaration": False,
    "legend_at_bottom": True, "truncate_legend": 24,
    "show_dots": False, "margin": 12, "no_data_text": "No rolls",
}
"""Every chart's settings: no script, a size that scales down to a phone (``viewBox``)."""


def luck_over_time(lines: Sequence[tuple[str, Sequence[tuple[int, float]]]],
                   measure: str) -> bytes:
    """A line per name: after each of its rolls (x, its roll number), its total ``measure``
    so far minus the expected total (y): above 0 the dice ran better than their odds."""
    chart = pygal.XY(**COMMON, title="Luck over time", x_title="Rolls",
                     y_title=f"{measure.capitalize()} above expected", stroke=True,
                     show_x_guides=False, dots_size=1, stroke_style={"width": 2})
    for name, points in lines:
        chart.add(name, list(points))
    return bytes(chart.render())


def outcome_mix(mix: Sequence[Outcome], measure: str) -> bytes:
    """For each value of ``measure``, the rolls that gave it (bars) against the rolls
    expected to (a line of the expected counts)."""
    chart = pygal.Bar(**COMMON, title="Outcomes against the odds",
                      x_title=measure.capitalize(), y_title="Rolls")
    chart.x_labels = [str(outcome.value) for outcome in mix]
    chart.add("Rolled", [outcome.actual for outcome in mix])
    chart.add("Expected", [round(float(outcome.expected), 2) for outcome in mix])
    return bytes(chart.render())


def xp_over_sessions(rows: Sequence[SessionXp], names: dict[int, str]) -> bytes:
    """XP earned by each character (``names``: id -> name) in each session, oldest first."""
    chart = pygal.Bar(**COMMON, title="XP earned per session", x_title="Sessions",
                      y_title="XP", x_label_rotation=20)
    chart.x_labels = [row.session.date.isoformat() for row in rows]
    for pk, name in names.items():
        chart.add(name, [row.earned.get(pk, 0) for row in rows])
    return bytes(chart.render())
