"""A character's inventory, changed in place on its sheet's Equipment card, for every system:
an item added, changed, removed, or used in play (the system's item actions: Maelstrom's
fire and reload).

Who may: whoever may change the character (``characters.permissions.get_character``: its
owner and the campaign's GM); anyone else gets 404, as for the sheet. Every endpoint answers
both ways: an htmx request gets the card (``characters/_inventory.html#sheet-inventory``),
with the message or the refused form and what was typed; a plain POST is redirected to the
sheet's card with a message, or, refused, shows the item's own page again with what was
typed (400). An archived campaign refuses every POST before the view runs
(campaigns/archive.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

import systems
from campaigns.versions import bumped
from characters.permissions import get_character, viewer_is_gm
from core.regions import drawn
from equipment import services
from equipment.forms import ItemForm, RemoveForm
from equipment.inventory import (
    ADD_IDS,
    INVENTORY_REGION,
    INVENTORY_TEMPLATE,
    Refused,
    inventory_context,
)
from equipment.models import Item
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django import forms

    from characters.models import Character
    from core.http import AuthenticatedHttpRequest

ITEM_PAGE = "equipment/item_form.html"
REMOVE_PAGE = "equipment/item_remove.html"


def _item(character: Character, item_id: int) -> Item:
    """``character``'s item ``item_id``; Http404 for any other (another character's item
    is as unknown as one that never was)."""
    return get_object_or_404(Item, pk=item_id, character=character)


def _card(request: AuthenticatedHttpRequest, character: Character,
          system: systems.SheetSystem, **extra: Any) -> HttpResponse:
    """The Equipment card alone (an htmx answer), drawn with ``extra`` (a refused form, a
    message: :func:`equipment.inventory.inventory_context`)."""
    context = {"character": character, "system": system, "is_gm": viewer_is_gm(character),
               "archived": character.campaign.is_archived,
               **inventory_context(character, system, **extra)}
    return render(request, f"{INVENTORY_TEMPLATE}#{INVENTORY_REGION}", context)


def _done(request: AuthenticatedHttpRequest, character: Character,
          system: systems.SheetSystem, *, since: int, success: str = "", error: str = ""
          ) -> HttpResponse:
    """The answer to a change made (``success``) or refused by a rule (``error``): the card
    for htmx, labelled with the live version the change brought so that the page does not
    ask for it again (:func:`core.regions.drawn`); else a redirect to the sheet's card with
    the message."""
    if request.htmx:
        answer = _card(request, character, system, success=success, error=error)
        version = bumped(character.campaign_id, since, is_gm=viewer_is_gm(character))
        return drawn(answer, version if success else None, [INVENTORY_REGION])
    if error:
        messages.error(request, error)
    else:
        messages.success(request, success)
    return redirect(f"{character.get_absolute_url()}#{INVENTORY_REGION}")


def _valid(form: forms.Form, system_form: forms.Form | None) -> bool:
    """Both forms valid (each checked, so that both show their errors)."""
    shared = form.is_valid()
    own = system_form is None or system_form.is_valid()
    return shared and own


def _named(form: ItemForm, system: systems.SheetSystem, details: dict[str, Any]) -> str:
    """The item's name: as typed, else what the system calls it (a weapon of its tables);
    ``""`` (and the name field's error) when neither gives one."""
    name = form.cleaned_data["name"] or system.item_label(details)
    if not name:
        form.add_error("name", "Name the item.")
    return str(name)


def _refused(request: AuthenticatedHttpRequest, character: Character,
             system: systems.SheetSystem, refused: Refused, error: str) -> HttpResponse:
    """A refused add or change with what was typed, and the rule that refused it
    (``error``, or ``""`` when the forms say what is wrong): the card for htmx (200, which
    htmx swaps), else the item's own page (400)."""
    if request.htmx:
        return _card(request, character, system, refused=refused, error=error)
    return render(request, ITEM_PAGE, {"character": character, "system": system,
                                       "item": refused.item, "form": refused.form,
                                       "system_form": refused.system_form, "error": error},
                  status=400)


@require_http_methods(["GET", "POST"])
@login_required
def item_add(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Add an item to the character's inventory: its name, quantity and note, and what the
    system asks of it (``SheetSystem.item_form``: Maelstrom's weapon or armor). GET shows
    the form on a page of its own (the sheet's card holds the same form)."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    since = character.campaign.page_version(is_gm=viewer_is_gm(character))
    data = request.POST if request.method == "POST" else None
    form = ItemForm(data, auto_id=ADD_IDS)
    system_form = system.item_form(character, data, auto_id=ADD_IDS)
    if data is None:
        return render(request, ITEM_PAGE, {"character": character, "system": system,
                                           "form": form, "system_form": system_form})
    error = ""
    if _valid(form, system_form):
        try:
            details = system.item_details(
                system_form.cleaned_data if system_form is not None else {})
            name = _named(form, system, details)
            if name:
                item = services.item_add(
                    character=character, name=name, quantity=form.cleaned_data["quantity"],
                    note=form.cleaned_data["note"], details=details, by=request.user)
                return _done(request, character, system, since=since,
                             success=f"Added {item} to the equipment.")
        except RuleError as exc:
            error = str(exc)
    return _refused(request, character, system, Refused(form, system_form), error)


@require_http_methods(["GET", "POST"])
@login_required
def item_change(request: AuthenticatedHttpRequest, pk: int, item_id: int) -> HttpResponse:
    """Change an item: its name, quantity and note (the card's quick change), and what the
    system records of it (its page: ``SheetSystem.item_form``; a POST without those fields
    leaves them as they were). GET shows the item's page."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    item = _item(character, item_id)
    since = character.campaign.page_version(is_gm=viewer_is_gm(character))
    data = request.POST if request.method == "POST" else None
    ids = f"item-{item.pk}-%s"
    form = ItemForm(data, auto_id=ids,
                    initial={"name": item.name, "quantity": item.quantity, "note": item.note})
    system_form = system.item_form(character, data, item=item, auto_id=ids)
    if data is None:
        return render(request, ITEM_PAGE, {"character": character, "system": system,
                                           "item": item, "form": form,
                                           "system_form": system_form})
    error = ""
    if _valid(form, system_form):
        try:
            details = system.item_details(
                system_form.cleaned_data if system_form is not None else {}, item=item)
            name = _named(form, system, details)
            if name:
                item = services.item_change(
                    item=item, name=name, quantity=form.cleaned_data["quantity"],
                    note=form.cleaned_data["note"], details=details, by=request.user)
                return _done(request, character, system, since=since,
                             success=f"Changed {item}.")
        except RuleError as exc:
            error = str(exc)
    return _refused(request, character, system, Refused(form, system_form, item), error)


@require_http_methods(["GET", "POST"])
@login_required
def item_remove(request: AuthenticatedHttpRequest, pk: int, item_id: int) -> HttpResponse:
    """Remove an item: GET asks to confirm (the card's button asks in the browser and
    posts), POST removes it."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    item = _item(character, item_id)
    since = character.campaign.page_version(is_gm=viewer_is_gm(character))
    form = RemoveForm(request.POST if request.method == "POST" else None)
    if request.method == "GET" or not form.is_valid():
        return render(request, REMOVE_PAGE, {"character": character, "item": item})
    try:
        services.item_remove(item=item, by=request.user)
    except RuleError as exc:
        return _done(request, character, system, since=since, error=str(exc))
    return _done(request, character, system, since=since,
                 success=f"Removed {item} from the equipment.")


@require_POST
@login_required
def item_act(request: AuthenticatedHttpRequest, pk: int, item_id: int, action: str
             ) -> HttpResponse:
    """Use an item in play as the system's action ``action`` says (Maelstrom: fire a ranged
    weapon, one round; reload it to its capacity). An action the system does not have is a
    404; a rule's refusal ("Out of rounds: reload.") is the card's message, nothing
    written."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    used = system.item_actions.get(action)
    if used is None:
        raise Http404("No such thing to do with an item.")
    item = _item(character, item_id)
    since = character.campaign.page_version(is_gm=viewer_is_gm(character))
    form = used.form(request.POST)
    if not form.is_valid():
        return _done(request, character, system, since=since,
                     error=systems.errors_text(form))
    try:
        _, success = services.item_act(item=item, action=used, data=form.cleaned_data,
                                       by=request.user)
    except RuleError as exc:
        return _done(request, character, system, since=since, error=str(exc))
    return _done(request, character, system, since=since, success=success)
