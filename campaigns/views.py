"""Views of the campaigns app: the landing page, campaigns, invites and members, and a
campaign's life (its settings, handing the GM seat over, leaving, archiving, deleting).

Every view loads its campaign through ``campaigns.permissions``: a non-member gets 404, the
GM-only views give 404 to players too, and the lead GM's own (deleting the campaign, handing
the seat over, seating a co-GM) to co-GMs as well (docs/decisions.md, "The co-GM"). State
changes go through ``campaigns.services`` or the model's methods. The invite box is also an
HTMX partial (``campaigns/campaign_settings.html#invite``): it lives on the settings page, and
a new campaign's dashboard (``table.views``) shows it until someone plays. An archived campaign
refuses every write (``campaigns.archive``) but the two marked ``allowed_when_archived``:
restore and delete.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

import systems
from campaigns import services
from campaigns.forms import (
    CampaignDeleteForm,
    CampaignForm,
    CampaignSettingsForm,
    HandoverForm,
    SeatForm,
)
from campaigns.invites import invite_context
from campaigns.models import Campaign, Membership
from campaigns.permissions import get_campaign_as_gm, get_campaign_as_lead_gm, get_membership
from core import limits
from core.http import AuthenticatedHttpRequest, allowed_when_archived, safe_next_page
from core.regions import (
    LivePage,
    answers_regions,
    asked_regions,
    asks_regions,
    by_event,
    recall,
    render_regions,
    unchanged,
)
from core.templatetags.text import display_name
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from characters.models import Character
    from systems.readings import ReadingsForm


def home(request: HttpRequest) -> HttpResponse:
    """The landing page for visitors; logged-in users go straight to their campaigns."""
    if request.user.is_authenticated:
        return redirect("campaigns:campaign-list")
    return render(request, "campaigns/home.html")


@login_required
def campaign_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The campaigns the user sits at, with their role and the table's size: those in play
    first, then the archived ones apart."""
    memberships = list(
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .annotate(member_count=Count("campaign__memberships"))
        .order_by("-campaign__created_at")
    )
    return render(request, "campaigns/campaign_list.html", {
        "memberships": [m for m in memberships if not m.campaign.is_archived],
        "archived": [m for m in memberships if m.campaign.is_archived],
    })


@login_required
def campaign_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start a campaign; its creator becomes the GM."""
    if request.method == "POST":
        form = CampaignForm(request.POST)
        if form.is_valid():
            campaign = services.campaign_create(
                name=form.cleaned_data["name"],
                ruleset=form.cleaned_data["ruleset"],
                starting_xp=form.cleaned_data["starting_xp"],
                gm=request.user,
            )
            messages.success(
                request, f"{campaign.name} is ready. Share the invite link with your players."
            )
            return redirect(campaign)
    else:
        form = CampaignForm()
    return render(request, "campaigns/campaign_form.html", {"form": form})


@require_POST
@login_required
def campaign_invite_renew(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Issue a new invite link (GM only); the old one stops working."""
    campaign = get_campaign_as_gm(request.user, pk)
    services.campaign_invite_renew(campaign=campaign, by=request.user)
    return _invite_changed(
        request, campaign, "New invite link issued; the old one no longer works."
    )


