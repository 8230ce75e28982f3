"""``read_only`` and ``return_to``: a shared page's say over the forms of the fragments it
includes (core/html_forms.py), used with ``{% filter %}``::

    {% load page_forms %}
    {% filter read_only:archived %}{% include card.template %}{% endfilter %}
    {% filter return_to:settings_url %}{% include system.template_dashboard %}{% endfilter %}
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from core.html_forms import add_hidden_field, drop_writes

register = template.Library()


def _safe(value: Any) -> str:
    """The fragment as HTML: a ``{% filter %}`` block's output is already safe; anything else
    (a variable passed by mistake) is escaped first, so no user text becomes markup here."""
    return str(conditional_escape(value))


@register.filter
def read_only(value: Any, when: Any = True) -> SafeString:
    """The fragment without any control that writes when ``when`` is true (an archived
    campaign's page: ``core.html_forms.drop_writes``), else as it is."""
    html = _safe(value)
    return mark_safe(drop_writes(html) if when else html)


@register.filter
def return_to(value: Any, url: Any) -> SafeString:
    """The fragment with a hidden ``next`` field naming ``url`` in every form that posts, so
    that a plain POST (no JavaScript) comes back to the page that included it; the view
    checks the field (``url_has_allowed_host_and_scheme``) before following it."""
    html = _safe(value)
    return mark_safe(add_hidden_field(html, "next", str(url)) if url else html)
