"""Export and import URLs (included at the site root, namespace ``transfer``)."""

from django.urls import path

from transfer import views

app_name = "transfer"

urlpatterns = [
    path("characters/<int:pk>/export/", views.character_export, name="character-export"),
    path("campaigns/<int:pk>/export/", views.campaign_export, name="campaign-export"),
    path("campaigns/<int:pk>/import-character/", views.character_import,
         name="character-import"),
    path("campaigns/import/", views.campaign_import, name="campaign-import"),
    path("characters/<int:pk>/import-review/", views.import_review, name="import-review"),
]
