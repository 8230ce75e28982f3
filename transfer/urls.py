"""Export and import URLs."""

from django.urls import path  # noqa: F401

app_name = "transfer"

urlpatterns: list = []
