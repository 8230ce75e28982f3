"""``|markdown`` and ``|display_name``: how the pages show what users wrote and who they are."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from core.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str | None) -> SafeString:
    """A user's Markdown (a backstory, notes, a recap) as sanitised HTML (core.markdown)."""
    return render_markdown(text or "")


@register.filter
def display_name(user: Any) -> str:
    """The name the table knows a user by: the display name they chose on their account page
    (Django's ``first_name``, read through ``get_short_name``), or their login name."""
    if user is None:
        return ""
    return str(user.get_short_name() or user.get_username())
