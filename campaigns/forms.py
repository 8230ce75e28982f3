"""Forms of the campaigns app."""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from django import forms
from django.core.validators import MaxLengthValidator
from django.db.models import QuerySet
from django.utils.html import format_html

import systems
from campaigns.models import Campaign, Membership
from core.forms import Form, TextareaField, TextRules
from core.templatetags.text import display_name
from rulesets import registry

STARTING_XP_MIN, STARTING_XP_MAX = 0, 1000


CAMPAIGN_NAME_MAX = cast("int", Campaign._meta.get_field("name").max_length)


def _campaign_name_field() -> forms.CharField:
    """The campaign's name, the same limit and messages on creation and in the settings.

    Checked by a validator rather than ``max_length``, which would add a ``maxlength``
    attribute: the browser would then cut a longer (pasted) name short without a word, where
    the form says what the limit is and keeps what was typed."""
    return forms.CharField(
        label="Campaign name",
        validators=[MaxLengthValidator(
            CAMPAIGN_NAME_MAX,
            "Keep the name to %(limit_value)d characters (it has %(show_value)d).")])


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


def _starting_xp_help() -> str:
    """What the creation form's starting XP field says of the systems it applies to: every
    selectable system's :attr:`~systems.SheetSystem.uses_starting_xp`, read from the
    registry at the time (the system is chosen on the same form)."""
    using: list[str] = []
    not_using: list[str] = []
    for slug, name in registry.choices(selectable_only=True):
        (using if systems.for_ruleset(slug).uses_starting_xp else not_using).append(name)
    text = "XP every new character starts with (30 by default)"
    if not not_using:
        return f"{text}."
    if not using:
        return f"{text}; no system offered here uses it: its characters start with no XP."
    return f"{text}, in {_names(using)} only: {_names(not_using)} characters start with no XP."


def _names(names: list[str]) -> str:
    """``["A", "B", "C"]`` as "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


class CampaignForm(TextRules, forms.ModelForm[Campaign]):
    """Name a new campaign and pick its rule system and starting XP.

    Only selectable rulesets are offered (and accepted): systems whose rules module exists.
    """

    name = _campaign_name_field()
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Here, not on the field: the registry's systems, not those at import time.
        self.fields["starting_xp"].help_text = _starting_xp_help()


class CampaignSettingsForm(TextRules, forms.ModelForm[Campaign]):
    """The settings of the GM and the co-GMs: name, description and starting XP, checked as
    on creation (the rule system is fixed for a campaign's life: its sheets are in its
    shape), and whether the players see the party's sheets (``Campaign.party_sheets``)."""

    name = _campaign_name_field()
    starting_xp = _starting_xp_field(
        "XP every character created from now on starts with. Characters already made keep "
        "the XP they have.")

    class Meta:
        model = Campaign
        fields = ["name", "description", "starting_xp", "party_sheets"]
        labels = {"name": "Campaign name", "description": "Description"}
        widgets = {"description": forms.Textarea(attrs={"rows": 3, "maxlength": 500})}
        field_classes = {"description": TextareaField}

    def __init__(self, *args: Any, disabled: bool = False, **kwargs: Any) -> None:
        """``disabled``: show the settings read-only (an archived campaign). The starting XP
        field is left out when the campaign's system starts characters with none
        (:attr:`systems.SheetSystem.uses_starting_xp`)."""
        super().__init__(*args, **kwargs)
        if not systems.for_campaign(self.instance).uses_starting_xp:
            del self.fields["starting_xp"]
        if disabled:
            for field in self.fields.values():
                field.disabled = True

    def full_clean(self) -> None:
        """Clean as usual; where the starting XP field was left out, ``cleaned_data`` still
        has the campaign's starting XP as it is (a POST's ``starting_xp`` is ignored). After
        the model's own cleaning, which looks up the fields of what it is given."""
        super().full_clean()
        if "starting_xp" not in self.fields and hasattr(self, "cleaned_data"):
            self.cleaned_data["starting_xp"] = self.instance.starting_xp


class SeatChoiceField(forms.ModelChoiceField[Membership]):
    """A choice of seats, each shown by its holder's display name (a co-GM's marked so)."""

    def label_from_instance(self, obj: Membership) -> str:
        name = display_name(obj.user)
        return f"{name} (co-GM)" if obj.is_co_gm else name


class HandoverForm(Form):
    """Choose the player or co-GM who takes the GM seat."""

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
        """``players``: the campaign's seats that may take the GM's (its players' and
        co-GMs'), with their users."""
        super().__init__(*args, **kwargs)
        field = self.fields["membership"]
        assert isinstance(field, SeatChoiceField)
        field.queryset = players


class SeatForm(Form):
    """The seat a member is to hold: a co-GM's or a player's (campaigns.services.
    membership_seat)."""

    role = forms.ChoiceField(
        label="Seat", widget=forms.HiddenInput,
        choices=[(Membership.Role.CO_GM.value, "Co-GM"), (Membership.Role.PLAYER.value, "Player")],
        error_messages={"required": "Say which seat: co-GM or player.",
                        "invalid_choice": "A member can be seated as a co-GM or a player "
                                          "only."})


class CampaignDeleteForm(Form):
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
