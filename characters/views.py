"""The character sheet and its in-place changes: health, willpower and XP.

Every endpoint answers both ways: an HTMX request gets the partial of the box it changed,
a plain POST is redirected back to the page (POST/redirect/GET) with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import OuterRef, Prefetch, Subquery, prefetch_related_objects
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import trigger_client_event

import systems
from characters import services
from characters.cards import health_context, party_card_context
from characters.forms import (
    AwardForm,
    BankForm,
    DamageForm,
    HealForm,
    SpendForm,
    SystemSpendForm,
    WillpowerForm,
)
from characters.models import WILLPOWER_KEY, Character, Trait, XpEntry, trait_key, trait_label
from characters.permissions import get_character, viewer_is_gm
from core import submissions
from core.http import AuthenticatedHttpRequest, render_page
from rolls.forms import RollForm
from rolls.models import Roll
from rulesets import maelstrom
from rulesets.maelstrom import RuleError

SHEET = "characters/sheet.html"
XP_PAGE = "characters/xp.html"
# The XP page holds three forms with an "amount" field: distinct ids keep each label on its
# own input (names stay plain so the endpoints read the same fields).
BANK_IDS, AWARD_IDS = "bank_%s", "award_%s"


# The health forms' select options, read once from the forms that check the POST (the sheet
# only draws the selects; building the forms on every page view cost more than the rest of
# the health box).
# The seed's advanced specialties, suggested for the GM's required specialties on every sheet.
_CATALOGUE_ADVANCED = frozenset(
    name for info in maelstrom.ABILITIES.values() for name in info.advanced_specialties
)


def _dots(value: int, maximum: int, on: str = "●", off: str = "○") -> str:
    """``maximum`` dot characters, the first ``value`` of them filled: ``●●●○○``.

    Built here rather than by a loop in the template: the sheet draws some forty of these.
    """
    filled = max(0, min(value, maximum))
    return on * filled + off * (maximum - filled)


def _dots_label(name: str, value: int) -> str:
    """A trait's dots as a screen reader hears them: ``Driving: 3 dots``, ``Melee: 1 dot``."""
    return f"{name}: {value} dot{'' if value == 1 else 's'}"


def _trait_choices(traits: list[Trait], character: Character) -> list[tuple[str, str]]:
    """Ledger keys of the traits XP can buy or be banked into, with the next rank's label."""
    choices = [(t.key, f"{t.name} ({t.dots})") for t in traits if t.kind != Trait.Kind.SPECIALTY]
    choices.append((WILLPOWER_KEY, f"Willpower ({character.willpower_permanent})"))
    return choices


# The trait columns the sheet shows, read as rows rather than model instances: a sheet has
# some forty traits, and building a model for each was a tenth of the page's Python.
_SHEET_TRAIT_FIELDS = ("kind", "name", "group", "ability", "advanced", "dots")


def _layout(traits: list[Any], banked: dict[str, int]) -> dict[str, Any]:
    """Group the trait rows as the seed's sheet does: attributes by group, abilities by
    group with their specialties under them.

    ``traits`` are rows with the attributes of :data:`_SHEET_TRAIT_FIELDS` (``Trait``
    instances do too), in ``Trait``'s order; ``banked`` is :func:`services.banked_xp`.
    """
    specialties: dict[str, list[Any]] = {}
    for t in traits:
        if t.kind == Trait.Kind.SPECIALTY:
            specialties.setdefault(t.ability, []).append(t)
    attributes: dict[str, list[dict[str, Any]]] = {g: [] for g in maelstrom.ATTRIBUTE_GROUPS}
    abilities: dict[str, list[dict[str, Any]]] = {g: [] for g in maelstrom.ABILITY_GROUPS}
    for t in traits:
        # Plain values the trait-row partial prints as they are (a dict is also the cheapest
        # thing for the template engine to look into).
        row = {"name": t.name, "dots": _dots(t.dots, maelstrom.DOTS_MAX),
               "label": _dots_label(t.name, t.dots),
               "banked": banked.get(trait_key(t.kind, t.name, t.ability), 0)}
        if t.kind == Trait.Kind.ATTRIBUTE:
            attributes.setdefault(t.group, []).append(row)
        elif t.kind == Trait.Kind.ABILITY:
            row["specialties"] = sorted(specialties.get(t.name, []), key=lambda s: s.name)
            abilities.setdefault(t.group, []).append(row)
    return {"attributes": attributes, "abilities": abilities}


