from django.urls import path

from rolls import views

app_name = "rolls"

urlpatterns = [
    path("characters/<int:character_id>/roll/", views.roll_create, name="roll-create"),
    path("characters/<int:character_id>/roll/odds/", views.roll_odds, name="roll-odds"),
    # A roll by its code, never its id (Roll.code: ids count the GM-only rolls too).
    path("rolls/<uuid:roll_code>/", views.roll_detail, name="roll-detail"),
    path("rolls/<uuid:roll_code>/act/<slug:action>/", views.roll_act, name="roll-act"),
    path("rolls/<int:pk>/", views.roll_by_number, name="roll-by-number"),
    path("campaigns/<int:campaign_id>/rolls/", views.roll_list, name="roll-list"),
    path("campaigns/<int:campaign_id>/npc-roll/", views.npc_roll_create, name="npc-roll-create"),
    path(
        "campaigns/<int:campaign_id>/requested-rolls/",
        views.requested_roll_create,
        name="requested-roll-create",
    ),
]
