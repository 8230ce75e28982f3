"""Maelstrom's roll forms: the roll dialog, the GM's "Ask for a roll", and the two follow-ups
on a stored roll (the experience die, willpower spent to succeed).

What their data does is in :mod:`systems.maelstrom.rolling`; trait and specialty names are
checked against the character by the rules engine when the pool is built there.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms

from core.forms import Form
from rulesets import maelstrom

INCOMING_MAX = 20
"""The most levels of incoming damage the soak roll takes: more than any health chart holds
(a typing guard, not a rule)."""

KIND_CHOICES = [
    ("action", "Action (the traits ticked on the sheet)"),
    ("willpower", "Willpower (alone)"),
    ("soak", "Soak"),
]
"""The roll dialog's kinds of roll (Maelstrom rules.md, Dice Pool, Rolling Willpower,
Soaking Damage)."""


class RollForm(Form):
    """The roll dialog (Maelstrom rules.md, Dice Pool, Difficulty, Threshold, Required
    Specialties, Soaking Damage).

    Built as ``RollForm(data, traits=[names], specialties=["Ability: Name", ...])``: the
    choices are the character's attributes and abilities and the specialties it owns.
    ``cleaned_data`` then holds ``kind``, ``trait`` (list of names), ``specialty`` (list of
    labels), ``difficulty``, ``threshold`` (ints), ``required_specialties`` (the text as
    typed: comma-separated names), ``ignore_wound_penalty`` (bool), ``damage_kind`` and
    ``armor`` (dice; ``None`` when left empty), and for a soak ``incoming`` (levels of
    damage; ``None`` when left empty) and ``incoming_marked`` (bool: that damage is already
    on the chart).
    """

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
    # The sheet suggests the armor its Equipment card records (systems.maelstrom.equipment:
    # the card draws the list, so it follows the inventory live).
    armor = forms.IntegerField(min_value=0, max_value=20, initial=0, required=False,
                               label="Armor dice",
                               widget=forms.NumberInput(attrs={"list": "soak-armor"}))
    incoming = forms.IntegerField(
        min_value=0, max_value=INCOMING_MAX, required=False, label="Incoming damage (levels)",
        help_text="Each soak success takes one level off; what gets through is marked on the "
                  "health chart with the roll. Leave empty to mark it by hand.")
    incoming_marked = forms.BooleanField(
        required=False, label="This damage is already marked: take the soaked levels off")

    def __init__(self, *args: Any, traits: list[str] | None = None,
                 specialties: list[str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trait"].choices = [(t, t) for t in traits or []]  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
        self.fields["specialty"].choices = [(s, s) for s in specialties or []]  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

    def clean(self) -> dict[str, Any]:
        """An action needs its traits ticked (the engine checks how many and which)."""
        data = super().clean() or {}
        if data.get("kind") == "action" and not data.get("trait"):
            raise forms.ValidationError(
                "Tick one or two traits on the sheet (an attribute and an ability, or two "
                "attributes) to build the pool."
            )
        return data


class RequestForm(Form):
    """What the GM asks the players to roll (Maelstrom rules.md, Dice Pool, Difficulty,
    Threshold): an action with its traits typed by name ("Perception + Alertness"), or a
    Willpower roll. Whom to ask and the note come from the shared form posted with it
    (``character``, ``note``). ``cleaned_data["trait_names"]`` is the traits as a tuple of
    names (empty for Willpower); each character's pool is checked when the request is made.
    """

    kind = forms.ChoiceField(choices=[("action", "Action"), ("willpower", "Willpower")],
                             initial="action", label="Kind of roll")
    traits = forms.CharField(required=False, max_length=120, label="Traits",
                             help_text="One or two, e.g. 'Perception + Alertness'.")
    difficulty = forms.IntegerField(min_value=maelstrom.DIFFICULTY_MIN,
                                    max_value=maelstrom.DIFFICULTY_MAX,
                                    initial=maelstrom.DEFAULT_DIFFICULTY, label="Difficulty")
    threshold = forms.IntegerField(min_value=0, max_value=20, initial=0, label="Threshold")

    def clean(self) -> dict[str, Any]:
        """Split the traits on "+" and ","; an action needs at least one."""
        data = super().clean() or {}
        names = tuple(
            name.strip() for name in re.split(r"[+,]", data.get("traits") or "") if name.strip()
        )
        if data.get("kind") == "action" and not names:
            raise forms.ValidationError("Name the traits to roll, e.g. 'Perception + Alertness'.")
        data["trait_names"] = names if data.get("kind") == "action" else ()
        return data


class ExperienceDieForm(Form):
    """Which trait the experience die's XP is banked in: a ledger key (``ability:Driving``,
    ``attribute:Precision``, ``willpower``). Not required here: a missing or foreign key is
    refused by the rule ("Bank the XP in a trait this roll used.")."""

    key = forms.CharField(required=False, max_length=200)


class WillpowerSpendForm(Form):
    """Spending a willpower dot to succeed on a Willpower roll: nothing to choose."""
