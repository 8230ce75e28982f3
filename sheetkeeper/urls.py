"""The URL map: each app under its own namespace."""

from django.contrib import admin
from django.urls import include, path

from campaigns import views as campaign_views

urlpatterns = [
    path("", campaign_views.home, name="home"),
    # No namespace: Django's own names ``login`` and ``logout`` (accounts/urls.py says why).
    path("", include("accounts.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("campaigns/", include("table.urls")),
    path("", include("characters.urls")),
    path("", include("rolls.urls")),
    path("", include("transfer.urls")),
    path("admin/", admin.site.urls),
]

# A database out of reach outside any view answers 503 + Retry-After, not 500 (core).
handler500 = "core.unavailable.server_error"
