"""Forms for the sheet's in-place changes and the XP ledger."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from django import forms

from characters.services import CHAPTER_AWARDS, STORY_AWARDS
from rulesets import maelstrom

DAMAGE_CHOICES = [(kind, kind.capitalize()) for kind in maelstrom.DAMAGE_KINDS]


class DamageForm(forms.Form):
    """Mark damage: a type and a number of levels (Maelstrom rules.md, Marking Damage)."""

    kind = forms.ChoiceField(choices=DAMAGE_CHOICES, label="Damage type")
    levels = forms.IntegerField(min_value=1, max_value=10, initial=1, label="Levels")


class HealForm(forms.Form):
    """Heal one level: of a type, or the least serious first."""

    kind = forms.ChoiceField(
        choices=[("", "Least serious first"), *DAMAGE_CHOICES], required=False, label="Heal"
    )


class WillpowerForm(forms.Form):
    """Spend or recover one current willpower dot (Maelstrom rules.md, Willpower)."""

    action = forms.ChoiceField(choices=[("spend", "Spend"), ("recover", "Recover")])


AWARD_CHOICES = [(name, f"{name} (chapter)") for name in CHAPTER_AWARDS] + [
    (name, f"{name} (story)") for name in STORY_AWARDS
]


class AwardForm(forms.Form):
    """The GM's award: the seed's chapter and story awards (1 XP each) and/or a custom
    amount with a reason (Maelstrom rules.md, Earning Experience)."""

    awards = forms.MultipleChoiceField(
        choices=AWARD_CHOICES, required=False, widget=forms.CheckboxSelectMultiple,
        label="Awards (1 XP each)",
    )
    amount = forms.IntegerField(min_value=1, max_value=100, required=False, label="Other XP")
    reason = forms.CharField(max_length=200, required=False, label="Reason")

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("amount") and not (data.get("reason") or "").strip():
            self.add_error("reason", "Give a reason for the custom award.")
        if not data.get("awards") and not data.get("amount"):
            raise forms.ValidationError("Tick at least one award or enter an amount of XP.")
        return data


class PurchaseArgs(TypedDict):
    """The keyword arguments :meth:`SpendForm.purchase_args` gives ``xp_quote``/``xp_spend``:
    ``kind`` and ``name`` always, ``ability`` and ``advanced`` for a specialty."""

    kind: str
    name: str
    ability: NotRequired[str]
    advanced: NotRequired[bool]


class SpendForm(forms.Form):
    """Buy the next dot of a trait, or a new specialty (Maelstrom rules.md, Spending
    Experience). ``trait`` is a ledger key (``ability:Driving``, ``willpower``) or
    ``specialty`` for a new specialty under ``ability``."""

    trait = forms.ChoiceField(label="Trait")
    ability = forms.ChoiceField(
        choices=[("", "—")] + [(name, name) for name in maelstrom.ABILITIES],
        required=False, label="Specialty of",
    )
    specialty_name = forms.CharField(max_length=80, required=False, label="Specialty name")
    advanced = forms.BooleanField(required=False, label="Advanced specialty")
    expected_cost = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, trait_choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            *trait_choices, ("specialty", "A new specialty…")
        ]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("trait") == "specialty":
            if not data.get("ability"):
                self.add_error("ability", "Choose the ability the specialty belongs to.")
            if not (data.get("specialty_name") or "").strip():
                self.add_error("specialty_name", "Name the specialty.")
        return data

    def purchase_args(self) -> PurchaseArgs:
        """The keyword arguments for ``xp_quote``/``xp_spend``."""
        data = self.cleaned_data
        key = data["trait"]
        if key == "specialty":
            return {"kind": "specialty", "name": data["specialty_name"],
                    "ability": data["ability"], "advanced": bool(data["advanced"])}
        if key == "willpower":
            return {"kind": "willpower", "name": "Willpower"}
        kind, _, name = key.partition(":")
        return {"kind": kind, "name": name}


class BankForm(forms.Form):
    """Bank available XP into one trait (Maelstrom rules.md, Banking Experience)."""

    trait = forms.ChoiceField(label="Bank into")
    amount = forms.IntegerField(min_value=1, max_value=1000, initial=1, label="XP")

    def __init__(self, *args: Any, trait_choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = trait_choices  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field


class SystemSpendForm(forms.Form):
    """What XP buys on a described system's sheet: the ledger key of the next rank, and on
    confirming, the price the player saw (a changed price is refused)."""

    key = forms.CharField(max_length=200, label="Buy")
    expected_cost = forms.IntegerField(required=False, min_value=0, max_value=100000,
                                       widget=forms.HiddenInput)
