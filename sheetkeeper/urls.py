"""The URL map: each app under its own namespace."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from campaigns import views as campaign_views
from campaigns.forms import LoginForm

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("signup/", campaign_views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("campaigns/", include("campaigns.urls")),
    path("", include("characters.urls")),
    path("", include("rolls.urls")),
    path("", include("transfer.urls")),
    path("admin/", admin.site.urls),
]

# A database out of reach outside any view answers 503 + Retry-After, not 500 (core).
handler500 = "core.unavailable.server_error"
