"""The luck pages: how the dice ran for the table (``history:campaign-luck``) and for one
character (``history:character-luck``), over the whole campaign or one session
(``?session=<pk>``), and their charts as SVG images (``history:campaign-luck-chart``,
``history:character-luck-chart``), under the same permission as their page.

The table's page is open to every member, a character's to whoever may open its sheet
(``characters.permissions.get_character`` with ``party``); a non-member gets 404. What each
counts is :func:`history.luck.rolls_seen`: a player's figures and charts never count a
GM-only roll. Choosing a session answers htmx with the ``luck-figures`` fragment, a plain GET
with the whole page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from csp.decorators import csp_replace
from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_GET

from campaigns.models import Campaign, Session
from campaigns.permissions import get_membership
from characters.models import Character
from characters.permissions import get_character, viewer_is_gm
from core.forms import Form
from core.http import render_page
from history import charts, luck

if TYPE_CHECKING:
    from core.http import AuthenticatedHttpRequest
    from rulesets.luck import Luck

PAGE = "history/luck.html"
QUICK_ROLLS = "Rolls of no character"
"""The name of the line for the GM's quick rolls, which belong to no character."""
TABLE_POINTS = 12
"""The most points of each line the luck-over-time chart's table lists."""
CHARTS = ("time", "outcomes", "xp")
CHART_POLICY = {"default-src": ["'none'"], "style-src": ["'unsafe-inline'"],
                "img-src": ["'none'"], "font-src": ["'none'"], "script-src": ["'none'"],
                "connect-src": ["'none'"], "form-action": ["'none'"], "base-uri": ["'none'"]}
"""A chart's own policy: its drawing's ``<style>`` and nothing else (no script, nothing
fetched). It governs the SVG document alone; the pages keep the site's policy."""


