"""An encounter's pages and changes, under /campaigns/<id>/encounters/."""

from django.urls import path

from encounters import views

app_name = "encounters"

urlpatterns = [
    path("<int:pk>/encounters/", views.encounter_list, name="encounter-list"),
    path("<int:pk>/encounters/<int:encounter_id>/", views.encounter_detail,
         name="encounter-detail"),
    path("<int:pk>/encounters/<int:encounter_id>/add/", views.combatant_add,
         name="combatant-add"),
    path("<int:pk>/encounters/<int:encounter_id>/order/", views.initiative_set,
         name="initiative-set"),
    path("<int:pk>/encounters/<int:encounter_id>/next/", views.turn_next, name="turn-next"),
    path("<int:pk>/encounters/<int:encounter_id>/previous/", views.turn_previous,
         name="turn-previous"),
    path("<int:pk>/encounters/<int:encounter_id>/delay/", views.turn_delay,
         name="turn-delay"),
    path("<int:pk>/encounters/<int:encounter_id>/remove/", views.combatant_remove,
         name="combatant-remove"),
    path("<int:pk>/encounters/<int:encounter_id>/end/", views.encounter_end,
         name="encounter-end"),
]
