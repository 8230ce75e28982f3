"""Forms of the campaigns app."""

from __future__ import annotations

from functools import partial
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.html import format_html

from campaigns.models import Campaign, Membership
from core.templatetags.text import display_name
from rulesets import registry

STARTING_XP_MIN, STARTING_XP_MAX = 0, 1000


def _starting_xp_field(help_text: str) -> forms.IntegerField:
    """The starting XP field, the same range and messages on creation and in the settings."""
    out_of_range = (f"Starting XP is between {STARTING_XP_MIN} and {STARTING_XP_MAX}. Nothing "
                    "was saved.")
    return forms.IntegerField(
        label="Starting XP", min_value=STARTING_XP_MIN, max_value=STARTING_XP_MAX, initial=30,
        help_text=help_text,
        error_messages={"min_value": out_of_range, "max_value": out_of_range,
                        "invalid": "Enter a whole number of XP.",
                        "required": "Give the starting XP (0 for none)."})


class TextareaField(forms.CharField):
    r"""A CharField typed into a textarea, its line ends stored as ``\n``: a browser sends each
    line end of a textarea as ``\r\n`` but counts it as one character against the textarea's
    ``maxlength``, so the length is checked on the text as the browser counted it (as
    ``characters.forms.MarkdownField`` does for Markdown)."""

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        return str(text).replace("\r\n", "\n").replace("\r", "\n")


class CampaignForm(forms.ModelForm[Campaign]):
    """Name a new campaign and pick its rule system and starting XP.

    Only selectable rulesets are offered (and accepted): systems whose rules module exists.
    """

    ruleset = forms.ChoiceField(
        label="Rule system",
        # A callable, so the choices follow the registry rather than import time.
        choices=partial(registry.choices, selectable_only=True),
    )
    starting_xp = _starting_xp_field(
        "XP every new character starts with, where the system gives some (30 by default).")

    class Meta:
        model = Campaign
        fields = ["name", "ruleset", "starting_xp"]
        labels = {"name": "Campaign name"}


class CampaignSettingsForm(forms.ModelForm[Campaign]):
    """The GM's settings: name, description and starting XP, checked as on creation (the
    rule system is fixed for a campaign's life: its sheets are in its shape)."""

    starting_xp = _starting_xp_field(
        "XP every character created from now on starts with, where the system gives some. "
        "Characters already made keep the XP they have.")

    class Meta:
        model = Campaign
        fields = ["name", "description", "starting_xp"]
        labels = {"name": "Campaign name", "description": "Description"}
        widgets = {"description": forms.Textarea(attrs={"rows": 3, "maxlength": 500})}
        field_classes = {"description": TextareaField}

    def __init__(self, *args: Any, disabled: bool = False, **kwargs: Any) -> None:
        """``disabled``: show the settings read-only (an archived campaign)."""
        super().__init__(*args, **kwargs)
        if disabled:
            for field in self.fields.values():
                field.disabled = True


class SeatChoiceField(forms.ModelChoiceField[Membership]):
    """A choice of seats, each shown by its holder's display name."""

    def label_from_instance(self, obj: Membership) -> str:
        return display_name(obj.user)


class HandoverForm(forms.Form):
    """Choose the player who takes the GM seat."""

    membership = SeatChoiceField(
        queryset=Membership.objects.none(),
        label="New GM",
        empty_label="Choose a player",
        error_messages={
            "required": "Choose the player who becomes the GM.",
            "invalid_choice": "Choose one of the campaign's players.",
        },
    )

    def __init__(self, *args: Any, players: QuerySet[Membership], **kwargs: Any) -> None:
        """``players``: the campaign's player seats, with their users."""
        super().__init__(*args, **kwargs)
        field = self.fields["membership"]
        assert isinstance(field, SeatChoiceField)
        field.queryset = players


class CampaignDeleteForm(forms.Form):
    """Type the campaign's name to confirm its deletion."""

    name = forms.CharField(
        label="Campaign name", max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none",
                                      "spellcheck": "false"}),
        error_messages={"required": "Type the campaign's name to delete it."})

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        # Django prints help text unescaped (it may hold markup): the name is a GM's input.
        self.fields["name"].help_text = format_html("Type {} to confirm.", campaign.name)

    def clean_name(self) -> str:
        """The typed name, which must be the campaign's own (surrounding spaces aside, letter
        case included)."""
        typed: str = self.cleaned_data["name"]
        if typed.strip() != self.campaign.name.strip():
            raise forms.ValidationError(
                f"Type the campaign's name exactly: {self.campaign.name}")
        return typed
