"""The roll dialog: which traits, specialties and circumstances make the pool."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from rolls.services import RollRequest
from rulesets import maelstrom

KIND_CHOICES = [
    ("action", "Action (the traits ticked on the sheet)"),
    ("willpower", "Willpower (alone)"),
    ("soak", "Soak"),
]


class RollForm(forms.Form):
    """A roll request from the sheet (Maelstrom rules.md, Dice Pool, Difficulty, Threshold,
    Required Specialties, Soaking Damage). Trait and specialty values are checked against the
    character by the rules engine when the pool is built."""

    kind = forms.ChoiceField(choices=KIND_CHOICES, initial="action", widget=forms.RadioSelect,
                             label="Roll")
    trait = forms.MultipleChoiceField(required=False, label="Traits",
                                      widget=forms.CheckboxSelectMultiple)
    specialty = forms.MultipleChoiceField(required=False, label="Specialties",
                                          widget=forms.CheckboxSelectMultiple)
    difficulty = forms.IntegerField(min_value=maelstrom.DIFFICULTY_MIN,
                                    max_value=maelstrom.DIFFICULTY_MAX,
                                    initial=maelstrom.DEFAULT_DIFFICULTY, label="Difficulty")
    threshold = forms.IntegerField(min_value=0, max_value=20, initial=0, label="Threshold")
    required_specialties = forms.CharField(
        required=False, max_length=300, label="Required advanced specialties",
        help_text="Comma-separated; each one you don't use adds +1 threshold.",
    )
    ignore_wound_penalty = forms.BooleanField(
        required=False, label="Spend a willpower dot to ignore the wound penalty"
    )
    damage_kind = forms.ChoiceField(
        choices=[(k, k.capitalize()) for k in maelstrom.DAMAGE_KINDS], initial="bashing",
        required=False, label="Damage to soak",
    )
    armor = forms.IntegerField(min_value=0, max_value=20, initial=0, required=False,
                               label="Armor dice")

    def __init__(self, *args: Any, traits: list[str] | None = None,
                 specialties: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = [(t, t) for t in traits or []]  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
        self.fields["specialty"].choices = [(s, s) for s in specialties or []]  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("kind") == "action" and not data.get("trait"):
            raise forms.ValidationError(
                "Tick one or two traits on the sheet (an attribute and an ability, or two "
                "attributes) to build the pool."
            )
        return data

    def to_request(self) -> RollRequest:
        """The validated form as the roll service's request (required specialties split on
        commas)."""
        data = self.cleaned_data
        required = tuple(
            name.strip() for name in (data.get("required_specialties") or "").split(",")
            if name.strip()
        )
        return RollRequest(
            kind=data["kind"], traits=tuple(data.get("trait") or ()),
            specialties=tuple(data.get("specialty") or ()), difficulty=data["difficulty"],
            threshold=data["threshold"], required_specialties=required,
            ignore_wound_penalty=bool(data.get("ignore_wound_penalty")),
            damage_kind=data.get("damage_kind") or "bashing", armor=data.get("armor") or 0,
        )


class NpcRollForm(forms.Form):
    """The GM's quick NPC roll, in the campaign's system's notation (checked by the rules
    engine when rolled, which names the part it cannot read)."""

    text = forms.CharField(max_length=200, label="Quick NPC roll",
                           error_messages={"required": "Type the roll, e.g. '5 dice diff 7'."})
    gm_only = forms.BooleanField(required=False, label="GM only (hidden from players)")


class RequestedRollForm(forms.Form):
    """The GM asks a character (or everyone) for a roll with its pool preset (Maelstrom
    rules.md, Dice Pool, Difficulty, Threshold). Trait names are checked against each
    character by the rules engine when the request is made."""

    character = forms.ChoiceField(label="Ask")
    kind = forms.ChoiceField(choices=[("action", "Action"), ("willpower", "Willpower")],
                             initial="action", label="Kind of roll")
    traits = forms.CharField(required=False, max_length=120, label="Traits",
                             help_text="One or two, e.g. 'Perception + Alertness'.")
    difficulty = forms.IntegerField(min_value=maelstrom.DIFFICULTY_MIN,
                                    max_value=maelstrom.DIFFICULTY_MAX,
                                    initial=maelstrom.DEFAULT_DIFFICULTY, label="Difficulty")
    threshold = forms.IntegerField(min_value=0, max_value=20, initial=0, label="Threshold")
    note = forms.CharField(required=False, max_length=200, label="Note for the player")

    def __init__(self, *args: Any, characters: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            ("all", "Everyone"), *[(str(pk), name) for pk, name in characters]
        ]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        names = tuple(
            name.strip() for name in re.split(r"[+,]", data.get("traits") or "") if name.strip()
        )
        if data.get("kind") == "action" and not names:
            raise forms.ValidationError("Name the traits to roll, e.g. 'Perception + Alertness'.")
        data["trait_names"] = names if data.get("kind") == "action" else ()
        return data



class RequestWhoForm(forms.Form):
    """Whom a described system's roll request goes to, and the GM's note; what to roll comes
    from the system's own ``request_form`` (systems/)."""

    character = forms.ChoiceField(label="Ask")
    note = forms.CharField(required=False, max_length=200, label="Note for the player")

    def __init__(self, *args: Any, characters: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            ("all", "Everyone"), *[(str(pk), name) for pk, name in characters]
        ]