@require_POST
@login_required
def campaign_invite_revoke(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Switch invites off (GM only) until a new link is issued."""
    campaign = get_campaign_as_gm(request.user, pk)
    services.campaign_invite_revoke(campaign=campaign, by=request.user)
    return _invite_changed(request, campaign, "Invite link revoked; nobody can join with it.")


@login_required
def membership_remove(
    request: AuthenticatedHttpRequest, pk: int, membership_id: int
) -> HttpResponse:
    """Ask, then take a member's seat away (the GM or a co-GM; others 404). Their characters
    stay, retired. The GM's own seat is never removed, and a co-GM's only by the GM."""
    viewer = _seat_running_the_table(request, pk)
    campaign = viewer.campaign
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=campaign
    )
    if membership.is_lead_gm:
        messages.error(request, "You are the GM of this campaign; your own seat cannot be "
                                "removed." if membership.pk == viewer.pk else
                                "That is the GM's seat, which cannot be removed: a campaign "
                                "always keeps its GM.")
        return redirect(campaign)
    if membership.is_co_gm and not viewer.is_lead_gm:
        messages.error(request, "Only the GM can take a co-GM's seat away.")
        return redirect("campaigns:campaign-settings", campaign.pk)
    if request.method == "POST":
        try:
            retired = services.membership_remove(membership=membership, by=request.user)
        except services.MembershipError as exc:
            messages.error(request, str(exc))
            return redirect(campaign)
        renewed = (" The invite link was renewed, so theirs no longer works; send the new one "
                   "to anyone still to join." if campaign.invite_token else "")
        messages.success(
            request, f"{display_name(membership.user)} was removed from {campaign.name}."
                     f"{_retired_text(retired)}{renewed}")
        # Back to the members, which the settings page lists.
        return redirect("campaigns:campaign-settings", campaign.pk)
    return render(
        request,
        "campaigns/membership_remove.html",
        {"campaign": campaign, "membership": membership,
         "characters": campaign.characters.filter(owner=membership.user)},
    )


def _seat_running_the_table(request: AuthenticatedHttpRequest, pk: int) -> Membership:
    """The viewer's seat at campaign ``pk`` if it runs the table (the GM's or a co-GM's),
    with the campaign; Http404 for everyone else, as ``get_campaign_as_gm``."""
    membership = get_membership(request.user, pk)
    if not membership.is_gm:
        raise Http404("No such campaign.")
    return membership


@login_required
def membership_seat(
    request: AuthenticatedHttpRequest, pk: int, membership_id: int
) -> HttpResponse:
    """Seat a player as a co-GM, or a co-GM back as a player (docs/decisions.md, "The
    co-GM"): the GM's alone, but for a co-GM stepping down from their own seat; 404 for
    everyone else (a co-GM asking about another seat included).

    GET asks (the page says what the seat will do, and posts the ``role`` it proposes);
    POST ``role`` (``co_gm`` or ``player``) changes the seat: HTMX gets the settings page's
    members list (a co-GM who stepped down is sent to the campaign's page, as the settings
    are no longer theirs), a plain POST a redirect with a message. An invalid ``role`` or a
    refused change shows the page again with the reason.
    """
    viewer = get_membership(request.user, pk)
    campaign = viewer.campaign
    seat = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=campaign)
    own = seat.user_id == request.user.pk
    if not (viewer.is_lead_gm or (own and viewer.is_co_gm)):
        raise Http404("No such page.")
    if seat.is_lead_gm:
        messages.error(request, "That is the GM's own seat: hand it over to change it.")
        return redirect("campaigns:campaign-settings", campaign.pk)
    proposed = Membership.Role.PLAYER if seat.is_co_gm else Membership.Role.CO_GM
    form = SeatForm(request.POST if request.method == "POST" else None,
                    initial={"role": proposed.value})
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            seat = services.membership_seat(
                membership=seat, co_gm=form.cleaned_data["role"] == Membership.Role.CO_GM,
                by=request.user)
        except services.MembershipError as exc:
            error = str(exc)
        else:
            return _seat_changed(request, campaign, seat, stepped_down=own)
    elif request.method == "POST":
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return render(request, "campaigns/membership_seat.html", {
        "campaign": campaign, "seat": seat, "form": form, "proposed": proposed, "own": own,
        "error": error}, status=400 if error else 200)


def _seat_changed(request: AuthenticatedHttpRequest, campaign: Campaign, seat: Membership,
                  *, stepped_down: bool) -> HttpResponse:
    """After :func:`membership_seat`'s change: the settings page's members list for HTMX, else a
    message and the settings page; for a co-GM who stepped down, the campaign's page."""
    name = display_name(seat.user)
    if stepped_down:
        notice = f"You play on in {campaign.name} as a player; the GM can seat you again."
    elif seat.is_co_gm:
        notice = (f"{name} is now a co-GM of {campaign.name}: they run the table with you, "
                  "but cannot delete it, hand your seat over or remove you.")
    else:
        notice = f"{name} is a player of {campaign.name} again."
    if request.htmx and not stepped_down:
        return render(request, "campaigns/campaign_settings.html#members", {
            "campaign": campaign, "viewer": get_membership(request.user, campaign.pk),
            "members": campaign.memberships.select_related("user"), "seat_notice": notice})
    messages.success(request, notice)
    if stepped_down:
        if request.htmx:
            return HttpResponseClientRedirect(campaign.get_absolute_url())
        return redirect(campaign)
    return redirect("campaigns:campaign-settings", campaign.pk)


@answers_regions
@login_required
def campaign_settings(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The settings page of the GM and the co-GMs: name, description, starting XP and the
    party's sheets; the invite link and the members (the GM seats and unseats co-GMs there,
    a co-GM steps down); the system's own campaign options (its panel, whose forms post to
    ``table:campaign-system-action``); and the ways to archive or restore, export, and for
    the GM alone hand the seat over and delete. The dashboard keeps play; this page keeps
    configuration.

    GET shows the form (read-only when the campaign is archived); POST saves it and comes
    back here with a message, or re-renders it with the input and the reasons. Players and
    strangers get 404.
    """
    viewer = _seat_running_the_table(request, pk)
    campaign = viewer.campaign
    asking = request.method == "GET" and asks_regions(request)
    version = campaign.page_version(is_gm=True)
    seat = campaign.live_seat(request.user.pk, viewer.role)
    if asking and (same := unchanged(request, version) or recall(
            request, version, seat)):
        return same  # nothing at the table changed since the panel was drawn
    if request.method == "POST":
        # A copy: an invalid form must not rename the campaign shown around it.
        form = CampaignSettingsForm(request.POST, instance=copy.copy(campaign))
        if form.is_valid():
            try:
                services.campaign_update(
                    campaign=campaign, name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    starting_xp=form.cleaned_data["starting_xp"],
                    party_sheets=form.cleaned_data["party_sheets"], by=request.user)
            except services.MembershipError as exc:
                messages.error(request, str(exc))
                return redirect(campaign)
            messages.success(request, "Settings saved.")
            return redirect("campaigns:campaign-settings", campaign.pk)
    else:
        form = CampaignSettingsForm(instance=campaign, disabled=campaign.is_archived)
    context = _settings_context(request, viewer, form=form)
    if asking and (regions := asked_regions(request, context["live"])) is not None:
        # The system's panel asks for itself alone (core/regions.py), with this page's
        # "next" in its forms as the page draws it.
        return render_regions(request, context["live"], regions, (), context, own={
            "system-panel": ("campaigns/campaign_settings.html#settings-panel", context)},
            seat=seat)
    return render(request, "campaigns/campaign_settings.html", context)


def _settings_context(request: AuthenticatedHttpRequest, viewer: Membership, *,
                      form: CampaignSettingsForm | None = None,
                      readings_form: ReadingsForm | None = None) -> dict[str, Any]:
    """The settings page's context for ``viewer``'s seat, with the campaign's form and the
    table readings' form as given (bound to a refused POST) or fresh."""
    campaign = viewer.campaign
    system = systems.for_campaign(campaign)
    settings_url = reverse("campaigns:campaign-settings", args=[campaign.pk])
    return {
        "campaign": campaign,
        "live_campaign": campaign,
        "live": live_settings(campaign, settings_url),
        "settings_url": settings_url,
        "form": form or CampaignSettingsForm(instance=campaign, disabled=campaign.is_archived),
        "system": system,
        "viewer": viewer,
        "members": campaign.memberships.select_related("user"),
        **_readings_context(system, campaign, readings_form),
        **system.dashboard_context(campaign),
        **invite_context(request, campaign, is_gm=True),
    }


READING_CHANGES_SHOWN = 20
"""The latest changes of the table readings the settings page lists."""


def _readings_context(system: systems.SheetSystem, campaign: Campaign,
                      readings_form: ReadingsForm | None) -> dict[str, Any]:
    """The table readings' form and the latest changes, in words (docs/rules.md, Table
    readings); nothing for a system with no readings."""
    if not system.readings:
        return {}
    changes = []
    for change in campaign.reading_changes.select_related("changed_by")[:READING_CHANGES_SHOWN]:
        title, before = system.reading_label(change.key, change.before)
        after = system.reading_label(change.key, change.after)[1]
        changes.append({"change": change, "title": title, "before": before, "after": after})
    return {
        "readings_form": readings_form or system.readings_form(campaign),
        "reading_changes": changes,
    }


@require_POST
@login_required
def campaign_readings(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Save the campaign's table readings (the GM's or a co-GM's, from the settings page):
    each reading changed is recorded and named in the message; from now on the rolls, their
    odds and the NPC quick roll follow them, and every roll already made keeps the readings
    it was made under. A refused form re-renders the settings page with the choices made and
    the reason; players and strangers get 404."""
    viewer = _seat_running_the_table(request, pk)
    campaign = viewer.campaign
    system = systems.for_campaign(campaign)
    if not system.readings:
        raise Http404("This system has no table readings.")
    form = system.readings_form(campaign, request.POST)
    if not form.is_valid():
        return render(request, "campaigns/campaign_settings.html",
                      _settings_context(request, viewer, readings_form=form), status=400)
    try:
        changes = services.readings_update(campaign=campaign, values=form.cleaned_data,
                                           by=request.user)
    except (RuleError, services.MembershipError) as exc:
        messages.error(request, str(exc))
        return redirect("campaigns:campaign-settings", campaign.pk)
    if changes:
        said = "; ".join(f"{system.reading_label(c.key, c.after)[0]}: "
                         f"{system.reading_label(c.key, c.after)[1]}" for c in changes)
        messages.success(request, f"Table readings saved. From now on: {said}")
    else:
        messages.info(request, "No reading changed.")
    return redirect(reverse("campaigns:campaign-settings", args=[campaign.pk]) + "#readings")


def live_settings(campaign: Campaign, url: str) -> LivePage:
    """What is live on the GM's settings page (core/regions.py), at the GM's version: the
    system's panel, redrawn when the campaign's system data changes (another tab), or the
    party does, or a character's tracks (a panel may list the party: Shahquest's plot
    points). Nothing in an archived campaign. Reads the campaign's character ids (one
    query)."""
    if campaign.is_archived:
        return LivePage(url=url, regions=())
    tracks = [f"trackChanged-{pk}" for pk in campaign.characters.values_list("pk", flat=True)]
    return LivePage(url=url, version=campaign.page_version(is_gm=True), regions=by_event(
        (event, ("system-panel",)) for event in ("campaignChanged", "partyChanged", *tracks)))


@login_required
def campaign_handover(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Hand the GM seat to one of the campaign's players or co-GMs (the GM only; co-GMs and
    everyone else 404).

    GET: choose the member (none yet: the page says to invite someone first). POST: the GM
    becomes a player and the chosen member the GM; the old GM is sent to the campaign's page.
    """
    campaign = get_campaign_as_lead_gm(request.user, pk)
    players = (campaign.memberships
               .filter(role__in=(Membership.Role.PLAYER, Membership.Role.CO_GM),
                       user__is_active=True)
               .select_related("user").order_by("joined_at", "pk"))
    form = HandoverForm(request.POST if request.method == "POST" else None, players=players)
    if request.method == "POST" and form.is_valid():
        try:
            new_gm = services.campaign_handover(
                campaign=campaign, to_membership=form.cleaned_data["membership"],
                by=request.user)
        except services.MembershipError as exc:
            form.add_error("membership", str(exc))
        else:
            messages.success(request, f"{display_name(new_gm.user)} is now the GM of "
                                      f"{campaign.name}. You stay at the table as a player.")
            return redirect(campaign)
    return render(request, "campaigns/campaign_handover.html", {
        "campaign": campaign, "form": form, "has_players": players.exists(),
    })


