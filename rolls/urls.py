from django.urls import path

from rolls import views

app_name = "rolls"

urlpatterns = [
    path("characters/<int:character_id>/roll/", views.roll_create, name="roll-create"),
    path("characters/<int:character_id>/roll/odds/", views.roll_odds, name="roll-odds"),
    path("rolls/<int:pk>/", views.roll_detail, name="roll-detail"),
    path("rolls/<int:pk>/act/<slug:action>/", views.roll_act, name="roll-act"),
    path("campaigns/<int:campaign_id>/rolls/", views.roll_list, name="roll-list"),
    path("campaigns/<int:campaign_id>/npc-roll/", views.npc_roll_create, name="npc-roll-create"),
    path(
        "campaigns/<int:campaign_id>/requested-rolls/",
        views.requested_roll_create,
        name="requested-roll-create",
    ),
]
