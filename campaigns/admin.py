"""Admin for campaigns, with their memberships inline."""

from __future__ import annotations

from django.contrib import admin

from campaigns.models import Campaign, Membership, Session


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
