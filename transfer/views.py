"""Export and import pages: a character or a campaign downloaded as JSON, and uploaded back.

Objects load through ``campaigns.permissions`` like everywhere else (404 for anyone who may
not see them): a character's export is its owner's or the GM's, a campaign's the GM's; any
member imports a character as their own, any logged-in user imports a campaign and becomes
its GM. The import itself is ``transfer.services``; a refusal re-renders the form with the
reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.permissions import (
    get_campaign_as_gm,
    get_character,
    get_membership,
    viewer_is_gm,
)
from transfer import services
from transfer.forms import ImportForm

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

    class AuthenticatedHttpRequest(HttpRequest):
        user: User


@require_GET
@login_required
def character_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Download the character as ``<name>.sheetkeeper.json`` (its owner or the GM; rolls
    only the GM may see stay out of the owner's file)."""
    character = get_character(request.user, pk)
    return _download(services.export_character(character,
                                               gm_only_rolls=viewer_is_gm(character)))


@require_GET
@login_required
def campaign_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Download the whole campaign as ``<name>.sheetkeeper.json`` (the GM only; players
    and strangers get 404)."""
    campaign = get_campaign_as_gm(request.user, pk)
    return _download(services.export_campaign(campaign))


@require_http_methods(["GET", "POST"])
@login_required
def character_import(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Import a character file into the campaign as the member's own character; the file's
    system must be the campaign's."""
    campaign = get_membership(request.user, pk).campaign
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if request.method == "POST" and form.is_valid():
        try:
            character = services.import_character(form.cleaned_data["document"], campaign,
                                                  request.user)
        except services.TransferError as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(request, f"{character.name} joined {campaign.name} with "
                                      f"{_history(character)}.")
            if character.unlinked_awards:
                messages.warning(request, f"{character.unlinked_awards} award"
                                 f"{'s were' if character.unlinked_awards != 1 else ' was'} "
                                 "given in sessions of another campaign: the XP and reason "
                                 "are kept, without the session.")
            return redirect(character)
    return render(request, "transfer/character_import.html",
                  {"campaign": campaign, "form": form})


@require_http_methods(["GET", "POST"])
@login_required
def campaign_import(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Import a campaign file as a new campaign; the person importing is its GM and owns
    every character (usernames do not travel, docs/backup.md)."""
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if request.method == "POST" and form.is_valid():
        try:
            campaign = services.import_campaign(form.cleaned_data["document"], request.user)
        except services.TransferError as exc:
            form.add_error("file", str(exc))
        else:
            count = campaign.characters.count()
            messages.success(request, f"{campaign.name} is imported with {count} "
                                      f"character{'s' if count != 1 else ''}, all yours; you "
                                      "are its GM. Share the invite link with your players.")
            return redirect(campaign)
    return render(request, "transfer/campaign_import.html", {"form": form})


def _history(character: Any) -> str:
    entries, rolls = character.xp_entries.count(), character.rolls.count()
    return (f"{entries} ledger entr{'ies' if entries != 1 else 'y'} and {rolls} "
            f"roll{'s' if rolls != 1 else ''}")


def _download(document: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(services.document_json(document),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=services.document_filename(document))
    return response
