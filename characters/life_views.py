"""A character's life, for every system: what is written about it (name, concept, backstory,
notes, the GM's notes), retiring and restoring it, giving it to another player, deleting it.

Every endpoint answers both ways, as the sheet's (:mod:`characters.views`): htmx gets the page's
form with its errors or a client-side redirect, a plain POST is redirected back
(POST/redirect/GET) with a message. The changes are ``characters.services``'.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from campaigns.models import Membership
from characters import services
from characters.forms import CharacterEditForm, GmNotesForm, MoveForm, RetireForm
from characters.permissions import get_character, get_character_as_gm, viewer_is_gm
from core.http import AuthenticatedHttpRequest, render_page
from rulesets.errors import RuleError

EDIT_PAGE = "characters/character_edit.html"
GM_NOTES_PAGE = "characters/character_gm_notes.html"
RETIRE_PAGE = "characters/character_retire.html"
DELETE_PAGE = "characters/character_delete.html"
MOVE_PAGE = "characters/character_move.html"


def _go(request: AuthenticatedHttpRequest, url: str) -> HttpResponse:
    """Where a change that redraws the whole page leads: a redirect (POST/redirect/GET), or
    for htmx a client-side redirect (``HX-Redirect``), so the browser loads the page itself
    rather than swapping a whole page into a box."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _form_status(request: AuthenticatedHttpRequest, refused: bool, *, status: int = 400
                 ) -> int:
    """The status of a page answering a POST it refused: ``status`` for a plain request, 200
    for htmx (which swaps only a successful answer, and the form with its errors must show)."""
    return status if refused and not request.htmx else 200


@require_http_methods(["GET", "POST"])
@login_required
def character_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Edit a character's name, concept, backstory and its player's notes (Markdown).

    Its owner or the campaign's GM; anyone else gets 404. GET shows the form; a valid POST
    saves it (``services.character_update``) and goes back to the sheet with a message; an
    invalid one shows the form again with what was typed and the reason (400, or 200 with
    the ``edit-form`` partial for htmx).
    """
    character = get_character(request.user, pk)
    initial = {name: getattr(character, name) for name in CharacterEditForm.base_fields}
    posted = request.method == "POST"
    form = CharacterEditForm(request.POST if posted else None, initial=initial)
    if posted and form.is_valid():
        character = services.character_update(character=character, by=request.user,
                                               **form.cleaned_data)
        messages.success(request, f"{character.name} is saved.")
        return _go(request, character.get_absolute_url())
    return render_page(request, EDIT_PAGE, "edit-form",
                       {"character": character, "form": form},
                       status=_form_status(request, posted))


@require_http_methods(["GET", "POST"])
@login_required
def character_gm_notes(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM's private notes on a character (Markdown): GM only; everyone else, the owner
    included, gets 404, so a player never learns the notes exist.

    GET shows the form; a valid POST saves it (announced to nobody) and goes back to the
    sheet's GM notes card; an invalid one shows the form again with the reason (400, or 200
    with the ``gm-notes-form`` partial for htmx).
    """
    character = get_character_as_gm(request.user, pk)
    posted = request.method == "POST"
    form = GmNotesForm(request.POST if posted else None,
                       initial={"gm_notes": character.gm_notes})
    if posted and form.is_valid():
        services.character_update(character=character, by=request.user,
                                  gm_notes=form.cleaned_data["gm_notes"])
        messages.success(request, f"Your notes on {character.name} are saved.")
        return _go(request, f"{character.get_absolute_url()}#gm-notes")
    return render_page(request, GM_NOTES_PAGE, "gm-notes-form",
                       {"character": character, "form": form},
                       status=_form_status(request, posted))


