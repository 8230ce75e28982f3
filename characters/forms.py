"""Forms of the shared XP page: the GM's award. (A system's own changes have their forms in
its package; the purchase form is :meth:`systems.SheetSystem.spend_form`.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms


class AwardForm(forms.Form):
    """The GM's award on the XP page: the system's named awards ticked (1 XP each in
    Maelstrom: rules.md, Earning Experience) and/or a custom amount (1-100 XP) with a
    reason.

    Args:
        awards: the named awards offered, ``[(name, label)]`` (``()`` for none).
    """

    awards = forms.MultipleChoiceField(
        choices=(), required=False, widget=forms.CheckboxSelectMultiple,
        label="Awards (1 XP each)",
    )
    amount = forms.IntegerField(min_value=1, max_value=100, required=False, label="Other XP")
    reason = forms.CharField(max_length=200, required=False, label="Reason")

    def __init__(self, *args: Any, awards: Sequence[tuple[str, str]] = (), **kwargs: Any
                 ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["awards"].choices = list(awards)  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("amount") and not (data.get("reason") or "").strip():
            self.add_error("reason", "Give a reason for the custom award.")
        if not data.get("awards") and not data.get("amount"):
            raise forms.ValidationError("Tick at least one award or enter an amount of XP.")
        return data
