from __future__ import annotations

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Sign up, log in and out, and the lockout page (docs/architecture.md, "The house":
    ``accounts/``).

    It has no models: the accounts are ``django.contrib.auth``'s users, the failed logins
    django-axes' records."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
