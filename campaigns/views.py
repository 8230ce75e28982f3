"""Views of the campaigns app: the landing page, sign-up, campaigns, invites and members.

Every view loads its campaign through ``campaigns.permissions``: a non-member gets 404, the
GM-only views give 404 to players too. State changes go through ``campaigns.services`` or the
model's methods. The invite box is also an HTMX partial (``campaign_detail.html#invite``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from campaigns import services
from campaigns.forms import CampaignForm
from campaigns.models import Campaign, Membership
from campaigns.permissions import get_campaign_as_gm, get_membership
from characters import systems
from characters.views import party_card_context
from core import limits
from rolls.forms import RequestedRollForm, RequestWhoForm
from rolls.services import get_rng
from rulesets import registry
from rulesets.errors import RuleError

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest, HttpResponse
    from django_htmx.middleware import HtmxDetails

    class AuthenticatedHttpRequest(HttpRequest):
        user: User
        htmx: HtmxDetails


RECENT_ROLLS = 10


def home(request: HttpRequest) -> HttpResponse:
    """The landing page for visitors; logged-in users go straight to their campaigns."""
    if request.user.is_authenticated:
        return redirect("campaigns:campaign-list")
    return render(request, "campaigns/home.html")


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log it in, and continue to ``next`` (e.g. an invite link).

    At most SIGNUP_RATE accounts per client address (core/limits.py): past it, the page and
    the form answer 429 saying when to try again, and no account is made. A form refused for
    its content does not count.
    """
    next_url = request.POST.get("next") or request.GET.get("next", "")
    wait = limits.peek(request, limits.SIGNUP)
    if wait:
        return limits.refused(request, limits.SIGNUP, wait)
    if request.method == "POST":
        form = UserCreationForm(request.POST)
        if form.is_valid():
            wait = limits.spend(request, limits.SIGNUP)
            if wait:  # two sign-ups at once from an address at its last free one
                return limits.refused(request, limits.SIGNUP, wait)
            user = form.save()
            # Several authentication backends (django-axes first): name the one that knows
            # this freshly made account.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Sheetkeeper, {user.username}.")
            return redirect(_safe_next_url(request, next_url))
    else:
        form = UserCreationForm()
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


def locked_out(
    request: HttpRequest, original_response: object, credentials: object
) -> HttpResponse:
    """The page for a login that django-axes refuses (settings.AXES_LOCKOUT_CALLABLE).

    Answers 429 Too Many Requests and says for how many minutes (AXES_COOLOFF_TIME) the
    username is paused from this address; nothing is written.
    """
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "registration/locked_out.html", {"minutes": minutes}, status=429)


@login_required
def campaign_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The campaigns the user sits at, with their role and the table's size."""
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .annotate(member_count=Count("campaign__memberships"))
        .order_by("-campaign__created_at")
    )
    return render(request, "campaigns/campaign_list.html", {"memberships": memberships})


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


@login_required
def campaign_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's page: members, characters, recent rolls; for the GM, the dashboard (a
    card per character with health, willpower and XP, edited in place) and the invite link.
    Live: cards and rolls refresh when the campaign's event stream says they changed.

    A player may open only their own sheets (docs/decisions.md, "Who sees what"), so fellow
    players' characters are passed separately and never with a link. A fixed number of
    queries, whatever the number of members, characters or rolls.
    """
    membership = get_membership(request.user, pk)
    campaign = membership.campaign
    members = campaign.memberships.select_related("user")
    characters = list(campaign.characters.select_related("owner"))
    if membership.is_gm:
        sheets, fellow_characters = characters, []
    else:
        sheets = [c for c in characters if c.owner_id == request.user.pk]
        fellow_characters = [c for c in characters if c.owner_id != request.user.pk]
    system = systems.for_campaign(campaign)
    context = {
        "campaign": campaign,
        "live_campaign": campaign,
        "membership": membership,
        "system": system,
        # The GM's panel of a described system (Shahquest's tension pool, skill lists...).
        **(system.dashboard_context(campaign) if system and membership.is_gm else {}),
        "members": members,
        # The GM's dashboard: a card per character with the tracks that matter at the table.
        "party": [party_card_context(c) for c in characters] if membership.is_gm else [],
        "npc_examples": getattr(registry.get(campaign.ruleset).module, "QUICK_ROLL_EXAMPLES", ()),
        "npc_text": request.GET.get("npc", "")[:200],
        **_request_forms(campaign, system, [(c.pk, c.name) for c in characters
                                                   if not c.dead and c.in_play]),
        "sheets": sheets,
        "fellow_characters": fellow_characters,
        "rolls": campaign.rolls.filter(parent__isnull=True)
        .visible_to(is_gm=membership.is_gm)
        .select_related("character", "rolled_by")[:RECENT_ROLLS],
        **_invite_context(request, campaign, membership.is_gm),
    }
    return render(request, "campaigns/campaign_detail.html", context)


def _request_forms(campaign: Campaign, system: systems.SheetSystem | None,
                   people: list[tuple[int, str]]) -> dict[str, object]:
    """The "Ask for a roll" form: Maelstrom's, or whom-and-note plus what the described
    system lets the GM ask for (``request_what``; none when it has no requests)."""
    if system is None:
        return {"request_form": RequestedRollForm(characters=people)}
    return {"request_form": RequestWhoForm(characters=people),
            "request_what": system.request_form(campaign)}


@require_POST
@login_required
def campaign_invite_renew(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Issue a new invite link (GM only); the old one stops working."""
    campaign = get_campaign_as_gm(request.user, pk)
    campaign.invite_renew()
    return _invite_changed(
        request, campaign, "New invite link issued; the old one no longer works."
    )


