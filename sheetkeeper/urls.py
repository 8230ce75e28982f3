"""The URL map: each app under its own namespace, and each system's own pages (a system
package's ``urls.py``, as Maelstrom's creation steps) under the system's slug."""

from django.contrib import admin
from django.urls import include, path

from campaigns import views as campaign_views
from rulesets.registry import RULESETS
from systems.registry import system_module

urlpatterns = [
    path("", campaign_views.home, name="home"),
    # No namespace: Django's own names ``login`` and ``logout`` (accounts/urls.py says why).
    path("", include("accounts.urls")),
    path("campaigns/", include("campaigns.urls")),
    path("campaigns/", include("table.urls")),
    path("campaigns/", include("encounters.urls")),
    path("campaigns/", include("chat.urls")),
    path("", include("characters.urls")),
    path("", include("rolls.urls")),
    path("", include("transfer.urls")),
    path("", include("equipment.urls")),
    path("", include("history.urls")),
    path("admin/", admin.site.urls),
]

# A system with pages of its own: its package's urls module names its app (``app_name``, the
# slug), like a provider package of django-allauth; the registry finds it, so this map never
# names a system.
urlpatterns += [path("", include(module)) for slug in RULESETS
                if (module := system_module(slug, "urls")) is not None]

# A database out of reach outside any view answers 503 + Retry-After, not 500 (core).
handler500 = "core.unavailable.server_error"
