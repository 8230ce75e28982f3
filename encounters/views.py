"""The encounter's pages and changes (docs/encounters.md): the list of a campaign's encounters
(and starting one), an encounter's record, and the changes made from the campaign page's card
(add, the order, next, previous, delay, remove, end) or from a sheet (a player's "Done").

Whoever runs the table (the GM or a co-GM: ``Membership.is_gm``) makes every change; a player
only ends their own character's turn. A non-member gets 404 for everything, a player 404 for
the GM's changes. Every change answers both ways: an htmx request gets the region it changed
(the card, or the sheet's order), labelled with the version it was drawn at
(``core.regions.drawn``); a plain POST is redirected back with a message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import systems
from campaigns.permissions import get_membership
from campaigns.versions import bumped
from characters.models import Character
from core import dice as server_dice
from core.http import AuthenticatedHttpRequest, safe_next_page
from core.regions import drawn
from encounters import services
from encounters.board import CARD, addable, board_context, gm_card
from encounters.context import TURN_REGION, gm_view, running, sheet_turn_context
from encounters.forms import AddForm, InitiativeForm, RemoveForm, StartForm, TurnForm
from encounters.models import Encounter
from rolls.models import Roll
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import HttpResponse

    from campaigns.models import Membership

SHEET_TURN = "encounters/_sheet_turn.html"
ROLLS_SHOWN = 100
"""The most rolls an encounter's record lists (the first made in it); the log has them all."""


def _encounter(request: AuthenticatedHttpRequest, pk: int, encounter_id: int, *,
               gm: bool = True) -> tuple[Membership, Encounter]:
    """The viewer's seat and the campaign's encounter ``encounter_id``; Http404 for a
    non-member, for an encounter of another campaign, and (``gm``) for a player."""
    membership = get_membership(request.user, pk)
    if gm and not membership.is_gm:
        raise Http404("No such page.")
    encounter = get_object_or_404(Encounter, pk=encounter_id, campaign=membership.campaign)
    encounter.campaign = membership.campaign
    return membership, encounter


def _answer(request: AuthenticatedHttpRequest, membership: Membership, *, error: str = "",
            success: str = "", since: int, sheet: Character | None = None,
            gm_forms: Callable[[Encounter, list[Any]], dict[str, Any]] | None = None,
            start: StartForm | None = None) -> HttpResponse:
    """The answer to a change: for htmx the changed region (the card, or ``sheet``'s order)
    with the message in it and the ``Live-Drawn`` label; else a redirect (the ``next`` page
    when the form names one of this site, else the campaign's page) with the message.
    ``gm_forms`` rebuilds the card's forms bound to what was refused; ``start`` is the
    refused "Start an encounter" form, shown again while none runs."""
    campaign = membership.campaign
    if not request.htmx:
        if error or success:
            (messages.error if error else messages.success)(request, error or success)
        target = safe_next_page(request)
        return HttpResponseRedirect(target) if target else redirect(campaign)
    if sheet is not None:
        context = sheet_turn_context(sheet, is_gm=membership.is_gm)
        context.update(character=sheet, is_gm=membership.is_gm)
        template = SHEET_TURN
    else:
        context = board_context(campaign, is_gm=membership.is_gm, viewer_id=request.user.pk)
        encounter, combatants = running(campaign)
        if gm_forms is not None and encounter is not None:
            context.update(gm_forms(encounter, combatants))
        if start is not None and encounter is None and "encounter_start" in context:
            context["encounter_start"] = start
        template = CARD
    context.update(campaign=campaign, membership=membership, error=error, success=success)
    response = render(request, template, context)
    return drawn(response, bumped(campaign.pk, since, is_gm=membership.is_gm), [TURN_REGION])


