"""The account pages: sign-up, log in and out, the account page (email, display name),
deleting an account, password change and reset.

Included by ``sheetkeeper/urls.py`` at the root and without a namespace, so the names stay
Django's conventional bare ``login``, ``logout``, ``password_change``, ``password_reset_done``
... (and ``signup``, ``account``, ``account-display-name`` and ``account-delete`` beside
them): Django's auth views, ``LOGIN_URL``, ``LOGOUT_REDIRECT_URL``, the templates and the
tests all name them so, and Django's password views find each other's pages by these names
(``success_url``). That is why this module sets no ``app_name``: ``include()`` of a module
that has one always namespaces it.
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
    path("account/", views.account, name="account"),
    path("account/display-name/", views.account_display_name, name="account-display-name"),
    path("account/delete/", views.account_delete, name="account-delete"),
    path("account/address/<str:token>/", views.account_address_confirm,
         name="account-address-confirm"),
    # Django's password views with their default templates (registration/password_*.html,
    # accounts/templates) and tokens; they log in nobody and keep the session of a user who
    # changes their password (update_session_auth_hash).
    path("account/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("account/password/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("password-reset/", views.password_reset, name="password_reset"),
    path("password-reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
]
