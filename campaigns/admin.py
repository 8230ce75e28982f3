"""Admin for campaigns, with their memberships inline."""

from __future__ import annotations

from django.contrib import admin

from campaigns.models import Campaign, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["user", "role", "joined_at"]
    readonly_fields = ["joined_at"]
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "created_by", "starting_xp", "created_at"]
    list_filter = ["ruleset"]
    search_fields = ["name", "created_by__username"]
    list_select_related = ["created_by"]
    raw_id_fields = ["created_by"]
    readonly_fields = ["created_at"]
    inlines = [MembershipInline]
