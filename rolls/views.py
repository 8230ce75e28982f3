"""Rolling from the sheet, the odds preview, follow-ups on a roll, the GM's NPC rolls and roll
requests, and the roll logs: one set of views for every system, each asking the campaign's
:class:`systems.SheetSystem` for its dialog, its pool and its drawing of a roll."""

from __future__ import annotations

from operator import attrgetter
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import trigger_client_event

import systems
from campaigns.permissions import get_campaign_as_gm, get_membership
from characters.models import Character
from characters.permissions import get_character
from core import dice as server_dice
from core import submissions
from core.http import AuthenticatedHttpRequest, render_page
from encounters.models import turn_of
from rolls import services
from rolls.forms import NpcRollForm, RequestWhoForm
from rolls.models import Roll
from rulesets.errors import RuleError
from systems.initiative import ENCOUNTER_TURN

RESULT = "rolls/roll_detail.html#roll-result"
DIALOG = "roll-form"
"""The roll dialog's form id on every system's sheet and roll page (rolls/_roll_dialog.html)."""
DIALOG_TEMPLATE = "_roll_dialog.html"
"""A system's roll dialog (``systems/<slug>/_roll_dialog.html``): its fields and words in the
blocks of the shared rolls/_roll_dialog.html, which it extends."""
DIALOG_ANSWER = "rolls/_roll_dialog.html#roll-answer"
"""The answer to a roll made with the dialog: the result, and the dialog's odds out of band."""
ROLL_BAR = "roll_bar"
"""The field the sheet's roll bar adds to the dialog's requests: the page has a bar, and an
answer draws the bar's whole line (:func:`_roll_bar_line`)."""


def _visible_roll(request: AuthenticatedHttpRequest, **where: object) -> Roll:
    """The roll ``where`` names (its ``code`` from a URL; its ``pk`` only for a roll this
    user's own submission made, never from a page), if the user may see it: any member of
    its campaign sees its rolls (the table's log), the GM alone a GM-only one. Raises
    Http404 for everyone else."""
    roll = get_object_or_404(
        Roll.objects.select_related("character", "rolled_by", "campaign", "parent", "answers"),
        **where,
    )
    membership = get_membership(request.user, roll.campaign_id)
    if roll.gm_only and not membership.is_gm:
        raise Http404("No such roll.")
    return roll


def _result_context(
    roll: Roll, request: AuthenticatedHttpRequest, *, just_made: bool = False,
    editable: bool | None = None,
) -> dict[str, object]:
    """The result partial's context for ``roll``: the roll, its system (whose ``_roll.html``
    draws its dice, outcome and follow-ups), its follow-ups and their kinds, and whether the
    user may act on it.

    ``just_made``: this request made the roll, so it has no follow-ups yet (known without
    asking). ``editable``: whether the user may act on the roll's character, when the view
    has already checked it (it loaded the character through :func:`get_character`, or
    :func:`_can_edit` said so); ``None`` asks.
    """
    system = systems.for_ruleset(roll.ruleset)
    # A system's _roll.html may read ``roll.followups.all()`` itself: one read (none at all
    # for a roll just made: a queryset that is none() runs no query) serves it and us.
    rows = Roll.objects.none() if just_made else Roll.objects.select_related("rolled_by")
    prefetch_related_objects([roll], Prefetch("followups", queryset=rows))
    followups = list(roll.followups.all())
    can_act = roll.character is not None and (
        _can_edit(request, roll) if editable is None else editable)
    return {
        "roll": roll,
        "system": system,  # base.html links its stylesheet
        "roll_template": system.template("_roll.html"),
        "followups": followups,
        # Which follow-ups the roll has: a system offers each kind once.
        "followup_kinds": {f.kind for f in followups},
        "can_act": can_act,
    }


def _show_roll(
    request: AuthenticatedHttpRequest, roll: Roll, *, just_made: bool = False,
    editable: bool | None = None, next_token: str = "",
    dialog: dict[str, object] | None = None,
) -> HttpResponse:
    """A roll just made or followed up: its result partial (and a ``rollMade`` event naming
    the roll by its code) for HTMX, otherwise a redirect to its page. ``just_made`` and
    ``editable`` as for :func:`_result_context`; ``next_token``: the answer to a roll form,
    which stays on the page for the next roll: the id of its submission input, handed a
    fresh token; ``dialog``: the roll dialog's odds (:func:`_dialog_odds`), drawn out of
    band with the result in one render (:data:`DIALOG_ANSWER`)."""
    if request.htmx:
        context = _result_context(roll, request, just_made=just_made, editable=editable)
        if next_token:
            context["next_submission"] = submissions.new_token()
            context["next_submission_id"] = next_token
        template = RESULT
        if dialog is not None:
            # The odds' names (odds*, pool*, roll_bar*) are none of the result's.
            context, template = {**dialog, **context}, DIALOG_ANSWER
        response = render(request, template, context)
        return trigger_client_event(response, "rollMade", {"id": str(roll.code)})
    return redirect(roll)


