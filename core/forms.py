"""Form fields every app shares, and the rule every form keeps for text (:class:`TextRules`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from core import text


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


def line_rule(value: str) -> None:
    """Django validator: ``value`` is one line of plain text (core.text's rule for a line).

    Raises:
        ValidationError: naming the first character a line may not hold, code
            ``"control_character"``.
    """
    _refuse(text.line_problem(value), "Write this as one line of plain text, with no tabs, "
                                      "line breaks or other control characters")


def text_rule(value: str) -> None:
    """Django validator: ``value`` is plain multi-line text (core.text's rule: line breaks
    and tabs allowed, no other control character, no direction mark).

    Raises:
        ValidationError: naming the first character the text may not hold, code
            ``"control_character"``.
    """
    _refuse(text.text_problem(value), "Write this as plain text")


def _refuse(problem: str | None, what_to_write: str) -> None:
    """Raise the rule's ValidationError for ``problem`` (core.text's words), if any."""
    if problem:
        raise ValidationError(f"{what_to_write}: {problem}. Remove it and save again.",
                              code="control_character")


def _rule_for(field: forms.Field) -> Callable[[str], None] | None:
    """The text rule a form field's value must keep: none for what is not typed text (a
    number, a choice) nor stored (a password); the multi-line rule for a text box; the
    line rule for every other text input."""
    if not isinstance(field, forms.CharField) or isinstance(field.widget, forms.PasswordInput):
        return None
    return text_rule if isinstance(field.widget, forms.Textarea) else line_rule


class TextRules:
    """Mixin for every form of the project (tests/architecture checks it): each text field
    keeps core.text's rule (:func:`line_rule`, or :func:`text_rule` for a text box), so that
    what a form accepts an export carries and an import takes back (docs/security.md,
    "Text"). Fields a form adds in its ``__init__`` keep it too: the rules are attached when
    the form is cleaned. An error names the character and re-renders the form with the
    user's input."""

    fields: dict[str, forms.Field]

    def full_clean(self) -> None:
        """Django's ``full_clean``, each text field given its rule first."""
        for field in self.fields.values():
            rule = _rule_for(field)
            if rule is not None and rule not in field.validators:
                field.validators.append(rule)
        super().full_clean()  # type: ignore[misc]  # a mixin: the form class after it has full_clean


class Form(TextRules, forms.Form):
    """Django's ``Form`` with :class:`TextRules`: the base of the project's plain forms."""
