"""Small helpers many test modules share: a row as stored now (a character's sheet, a rank
on it, its spends), a page as a reader sees it, the URLs of a character's roll dialog, odds,
XP page and purchases, of a campaign's creation and settings pages, and of a system's
change."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any, TypeVar

from django.db.models import Model
from django.urls import reverse

import systems
from campaigns.models import Campaign
from characters.models import Character, XpEntry
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


def sheet_of(character: Character) -> dict[str, Any]:
    """The character's sheet as stored now."""
    return fresh(character).sheet


def text_with_spans(response: Any) -> str:
    """:func:`text_of` with ``<span>`` read inline too (:data:`WITH_SPANS`): the text of the
    Shahquest and 3d6 sheets, whose numbers sit in spans."""
    return text_of(response, inline=WITH_SPANS)


def rank(character: Character, key: str) -> int:
    """The rank of the ledger key ``key`` on the character's sheet as stored now, as its
    system reads it (a dot, a modifier, a die size, a level)."""
    return systems.for_campaign(character.campaign).rank(fresh(character), key)


def spends(character: Character) -> list[XpEntry]:
    """The character's spend entries on the XP ledger, newest first."""
    return list(XpEntry.objects.filter(character=character, kind=XpEntry.Kind.SPEND))


def text_of(response: Any, *, inline: Iterable[str] = INLINE_TAGS) -> str:
    """The page as a reader sees it: tags dropped (``inline`` ones without a space, the
    others as one), entities decoded, whitespace collapsed."""
    content = response.content.decode()
    names = "|".join(inline)
    if names:
        content = re.sub(rf"</?(?:{names})\b[^>]*>", "", content)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", content)).split())


def roll_url(character: Character) -> str:
    """``rolls:roll-create`` of ``character``: its roll dialog (GET) and its roll (POST)."""
    return reverse("rolls:roll-create", args=[character.pk])


def odds_url(character: Character) -> str:
    """``rolls:roll-odds`` of ``character``: the roll dialog's odds."""
    return reverse("rolls:roll-odds", args=[character.pk])


def xp_url(character: Character) -> str:
    """``characters:character-xp`` of ``character``: its XP page."""
    return reverse("characters:character-xp", args=[character.pk])


def spend_url(character: Character) -> str:
    """``characters:character-xp-spend`` of ``character``: a purchase's price (GET) and the
    purchase (POST)."""
    return reverse("characters:character-xp-spend", args=[character.pk])


def create_url(campaign: Campaign) -> str:
    """``characters:character-create`` of ``campaign``: its character creation page."""
    return reverse("characters:character-create", args=[campaign.pk])


def settings_url(campaign: Campaign) -> str:
    """``campaigns:campaign-settings`` of ``campaign``: the GM's settings page."""
    return reverse("campaigns:campaign-settings", args=[campaign.pk])


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
