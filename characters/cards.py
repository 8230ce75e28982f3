"""What a character's card on the GM dashboard shows (shared by ``characters.views`` and the
dashboard, so that no view module imports another app's view).
"""

from __future__ import annotations

from typing import Any

import systems
from characters.models import Character

CARD_TEMPLATE = "characters/_party_card.html"
"""The card's template: the dashboard includes it, and a change made from the card answers
with it alone."""


def party_card_context(character: Character) -> dict[str, Any]:
    """What the GM dashboard's card of a character shows: what its system puts on the card
    (``template`` names the system's ``_card.html``: Maelstrom's health boxes, wound level and
    willpower; a Genesys character's thresholds). No queries: all from the character's and
    its campaign's rows."""
    system = systems.for_campaign(character.campaign)
    return {"character": character, "template": system.template("_card.html"),
            **system.card_context(character)}
