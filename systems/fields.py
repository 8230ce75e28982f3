"""Form fields every system's creation form shares."""

from __future__ import annotations

from typing import cast

from django import forms
from django.core.validators import MaxLengthValidator

from characters.models import Character

CHARACTER_NAME_MAX = cast("int", Character._meta.get_field("name").max_length)
"""The longest character name, in characters: ``Character.name``'s column (80)."""

CHARACTER_NAME_TOO_LONG = ("Keep the name to %(limit_value)d characters (it has "
                           "%(show_value)d).")


def character_name_field() -> forms.CharField:
    """A new character's required name, at most :data:`CHARACTER_NAME_MAX` characters.

    Checked by a validator rather than ``max_length``, which would render a ``maxlength``
    attribute: the browser would then cut a longer (pasted) name short without a word,
    where the form refuses it, says the limit ("Keep the name to 80 characters (it has
    5000).") and keeps what was typed (tests/test_long_names.py asks this of every system).

    Returns:
        A fresh ``forms.CharField`` labelled "Name".
    """
    return forms.CharField(
        label="Name", validators=[MaxLengthValidator(CHARACTER_NAME_MAX,
                                                     CHARACTER_NAME_TOO_LONG)])
