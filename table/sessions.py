"""Views of a campaign's sessions of play: the list with the GM's "New session" form, and a
session's page with its recap, the rolls made on its date, what each character received and
the GM's award grid and recap form.

Every member sees the sessions, their recaps, rolls and awards (handed out at the table, like
the roll log); only the GM creates sessions, writes recaps and awards XP: a player's POST gets
404, as every GM-only view does, and a non-member gets 404 for everything. In an archived
campaign nobody gets a form (campaigns/archive.py refuses the POST anyway): the pages say
"Archived: read-only" where the GM's forms were. State changes go through
``table.services``. The award grid and the recap form also answer HTMX with their own
fragments (``session_detail.html#session-awards``, ``#session-recap``); a plain POST gets
POST/redirect/GET.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

import systems
from campaigns.models import Membership, Session
from campaigns.permissions import get_membership
from characters.forms import MarkdownField
from characters.models import Character, XpEntry
from core import submissions
from core.forms import Form, TextRules
from core.http import AuthenticatedHttpRequest, render_page
from core.markdown import MAX_LENGTH
from rolls.models import Roll
from rulesets.errors import RuleError
from table import services as session_services

if TYPE_CHECKING:
    from django.http import HttpResponse


DETAIL_PAGE = "table/session_detail.html"
ALREADY_AWARDED = ("These awards were already given: the form was sent twice, and each award "
                   "was made once. What each character received is listed below.")
ROLLS_SHOWN = 100
"""The most rolls the session page lists (the first of its date); the roll log has them all."""
RECAP_HELP = "Markdown. Every member of the table can read it."
AMOUNT_ERRORS = {
    "invalid": "Enter a whole number of XP.",
    "min_value": "A custom award is between 1 and 100 XP.",
    "max_value": "A custom award is between 1 and 100 XP.",
}


def _recap_field(*, label: str, rows: int) -> MarkdownField:
    """A recap box: Markdown of at most core.markdown.MAX_LENGTH characters, or empty. Its
    line ends are stored as ``\n`` and counted as one character each, as the browser's
    ``maxlength`` counts them (characters.forms.MarkdownField)."""
    return MarkdownField(
        required=False, max_length=MAX_LENGTH, label=label, help_text=RECAP_HELP,
        widget=forms.Textarea(attrs={"rows": rows}),
        error_messages={"max_length": f"Keep the recap to {MAX_LENGTH:,} characters (it has "
                                      "%(show_value)d)."})


class SessionForm(TextRules, forms.ModelForm[Session]):
    """A new session: its date (today unless changed), an optional title and recap."""

    recap = _recap_field(label="Recap (optional)", rows=3)

    class Meta:
        model = Session
        fields = ["date", "title", "recap"]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }
        labels = {"title": "Title (optional)"}
        error_messages = {
            "date": {"required": "Give the session a date.",
                     "invalid": "Enter the date as YYYY-MM-DD, e.g. 2026-11-21."},
            "title": {"max_length": "Keep the title to %(limit_value)d characters "
                                    "(it has %(show_value)d)."},
        }


class SessionRecapForm(Form):
    """The GM's recap of a session (Markdown); an empty one clears it."""

    recap = _recap_field(label="Recap", rows=8)


