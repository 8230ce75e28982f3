"""The roll forms every system shares: the GM's quick NPC roll and whom a roll request goes
to. A system's own roll dialog and request form live in its package (``systems/<slug>/``)."""

from __future__ import annotations

from typing import Any

from django import forms

from core.forms import Form


class NpcRollForm(Form):
    """The GM's quick NPC roll, in the campaign's system's notation (checked by the rules
    engine when rolled, which names the part it cannot read)."""

    text = forms.CharField(max_length=200, label="Quick NPC roll",
                           error_messages={"required": "Type the roll, as the examples "
                                                       "under the box write it."})
    gm_only = forms.BooleanField(required=False, label="GM only (hidden from players)")


class RequestWhoForm(Form):
    """Whom a roll request goes to ("all", or a character's id as text, among
    ``characters``: ``(pk, name)`` pairs) and the GM's note; what to roll comes from the
    system's own ``request_form`` (systems/)."""

    character = forms.ChoiceField(label="Ask")
    note = forms.CharField(required=False, max_length=200, label="Note for the player")

    def __init__(self, *args: Any, characters: list[tuple[int, str]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
            ("all", "Everyone"), *[(str(pk), name) for pk, name in characters]
        ]