def _answer_roll(request: AuthenticatedHttpRequest, done: submissions.Submitted[Roll], *,
                 editable: bool = True, token_id: str = "roll-submission",
                 dialog: dict[str, object] | None = None) -> HttpResponse:
    """The answer to a roll form: the roll it just made (with ``dialog``, the roll dialog's
    odds, as for :func:`_show_roll`), or, when the same form was sent again (a double
    click), the roll its first copy made; nothing is rolled twice. The form's submission
    input (``token_id``) gets its next token."""
    if done.result is not None:
        return _show_roll(request, done.result, just_made=True, editable=editable,
                          next_token=token_id, dialog=dialog)
    return _show_roll(request, _visible_roll(request, pk=done.result_id), editable=editable,
                      next_token=token_id)


def _can_edit(request: AuthenticatedHttpRequest, roll: Roll) -> bool:
    """Whether the viewer may act on the roll's character (its owner or the GM, as
    ``characters.permissions.get_character`` allows): an NPC roll has none."""
    if roll.character_id is None:  # an NPC roll: no one's sheet to act on
        return False
    try:
        get_character(request.user, roll.character_id)
    except Http404:
        return False
    return True


def _dialog_page(character: Character, system: systems.SheetSystem) -> dict[str, object]:
    """The roll dialog on its own page (no JavaScript needed): the system's dialog the sheet
    shows (:data:`DIALOG_TEMPLATE`); ``roll_page`` tells it that no sheet is around it."""
    return {"character": character, "system": system, "roll_page": True,
            "dialog_template": system.template(DIALOG_TEMPLATE)}


@require_http_methods(["GET", "POST"])
@login_required
def roll_create(request: AuthenticatedHttpRequest, character_id: int) -> HttpResponse:
    """Roll the pool picked on the sheet. The server rolls, stores the roll, then shows it:
    for HTMX the result partial (plus a ``rollMade`` event), otherwise a redirect to the
    roll. A GET shows the roll dialog on its own page."""
    character = get_character(request.user, character_id)
    system = systems.for_campaign(character.campaign)
    page = _dialog_page(character, system)
    if request.method == "GET":
        return render(request, "rolls/roll_form.html",
                      {**page, "roll_form": system.roll_form(character)})
    form = system.roll_form(character, request.POST)
    error = ""
    answers = request.POST.get("answers", "")
    if form.is_valid():
        try:
            token = submissions.posted_token(request)
            done = submissions.submit_once(
                user=request.user, form="roll", token=token,
                # With a token the roll runs inside submit_once's transaction, which is
                # rolled back whole on any error: the roll's own block needs no savepoint.
                act=lambda: services.roll_create(
                    character=character, data=form.cleaned_data, by=request.user,
                    rng=server_dice.get_rng(),
                    answers=int(answers) if answers.isdecimal() else None,
                    savepoint=token is None,
                    in_the_open=request.POST.get("in_the_open") == "on"),
                result_id=attrgetter("pk"))
        except (RuleError, submissions.BadToken) as exc:
            error = str(exc)
        else:
            dialog = (_dialog_odds(request, done.result, character, system)
                      if done.result is not None else None)
            return _answer_roll(request, done, dialog=dialog)
    else:
        error = systems.errors_text(form)
    if request.htmx:
        return render(request, RESULT, {"error": error})
    messages.error(request, error)
    return render(request, "rolls/roll_form.html", {**page, "roll_form": form}, status=400)


def _odds(character: Character, system: systems.SheetSystem,
          data: QueryDict) -> tuple[Any, dict[str, object]]:
    """The roll dialog's form bound to ``data`` and the odds fragment's context
    (rolls/_odds.html): the system's odds of the pool, or the reason there are none."""
    form = system.roll_form(character, data)
    context: dict[str, object] = {"character": character, "system": system}
    if not form.is_valid():
        context["odds_error"] = systems.errors_text(form)
    else:
        try:
            context.update(system.odds(
                character, {**form.cleaned_data, ENCOUNTER_TURN: lambda: turn_of(character)}))
        except RuleError as exc:
            context["odds_error"] = str(exc)
    return form, context


