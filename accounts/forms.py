"""Forms of the accounts app. Signing up uses Django's own ``UserCreationForm`` unchanged."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UsernameField


class LoginForm(AuthenticationForm):
    """Django's log-in form with the username's length enforced.

    AuthenticationForm sets the field's max_length after building it, so no validator checks
    it: an over-long name reached authenticate() and django-axes' record of the failure, whose
    255-character column PostgreSQL refused with a 500 (found by tests/fuzz). Now the form
    says "at most 150 characters" and nothing is recorded.
    """

    username = UsernameField(
        max_length=get_user_model()._meta.get_field("username").max_length,
        widget=forms.TextInput(attrs={"autofocus": True}),
    )
