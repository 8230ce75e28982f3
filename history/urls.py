"""The table's memory: its history, between sessions, luck and chat pages (docs/history.md)."""

from django.urls import URLPattern, path

from history import log_views

app_name = "history"

urlpatterns: list[URLPattern] = [
    path("campaigns/<int:pk>/history/", log_views.campaign_history, name="campaign-history"),
    path("characters/<int:pk>/history/", log_views.character_history,
         name="character-history"),
]
