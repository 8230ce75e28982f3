"""Small helpers many test modules share: a row as stored now, a page as a reader sees it,
the URL of a system's change."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any, TypeVar

from django.db.models import Model
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character
from core.regions import LivePage

M = TypeVar("M", bound=Model)

INLINE_TAGS = ("strong", "em", "b", "a", "small")
"""Tags :func:`text_of` drops without a space: text inside them reads on with its neighbours
("Precision <strong>3</strong>" reads "Precision 3", "<a>Rook</a>'s" reads "Rook's")."""

WITH_SPANS = (*INLINE_TAGS, "span")
""":data:`INLINE_TAGS` and ``span`` (the sheets whose numbers sit in spans: Shahquest, 3d6)."""


def fresh(row: M) -> M:
    """``row`` as stored now (a new instance, read again by its primary key)."""
    return type(row)._default_manager.get(pk=row.pk)


def text_of(response: Any, *, inline: Iterable[str] = INLINE_TAGS) -> str:
    """The page as a reader sees it: tags dropped (``inline`` ones without a space, the
    others as one), entities decoded, whitespace collapsed."""
    content = response.content.decode()
    names = "|".join(inline)
    if names:
        content = re.sub(rf"</?(?:{names})\b[^>]*>", "", content)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", content)).split())


def action_url(character: Character, action: str) -> str:
    """``characters:character-action`` of ``character`` for the sheet action ``action``."""
    return reverse("characters:character-action", args=[character.pk, action])


def campaign_action_url(campaign: Campaign, action: str) -> str:
    """``table:campaign-system-action`` of ``campaign`` for the GM's change ``action``."""
    return reverse("table:campaign-system-action", args=[campaign.pk, action])


def redrawn_by(live: LivePage, event: str) -> set[str]:
    """The live region ids a page (its ``LivePage``, core/regions.py) redraws when ``event``
    arrives on its stream."""
    return {i for region in live.regions if event in region.events for i in region.ids}