@login_required
def campaign_leave(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A player leaves the campaign: GET asks, listing their characters here (they will be
    retired and stay with the table); POST leaves and goes to the campaign list.

    The GM cannot leave: GET explains (hand the seat over or delete the campaign), POST
    changes nothing and says so. A co-GM leaves as a player does (or steps down instead, on
    the settings page). Strangers get 404.
    """
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    if membership.is_lead_gm:
        if request.method == "POST":
            messages.error(request, "You are the GM of this campaign, so you cannot leave it: "
                                    "hand the GM seat to a player first, or delete the "
                                    "campaign. Nothing was changed.")
            return redirect("campaigns:campaign-leave", campaign.pk)
        return render(request, "campaigns/campaign_leave.html",
                      {"campaign": campaign, "membership": membership})
    if request.method == "POST":
        try:
            retired = services.membership_leave(membership=membership)
        except services.MembershipError as exc:
            messages.error(request, str(exc))
            return redirect(campaign)
        messages.success(request, f"You left {campaign.name}.{_retired_text(retired)}")
        return redirect("campaigns:campaign-list")
    return render(request, "campaigns/campaign_leave.html", {
        "campaign": campaign, "membership": membership,
        "characters": campaign.characters.filter(owner=request.user),
    })


@login_required
def campaign_archive(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Archive the campaign (the GM or a co-GM; others 404): GET asks, POST archives it
    (read-only for everyone, invite link revoked) and goes back to its page."""
    campaign = get_campaign_as_gm(request.user, pk)
    if request.method == "POST":
        try:
            services.campaign_archive(campaign=campaign, by=request.user)
        except services.MembershipError as exc:
            messages.error(request, str(exc))
            return redirect(campaign)
        messages.success(request, f"{campaign.name} is archived: everyone can read and export "
                                  "it, nobody can change it. You can restore it from its "
                                  "settings page.")
        return redirect(campaign)
    return render(request, "campaigns/campaign_archive.html", {"campaign": campaign})


@allowed_when_archived
@require_POST
@login_required
def campaign_restore(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Bring an archived campaign back into play (the GM or a co-GM; others 404). POST only; goes to
    the campaign's page. Invite links stay off until the GM issues a new one."""
    campaign = get_campaign_as_gm(request.user, pk)
    if not campaign.is_archived:
        messages.info(request, f"{campaign.name} is not archived; nothing to restore.")
        return redirect(campaign)
    try:
        services.campaign_restore(campaign=campaign, by=request.user)
    except services.MembershipError as exc:
        messages.error(request, str(exc))
        return redirect(campaign)
    messages.success(request, f"{campaign.name} is restored and can be played again. Its "
                              "invite link stays off: issue a new one when someone is to "
                              "join.")
    return redirect(campaign)


@allowed_when_archived
@login_required
def campaign_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Delete the campaign and everything in it (the GM only; co-GMs and everyone else 404),
    archived or not.

    GET shows what will go (characters, rolls, ledger entries, sessions), offers the export
    first, and asks for the campaign's name. POST with the name typed exactly deletes it and
    goes to the campaign list; with another name it re-renders, saying so, and deletes
    nothing.
    """
    campaign = get_campaign_as_lead_gm(request.user, pk)
    form = CampaignDeleteForm(request.POST if request.method == "POST" else None,
                              campaign=campaign)
    if request.method == "POST" and form.is_valid():
        name = campaign.name
        try:
            services.campaign_delete(campaign=campaign, by=request.user)
        except services.MembershipError as exc:
            messages.error(request, str(exc))
            return redirect(campaign)
        messages.success(request, f"Deleted {name}.")
        return redirect("campaigns:campaign-list")
    return render(request, "campaigns/campaign_delete.html", {
        "campaign": campaign, "form": form, "contents": services.campaign_contents(campaign),
    })


def _retired_text(retired: list[Character]) -> str:
    """" Rook and Vex were retired: ..." for a message, or "" when none were."""
    if not retired:
        return ""
    names = [c.name for c in retired]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    verb = "was" if len(names) == 1 else "were"
    return (f" {listed} {verb} retired: out of the party, kept with the table and its "
            "history; the GM can bring them back.")


@login_required
def campaign_join(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """Join a campaign through its invite link: confirm on GET, join as a player on POST.

    An unknown, renewed or revoked token gets a 404 page saying what to do next; an archived
    campaign's, a 403 page saying it is archived (nobody is seated). At most
    INVITE_JOIN_RATE joins per client address (core/limits.py): past it, the link answers 429
    saying when to try again, and nobody is seated.
    """
    campaign = Campaign.objects.filter(invite_token=token).first()
    if campaign is None:
        return render(request, "campaigns/join_invalid.html", status=404)
    if Membership.objects.filter(campaign=campaign, user=request.user).exists():
        messages.info(request, f"You are already a member of {campaign.name}.")
        return redirect(campaign)
    if campaign.is_archived:
        # Archiving revokes the link, but a campaign can be archived without it (an archived
        # campaign imported with a fresh link): an archived campaign seats nobody.
        return render(request, "campaigns/archived.html",
                      {"campaign": campaign, "membership": None}, status=403)
    wait = limits.peek(request, limits.INVITE_JOIN)
    if not wait and request.method == "POST":
        wait = limits.spend(request, limits.INVITE_JOIN)
    if wait:
        return limits.refused(request, limits.INVITE_JOIN, wait)
    if request.method == "POST":
        services.membership_join(campaign=campaign, user=request.user)
        messages.success(request, f"You joined {campaign.name}. Create your character next.")
        return redirect(campaign)
    # The GM is whoever holds the seat now (it may have been handed over since the campaign
    # was created), not Campaign.created_by.
    gm_seat = campaign.memberships.filter(role=Membership.Role.GM).select_related("user").first()
    return render(request, "campaigns/campaign_join.html",
                  {"campaign": campaign, "gm": gm_seat.user if gm_seat else None})


def _invite_changed(
    request: AuthenticatedHttpRequest, campaign: Campaign, notice: str
) -> HttpResponse:
    """After a renew or revoke: the invite box for HTMX, else a message and the page."""
    if request.htmx:
        context = {"campaign": campaign, "invite_notice": notice}
        context.update(invite_context(request, campaign, is_gm=True))
        return render(request, "campaigns/campaign_settings.html#invite", context)
    messages.success(request, notice)
    # Back to the page the box was on: a new campaign's dashboard names itself (its forms'
    # "next"), the settings page is the box's home.
    next_page = safe_next_page(request)
    if next_page:
        return HttpResponseRedirect(next_page)
    return redirect("campaigns:campaign-settings", campaign.pk)
