"""The character sheet and its in-place changes, and the XP page, for every system; a
character's life (what is written about it, retiring and restoring it, a new owner, deletion)
is :mod:`characters.life_views`.

Every endpoint answers both ways: an HTMX request gets the partial of the box it changed,
a plain POST is redirected back to the page (POST/redirect/GET) with a message. What a sheet
shows and what each change means is the campaign's system's (:mod:`systems`).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import F, Sum, Window
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import trigger_client_event

import systems
from campaigns.permissions import get_membership
from campaigns.versions import bumped
from characters import permissions, services
from characters.cards import CARD_TEMPLATE, party_card_context
from characters.forms import AwardForm
from characters.ledger import banked_xp
from characters.live import RECENT_ROLLS_REGION
from characters.models import Character, XpEntry
from characters.permissions import get_character, get_character_as_gm, viewer_is_gm
from characters.recent import RECENT_ROLLS, recent_rolls
from core import submissions
from core.html_forms import drop_writes
from core.http import AuthenticatedHttpRequest, render_page
from core.regions import (
    LivePage,
    answers_regions,
    asked_regions,
    asks_regions,
    by_event,
    drawn,
    no_regions,
    recall,
    render_regions,
    unchanged,
)
from encounters.context import TURN_REGION, sheet_turn_context
from equipment.inventory import INVENTORY_REGION, INVENTORY_TEMPLATE, inventory_context
from equipment.services import ITEMS_CHANGED
from history.between import since_last_session
from rulesets.errors import RuleError

XP_PAGE = "characters/xp.html"
# The XP page holds several forms with an "amount" field: distinct ids keep each label on its
# own input (names stay plain so the endpoints read the same fields).
AWARD_IDS = "award_%s"
# The live price inside a system's own purchase form (its spend_template), and the partial of
# the XP page that fills it.
SPEND_QUOTE = "spend-quote"


def _sheet_context(character: Character, system: systems.SheetSystem,
                   regions: list[str] | None = None) -> dict[str, Any]:
    """A sheet's context: the shared parts (roll dialog, requests, recent rolls) and what
    the system adds, in a fixed number of queries. With ``regions`` (live region ids,
    :func:`core.regions.asked_regions`), the roll requests and the recent rolls are read
    only when one of them is asked for.

    ``reads_only``: a party-mate reads it (docs/decisions.md, "The party's sheets"): nothing
    that writes (``no_writes``), no roll dialog, no requests. ``roll_refused``: why it may not
    roll, which the sheet shows instead of the roll dialog and bar; ``""`` when it may."""
    is_gm = viewer_is_gm(character)
    reads_only = permissions.viewer_reads_only(character)
    wanted = set(regions) if regions is not None else None
    return {
        "character": character,
        "live_campaign": character.campaign,
        "live": live_sheet(character, system),
        "archived": character.campaign.is_archived,
        "reads_only": reads_only,
        "no_writes": reads_only or character.campaign.is_archived,
        "roll_refused": _roll_refused(character, system),
        "is_gm": is_gm,
        "system": system,
        "roll_form": system.roll_form(character),
        "requested_rolls": (list(character.requested_rolls.filter(answer__isnull=True))
                            if not reads_only and (wanted is None or "roll-requests" in wanted)
                            else []),
        # A system's _roll.html draws each roll's dice from its result (_recent_rolls.html).
        "recent_rolls": (recent_rolls(character, "result")
                         if wanted is None or RECENT_ROLLS_REGION in wanted else []),
        "recent_limit": RECENT_ROLLS,
        "roll_template": system.template("_roll.html"),
        # The GM's private notes enter the context for the GM only, so no page or fragment a
        # player gets can show them (templates read ``gm_notes``, never the character's).
        **({"gm_notes": character.gm_notes} if is_gm else {}),
        # The Equipment card (equipment.inventory): its items in one query, when drawn.
        **(inventory_context(character, system)
           if wanted is None or INVENTORY_REGION in wanted else {}),
        **sheet_turn_context(character, is_gm=is_gm, reads_only=reads_only, wanted=wanted),
        # What changed since the last session (history/between_summary.html): two queries,
        # for the whole page only (no live region draws it).
        "since_last_session": (since_last_session(character, gm=is_gm)
                               if wanted is None else None),
        **system.sheet_context(character, is_gm=is_gm),
    }


def _roll_refused(character: Character, system: systems.SheetSystem) -> str:
    """Why ``character`` may make no roll at all (:func:`_out_of_play`, or out of the story
    by its system's rules: ``SheetSystem.is_out_of_play``), or ``""`` when it may."""
    refused = _out_of_play(character)
    if not refused and system.is_out_of_play(character):
        refused = f"{character.name} is out of the story by the rules: it makes no rolls."
    return refused


READER_HIDDEN = frozenset({"sheet-xp", "character-actions", "roll-requests"})
"""The live regions a party-mate's copy of a sheet leaves out (its XP link, actions, requests)."""


def live_sheet(character: Character, system: systems.SheetSystem) -> LivePage:
    """What is live on a character's sheet (core/regions.py), by event (each its
    character's): a track change redraws the system's track regions
    (:attr:`systems.SheetSystem.live_tracks`), an XP change its XP regions (``live_xp``), a
    change of the campaign's system data both (a skill list, the traits' names); a roll the
    recent rolls; a change of the character's standing, owner or name its title, status,
    actions, tracks, XP and requests (what the viewer may do there), and the recent rolls
    (which show its name); a GM's request the requests. None
    in an archived campaign; for a party-mate (``viewer_reads_only``) none of
    :data:`READER_HIDDEN`."""
    url = character.get_absolute_url()
    if character.campaign.is_archived:
        return LivePage(url=url, regions=())
    pk = character.pk
    version = character.campaign.page_version(is_gm=viewer_is_gm(character))
    hidden = READER_HIDDEN if permissions.viewer_reads_only(character) else frozenset()
    events: list[tuple[str, tuple[str, ...]]] = [
        (f"trackChanged-{pk}", system.live_tracks),
        (f"xpChanged-{pk}", system.live_xp),
        ("campaignChanged", (*system.live_tracks, *system.live_xp)),
        (f"rollMade-{pk}", (RECENT_ROLLS_REGION,)),
        # Its standing or its player changed: what the viewer may do on it may have too (a
        # moved character's old owner now reads it as a party-mate: no controls).
        (f"partyChanged-{pk}",
         ("sheet-title", "character-status", "character-actions", RECENT_ROLLS_REGION,
          *system.live_tracks, *system.live_xp, "roll-requests")),
        (f"rollRequested-{pk}", ("roll-requests",)),
        # The Equipment card: its items, the character's standing (its forms) and Strength
        # (a melee weapon's damage) drawn in it.
        (f"{ITEMS_CHANGED}-{pk}", (INVENTORY_REGION,)),
        (f"partyChanged-{pk}", (INVENTORY_REGION,)),
        (f"xpChanged-{pk}", (INVENTORY_REGION,)),
        ("encounterChanged", (TURN_REGION,)), ("npcsChanged", (TURN_REGION,)),  # encounters
    ]
    return LivePage(url=url, version=version, regions=by_event(
        (event, kept) for event, ids in events if (kept := [i for i in ids if i not in hidden])))


SHEET_FRAME = ("systems/_sheet.html", "characters/_requests.html", INVENTORY_TEMPLATE)
"""Where the sheet's shared live regions are drawn, after the system's own ``sheet.html``."""


@require_http_methods(["GET", "POST"])
@login_required
def character_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """Create a character of the campaign's system on one page: the system's form checks
    every rule and names the one broken; the form re-renders with the player's input until
    it holds. The new character's starting XP, if the system has any, opens its ledger. A
    system with creation pages of its own (:meth:`systems.SheetSystem.creation_url`) is sent
    there. Any member of the campaign may; non-members get 404."""
    campaign = get_membership(request.user, campaign_id).campaign
    system = systems.for_campaign(campaign)
    own_pages = system.creation_url(campaign)
    if own_pages is not None:
        return redirect(own_pages)
    form = system.creation_form(campaign, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            sheet = system.new_sheet(campaign, form.cleaned_data)
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            character = services.character_create(
                campaign=campaign, owner=request.user, name=form.cleaned_data["name"],
                concept=form.cleaned_data.get("concept", ""), sheet=sheet,
                starting_xp=system.creation_xp(campaign, form.cleaned_data),
            )
            if system.in_creation(character):
                # Not ready yet (a system whose creation goes on after the form, on the XP
                # page: SheetSystem.in_creation): say what is left.
                messages.success(request, f"{character.name} is made. Next, invest the "
                                 "starting XP on the XP page, then finish creation there.")
            else:
                messages.success(request, f"{character.name} is ready to play.")
            return redirect(character)
    status = 400 if request.method == "POST" else 200
    return render(request, system.template("create.html"),
                  {"campaign": campaign, "form": form, "system": system}, status=status)


@answers_regions
@login_required
def character_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The sheet, as the campaign's system lays it out (``systems/<slug>/sheet.html``); with
    ``?live=<id>...``, only those live regions of it, each rendered alone
    (:func:`live_sheet`; an id the sheet does not have is 404).

    A party-mate may read it where the campaign shows the party's sheets
    (``get_character(..., party=True)``): the page and its regions then keep no control
    that writes (the regions are rendered alone, outside the page's ``read_only`` filter, so
    their answer is filtered here)."""
    character = get_character(request.user, pk, party=True)
    system = systems.for_campaign(character.campaign)
    version = character.campaign.page_version(is_gm=viewer_is_gm(character))
    seat = character.campaign.live_seat(request.user.pk, getattr(character, "viewer_role", None))
    if asks_regions(request) and (same := unchanged(request, version) or recall(
            request, version, seat)):
        return same  # nothing at the table changed since these regions were drawn
    live = live_sheet(character, system)
    regions = asked_regions(request, live)
    if regions == []:
        return no_regions(live)
    context = _sheet_context(character, system, regions)
    if regions is not None:
        # A live region asks for itself alone (core/regions.py), checked as the page is.
        return render_regions(request, context["live"], regions,
                              (system.template("sheet.html"), *SHEET_FRAME), context,
                              seat=seat, finish=drop_writes if context["reads_only"] else None)
    return render(request, system.template("sheet.html"), context)


@require_POST
@login_required
def character_action(request: AuthenticatedHttpRequest, pk: int, action: str) -> HttpResponse:
    """One in-place change of a sheet (``action`` names it: damage marked, a stress step, a
    plot point, XP banked). The system's form checks the input, its rule makes the change
    atomically; HTMX gets the changed box (the dashboard card, or the XP panel for a change
    made on the XP page), a plain POST a redirect with a message. A GM-only action gives
    players 404."""
    character = get_character(request.user, pk)
    since = character.campaign.page_version(is_gm=viewer_is_gm(character))
    system = systems.for_campaign(character.campaign)
    track = system.actions.get(action)
    if track is None or (track.gm_only and not viewer_is_gm(character)):
        raise Http404("No such change on this sheet.")
    form = (track.form(request.POST, character=character) if track.needs_character  # type: ignore[call-arg]  # TrackAction.form is typed Form; a needs_character form takes character=
            else track.form(request.POST))
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        try:
            role = getattr(character, "viewer_role", None)
            character, success = services.sheet_change(
                character=character, action=track, data=form.cleaned_data, by=request.user)
            # The locked copy lacks it; is_gm reads it.
            character.viewer_role = role  # type: ignore[attr-defined]  # django-stubs: get_character's annotate() attribute is not on the model
        except RuleError as exc:
            error = str(exc)
    if track.on_xp_page:
        return _xp_answer(request, character, error=error, success=success)
    return _respond(request, character, system, track.partial,
                    error=error, success=success, since=since)


def _respond(
    request: AuthenticatedHttpRequest, character: Character, system: systems.SheetSystem,
    partial: str, *, error: str = "", success: str = "", since: int | None = None,
) -> HttpResponse:
    """The sheet's partial for HTMX, or a redirect to the sheet with a message.

    A change made from the GM dashboard's card (``from=dashboard``) answers with that card,
    or redirects back to the dashboard. ``since``: the campaign's live version for the
    viewer (``Campaign.page_version``) read before the change; the card is then labelled
    with the version the change brought (:func:`core.regions.drawn`), so the dashboard does
    not ask for the card again when the change's own event arrives.
    """
    from_dashboard = request.POST.get("from") == "dashboard"
    if request.htmx and from_dashboard:
        card = {"card": party_card_context(character), "error": error, "success": success}
        answer = render(request, CARD_TEMPLATE, card)
        if since is None:
            return answer
        version = bumped(character.campaign_id, since, is_gm=viewer_is_gm(character))
        return drawn(answer, version, [f"card-{character.pk}"])
    if request.htmx:
        # The track's answer also refreshes the roll dialog's wound note (out of band).
        context = {"error": error, "success": success, "oob_wound_note": True,
                   **_sheet_context(character, system)}
        response = render(request, f"{system.template('sheet.html')}#{partial}", context)
        # Wounds and willpower change the pool: the roll dialog refreshes its odds.
        return trigger_client_event(response, "trackChanged") if not error else response
    if error:
        messages.error(request, error)
    elif success:
        messages.success(request, success)
    return redirect(character.campaign if from_dashboard else character)


RELOADED_FIELDS = [field.name for field in Character._meta.concrete_fields
                   if field.name not in {"id", "gm_notes"}]
"""What :func:`_reload` reads again: every column of the character but its id and the GM's
notes."""


def _reload(character: Character) -> None:
    """Re-read ``character`` after a change, every column but the GM's notes:
    ``get_character`` blanked them for anyone but the GM, and a full reload would bring them
    back into a player's context."""
    character.refresh_from_db(fields=RELOADED_FIELDS)


def _xp_answer(request: AuthenticatedHttpRequest, character: Character, *, error: str,
               success: str) -> HttpResponse:
    """The answer to a change made on the XP page: the XP panel (HTMX) or a redirect to the
    XP page, with the message."""
    if error:
        messages.error(request, error)
    elif success:
        messages.success(request, success)
    if not request.htmx:
        return redirect("characters:character-xp", pk=character.pk)
    _reload(character)
    return render(request, f"{XP_PAGE}#xp-panel", _xp_context(request, character),
                  status=200)


# --- XP -----------------------------------------------------------------------------------


def _xp_context(
    request: AuthenticatedHttpRequest, character: Character, **forms: Any
) -> dict[str, Any]:
    """The XP page's context (``characters/xp.html``, its ``xp-panel``): the ledger's page
    (``?page=``, 25 entries newest first, each with ``available_after``, the available XP it
    left), which entries the viewer may undo, the banked XP per trait, the spend and award
    forms (``forms`` passes bound ones back: ``spend_form``, ``award_form``, and a price
    asked for: ``quote``, ``from_bank``, ``quote_key``) and the system's own extras
    (``SheetSystem.xp_context``)."""
    system = systems.for_campaign(character.campaign)
    entries = Paginator(
        character.xp_entries.select_related("created_by", "reversal").annotate(
            # The balance each entry left: the ledger summed up to it, in the ledger's order
            # (oldest first), so the newest line's is the character's xp_available.
            available_after=Window(Sum("available_delta"),
                                   order_by=[F("created_at").asc(), F("id").asc()])),
        25,
    ).get_page(request.GET.get("page"))
    gm = viewer_is_gm(character)
    campaign = character.campaign
    # An archived campaign takes no write (campaigns/archive.py): its XP page offers no
    # purchase, award or undo, and says so where they were.
    archived = campaign.is_archived
    # Mirrors xp_undo: a player may undo the latest spend once, if it is their own.
    latest_own = None if archived else services.player_undoable(character)
    banked = banked_xp(character)
    awards = ([(name, system.award_label(name)) for name in system.session_awards(campaign)]
              if system.session_awards_help(campaign) else [])
    return {
        "character": character,
        "is_gm": gm,
        "system": system,
        "entries": entries,
        "archived": archived,
        "undoable": {e.pk for e in entries if e.kind == XpEntry.Kind.SPEND and not archived
                     and not hasattr(e, "reversal")
                     and (gm or (e.pk == latest_own and e.created_by_id == request.user.pk))},
        "banked": [(system.key_label(k), v) for k, v in sorted(banked.items())],
        "spend_form": forms.get("spend_form") or system.spend_form(character),
        "award_form": forms.get("award_form") or AwardForm(awards=awards, auto_id=AWARD_IDS),
        "award_help": system.session_awards_help(campaign) if awards else "",
        **_quote_context(character, forms.get("quote"), forms.get("from_bank", 0)),
        "quote_key": forms.get("quote_key", ""),
        "advances": system.advances(character),
        "spend_error": forms.get("spend_error", ""),
        # Why nothing can be bought or awarded (retired, dead, an import awaiting the GM):
        # the page says so instead of offering forms the ledger would refuse.
        "out_of_play": _out_of_play(character),
        **system.xp_context(character, is_gm=gm),
    }


def _out_of_play(character: Character) -> str:
    """Why ``character`` may not roll, spend or receive XP (``Character.require_in_play``'s
    refusal), or ``""`` when it may."""
    try:
        character.require_in_play()
    except RuleError as exc:
        return str(exc)
    return ""


def _quote_context(character: Character, quote: systems.Advance | None, from_bank: int
                   ) -> dict[str, Any]:
    """The quote box: the price, what the bank pays of it, and whether the balance covers the
    rest (else the refusal ``services.xp_spend`` would give)."""
    if quote is None:
        return {"quote": None}
    from_available = quote.cost - from_bank
    bank = f" plus {from_bank} banked" if from_bank else ""
    return {
        "quote": quote,
        "from_bank": from_bank,
        "quote_from_available": from_available,
        "quote_affordable": from_available <= character.xp_available,
        "quote_refusal": f"{quote.label} costs {quote.cost} XP; you have "
                         f"{character.xp_available} XP available{bank} "
                         f"({from_available - character.xp_available} short).",
    }


@login_required
def character_xp(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The XP page: balance, banks, what XP buys, the ledger, and the GM's award form."""
    character = get_character(request.user, pk)
    return render(request, XP_PAGE, _xp_context(request, character))


@require_http_methods(["GET", "POST"])
@login_required
def character_xp_spend(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A purchase with XP: GET (or a POST without a price) shows the price (the system's
    quote, with what banked XP pays and any unmet prerequisite named) before confirming;
    POST with the confirmed ``expected_cost`` buys the next rank as one ledger entry (banked
    XP first, where the system banks: its ``rule_spending``). An htmx GET aimed at
    ``#spend-quote`` (a system's purchase form, priced live as the player chooses) gets
    only that price and its buy button."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    data = request.POST if request.method == "POST" else request.GET
    form = system.spend_form(character, data)
    quote, from_bank, key, error = None, 0, "", ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        key = form.cleaned_data["key"]
        try:
            # A purchase is confirmed at the price the player saw; without one, show it.
            if request.method == "POST" and form.cleaned_data["expected_cost"] is not None:
                entry = services.xp_spend(
                    character=character, key=key, by=request.user,
                    expected_cost=form.cleaned_data["expected_cost"])
                messages.success(request, f"Spent {entry.cost} XP: {entry.reason}.")
                if request.htmx:
                    _reload(character)
                    return render(request, f"{XP_PAGE}#xp-panel",
                                  _xp_context(request, character))
                return redirect("characters:character-xp", pk=character.pk)
            quote, from_bank = services.xp_quote(character, key)
        except RuleError as exc:
            error = str(exc)
    if request.method == "GET" and request.htmx.target == SPEND_QUOTE:
        return render(request, f"{XP_PAGE}#{SPEND_QUOTE}",
                      {"character": character, "spend_error": error,
                       **_quote_context(character, quote, from_bank)})
    context = _xp_context(request, character, spend_form=form, quote=quote, quote_key=key,
                          from_bank=from_bank, spend_error=error)
    status = 400 if error and not request.htmx else 200
    return render_page(request, XP_PAGE, "xp-panel", context, status=status)


@require_POST
@login_required
def character_xp_award(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM awards XP: the system's named awards ticked (Maelstrom's chapter and story
    awards) and/or a custom amount with its reason. Players get 404."""
    character = get_character_as_gm(request.user, pk)
    system = systems.for_campaign(character.campaign)
    offered = [(name, system.award_label(name))
               for name in system.session_awards(character.campaign)]
    form = AwardForm(request.POST, awards=offered, auto_id=AWARD_IDS)
    if form.is_valid():
        named = list(form.cleaned_data["awards"])
        awards = []
        if form.cleaned_data["amount"]:
            awards.append((form.cleaned_data["amount"], form.cleaned_data["reason"]))
        try:
            # The form sent twice (a double click, a resent page) awards once; the second
            # copy is told so (core/submissions.py).
            done = submissions.submit_once(
                user=request.user, form="xp-award", token=submissions.posted_token(request),
                act=lambda: services.xp_award_many(character=character, awards=awards,
                                                   named=named, by=request.user),
                result_id=lambda _: character.pk)
        except RuleError as exc:
            form.add_error(None, str(exc))
        except submissions.BadToken as exc:
            form.add_error(None, str(exc))
        else:
            # What the ledger says was given: a named award is worth what its system says.
            total = sum(entry.available_delta for entry in done.result or ())
            messages.success(request, f"Awarded {total} XP to {character.name}."
                             if not done.replayed else
                             f"This award to {character.name} was already given: the form was "
                             "sent twice, and it counts once.")
            if not request.htmx:
                return redirect("characters:character-xp", pk=character.pk)
            _reload(character)
            return render(request, f"{XP_PAGE}#xp-panel", _xp_context(request, character))
    context = _xp_context(request, character, award_form=form)
    return render_page(request, XP_PAGE, "xp-panel", context)


@require_http_methods(["GET", "POST"])
@login_required
def character_xp_undo(request: AuthenticatedHttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """Undo a spend with a reversing entry: GET asks to confirm, POST undoes it. A player
    undoes only their own latest spend; the GM any (our ledger never deletes)."""
    character = get_character(request.user, pk)
    entry = get_object_or_404(XpEntry, pk=entry_id, character=character)
    if request.method == "GET":
        undone = (systems.for_campaign(character.campaign).undo_description(character, entry)
                  if entry.kind == XpEntry.Kind.SPEND else "")  # the rest is refused on POST
        return render(request, "characters/xp_undo.html",
                      {"character": character, "entry": entry, "undone": undone})
    try:
        reversal = services.xp_undo(entry=entry, by=request.user,
                                    as_gm=viewer_is_gm(character))
    except RuleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Undone: {entry.reason}; {reversal.available_delta} XP "
                                  "refunded.")
    if request.htmx:
        _reload(character)
        return render(request, f"{XP_PAGE}#xp-panel", _xp_context(request, character))
    return redirect("characters:character-xp", pk=character.pk)