@require_http_methods(["GET", "POST"])
@login_required
def encounter_list(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's encounters, the running one first, then the ended ones newest first,
    each linking its record; whoever runs the table also starts one here (POST, from this
    page or the campaign page's card), unless one is running or the campaign is archived.
    A player's POST gets 404."""
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    since = campaign.page_version(is_gm=membership.is_gm)
    if request.method == "POST" and not membership.is_gm:
        raise Http404("No such page.")
    encounters = list(campaign.encounters.select_related("session"))
    running_now = next((e for e in encounters if e.ended_at is None), None)
    form = None
    if membership.is_gm and not campaign.is_archived:
        form = StartForm(request.POST if request.method == "POST" else None, campaign=campaign)
    if request.method == "POST" and form is not None:
        error = ""
        if form.is_valid():
            session = (campaign.sessions.filter(pk=form.cleaned_data["session"]).first()
                       if form.cleaned_data["session"] else None)
            try:
                encounter = services.encounter_start(
                    campaign=campaign, by=request.user, name=form.cleaned_data["name"],
                    session=session)
            except RuleError as exc:
                error = exc.message
            else:
                return _answer(request, membership, since=since, success=(
                    f"{encounter.name} has begun with the party: add the NPCs, set the "
                    "order, then press Begin."))
        else:
            error = systems.errors_text(form)
        if request.htmx:
            return _answer(request, membership, error=error, since=since, start=form)
        messages.error(request, error)
    return render(request, "encounters/encounter_list.html", {
        "campaign": campaign, "membership": membership, "running": running_now,
        "ended": [e for e in encounters if e.ended_at is not None],
        "form": form if running_now is None else None})


@require_GET
@login_required
def encounter_detail(request: AuthenticatedHttpRequest, pk: int, encounter_id: int
                     ) -> HttpResponse:
    """An encounter's record, for every member: who took part (for a player, those the
    players may see), the rounds, when it ran and in which session, and the rolls made in
    the campaign while it ran (GM-only rolls for whoever runs the table alone; imported rolls
    were not made here and are left out), the first :data:`ROLLS_SHOWN`."""
    membership, encounter = _encounter(request, pk, encounter_id, gm=False)
    campaign = membership.campaign
    combatants = list(encounter.combatants.select_related("character"))
    took_part = [c for c in combatants if membership.is_gm or c.shown_to_players]
    rolls = Roll.objects.filter(campaign=campaign, parent__isnull=True, imported=False,
                                created_at__gte=encounter.started_at)
    if encounter.ended_at is not None:
        rolls = rolls.filter(created_at__lte=encounter.ended_at)
    shown = list(rolls.visible_to(is_gm=membership.is_gm)
                 .select_related("character", "rolled_by", "answers")
                 .prefetch_related("followups").order_by("created_at", "id")[:ROLLS_SHOWN + 1])
    system = systems.for_campaign(campaign)
    view = gm_view(encounter, combatants) if membership.is_gm else None
    return render(request, "encounters/encounter_detail.html", {
        "campaign": campaign, "membership": membership, "encounter": encounter,
        "system": system, "roll_template": system.template("_roll.html"),
        "took_part": [{"name": c.name, "npc": c.is_npc, "out": c.defeated,
                       "hidden": membership.is_gm and not c.shown_to_players}
                      for c in took_part],
        "whose": view.whose if view is not None and encounter.ended_at is None else "",
        "rolls": shown[:ROLLS_SHOWN], "more_rolls": len(shown) > ROLLS_SHOWN})


@require_POST
@login_required
def combatant_add(request: AuthenticatedHttpRequest, pk: int, encounter_id: int
                  ) -> HttpResponse:
    """Add ticked characters (NPCs, or a player character joining) at the end of the order."""
    membership, encounter = _encounter(request, pk, encounter_id)
    since = membership.campaign.page_version(is_gm=True)
    _, combatants = running(membership.campaign)
    form = AddForm(request.POST, choices=addable(encounter, combatants))
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        chosen = list(Character.all_objects.filter(campaign=membership.campaign,
                                                   pk__in=form.cleaned_data["characters"]))
        try:
            added = services.combatants_add(encounter=encounter, characters=chosen,
                                            by=request.user)
        except RuleError as exc:
            error = exc.message
        else:
            success = f"Added to the fight: {', '.join(c.name for c in added)}."
    return _answer(request, membership, error=error, success=success, since=since,
                   gm_forms=(lambda e, cs: {"encounter_add": AddForm(
                       request.POST, choices=addable(e, cs))}) if error else None)


@require_POST
@login_required
def initiative_set(request: AuthenticatedHttpRequest, pk: int, encounter_id: int
                   ) -> HttpResponse:
    """Set the order by the system's rule from the GM's numbers and choices; a number left
    blank is rolled by the server."""
    membership, encounter = _encounter(request, pk, encounter_id)
    since = membership.campaign.page_version(is_gm=True)
    _, combatants = running(membership.campaign)
    card = gm_card(encounter, combatants, viewer_id=request.user.pk, data=request.POST)
    form: InitiativeForm = card["encounter_order"]
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        try:
            services.initiative_set(encounter=encounter, entries=form.entries(),
                                    by=request.user, rng=server_dice.get_rng())
        except RuleError as exc:
            error = exc.message
        else:
            success = "The order is set."
    return _answer(request, membership, error=error, success=success, since=since,
                   gm_forms=(lambda e, cs: {"encounter_order": gm_card(
                       e, cs, viewer_id=request.user.pk, data=request.POST)["encounter_order"]})
                   if error else None)


def _turn(request: AuthenticatedHttpRequest, pk: int, encounter_id: int, change: str
          ) -> HttpResponse:
    """A turn change (``change``: "next", "previous", "delay") from the turn the page
    showed. "next" is also a player's "Done", allowed while it is their character's turn;
    the others are the GM's. A sheet's "Done" names its sheet, whose order answers it."""
    membership, encounter = _encounter(request, pk, encounter_id, gm=change != "next")
    since = membership.campaign.page_version(is_gm=membership.is_gm)
    form = TurnForm(request.POST)
    sheet = None
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        # The sheet is read before the change, so that a sheet the viewer may not open
        # falls back to the campaign page's answer rather than refusing what was done.
        sheet = _sheet(membership, form.cleaned_data.get("sheet"))
        try:
            if change == "next":
                done = services.turn_next(encounter=encounter, shown=form.shown(),
                                          by=request.user, players_own=not membership.is_gm)
            elif change == "previous":
                done = services.turn_previous(encounter=encounter, shown=form.shown(),
                                              by=request.user)
            else:
                done = services.turn_delay(encounter=encounter, shown=form.shown(),
                                           by=request.user)
        except RuleError as exc:
            error = exc.message
        else:
            success = _turn_words(done)
    return _answer(request, membership, error=error, success=success, since=since,
                   sheet=sheet)


def _sheet(membership: Membership, character_id: int | None) -> Character | None:
    """The sheet a "Done" was pressed on, when the viewer may open it: any character of the
    campaign for whoever runs the table, a player's own otherwise; else None."""
    if character_id is None:
        return None
    found = Character.all_objects.filter(pk=character_id, campaign=membership.campaign).first()
    if found is None or not (membership.is_gm
                             or (found.owner_id == membership.user_id and not found.is_npc)):
        return None
    found.campaign = membership.campaign
    return found


def _turn_words(encounter: Encounter) -> str:
    """"Round 2: the turn passed on." (never naming whose: a player's answer must not name a
    hidden NPC; the order beside it says whose it is)."""
    return f"Round {encounter.round}: the turn passed on."


@require_POST
@login_required
def turn_next(request: AuthenticatedHttpRequest, pk: int, encounter_id: int) -> HttpResponse:
    """The next turn (the first, before the fight has begun); a player's "Done" while it is
    their character's turn."""
    return _turn(request, pk, encounter_id, "next")


@require_POST
@login_required
def turn_previous(request: AuthenticatedHttpRequest, pk: int, encounter_id: int
                  ) -> HttpResponse:
    """Back one turn (a mistaken "Next")."""
    return _turn(request, pk, encounter_id, "previous")


@require_POST
@login_required
def turn_delay(request: AuthenticatedHttpRequest, pk: int, encounter_id: int) -> HttpResponse:
    """The current combatant acts after the next one this round."""
    return _turn(request, pk, encounter_id, "delay")


@require_http_methods(["GET", "POST"])
@login_required
def combatant_remove(request: AuthenticatedHttpRequest, pk: int, encounter_id: int
                     ) -> HttpResponse:
    """Take a defeated combatant out of the order: GET asks to confirm
    (``?combatant=<code>``), POST removes it. Whoever runs the table only."""
    membership, encounter = _encounter(request, pk, encounter_id)
    since = membership.campaign.page_version(is_gm=True)
    code = (request.POST if request.method == "POST" else request.GET).get("combatant", "")
    target = next((c for c in encounter.combatants.all()
                   if str(c.code) == code and not c.defeated), None)
    if request.method == "GET":
        if target is None or encounter.ended_at is not None:
            raise Http404("No such combatant in the fight.")
        return render(request, "encounters/combatant_remove.html", {
            "campaign": membership.campaign, "encounter": encounter, "combatant": target,
            "form": RemoveForm(initial={"combatant": code})})
    form = RemoveForm(request.POST)
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        try:
            removed = services.combatant_remove(encounter=encounter, code=code, by=request.user)
        except RuleError as exc:
            error = exc.message
        else:
            success = f"{removed.name} is out of the fight."
    return _answer(request, membership, error=error, success=success, since=since)


@require_http_methods(["GET", "POST"])
@login_required
def encounter_end(request: AuthenticatedHttpRequest, pk: int, encounter_id: int
                  ) -> HttpResponse:
    """End the encounter: GET asks to confirm, POST ends it and sends the GM to its record.
    Whoever runs the table only."""
    membership, encounter = _encounter(request, pk, encounter_id)
    since = membership.campaign.page_version(is_gm=True)
    if request.method == "GET":
        if encounter.ended_at is not None:
            return redirect(encounter)
        return render(request, "encounters/encounter_end.html", {
            "campaign": membership.campaign, "encounter": encounter})
    try:
        ended = services.encounter_end(encounter=encounter, by=request.user)
    except RuleError as exc:
        return _answer(request, membership, error=exc.message, since=since)
    messages.success(request, f"{ended.name} has ended after {ended.round} "
                              f"round{'s' if ended.round != 1 else ''}. Its record is below.")
    return redirect(ended)
