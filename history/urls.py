"""The table's memory: its history, between sessions, luck and chat pages (docs/history.md)."""

from django.urls import URLPattern

app_name = "history"

urlpatterns: list[URLPattern] = [
]
