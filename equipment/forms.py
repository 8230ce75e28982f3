"""The inventory's shared form: an item's name, quantity and note, the same for every system
(what a system adds is its own form: ``SheetSystem.item_form``)."""

from __future__ import annotations

from django import forms

from core.forms import Form
from equipment.models import NAME_MAX, NOTE_MAX, QUANTITY_MAX


class ItemForm(Form):
    """An item's shared fields. ``cleaned_data``: ``name`` (stripped; may be empty where the
    system names the item from what it is, ``SheetSystem.item_label``), ``quantity`` (1 to
    :data:`~equipment.models.QUANTITY_MAX`) and ``note`` (one line, may be empty)."""

    name = forms.CharField(max_length=NAME_MAX, required=False, label="Name")
    quantity = forms.IntegerField(min_value=1, max_value=QUANTITY_MAX, initial=1,
                                  label="Quantity")
    note = forms.CharField(max_length=NOTE_MAX, required=False, label="Note")


class RemoveForm(Form):
    """Removing an item takes no input: the confirmation is the button."""
