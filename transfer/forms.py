"""The import form: one file, read and decoded as the form is cleaned."""

from __future__ import annotations

from typing import Any

from django import forms

from core.forms import Form
from transfer.format import MAX_UPLOAD_BYTES
from transfer.validate import TransferError, read_document


class ImportDecisionForm(Form):
    """The GM's decision on an imported character: ``decision`` is ``accept`` or ``refuse``;
    ``confirm`` must be ticked (the confirmation, which works without JavaScript)."""

    decision = forms.ChoiceField(choices=[("accept", "Accept"), ("refuse", "Refuse")])
    confirm = forms.BooleanField(
        error_messages={"required": "Tick the box to confirm your decision."})


class ImportForm(Form):
    """Upload a Sheetkeeper export. ``cleaned_data["document"]`` is the decoded JSON; a file
    too large, not text or not JSON is refused here, naming why (the import checks the
    rest)."""

    file = forms.FileField(
        label="Export file",
        help_text=f"A .sheetkeeper.json file Sheetkeeper exported, up to "
                  f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB.",
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean(self) -> dict[str, Any]:
        """Decode the upload (size first, so an oversized file is never read into memory)."""
        cleaned = super().clean() or {}
        upload = cleaned.get("file")
        if upload is None:
            return cleaned
        if upload.size > MAX_UPLOAD_BYTES:
            self.add_error("file", f"The file is {upload.size / (1024 * 1024):.1f} MB; an "
                                   f"import takes at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
            return cleaned
        try:
            cleaned["document"] = read_document(upload.read())
        except TransferError as exc:
            self.add_error("file", str(exc))
        return cleaned
