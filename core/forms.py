"""Form fields every app shares."""

from __future__ import annotations

from typing import Any

from django import forms


class TextareaField(forms.CharField):
    r"""A CharField typed into a textarea, its line ends stored as ``\n``.

    A browser sends each line end of a textarea as ``\r\n`` but counts it as one character
    against the textarea's ``maxlength``, so the length is checked on the text as the
    browser counted it, and the text is stored without the carriage returns.
    """

    def to_python(self, value: Any) -> str:
        """The typed text (``""`` for none) with ``\r\n`` and lone ``\r`` made ``\n``."""
        text = super().to_python(value)
        return str(text).replace("\r\n", "\n").replace("\r", "\n")
