"""An encounter's pages and changes, under /campaigns/<id>/encounters/."""

from django.urls import include, path

from encounters import views

app_name = "encounters"

one_encounter = [
    path("", views.encounter_detail, name="encounter-detail"),
    path("add/", views.combatant_add, name="combatant-add"),
    path("order/", views.initiative_set, name="initiative-set"),
    path("next/", views.turn_next, name="turn-next"),
    path("previous/", views.turn_previous, name="turn-previous"),
    path("delay/", views.turn_delay, name="turn-delay"),
    path("remove/", views.combatant_remove, name="combatant-remove"),
    path("end/", views.encounter_end, name="encounter-end"),
]
"""The routes of one encounter, under /campaigns/<id>/encounters/<encounter_id>/."""

urlpatterns = [
    path("<int:pk>/encounters/", views.encounter_list, name="encounter-list"),
    path("<int:pk>/encounters/<int:encounter_id>/", include(one_encounter)),
]
