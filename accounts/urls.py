"""The account pages: /signup/, /login/, /logout/.

Included by ``sheetkeeper/urls.py`` at the root and without a namespace, so the names stay
Django's conventional bare ``login`` and ``logout`` (and ``signup`` beside them): Django's auth
views, ``LOGIN_URL``, ``LOGOUT_REDIRECT_URL``, the templates and the tests all name them so.
That is why this module sets no ``app_name``: ``include()`` of a module that has one always
namespaces it.
"""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
