from django.urls import path

from characters import life_views, npc_views, views

app_name = "characters"

urlpatterns = [
    path(
        "campaigns/<int:campaign_id>/characters/new/",
        views.character_create,
        name="character-create",
    ),
    path("characters/<int:pk>/", views.character_detail, name="character-detail"),
    path(
        "characters/<int:pk>/sheet/<slug:action>/",
        views.character_action,
        name="character-action",
    ),
    path("characters/<int:pk>/xp/", views.character_xp, name="character-xp"),
    path("characters/<int:pk>/xp/award/", views.character_xp_award, name="character-xp-award"),
    path("characters/<int:pk>/xp/spend/", views.character_xp_spend, name="character-xp-spend"),
    path(
        "characters/<int:pk>/xp/<int:entry_id>/undo/",
        views.character_xp_undo,
        name="character-xp-undo",
    ),
    path("characters/<int:pk>/edit/", life_views.character_edit, name="character-edit"),
    path("characters/<int:pk>/gm-notes/", life_views.character_gm_notes, name="character-gm-notes"),
    path("characters/<int:pk>/retire/", life_views.character_retire, name="character-retire"),
    path("characters/<int:pk>/restore/", life_views.character_restore, name="character-restore"),
    path("characters/<int:pk>/delete/", life_views.character_delete, name="character-delete"),
    path("characters/<int:pk>/move/", life_views.character_move, name="character-move"),
    path("campaigns/<int:campaign_id>/npcs/", npc_views.npc_list, name="npc-list"),
    path("campaigns/<int:campaign_id>/npcs/new/", npc_views.npc_create, name="npc-create"),
    path("characters/<int:pk>/npc/copy/", npc_views.npc_copy, name="npc-copy"),
    path("characters/<int:pk>/npc/shown/", npc_views.npc_shown, name="npc-shown"),
    path("characters/<int:pk>/npc/archive/", npc_views.npc_archive, name="npc-archive"),
]
