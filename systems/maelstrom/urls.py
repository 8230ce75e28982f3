"""Maelstrom's own pages: the character creation wizard (``maelstrom:character-create``).

The root URLconf includes every registered system's ``urls`` module under its slug's
namespace; the generic ``characters:character-create`` sends a Maelstrom campaign here.
"""

from __future__ import annotations

from django.urls import path

from systems.maelstrom import views

app_name = "maelstrom"

urlpatterns = [
    path(
        "campaigns/<int:campaign_id>/characters/new/maelstrom/",
        views.character_create,
        name="character-create",
    ),
]
