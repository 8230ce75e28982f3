"""Admin for campaigns, with their memberships inline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from campaigns.models import Campaign, Membership, Session
from campaigns.services import campaign_delete

if TYPE_CHECKING:
    from django.db.models import QuerySet
    from django.http import HttpRequest


class MembershipInline(admin.TabularInline[Membership, Campaign]):
    model = Membership
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ["name", "ruleset", "created_by", "starting_xp", "created_at"]
    list_filter = ["ruleset"]
    search_fields = ["name", "created_by__username"]
    list_select_related = ["created_by"]
    raw_id_fields = ["created_by"]
    readonly_fields = ["created_at"]
    inlines = [MembershipInline]

    # A campaign's rolls and ledger go only with the whole campaign, through its service
    # (core.appendonly refuses any other cascade into the logs).
    def delete_model(self, request: HttpRequest, obj: Campaign) -> None:
        """Delete one campaign and everything in it (``campaign_delete``)."""
        campaign_delete(campaign=obj, by=request.user, as_staff=True)  # type: ignore[arg-type]  # the admin's user is signed in

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Campaign]) -> None:
        """The admin's bulk delete: each campaign through ``campaign_delete``, one by one."""
        for campaign in queryset:
            campaign_delete(campaign=campaign, by=request.user, as_staff=True)  # type: ignore[arg-type]  # as above


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin[Session]):
    """Sessions can be retitled here; one with awards cannot be deleted (the ledger keeps
    its entries, and they point at it)."""

    list_display = ["__str__", "campaign", "date", "created_at"]
    list_filter = ["date"]
    search_fields = ["title", "campaign__name"]
    list_select_related = ["campaign"]
    raw_id_fields = ["campaign"]
    readonly_fields = ["created_at"]
    date_hierarchy = "date"