def _willpower_context(character: Character, banked: dict[str, int]) -> dict[str, Any]:
    return {
        "willpower_permanent": _dots(character.willpower_permanent, maelstrom.WILLPOWER_MAX),
        "willpower_current": _dots(character.willpower_current, maelstrom.WILLPOWER_MAX,
                                   on="■", off="□"),
        "willpower_banked": banked.get(WILLPOWER_KEY, 0),
        "chart": character.health,  # the roll dialog's wound note depends on willpower too
    }


# What the recent-rolls box (characters/_recent_rolls.html) reads of a roll and of its
# follow-ups. The rest of a row (the pool, the dice, the engine's whole result as JSON) is
# most of its bytes and of the time spent reading it.
_RECENT_ROLL_FIELDS = ("id", "description", "outcome", "summary", "imported", "created_at")
_FOLLOWUP_FIELDS = ("id", "parent_id", "kind", "summary")


def _recent_rolls(character: Character, *fields: str) -> list[Roll]:
    """The character's five newest top-level rolls, newest first, each with its follow-ups
    as the list ``roll.followup_list`` (newest first): one query, and one more when any of
    them has follow-ups, whatever their number.

    Only the columns the recent-rolls box (characters/_recent_rolls.html) shows are read,
    plus ``fields`` (a system's ``_roll.html`` may read more of the roll).
    """
    # Most rolls never get a follow-up: the first query says which did (the id of one, if
    # any), so that a list of rolls without any reads nothing more. A scalar subquery rather
    # than EXISTS: PostgreSQL turns an EXISTS into a hash of every follow-up in the table,
    # built before the LIMIT applies, where this probes the parent index once per roll shown.
    followup = Roll.objects.filter(parent=OuterRef("pk")).order_by().values("pk")[:1]
    rolls = list(
        Roll.objects.filter(character=character, parent__isnull=True)
        .only(*_RECENT_ROLL_FIELDS, *fields).annotate(a_followup=Subquery(followup))[:5]
    )
    with_followups: list[Roll] = []
    for roll in rolls:
        if roll.a_followup is not None:  # type: ignore[attr-defined]  # django-stubs: RollQuerySet yields plain Roll, dropping the annotate() attribute
            with_followups.append(roll)
        else:
            roll.followup_list = []  # type: ignore[attr-defined]  # django-stubs: Prefetch(to_attr=) attributes are not on the model
    if with_followups:
        prefetch_related_objects(with_followups, Prefetch(
            "followups", queryset=Roll.objects.only(*_FOLLOWUP_FIELDS), to_attr="followup_list"))
    return rolls


def _sheet_context(request: AuthenticatedHttpRequest, character: Character) -> dict[str, Any]:
    """Everything the sheet shows, in a fixed number of queries whatever the trait count."""
    traits = list(character.traits.values_list(*_SHEET_TRAIT_FIELDS, named=True))
    banked = services.banked_xp(character)
    merits_flaws = list(character.merits_flaws.all())
    return {
        "character": character,
        "live_campaign": character.campaign,
        "is_gm": viewer_is_gm(character),
        **_layout(traits, banked),
        **health_context(character),
        **_willpower_context(character, banked),
        "merits": [m for m in merits_flaws if m.kind == "merit"],
        "flaws": [m for m in merits_flaws if m.kind == "flaw"],
        "banked_total": sum(banked.values()),
        # The sheet writes the roll dialog's inputs out from the form's fields (sheet.html).
        "roll_fields": RollForm.base_fields,
        # Suggestions for the GM's required specialties: the seed's advanced ones and the
        # character's own (Maelstrom rules.md, Required Specialties).
        "advanced_specialties": sorted(
            _CATALOGUE_ADVANCED
            | {t.name for t in traits if t.kind == Trait.Kind.SPECIALTY and t.advanced}
        ),
        # Rolls the GM asked for and the player has not made yet (rolls/models.py).
        "requested_rolls": list(character.requested_rolls.filter(answer__isnull=True)),
        "recent_rolls": _recent_rolls(character),
    }


def _system_sheet_context(character: Character, system: systems.SheetSystem
                          ) -> dict[str, Any]:
    """A described system's sheet: the shared parts (roll dialog, requests, recent rolls) and
    what the system adds, in a fixed number of queries."""
    is_gm = viewer_is_gm(character)
    return {
        "character": character,
        "live_campaign": character.campaign,
        "is_gm": is_gm,
        "system": system,
        "roll_form": system.roll_form(character),
        "requested_rolls": list(character.requested_rolls.filter(answer__isnull=True)),
        # The Genesys sheet draws each roll's dice from its result (_recent_rolls.html, dice).
        "recent_rolls": _recent_rolls(character, "result"),
        "roll_template": system.template("_roll.html"),
        **system.sheet_context(character, is_gm=is_gm),
    }