def _roll_bar_line(system: systems.SheetSystem, data: QueryDict) -> dict[str, object]:
    """For an answer to a page with a phone roll bar (its :data:`ROLL_BAR` field in
    ``data``): the bar's line (rolls/_odds.html), which is the odds' headline or, while there
    are none, the system's prompt (the ``roll-bar-prompt`` partial of its dialog), so that
    the bar always says what the form needs next. ``{}`` for any other page."""
    if not data.get(ROLL_BAR):
        return {}
    return {"roll_bar_line": True,
            "roll_bar_prompt": system.template(DIALOG_TEMPLATE) + "#roll-bar-prompt"}


def _dialog_odds(request: AuthenticatedHttpRequest, roll: Roll, character: Character,
                 system: systems.SheetSystem) -> dict[str, object] | None:
    """For the answer to a roll made with the roll dialog (``#roll-form``, htmx's
    ``HX-Trigger``): the dialog's odds for the same choices, and the roll bar's line, which
    the answer draws out of band (:data:`DIALOG_ANSWER`): a roll may spend what the pool
    counts (willpower, plot points), and the roller's page then need not ask for them. None
    for any other answer: a request's (the GM's pool, not the dialog's choices) draws none.
    The sheet's recent rolls are not drawn here: the roll's line comes with its event
    (characters.live), to this page as to every other open sheet."""
    if not request.htmx or request.htmx.trigger != DIALOG:
        return None
    if roll.character is not None:
        # As the roll left it: the roll changes the sheet alone (rolls.services.roll_create),
        # and its locked copy holds it. The copy's other columns (the GM's notes) stay out.
        character.sheet = roll.character.sheet
    _, odds = _odds(character, system, request.POST)
    return {**odds, **_roll_bar_line(system, request.POST)}


@require_GET
@login_required
def roll_odds(request: AuthenticatedHttpRequest, character_id: int) -> HttpResponse:
    """Exact odds of the pool being assembled in the roll dialog, before anything is rolled.

    HTMX asks for them as the dialog changes and gets the odds fragment, with the line of
    the phone's roll bar (the headline; on a page with a bar, the system's prompt while
    there are no odds); without JavaScript the dialog's "Show the odds" button lands on the
    roll page with the odds and the form as it was filled in. Nothing is stored: only a roll
    is.
    """
    character = get_character(request.user, character_id)
    system = systems.for_campaign(character.campaign)
    form, context = _odds(character, system, request.GET)
    if request.htmx:
        return render(request, "rolls/_odds.html",
                      {**context, "roll_bar_line": True, **_roll_bar_line(system, request.GET)})
    return render(request, "rolls/roll_form.html",
                  {**context, **_dialog_page(character, system), "roll_form": form})


@require_POST
@login_required
def roll_act(request: AuthenticatedHttpRequest, roll_code: UUID, action: str) -> HttpResponse:
    """A follow-up on a roll (``action`` names one of its system's ``roll_actions``:
    Maelstrom's "experience-die" and "willpower-spend", Shahquest's "choose"). Only the
    character's player and the GM may; the follow-up is stored as a new roll, so the log
    stays append-only. HTMX gets the roll's result partial (with the refusal, if any), a
    plain POST a redirect to the roll (the refusal as a message)."""
    roll = _visible_roll(request, code=roll_code)
    system = systems.for_ruleset(roll.ruleset)
    followup = system.roll_actions.get(action)
    if followup is None or roll.character_id is None or not _can_edit(request, roll):
        raise Http404("No such roll.")
    form = followup.form(request.POST)
    error = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        try:
            services.roll_act(roll=roll, action=followup, data=form.cleaned_data,
                              by=request.user, rng=server_dice.get_rng())
        except RuleError as exc:
            error = str(exc)
    if error and not request.htmx:
        messages.error(request, error)
        return redirect(roll)
    if error:
        return render(request, RESULT,
                      {**_result_context(roll, request, editable=True), "error": error})
    # A follow-up may spend what the roll dialog's pool counts (willpower): on the sheet, the
    # dialog asks for its odds again (a roll made from the dialog brings them itself:
    # _dialog_odds).
    return trigger_client_event(_show_roll(request, roll, editable=True), "trackChanged")


