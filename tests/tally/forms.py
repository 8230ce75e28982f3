"""Tally's forms: creation, the sheet's change, the roll dialog (also the GM's request),
and the forms of changes that take no input."""

from __future__ import annotations

from django import forms

from systems.fields import character_name_field


class CreateForm(forms.Form):
    """A new character: a name, a concept, and the tally to start at (0 to 5)."""

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False)
    tally = forms.IntegerField(min_value=0, max_value=5)


class AddForm(forms.Form):
    """Add 1 to 3 to the tally."""

    amount = forms.IntegerField(min_value=1, max_value=3)


class RollForm(forms.Form):
    """Roll one die; ``spend`` takes one off the tally with it."""

    spend = forms.BooleanField(required=False)


class EmptyForm(forms.Form):
    """A change that takes no input."""