@login_required
def character_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The sheet. Maelstrom (rules.md, Traits, Willpower, Health): traits as dots in the
    seed's groups, specialties under their ability, willpower, the health chart, merits and
    flaws, XP; each trait can join the roll pool. Every other system: the sheet its
    description lays out (systems/)."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    if system is not None:
        return render(request, system.template("sheet.html"),
                      _system_sheet_context(character, system))
    return render(request, SHEET, _sheet_context(request, character))


@require_POST
@login_required
def character_action(request: AuthenticatedHttpRequest, pk: int, action: str) -> HttpResponse:
    """One in-place change of a described system's sheet (``action`` names it: a stress
    step, a plot point, a statistic spent). The system's form checks the input, its rule
    makes the change atomically; HTMX gets the changed box (or the dashboard card), a plain
    POST a redirect with a message. A GM-only action gives players 404."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    track = system.actions.get(action) if system else None
    if system is None or track is None or (track.gm_only and not viewer_is_gm(character)):
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
    return _respond(request, character, track.partial,
                    lambda: _system_sheet_context(character, system),
                    error=error, success=success, system=system)


def _respond(
    request: AuthenticatedHttpRequest, character: Character, partial: str,
    context_for: Callable[[], dict[str, Any]],
    *, error: str = "", success: str = "", system: systems.SheetSystem | None = None,
) -> HttpResponse:
    """The partial for HTMX, or a redirect to the sheet with a message.

    ``context_for`` builds the partial's context, only when the partial is rendered. A
    change made from the GM dashboard's card (``from=dashboard``) answers with that card,
    or redirects back to the dashboard.
    """
    from_dashboard = request.POST.get("from") == "dashboard"
    if request.htmx and from_dashboard:
        card = {"card": party_card_context(character), "error": error, "success": success}
        return render(request, "table/campaign_detail.html#party-card", card)
    if request.htmx:
        # The track's answer also refreshes the roll dialog's wound note (out of band).
        context = {"character": character, "error": error, "success": success,
                   "oob_wound_note": True, **context_for()}
        page = system.template("sheet.html") if system else SHEET
        response = render(request, f"{page}#{partial}", context)
        # Wounds and willpower change the pool: the roll dialog refreshes its odds.
        return trigger_client_event(response, "trackChanged") if not error else response
    if error:
        messages.error(request, error)
    elif success:
        messages.success(request, success)
    return redirect(character.campaign if from_dashboard else character)


def _maelstrom_character(request: AuthenticatedHttpRequest, pk: int) -> Character:
    """The character for a Maelstrom-only change (health boxes, willpower, banking): as
    ``get_character``, and a 404 for a character of any other system, whose sheet has no
    such track (its own changes go through ``character_action``)."""
    character = get_character(request.user, pk)
    if systems.for_campaign(character.campaign) is not None:
        raise Http404("No such change on this sheet.")
    return character


@require_POST
@login_required
def character_health(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Mark damage or heal a level in place (Maelstrom rules.md, Marking Damage)."""
    character = _maelstrom_character(request, pk)
    if request.POST.get("action") == "heal":
        form: DamageForm | HealForm = HealForm(request.POST)
    else:
        form = DamageForm(request.POST)
    error = success = ""
    if not form.is_valid():
        error = "; ".join(str(e) for errors in form.errors.values() for e in errors)
    else:
        try:
            if isinstance(form, HealForm):
                character = services.damage_heal(
                    character=character, kind=form.cleaned_data["kind"] or None
                )
                success = f"Healed one level: {character.health.level_name}."
            else:
                levels, kind = form.cleaned_data["levels"], form.cleaned_data["kind"]
                character = services.damage_mark(character=character, kind=kind, levels=levels)
                success = f"Marked {levels} {kind}: {character.health.level_name}."
        except RuleError as exc:
            error = str(exc)
    return _respond(request, character, "health-track", lambda: health_context(character),
                    error=error, success=success)