@require_POST
@login_required
def npc_roll_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM's quick roll for an NPC, typed in the campaign's system's notation. The server
    rolls and stores it, then shows it: the result partial for HTMX (the form keeps what was
    typed), otherwise the roll's page; a GM-only roll is announced to the GM alone."""
    campaign = get_campaign_as_gm(request.user, campaign_id)
    form = NpcRollForm(request.POST)
    error = ""
    if form.is_valid():
        try:
            done = submissions.submit_once(
                user=request.user, form="npc-roll", token=submissions.posted_token(request),
                act=lambda: services.npc_roll_create(
                    campaign=campaign, text=form.cleaned_data["text"],
                    gm_only=form.cleaned_data["gm_only"], by=request.user,
                    rng=server_dice.get_rng()),
                result_id=attrgetter("pk"))
        except (RuleError, submissions.BadToken) as exc:
            error = str(exc)
        else:
            return _answer_roll(request, done, editable=False, token_id="npc-roll-submission")
    else:
        error = systems.errors_text(form)
    if request.htmx:
        return render(request, RESULT, {"error": error})
    messages.error(request, error)
    typed = urlencode({"npc": request.POST.get("text", "")})  # the dashboard keeps it
    return redirect(f"{campaign.get_absolute_url()}?{typed}")


@require_POST
@login_required
def requested_roll_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM asks a character, or everyone, for a roll with its pool preset: whom (and a
    note) from the shared form, what to roll from the system's ``request_form``. It appears
    on each sheet as a prefilled roll dialog the player confirms. A pool someone could not
    roll is refused with the rule, naming them, and asks nothing of anyone."""
    campaign = get_campaign_as_gm(request.user, campaign_id)
    system = systems.for_campaign(campaign)
    # Imports awaiting the GM (or refused) and characters out of the story (Maelstrom's dead)
    # are asked nothing: not even as part of "everyone".
    party = [c for c in campaign.characters.order_by("name", "id")
             if c.in_play and not system.is_out_of_play(c)]
    people = [(c.pk, c.name) for c in party]
    who = RequestWhoForm(request.POST, characters=people)
    what = system.request_form(campaign, request.POST)
    if what is None:
        raise Http404("This system has no roll requests.")
    error = success = ""
    if who.is_valid() and what.is_valid():
        chosen = party if who.cleaned_data["character"] == "all" else [
            c for c in party if str(c.pk) == who.cleaned_data["character"]]
        try:
            asked = services.requested_roll_create(
                characters=chosen, system=system, what=what.cleaned_data,
                note=who.cleaned_data["note"], by=request.user)
        except RuleError as exc:
            error = str(exc)
        else:
            names = ", ".join(r.character.name for r in asked)
            success = f"Asked {names} for {asked[0].describe()}." if asked else "No one to ask."
    else:
        error = " ".join([systems.errors_text(who), systems.errors_text(what)]).strip()
    if request.htmx:
        context = {"campaign": campaign, "system": system, "request_error": error,
                   "request_success": success,
                   "request_form": who if error else RequestWhoForm(characters=people),
                   "request_what": what if error else system.request_form(campaign)}
        return render(request, "rolls/_request_form.html", context)
    (messages.error if error else messages.success)(request, error or success)
    return redirect(campaign)


@login_required
def roll_detail(request: AuthenticatedHttpRequest, roll_code: UUID) -> HttpResponse:
    """One roll with every die and its outcome, and its follow-ups, found by its code."""
    roll = _visible_roll(request, code=roll_code)
    return render(request, "rolls/roll_detail.html", _result_context(roll, request))


@require_GET
@login_required
def roll_by_number(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A roll by its id (``/rolls/12/``: a link made before rolls had codes, or the last
    general danger on Shahquest's tension panel, which keeps the id): the GM of its campaign
    is redirected to the roll's page. Anyone else gets 404, for a roll of their own as for
    one that does not exist, so no id tells a player anything (Roll.code)."""
    roll = get_object_or_404(Roll.objects.only("code", "campaign_id"), pk=pk)
    get_campaign_as_gm(request.user, roll.campaign_id)
    return redirect(roll)


@login_required
def roll_list(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's roll log, newest first, 25 a page, filterable by character; GM-only
    rolls for the GM alone."""
    membership = get_membership(request.user, campaign_id)
    campaign = membership.campaign
    rolls = (
        Roll.objects.filter(campaign=campaign, parent__isnull=True)
        .visible_to(is_gm=membership.is_gm)
        .select_related("character", "rolled_by", "answers").prefetch_related("followups")
    )
    characters = list(campaign.characters.order_by("name", "id"))
    selected = request.GET.get("character", "")
    if selected not in {str(c.pk) for c in characters}:
        selected = ""  # an unknown or malformed filter shows everyone's rolls
    if selected:
        rolls = rolls.filter(character_id=int(selected))
    page = Paginator(rolls, 25).get_page(request.GET.get("page"))
    system = systems.for_campaign(campaign)
    context = {"campaign": campaign, "live_campaign": campaign, "page": page,
               "system": system,
               "roll_template": system.template("_roll.html"),
               "characters": characters,
               "selected": selected}
    return render_page(request, "rolls/roll_list.html", "roll-log", context)
