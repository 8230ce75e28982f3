"""Views of the campaigns app: the landing page, campaigns, invites and members.

Every view loads its campaign through ``campaigns.permissions``: a non-member gets 404, the
GM-only views give 404 to players too. State changes go through ``campaigns.services`` or the
model's methods. The invite box is also an HTMX partial (``table/campaign_detail.html#invite``): the
dashboard that shows it is the GM's table (``table.views``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from campaigns import services
from campaigns.forms import CampaignForm
from campaigns.invites import invite_context
from campaigns.models import Campaign, Membership
from campaigns.permissions import get_campaign_as_gm
from core import limits
from core.http import AuthenticatedHttpRequest

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


def home(request: HttpRequest) -> HttpResponse:
    """The landing page for visitors; logged-in users go straight to their campaigns."""
    if request.user.is_authenticated:
        return redirect("campaigns:campaign-list")
    return render(request, "campaigns/home.html")


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


def _invite_changed(
    request: AuthenticatedHttpRequest, campaign: Campaign, notice: str
) -> HttpResponse:
    """After a renew or revoke: the invite box for HTMX, else a message and the page."""
    if request.htmx:
        context = {"campaign": campaign, "invite_notice": notice}
        context.update(invite_context(request, campaign, is_gm=True))
        return render(request, "table/campaign_detail.html#invite", context)
    messages.success(request, notice)
    return redirect(campaign)