@require_POST
@login_required
def character_willpower(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Spend or recover a current willpower dot in place (Maelstrom rules.md, Willpower)."""
    character = _maelstrom_character(request, pk)
    form = WillpowerForm(request.POST)
    error = success = ""
    if not form.is_valid():
        error = "Choose to spend or recover willpower."
    else:
        try:
            if form.cleaned_data["action"] == "spend":
                character = services.willpower_spend(character=character)
                success = "Spent a willpower dot."
            else:
                character = services.willpower_recover(character=character)
                success = "Recovered a willpower dot."
        except RuleError as exc:
            error = str(exc)
    return _respond(request, character, "willpower-track",
                    lambda: _willpower_context(character, services.banked_xp(character)),
                    error=error, success=success)


# --- XP -----------------------------------------------------------------------------------


def _xp_context(
    request: AuthenticatedHttpRequest, character: Character, **forms: Any
) -> dict[str, Any]:
    system = systems.for_campaign(character.campaign)
    traits = [] if system else list(character.traits.all())
    choices = _trait_choices(traits, character)
    banked = {} if system else services.banked_xp(character)
    entries = Paginator(
        character.xp_entries.select_related("created_by", "reversal"), 25
    ).get_page(request.GET.get("page"))
    gm = viewer_is_gm(character)
    # Mirrors xp_undo: a player may undo the latest spend once, if it is their own.
    latest_own = services.player_undoable(character)
    return {
        "character": character,
        "is_gm": gm,
        "entries": entries,
        "undoable": {e.pk for e in entries if e.kind == XpEntry.Kind.SPEND
                     and not hasattr(e, "reversal")
                     and (gm or (e.pk == latest_own and e.created_by_id == request.user.pk))},
        "banked": [(trait_label(k), v) for k, v in sorted(banked.items())],
        "spend_form": forms.get("spend_form") or SpendForm(trait_choices=choices),
        "bank_form": forms.get("bank_form") or BankForm(trait_choices=choices, auto_id=BANK_IDS),
        "award_form": forms.get("award_form") or AwardForm(auto_id=AWARD_IDS),
        "quote": forms.get("quote"),
        "abilities": maelstrom.ABILITIES,
        # A described system lists what XP buys next, each with its price (and its own
        # extras: achievements, the buy-in catalogue) instead of Maelstrom's banks.
        "system": system,
        "advances": system.advances(character) if system else [],
        "spend_error": forms.get("spend_error", ""),
        **(system.xp_context(character, is_gm=gm) if system else {}),
    }


@login_required
def character_xp(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The XP page: balance, banks, the ledger, and the spend, bank and award forms."""
    character = get_character(request.user, pk)
    return render(request, XP_PAGE, _xp_context(request, character))


@require_http_methods(["GET", "POST"])
@login_required
def character_xp_spend(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Spend XP on a dot or specialty: GET shows the cost (from the bank and from available
    XP) before confirming; POST with the confirmed ``expected_cost`` buys it
    (Maelstrom rules.md, Spending Experience)."""
    character = get_character(request.user, pk)
    system = systems.for_campaign(character.campaign)
    if system is not None:
        return _system_xp_spend(request, character, system)
    choices = _trait_choices(list(character.traits.all()), character)
    data = request.POST if request.method == "POST" else request.GET
    form = SpendForm(data, trait_choices=choices)
    quote = None
    if form.is_valid():
        try:
            # A purchase is confirmed at the price the player saw; without one, show it.
            if request.method == "POST" and form.cleaned_data["expected_cost"] is not None:
                entry = services.xp_spend(
                    character=character, **form.purchase_args(),
                    expected_cost=form.cleaned_data["expected_cost"], by=request.user,
                )
                messages.success(request, f"Spent {entry.cost} XP: {entry.reason}.")
                if request.htmx:
                    character.refresh_from_db()
                    return render(request, f"{XP_PAGE}#xp-panel",
                                  _xp_context(request, character))
                return redirect("characters:character-xp", pk=character.pk)
            quote = services.xp_quote(character=character, **form.purchase_args())
        except RuleError as exc:
            form.add_error(None, str(exc))
    context = _xp_context(request, character, spend_form=form, quote=quote)
    return render_page(request, XP_PAGE, "xp-panel", context)


def _system_xp_spend(
    request: AuthenticatedHttpRequest, character: Character, system: systems.SheetSystem
) -> HttpResponse:
    """A described system's purchase: GET ``key`` shows the price (the system's quote, with
    any unmet prerequisite named); POST ``key`` with the confirmed ``expected_cost`` buys
    the next rank as one ledger entry."""
    data = request.POST if request.method == "POST" else request.GET
    form = SystemSpendForm(data)
    quote, error = None, ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        key = form.cleaned_data["key"]
        try:
            if request.method == "POST":
                entry = services.xp_spend_advance(
                    character=character, key=key, by=request.user,
                    expected_cost=form.cleaned_data["expected_cost"])
                messages.success(request, f"Spent {entry.cost} XP: {entry.reason}.")
                if request.htmx:
                    character.refresh_from_db()
                    return render(request, f"{XP_PAGE}#xp-panel",
                                  _xp_context(request, character))
                return redirect("characters:character-xp", pk=character.pk)
            quote = system.quote(character, key)
        except RuleError as exc:
            error = str(exc)
    context = _xp_context(request, character, quote=quote, spend_error=error)
    status = 400 if error and not request.htmx else 200
    return render_page(request, XP_PAGE, "xp-panel", context, status=status)


@require_POST
@login_required
def character_xp_bank(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Bank available XP into a trait (Maelstrom rules.md, Banking Experience)."""
    character = _maelstrom_character(request, pk)
    choices = _trait_choices(list(character.traits.all()), character)
    form = BankForm(request.POST, trait_choices=choices, auto_id=BANK_IDS)
    if form.is_valid():
        try:
            entry = services.xp_bank(character=character, key=form.cleaned_data["trait"],
                                     amount=form.cleaned_data["amount"], by=request.user)
        except RuleError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"{entry.banked_delta} XP banked in "
                                      f"{trait_label(entry.bank_key)}.")
            if not request.htmx:
                return redirect("characters:character-xp", pk=character.pk)
            character.refresh_from_db()
            return render(request, f"{XP_PAGE}#xp-panel", _xp_context(request, character))
    context = _xp_context(request, character, bank_form=form)
    return render_page(request, XP_PAGE, "xp-panel", context)


