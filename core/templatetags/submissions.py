"""``{% submission_token %}``: the hidden input that makes a form act once (core.submissions)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from core.submissions import FIELD, new_token

register = template.Library()


@register.simple_tag
def submission_token(element_id: str = "") -> SafeString:
    """A hidden input with a fresh token, one per rendering; ``element_id`` gives it an id
    (the roll dialog's, so a roll's answer can hand the dialog the next token)."""
    if element_id:
        return format_html('<input type="hidden" name="{}" value="{}" id="{}">',
                           FIELD, new_token(), element_id)
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