@require_http_methods(["GET", "POST"])
@login_required
def character_retire(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Take a character out of the party: GET asks how (retired; for the GM also dead), POST
    does it (``services.character_retire``) and goes back to the sheet.

    Its owner or the campaign's GM; anyone else gets 404. A player may only retire, and has
    nothing to choose for a character already retired or marked dead (the page says so). A
    refused POST writes nothing and shows the form again with the reason (400, or 200 with
    the ``retire-form`` partial for htmx).
    """
    character = get_character(request.user, pk)
    as_gm = viewer_is_gm(character)
    posted = request.method == "POST"
    form = RetireForm(request.POST if posted else None, as_gm=as_gm, current=character.status)
    if posted and form.is_valid():
        try:
            character = services.character_retire(
                character=character, status=form.cleaned_data["status"], by=request.user,
                as_gm=as_gm)
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            back = ("You can bring it back from its sheet." if as_gm
                    else "The GM can bring it back.")
            messages.success(request, f"{character.name} is "
                                      f"{character.get_status_display().lower()}: out of the "
                                      f"party. {back}")
            return _go(request, character.get_absolute_url())
    return render_page(request, RETIRE_PAGE, "retire-form",
                       {"character": character, "form": form, "is_gm": as_gm},
                       status=_form_status(request, posted))


@require_POST
@login_required
def character_restore(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Bring a retired or dead character back into the party (``services.character_restore``)
    and go back to its sheet with a message (the refusal, for one already in the party). GM
    only: everyone else, the owner included, gets 404."""
    character = get_character_as_gm(request.user, pk)
    try:
        character = services.character_restore(character=character, by=request.user)
    except RuleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"{character.name} is back in the party.")
    return _go(request, character.get_absolute_url())


@require_http_methods(["GET", "POST"])
@login_required
def character_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Delete a character that has no history yet (no roll, no roll request, no XP entry but
    its creation's): GET asks to confirm, or, for a character with history, says what it has
    and offers retiring it instead (no delete button); POST deletes it
    (``services.character_delete``) and goes to the campaign's page.

    Its owner or the campaign's GM; anyone else gets 404. A refused POST (the character has
    history, perhaps since the page was shown) deletes nothing and answers 409 with the
    explanation page (htmx: 200 with its ``delete-panel`` partial).
    """
    character = get_character(request.user, pk)
    refused = ""
    if request.method == "POST":
        campaign = character.campaign
        try:
            services.character_delete(character=character, by=request.user)
        except RuleError as exc:
            refused = str(exc)
        else:
            messages.success(request, f"{character.name} was deleted.")
            return _go(request, campaign.get_absolute_url())
    blockers = services.delete_blockers(character)
    context = {"character": character, "blockers": blockers, "refused": refused,
               "explanation": blockers.explain(character.name), "is_gm": viewer_is_gm(character)}
    return render_page(request, DELETE_PAGE, "delete-panel", context,
                       status=_form_status(request, bool(refused), status=409))


@require_http_methods(["GET", "POST"])
@login_required
def character_move(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Move a character to another player of its campaign: GET shows the campaign's other
    players to choose from (or says there is none), POST moves it
    (``services.character_move``) and goes back to its sheet. The former owner no longer
    sees it.

    GM only: everyone else, the owner included, gets 404. A refused POST writes nothing and
    shows the form again with the reason (400, or 200 with the ``move-form`` partial for
    htmx).
    """
    character = get_character_as_gm(request.user, pk)
    players = (get_user_model().objects
               .filter(memberships__campaign_id=character.campaign_id,
                       memberships__role=Membership.Role.PLAYER, is_active=True)
               .exclude(pk=character.owner_id).order_by("first_name", "username"))
    posted = request.method == "POST"
    form = MoveForm(request.POST if posted else None, players=players)
    if posted and form.is_valid():
        to_user = form.cleaned_data["to_user"]
        try:
            character = services.character_move(character=character, to_user=to_user,
                                                 by=request.user)
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            name = to_user.get_short_name() or to_user.get_username()
            messages.success(request, f"{character.name} now belongs to {name}.")
            return _go(request, character.get_absolute_url())
    return render_page(request, MOVE_PAGE, "move-form",
                       {"character": character, "form": form, "players": list(players)},
                       status=_form_status(request, posted))
