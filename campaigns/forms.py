"""Forms of the campaigns app."""

from __future__ import annotations

from functools import partial

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UsernameField

from campaigns.models import Campaign
from rulesets import registry


class CampaignForm(forms.ModelForm):
    """Name a new campaign and pick its rule system and starting XP.

    Only selectable rulesets are offered (and accepted): systems whose rules module exists.
    """

    ruleset = forms.ChoiceField(
        label="Rule system",
        # A callable, so the choices follow the registry rather than import time.
        choices=partial(registry.choices, selectable_only=True),
    )
    starting_xp = forms.IntegerField(
        label="Starting XP",
        min_value=0,
        max_value=1000,
        initial=30,
        help_text="XP every new character starts with (Maelstrom: 30 is the default).",
    )

    class Meta:
        model = Campaign
        fields = ["name", "ruleset", "starting_xp"]
        labels = {"name": "Campaign name"}


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