class SessionForm(Form):
    """The span of the figures: one session of the campaign, or (empty) the whole campaign."""

    session = forms.ModelChoiceField(
        queryset=Session.objects.none(), required=False, empty_label="The whole campaign",
        label="Rolls of", error_messages={
            "invalid_choice": "Choose a session of this campaign, or the whole campaign."})

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["session"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = campaign.sessions.all()


def _span(request: AuthenticatedHttpRequest, campaign: Campaign
          ) -> tuple[SessionForm, Session | None]:
    """The session form as the query string filled it, and the session chosen (``None``, the
    whole campaign, also for a choice that is not one of the campaign's sessions: the form
    then says so)."""
    form = SessionForm(request.GET or None, campaign=campaign)
    session = form.cleaned_data["session"] if form.is_bound and form.is_valid() else None
    return form, session


def _names(figures: luck.Figures) -> dict[int | None, str]:
    """The names of the characters the figures count, by id (one query), and the quick
    rolls' line."""
    ids = [pk for pk in figures.characters if pk is not None]
    names: dict[int | None, str] = dict(
        Character.all_objects.filter(pk__in=ids).order_by("name", "pk")
        .values_list("pk", "name"))
    if None in figures.characters:
        names[None] = QUICK_ROLLS
    return names


def _thinned(points: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """At most :data:`TABLE_POINTS` of ``points``, evenly spread, the last kept."""
    step = max(1, -(-len(points) // TABLE_POINTS))
    kept = points[::step]
    return kept if not points or kept[-1] == points[-1] else [*kept, points[-1]]


def _line(name: str, figure: Luck) -> dict[str, Any]:
    """One line of the figures' table: who, the luck, and its figures as people read them."""
    return {"name": name, "luck": figure, "expected": f"{float(figure.expected):.1f}",
            "percent": luck.percent(figure.percentile), "words": luck.in_words(figure)}


def _context(figures: luck.Figures, names: dict[int | None, str]) -> dict[str, Any]:
    """What the figures' fragment shows: one line per character (name, figures, words), the
    table's, the chart tables' rows."""
    lines = [_line(name, figures.characters[pk]) for pk, name in names.items()]
    return {
        "figures": figures,
        "lines": lines,
        "table_line": None if figures.table is None else _line("The table", figures.table),
        "running_rows": [(names[pk], number, value) for pk in names
                         for number, value in _thinned(figures.running.get(pk, []))],
        "mix_rows": [(o.value, o.actual, float(o.expected)) for o in figures.mix],
    }


def _xp_context(campaign: Campaign, characters: list[Character]) -> dict[str, Any]:
    """XP over sessions for the page: its rows and the characters in column order."""
    rows = luck.xp_by_session(campaign, characters)
    return {"xp_rows": [(row.session, [row.earned.get(c.pk, 0) for c in characters])
                        for row in rows],
            "xp_characters": characters,
            "xp_any": any(any(row.earned.values()) for row in rows)}


@require_GET
@login_required
def campaign_luck(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The table's luck: per character and for the whole table, the rolls counted, the
    expected and actual total of the system's measure and its percentile, in words; the
    charts with their tables."""
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    form, session = _span(request, campaign)
    figures = luck.figures(campaign, is_gm=membership.is_gm, session=session)
    query = f"?session={session.pk}" if session is not None else ""
    context = {
        "campaign": campaign, "form": form, "session": session, "character": None,
        "page_url": reverse("history:campaign-luck", args=[campaign.pk]),
        "charts": {chart: reverse("history:campaign-luck-chart", args=[campaign.pk, chart])
                   + query for chart in CHARTS},
        **_context(figures, _names(figures)),
        **_xp_context(campaign, list(campaign.characters.order_by("name", "pk"))),
    }
    return render_page(request, PAGE, "luck-figures", context)


@require_GET
@login_required
def character_luck(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One character's luck, as :func:`campaign_luck` shows the table's."""
    character = get_character(request.user, pk, party=True)
    campaign = character.campaign
    form, session = _span(request, campaign)
    figures = luck.figures(campaign, is_gm=viewer_is_gm(character), session=session,
                           character=character)
    query = f"?session={session.pk}" if session is not None else ""
    context = {
        "campaign": campaign, "form": form, "session": session, "character": character,
        "page_url": reverse("history:character-luck", args=[character.pk]),
        "charts": {chart: reverse("history:character-luck-chart", args=[character.pk, chart])
                   + query for chart in CHARTS},
        **_context(figures, _names(figures)),
        **_xp_context(campaign, [] if character.is_npc else [character]),
    }
    return render_page(request, PAGE, "luck-figures", context)


def _chart(figures: luck.Figures, names: dict[int | None, str], chart: str,
           campaign: Campaign, characters: list[Character]) -> HttpResponse:
    """The SVG of one chart (``chart`` one of :data:`CHARTS`; any other is 404)."""
    if chart == "time":
        lines = [(name, figures.running.get(pk, [])) for pk, name in names.items()]
        if len(names) > 1:
            lines.append(("The table", figures.running_table))
        svg = charts.luck_over_time(lines, figures.measure or "measure")
    elif chart == "outcomes":
        svg = charts.outcome_mix(figures.mix, figures.measure or "measure")
    elif chart == "xp":
        svg = charts.xp_over_sessions(luck.xp_by_session(campaign, characters),
                                      {c.pk: c.name for c in characters})
    else:
        raise Http404("No such chart.")
    response = HttpResponse(svg, content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-cache"
    return response


@require_GET
@login_required
@csp_replace(CHART_POLICY)  # type: ignore[arg-type]  # django-csp types a view as taking the request alone
def campaign_luck_chart(request: AuthenticatedHttpRequest, pk: int, chart: str
                        ) -> HttpResponse:
    """One chart of the table's luck page, as SVG, for the same viewer and span."""
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    _, session = _span(request, campaign)
    figures = luck.figures(campaign, is_gm=membership.is_gm, session=session)
    return _chart(figures, _names(figures), chart, campaign,
                  list(campaign.characters.order_by("name", "pk")))


@require_GET
@login_required
@csp_replace(CHART_POLICY)  # type: ignore[arg-type]  # django-csp types a view as taking the request alone
def character_luck_chart(request: AuthenticatedHttpRequest, pk: int, chart: str
                         ) -> HttpResponse:
    """One chart of a character's luck page, as SVG, for the same viewer and span."""
    character = get_character(request.user, pk, party=True)
    campaign = character.campaign
    _, session = _span(request, campaign)
    figures = luck.figures(campaign, is_gm=viewer_is_gm(character), session=session,
                           character=character)
    return _chart(figures, _names(figures), chart, campaign,
                  [] if character.is_npc else [character])