class SessionAwardForm(Form):
    """The award grid: per character the seed's seven awards (checkboxes) and a custom amount
    with its reason; below it one custom amount and reason for everyone.

    Fields are named after the character: ``awards-12``, ``amount-12``, ``reason-12``.
    Ids posted for characters the page did not offer are read too and left to the service
    to refuse, so a tampered or stale grid is answered with a message, never ignored.
    """

    amount_all = forms.IntegerField(min_value=1, max_value=100, required=False,
                                    label="XP for everyone", error_messages=AMOUNT_ERRORS)
    reason_all = forms.CharField(max_length=200, required=False, label="Reason")
    expected_entries = forms.IntegerField(required=False, widget=forms.HiddenInput)

    ROW_FIELD = re.compile(r"^(?:awards|amount|reason)-(\d+)$")

    def __init__(self, *args: Any, characters: Iterable[Character],
                 award_names: Iterable[str] = (),
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(name, name) for name in award_names]
        ids = [c.pk for c in characters]
        posted = {int(m[1]) for key in (self.data or {}) if (m := self.ROW_FIELD.match(key))}
        self.row_ids = ids + sorted(posted - set(ids))
        for pk in self.row_ids:
            self.fields[f"awards-{pk}"] = forms.MultipleChoiceField(
                choices=choices, required=False, widget=forms.CheckboxSelectMultiple)
            self.fields[f"amount-{pk}"] = forms.IntegerField(
                min_value=1, max_value=100, required=False, error_messages=AMOUNT_ERRORS,
                widget=forms.NumberInput(attrs={"min": 1, "max": 100}))
            self.fields[f"reason-{pk}"] = forms.CharField(max_length=200, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for amount, reason in [("amount_all", "reason_all"),
                               *((f"amount-{pk}", f"reason-{pk}") for pk in self.row_ids)]:
            if data.get(amount) and not (data.get(reason) or "").strip():
                self.add_error(reason, "Give a reason for the custom award.")
            elif (data.get(reason) or "").strip() and amount in data and not data[amount]:
                self.add_error(amount, "Enter the XP this reason is worth.")
        return data

    def award_args(self) -> dict[str, Any]:
        """The cleaned grid as ``session_award``'s keyword arguments."""
        data = self.cleaned_data
        all_amount = data.get("amount_all")
        return {
            "awards": {pk: data[f"awards-{pk}"] for pk in self.row_ids if data[f"awards-{pk}"]},
            "custom": {pk: (data[f"amount-{pk}"], data[f"reason-{pk}"])
                       for pk in self.row_ids if data[f"amount-{pk}"]},
            "custom_for_all": (all_amount, data["reason_all"]) if all_amount else None,
            "expected_entries": data.get("expected_entries"),
        }

    def rows(self, characters: dict[int, Character]) -> list[dict[str, Any]]:
        """One row of bound fields per character, for the template."""
        return [{"pk": pk, "character": characters.get(pk),
                 "awards": self[f"awards-{pk}"], "amount": self[f"amount-{pk}"],
                 "reason": self[f"reason-{pk}"]} for pk in self.row_ids]


@require_http_methods(["GET", "POST"])
@login_required
def session_list(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's sessions, newest first, with the XP each gave; the GM also gets the
    "New session" form (dated today) and creates sessions here, unless the campaign is
    archived."""
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    form = None
    if membership.is_gm and not campaign.is_archived:
        data = request.POST if request.method == "POST" else None
        form = SessionForm(data, initial={"date": timezone.localdate()})
    elif request.method == "POST":
        raise Http404("No such page.")
    if form is not None and form.is_bound and form.is_valid():
        session = session_services.session_create(campaign=campaign, by=request.user,
                                                   **form.cleaned_data)
        messages.success(request, f"{session} is open. Award XP here when it ends.")
        return redirect(session)
    # Meta.ordering is dropped from GROUP BY queries, so it is repeated here.
    sessions = campaign.sessions.annotate(
        xp_awarded=Sum("xp_entries__available_delta"), award_count=Count("xp_entries"),
    ).order_by(*(Session._meta.ordering or ()))
    return render(request, "table/session_list.html",
                  {"campaign": campaign, "membership": membership, "sessions": sessions,
                   "form": form, "archived": campaign.is_archived})


@require_http_methods(["GET", "POST"])
@login_required
def session_detail(request: AuthenticatedHttpRequest, pk: int, session_pk: int) -> HttpResponse:
    """A session: its recap, the rolls made on its date, what each character received in it
    (from the ledger) and, for the GM, the recap form (posting to :func:`session_recap`) and
    the award grid, unless the campaign is archived. One submit awards everything in one
    transaction, or nothing with the reason and the GM's input shown again."""
    membership = get_membership(request.user, pk)
    session = get_object_or_404(
        Session.objects.select_related("campaign"), pk=session_pk, campaign=membership.campaign
    )
    if request.method == "POST" and not membership.is_gm:
        raise Http404("No such page.")
    characters, living, system, names = _award_grid(session)
    form = None
    if membership.is_gm and not session.campaign.is_archived:
        data = request.POST if request.method == "POST" else None
        form = SessionAwardForm(data, characters=living, award_names=names)
    if form is not None and form.is_bound and form.is_valid():
        awards = form.award_args()
        try:
            # The grid sent twice (a double click, a resent page) awards once; the second copy
            # is told so (core/submissions.py).
            done = submissions.submit_once(
                user=request.user, form="session-award", token=submissions.posted_token(request),
                act=lambda: session_services.session_award(
                    session=session, **awards, by=request.user),
                result_id=lambda _: session.pk)
        except RuleError as exc:
            form.add_error(None, exc.message)
        except submissions.BadToken as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, ALREADY_AWARDED if done.result is None
                             else _award_notice(done.result, characters))
            if not request.htmx:
                return redirect(session)
            form = SessionAwardForm(characters=living, award_names=names)
    context = _detail_context(request, membership, session, characters, form, names, system)
    return render_page(request, DETAIL_PAGE, "session-awards", context)


@require_POST
@login_required
def session_recap(request: AuthenticatedHttpRequest, pk: int, session_pk: int) -> HttpResponse:
    """Write, rewrite or clear a session's recap (GM only; a player's POST gets 404).

    A valid recap is saved (``table.services.session_recap_update``): a plain POST is sent
    back to the session's page, an htmx one gets the ``session-recap`` fragment with the
    recap rendered and the form again. A recap longer than core.markdown.MAX_LENGTH is
    refused with the reason and the GM's text shown again (the whole page, or the fragment),
    and nothing is saved.
    """
    membership = get_membership(request.user, pk)
    if not membership.is_gm:
        raise Http404("No such page.")
    session = get_object_or_404(
        Session.objects.select_related("campaign"), pk=session_pk, campaign=membership.campaign
    )
    form = SessionRecapForm(request.POST)
    if form.is_valid():
        session = session_services.session_recap_update(
            session=session, recap=form.cleaned_data["recap"], by=request.user)
        messages.success(request, "The recap is saved. Every member can read it here."
                         if session.recap else "The recap is cleared.")
        if not request.htmx:
            return redirect(session)
        form = SessionRecapForm(initial={"recap": session.recap})
    if request.htmx:
        return render(request, f"{DETAIL_PAGE}#session-recap",
                      {"campaign": session.campaign, "session": session,
                       "membership": membership, "recap_form": form})
    characters, living, system, names = _award_grid(session)
    award_form = SessionAwardForm(characters=living, award_names=names)
    context = _detail_context(request, membership, session, characters, award_form, names,
                              system, recap_form=form)
    return render(request, DETAIL_PAGE, context)


def _award_grid(
    session: Session,
) -> tuple[dict[int, Character], list[Character], systems.SheetSystem, tuple[str, ...]]:
    """The campaign's characters by id, those the award grid offers, the campaign's system
    and the names of its session awards."""
    characters = {c.pk: c for c in session.campaign.characters.select_related("owner")}
    # The grid lists who can receive XP: not a character out of the story (the dead), nor an
    # import awaiting the GM or refused (session_award refuses those too; the grid should
    # not offer them).
    system = systems.for_campaign(session.campaign)
    living = [c for c in characters.values() if c.in_play and not system.is_out_of_play(c)]
    return characters, living, system, system.session_awards(session.campaign)


@dataclass
class Received:
    """What one character received in a session: its ledger entries and their sum."""

    character: Character
    linked: bool
    entries: list[XpEntry] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(e.available_delta for e in self.entries)


def _detail_context(
    request: AuthenticatedHttpRequest, membership: Membership, session: Session,
    characters: dict[int, Character], form: SessionAwardForm | None, names: tuple[str, ...],
    system: systems.SheetSystem, *, recap_form: SessionRecapForm | None = None,
) -> dict[str, Any]:
    """The session page's context; the award grid and the recap form only ever enter the
    GM's (``recap_form`` when it was posted, else one holding the stored recap), and never
    an archived campaign's; the GM-only rolls only enter the GM's.

    The rolls are those made in the campaign on the session's date (a roll belongs to no
    session), in the order they were made, at most :data:`ROLLS_SHOWN` of them.
    """
    received: dict[int, Received] = {}
    entries = session.xp_entries.select_related("character").order_by("created_at", "id")
    for entry in entries:
        character = entry.character
        linked = membership.is_gm or character.owner_id == request.user.pk
        received.setdefault(character.pk, Received(character, linked)).entries.append(entry)
    rows = sorted(received.values(), key=lambda r: r.character.name.lower())
    archived = session.campaign.is_archived
    if membership.is_gm and recap_form is None:
        recap_form = SessionRecapForm(initial={"recap": session.recap})
    # One more than shown, to know whether the log has more without counting them.
    rolls = list(Roll.objects.filter(campaign=session.campaign, parent__isnull=True,
                                     created_at__date=session.date)
                 .visible_to(is_gm=membership.is_gm)
                 .select_related("character", "rolled_by", "answers")
                 .prefetch_related("followups").order_by("created_at", "id")[:ROLLS_SHOWN + 1])
    return {
        "campaign": session.campaign,
        "system": system,
        "roll_template": system.template("_roll.html"),
        "rolls": rolls[:ROLLS_SHOWN],
        "more_rolls": len(rolls) > ROLLS_SHOWN,
        # An archived campaign's page offers no form: it says so where the GM's were.
        "archived": archived,
        "recap_form": recap_form if membership.is_gm and not archived else None,
        "session": session,
        # The encounters played in it, each linking its record (encounters).
        "encounters": list(session.encounters.order_by("started_at", "id")),
        "membership": membership,
        "received": rows,
        "received_total": sum(r.total for r in rows),
        "entry_count": sum(len(r.entries) for r in rows),
        "award_names": names,
        "award_help": system.session_awards_help(session.campaign),
        "form": form,
        "award_rows": form.rows(characters) if form is not None else [],
    }


def _award_notice(entries: list[XpEntry], characters: dict[int, Character]) -> str:
    """"Awarded 7 XP in this session: Rook 3, Vex 4."."""
    per_character: dict[int, int] = {}
    for entry in entries:
        per_character[entry.character_id] = (per_character.get(entry.character_id, 0)
                                             + entry.available_delta)
    names = ", ".join(f"{characters[pk].name} {xp}" for pk, xp in
                      sorted(per_character.items(), key=lambda i: characters[i[0]].name.lower()))
    return f"Awarded {sum(per_character.values())} XP in this session: {names}."
