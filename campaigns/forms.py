"""Forms of the campaigns app."""

from __future__ import annotations

from functools import partial

from django import forms

from campaigns.models import Campaign
from rulesets import registry


class CampaignForm(forms.ModelForm[Campaign]):
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
        help_text="XP every new character starts with, where the system gives some "
                  "(30 by default).",
    )

    class Meta:
        model = Campaign
        fields = ["name", "ruleset", "starting_xp"]
        labels = {"name": "Campaign name"}
