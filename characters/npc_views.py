"""The GM's NPC pages: the campaign's NPCs, a new one from a stat block, copies of a character
or NPC, what the players see of one, and its archive (docs/npcs.md).

Whoever runs the table (``campaigns.permissions.get_campaign_as_gm``,
``characters.permissions.get_character_as_gm``) uses them; anyone else gets 404, so a player
never learns that an NPC exists. An NPC's sheet, rolls and track actions are the character
pages' (``characters.views``, ``rolls.views``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import systems
from campaigns.permissions import get_campaign_as_gm
from characters import npcs
from characters.cards import party_card_context
from characters.forms import NpcCopyForm, NpcShownForm
from characters.models import Character
from characters.permissions import get_character_as_gm
from core.http import AuthenticatedHttpRequest
from rulesets.errors import RuleError


def _npc_list_url(campaign_id: int) -> str:
    return reverse("characters:npc-list", args=[campaign_id])


@require_GET
@login_required
def npc_list(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's NPCs for whoever runs the table: those in play as cards (tracks changed
    in place, as the party's), each with what the players see of it and its actions; the
    archived ones listed apart. Two queries."""
    campaign = get_campaign_as_gm(request.user, campaign_id)
    everyone = list(Character.npcs.filter(campaign=campaign))
    for npc in everyone:
        npc.campaign = campaign
    in_play = [npc for npc in everyone if not npc.is_retired]
    return render(request, "characters/npc_list.html", {
        "campaign": campaign, "system": systems.for_campaign(campaign),
        "cards": [party_card_context(npc) for npc in in_play],
        "archived_npcs": [npc for npc in everyone if npc.is_retired],
    })


@require_http_methods(["GET", "POST"])
@login_required
def npc_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """A new NPC from the system's stat block (``SheetSystem.npc_form``): the rules checked,
    no creation budget. GET shows the form; a valid POST makes the NPC (hidden from the
    players) and opens its sheet; a refused one shows the form again with what was typed and
    the reason (400)."""
    campaign = get_campaign_as_gm(request.user, campaign_id)
    system = systems.for_campaign(campaign)
    posted = request.method == "POST"
    form = system.npc_form(campaign, request.POST if posted else None)
    if posted and form.is_valid():
        try:
            npc = npcs.npc_create(campaign=campaign, by=request.user, data=form.cleaned_data)
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{npc.name} is ready, hidden from the players.")
            return redirect(npc)
    return render(request, "characters/npc_create.html",
                  {"campaign": campaign, "system": system, "form": form},
                  status=400 if posted else 200)


@require_http_methods(["GET", "POST"])
@login_required
def npc_copy(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """"More like this one": NPC copies of a character or an NPC (``npcs.npc_copy``). GET
    asks how many (and a name for one); a valid POST makes them and goes to the campaign's
    NPCs; a refused one shows the form again with the reason (400)."""
    source = get_character_as_gm(request.user, pk)
    posted = request.method == "POST"
    form = NpcCopyForm(request.POST if posted else None)
    if posted and form.is_valid():
        try:
            copies = npcs.npc_copy(source=source, by=request.user,
                                   count=form.cleaned_data["count"],
                                   name=form.cleaned_data["name"])
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            names = ", ".join(c.name for c in copies)
            messages.success(request, f"Made {names}, hidden from the players.")
            return redirect(_npc_list_url(source.campaign_id))
    return render(request, "characters/npc_copy.html",
                  {"character": source, "campaign": source.campaign, "form": form},
                  status=400 if posted else 200)


@require_POST
@login_required
def npc_shown(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Set what the players see of an NPC (hidden, its name, its name and tracks) and go back
    to the page the form was on (the NPC list or the NPC's sheet), with a message."""
    npc = get_character_as_gm(request.user, pk)
    form = NpcShownForm(request.POST)
    if not form.is_valid():
        messages.error(request, systems.errors_text(form))
    else:
        try:
            npc = npcs.npc_show(npc=npc, shown=form.cleaned_data["shown"], by=request.user)
        except RuleError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"The players now see: "
                                      f"{npc.get_npc_shown_display().lower()} ({npc.name}).")
    return _back(request, npc)


@require_POST
@login_required
def npc_archive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Archive an NPC (``archived=1``) or bring it back (``archived=0``), then go back to the
    campaign's NPCs with a message."""
    npc = get_character_as_gm(request.user, pk)
    archived = request.POST.get("archived") != "0"
    try:
        npc = npcs.npc_archive(npc=npc, archived=archived, by=request.user)
    except RuleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{npc.name} is {'archived' if archived else 'back in play'}.")
    return redirect(_npc_list_url(npc.campaign_id))


def _back(request: AuthenticatedHttpRequest, npc: Character) -> HttpResponse:
    """The NPC's sheet when the form was posted from it (``from=sheet``), else the list."""
    if request.POST.get("from") == "sheet":
        return redirect(npc)
    return redirect(_npc_list_url(npc.campaign_id))
