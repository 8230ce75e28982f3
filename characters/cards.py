"""What a character's card and tracks show: the context the GM dashboard's party card and the
sheet's health track share (shared by ``characters.views`` and the dashboard, so that no view
module imports another app's view).
"""

from __future__ import annotations

from typing import Any

import systems
from characters.forms import DamageForm, HealForm
from characters.models import Character
from rulesets import maelstrom

_DAMAGE_CHOICES = DamageForm.base_fields["kind"].choices  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field
_HEAL_CHOICES = HealForm.base_fields["kind"].choices  # type: ignore[attr-defined]  # django-stubs: Field.choices is not on the base Field

_MARK_LABELS = {"/": "bashing", "X": "lethal", "*": "aggravated"}


def health_context(character: Character) -> dict[str, Any]:
    """The Maelstrom health chart as the sheet and the card draw it: ``chart``, ``boxes``
    (name, penalty, mark, label per box) and the damage and heal forms' choices. No queries."""
    chart = character.health
    boxes = []
    for (name, penalty), mark in zip(chart.levels(), chart.marks(), strict=True):
        label = _MARK_LABELS.get(mark, "empty")
        # The sheet prints penalty_text, filled and aria as they are (fewer template tests).
        boxes.append({"name": name, "penalty": penalty, "mark": mark, "label": label,
                      "penalty_text": "—" if penalty is None else str(penalty),
                      "filled": mark != maelstrom.EMPTY_MARK, "aria": f"{name}: {label}"})
    return {"chart": chart, "boxes": boxes, "damage_choices": _DAMAGE_CHOICES,
            "heal_choices": _HEAL_CHOICES}


def party_card_context(character: Character) -> dict[str, Any]:
    """What the GM dashboard's card of a character shows: for Maelstrom the health boxes with
    their names and marks, the wound level, willpower and XP; for every other system what its
    sheet description puts on the card (``template`` names its ``_card.html``). No queries:
    all from the character's and its campaign's rows."""
    system = systems.for_campaign(character.campaign)
    if system is not None:
        return {"character": character, "template": system.template("_card.html"),
                **system.card_context(character)}
    return {"character": character, **health_context(character)}
