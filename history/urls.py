"""The table's memory: its history, between sessions, luck and chat pages (docs/history.md)."""

from django.urls import URLPattern, path

app_name = "history"

urlpatterns: list[URLPattern] = [
]