@require_POST
@login_required
def character_xp_award(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM awards XP: the seed's chapter and story awards and/or a custom amount
    (Maelstrom rules.md, Earning Experience). Players get 404."""
    character = get_character(request.user, pk)
    if not viewer_is_gm(character):
        raise Http404("No such page.")
    form = AwardForm(request.POST, auto_id=AWARD_IDS)
    if form.is_valid():
        awards = [(1, f"{name} award") for name in form.cleaned_data["awards"]]
        if form.cleaned_data["amount"]:
            awards.append((form.cleaned_data["amount"], form.cleaned_data["reason"]))
        try:
            # The form sent twice (a double click, a resent page) awards once; the second
            # copy is told so (core/submissions.py).
            done = submissions.submit_once(
                user=request.user, form="xp-award", token=submissions.posted_token(request),
                act=lambda: services.xp_award_many(character=character, awards=awards,
                                                   by=request.user),
                result_id=lambda _: character.pk)
        except RuleError as exc:
            form.add_error(None, str(exc))
        except submissions.BadToken as exc:
            form.add_error(None, str(exc))
        else:
            total = sum(amount for amount, _ in awards)
            messages.success(request, f"Awarded {total} XP to {character.name}."
                             if not done.replayed else
                             f"This award to {character.name} was already given: the form was "
                             "sent twice, and it counts once.")
            if not request.htmx:
                return redirect("characters:character-xp", pk=character.pk)
            character.refresh_from_db()
            return render(request, f"{XP_PAGE}#xp-panel", _xp_context(request, character))
    context = _xp_context(request, character, award_form=form)
    return render_page(request, XP_PAGE, "xp-panel", context)


@require_http_methods(["GET", "POST"])
@login_required
def character_xp_undo(request: AuthenticatedHttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """Undo a spend with a reversing entry: GET asks to confirm, POST undoes it. A player
    undoes only their own latest spend; the GM any (Maelstrom rules.md, Spending
    Experience; our ledger never deletes)."""
    character = get_character(request.user, pk)
    entry = get_object_or_404(XpEntry, pk=entry_id, character=character)
    if request.method == "GET":
        return render(request, "characters/xp_undo.html",
                      {"character": character, "entry": entry})
    try:
        reversal = services.xp_undo(entry=entry, by=request.user,
                                    as_gm=viewer_is_gm(character))
    except RuleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Undone: {entry.reason}; {reversal.available_delta} XP "
                                  "refunded.")
    if request.htmx:
        character.refresh_from_db()
        return render(request, f"{XP_PAGE}#xp-panel", _xp_context(request, character))
    return redirect("characters:character-xp", pk=character.pk)
