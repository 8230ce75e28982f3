"""The table's memory: its history, between sessions, luck and chat pages (docs/history.md)."""

from django.urls import URLPattern, path

from history import between_views, log_views, luck_views

app_name = "history"

urlpatterns: list[URLPattern] = [
    path("campaigns/<int:pk>/history/", log_views.campaign_history, name="campaign-history"),
    path("characters/<int:pk>/history/", log_views.character_history,
         name="character-history"),
    path("characters/<int:pk>/sessions/", between_views.character_between,
         name="character-between"),
    path("campaigns/<int:pk>/luck/", luck_views.campaign_luck, name="campaign-luck"),
    path("campaigns/<int:pk>/luck/<slug:chart>.svg", luck_views.campaign_luck_chart,
         name="campaign-luck-chart"),
    path("characters/<int:pk>/luck/", luck_views.character_luck, name="character-luck"),
    path("characters/<int:pk>/luck/<slug:chart>.svg", luck_views.character_luck_chart,
         name="character-luck-chart"),
]