@require_POST
@login_required
def campaign_invite_revoke(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Switch invites off (GM only) until a new link is issued."""
    campaign = get_campaign_as_gm(request.user, pk)
    campaign.invite_revoke()
    return _invite_changed(request, campaign, "Invite link revoked; nobody can join with it.")


@login_required
def membership_remove(
    request: AuthenticatedHttpRequest, pk: int, membership_id: int
) -> HttpResponse:
    """Ask, then take a player's seat away (GM only). Their characters stay."""
    campaign = get_campaign_as_gm(request.user, pk)
    membership = get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, campaign=campaign
    )
    if membership.is_gm:
        messages.error(request, "You are the GM of this campaign; your own seat cannot be removed.")
        return redirect(campaign)
    if request.method == "POST":
        services.membership_remove(membership=membership)
        renewed = (" The invite link was renewed, so theirs no longer works; send the new one "
                   "to anyone still to join." if campaign.invite_token else "")
        messages.success(
            request, f"{membership.user.username} was removed from {campaign.name}.{renewed}")
        return redirect(campaign)
    return render(
        request,
        "campaigns/membership_remove.html",
        {"campaign": campaign, "membership": membership},
    )


@login_required
def campaign_join(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """Join a campaign through its invite link: confirm on GET, join as a player on POST.

    An unknown, renewed or revoked token gets a 404 page saying what to do next. At most
    INVITE_JOIN_RATE joins per client address (core/limits.py): past it, the link answers 429
    saying when to try again, and nobody is seated.
    """
    campaign = Campaign.objects.select_related("created_by").filter(invite_token=token).first()
    if campaign is None:
        return render(request, "campaigns/join_invalid.html", status=404)
    if Membership.objects.filter(campaign=campaign, user=request.user).exists():
        messages.info(request, f"You are already a member of {campaign.name}.")
        return redirect(campaign)
    wait = limits.peek(request, limits.INVITE_JOIN)
    if not wait and request.method == "POST":
        wait = limits.spend(request, limits.INVITE_JOIN)
    if wait:
        return limits.refused(request, limits.INVITE_JOIN, wait)
    if request.method == "POST":
        services.membership_join(campaign=campaign, user=request.user)
        messages.success(request, f"You joined {campaign.name}. Create your character next.")
        return redirect(campaign)
    return render(request, "campaigns/campaign_join.html", {"campaign": campaign})


def _safe_next_url(request: HttpRequest, next_url: str) -> str:
    """``next_url`` if it points at this site, else the campaign list (no open redirects)."""
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return reverse("campaigns:campaign-list")


def _invite_context(request: HttpRequest, campaign: Campaign, is_gm: bool) -> dict[str, object]:
    """What the invite box needs; only the GM's context ever holds the link."""
    if not is_gm:
        return {"show_invite": False, "invite_link": None}
    path = campaign.invite_url()
    return {
        "show_invite": True,
        "invite_link": request.build_absolute_uri(path) if path else None,
    }


def _invite_changed(
    request: AuthenticatedHttpRequest, campaign: Campaign, notice: str
) -> HttpResponse:
    """After a renew or revoke: the invite box for HTMX, else a message and the page."""
    if request.htmx:
        context = {"campaign": campaign, "invite_notice": notice}
        context.update(_invite_context(request, campaign, is_gm=True))
        return render(request, "campaigns/campaign_detail.html#invite", context)
    messages.success(request, notice)
    return redirect(campaign)


@require_POST
@login_required
def campaign_system_action(request: AuthenticatedHttpRequest, pk: int, action: str
                           ) -> HttpResponse:
    """A GM change of the campaign's system data (``action`` names it: grow or roll the
    Shahquest tension pool, edit the Genesys skill list). The system's form checks the
    input, its rule makes the change atomically; HTMX gets the changed panel, a plain POST
    a redirect to the dashboard with a message. Players and strangers get 404."""
    campaign = get_campaign_as_gm(request.user, pk)
    system = systems.for_campaign(campaign)
    change = system.campaign_actions.get(action) if system else None
    if system is None or change is None:
        raise Http404("No such change in this campaign.")
    form = change.form(request.POST)
    error = success = ""
    if not form.is_valid():
        error = systems.errors_text(form)
    else:
        try:
            campaign, success, _ = services.campaign_system_change(
                campaign=campaign, action=change, data=form.cleaned_data, by=request.user,
                rng=get_rng())
        except RuleError as exc:
            error = str(exc)
    if request.htmx:
        context = {"campaign": campaign, "system": system, "error": error,
                   "success": success, **system.dashboard_context(campaign)}
        return render(request, f"{system.template('dashboard.html')}#{change.partial}",
                      context)
    (messages.error if error else messages.success)(request, error or success)
    return redirect(campaign)
