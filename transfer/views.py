"""Export and import pages: a character or a campaign downloaded as JSON, and uploaded back.

Objects load through ``campaigns.permissions`` like everywhere else (404 for anyone who may
not see them): a character's export is its owner's or the GM's (only the GM's file carries
the GM's notes and GM-only rolls), a campaign's the GM's; any member imports a character as
their own (only the GM's import keeps the file's GM notes), any logged-in user imports a
campaign and becomes its GM. The import itself is ``transfer.imports``; a refusal
re-renders the form with the reason. A player's imported character awaits the GM, who reviews
it on its import page (``import_review``: the GM only, 404 for everyone else) and accepts or
refuses it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Sum
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET, require_http_methods

import systems
from campaigns.permissions import get_campaign_as_gm, get_membership
from characters.models import Character, CharacterImport, XpEntry
from characters.permissions import get_character, get_character_as_gm, viewer_is_gm
from core.http import AuthenticatedHttpRequest
from rulesets.errors import RuleError
from transfer import export, imports
from transfer.forms import ImportDecisionForm, ImportForm
from transfer.validate import TransferError


@require_GET
@login_required
def character_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Download the character as ``<name>.sheetkeeper.json`` (its owner or the GM; what
    only the GM may see, their notes and GM-only rolls, stays out of the owner's file)."""
    character = get_character(request.user, pk)
    return _download(export.export_character(character, for_gm=viewer_is_gm(character)))


@require_GET
@login_required
def campaign_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Download the whole campaign as ``<name>.sheetkeeper.json`` (the GM only, GM notes
    included; players and strangers get 404). An archived campaign still exports."""
    campaign = get_campaign_as_gm(request.user, pk)
    return _download(export.export_campaign(campaign))


@require_http_methods(["GET", "POST"])
@login_required
def character_import(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Import a character file into the campaign as the member's own character; the file's
    system must be the campaign's."""
    campaign = get_membership(request.user, pk).campaign
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    if request.method == "POST" and form.is_valid():
        try:
            character = imports.import_character(form.cleaned_data["document"], campaign,
                                                 request.user)
        except TransferError as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(request, f"{character.name} joined {campaign.name} with "
                                      f"{_history(character)}.")
            if character.awaiting_gm:
                messages.info(request, f"{character.name} awaits the GM: until they accept "
                                       "it, it cannot roll, spend or receive XP, or be asked "
                                       "for a roll.")
            if character.is_retired:
                messages.info(request, f"{character.name} arrives "
                                       f"{character.get_status_display().lower()}, as the "
                                       "file says: out of the party until the GM brings it "
                                       "back.")
            unlinked: int = character.unlinked_awards  # type: ignore[attr-defined]  # set by import_character on this instance, not a column
            if unlinked:
                messages.warning(request, f"{unlinked} award"
                                 f"{'s were' if unlinked != 1 else ' was'} "
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
            campaign = imports.import_campaign(form.cleaned_data["document"], request.user)
        except TransferError as exc:
            form.add_error("file", str(exc))
        else:
            count = campaign.characters.count()
            then = ("It was archived when exported and stays archived: restore it from its "
                    "settings page to play on." if campaign.is_archived
                    else "Share the invite link with your players.")
            messages.success(request, f"{campaign.name} is imported with {count} "
                                      f"character{'s' if count != 1 else ''}, all yours; you "
                                      f"are its GM. {then}")
            return redirect(campaign)
    return render(request, "transfer/campaign_import.html", {"form": form})


REVIEW_PAGE = "transfer/import_review.html"


@require_http_methods(["GET", "POST"])
@login_required
def import_review(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM's review of an imported character: what it brings (what the file says of
    where it was exported from, its backstory and its player's notes, XP by source, the
    ledger, its rolls) and, while it awaits them, the accept and refuse forms (each with its
    confirmation box). GM only: 404 for everyone else, and for a character that was not
    imported on its own. The GM's notes are not shown: a player's file brings none.

    POST decides (:func:`transfer.imports.import_decide`); HTMX gets the decision box
    (``#import-decision``), a plain POST is redirected back here.
    """
    character = get_character_as_gm(request.user, pk)
    record = (CharacterImport.objects.select_related("imported_by", "decided_by")
              .filter(character=character).first())
    if record is None:
        raise Http404("This character was not imported.")
    form = ImportDecisionForm(request.POST if request.method == "POST" else None)
    notice = ""
    if form.is_bound and form.is_valid():
        accept = form.cleaned_data["decision"] == "accept"
        try:
            character = imports.import_decide(character=character, accept=accept,
                                              by=request.user)
        except RuleError as exc:
            form.add_error(None, exc.message)
        else:
            record.refresh_from_db()
            verb = "accepted: it plays from now on" if accept else "refused: it stays as a record"
            notice = f"{character.name} is {verb}."
            if not request.htmx:
                messages.success(request, notice)
                return redirect("transfer:import-review", pk=character.pk)
            form = ImportDecisionForm()
    if request.htmx:
        return render(request, f"{REVIEW_PAGE}#import-decision",
                      {"character": character, "record": record, "form": form,
                       "notice": notice})
    context = {"character": character, "campaign": character.campaign, "record": record,
               "form": form, "notice": notice, **_brings(character, record)}
    return render(request, REVIEW_PAGE, context)


def _brings(character: Character, record: CharacterImport) -> dict[str, Any]:
    """What an imported character brought: its XP by source (the ledger summed by kind), its
    ledger, its rolls (the imported ones) and the roll requests it carries.

    Once the GM has decided, the ledger is read up to the decision: nothing is appended to
    the ledger of a character awaiting the GM, so what the page showed when they decided is
    what it shows afterwards, whatever the character has done since."""
    ledger = character.xp_entries.all()
    requests = character.requested_rolls.filter(answer__isnull=True)
    if record.decided_at is not None:
        ledger = ledger.filter(created_at__lte=record.decided_at)
        requests = requests.filter(created_at__lte=record.decided_at)
    entries = list(ledger.select_related("session").order_by("created_at", "id"))
    sources = (ledger.values("kind").order_by("kind")
               .annotate(count=Count("id"), available=Sum("available_delta"),
                         total=Sum("total_delta")))
    return {
        "xp_sources": [{**row, "label": XpEntry.KINDS.get(row["kind"], row["kind"])}
                       for row in sources],
        "xp_available": sum(e.available_delta for e in entries),
        "xp_total": sum(e.total_delta for e in entries),
        "ledger": entries,
        "rolls": list(character.rolls.filter(imported=True).select_related("parent")
                      .order_by("created_at", "id")),
        "open_requests": requests.count(),
        # What a character made here would start with, by the system's rules (none where
        # the system starts characters without XP).
        "starting_xp": (character.campaign.starting_xp
                        if systems.for_campaign(character.campaign).uses_starting_xp else 0),
    }


def _history(character: Any) -> str:
    entries, rolls = character.xp_entries.count(), character.rolls.count()
    return (f"{entries} ledger entr{'ies' if entries != 1 else 'y'} and {rolls} "
            f"roll{'s' if rolls != 1 else ''}")


def _download(document: dict[str, Any]) -> HttpResponse:
    response = HttpResponse(export.document_json(document),
                            content_type="application/json; charset=utf-8")
    disposition = content_disposition_header(
        as_attachment=True, filename=export.document_filename(document))
    assert disposition is not None  # None only when neither an attachment nor a filename
    response["Content-Disposition"] = disposition
    return response
