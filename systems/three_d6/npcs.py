"""3d6's NPCs (docs/npcs.md; ``SheetSystem.npc_form``, ``npc_sheet``, ``track_lines``): the
GM's stat block, the sheet it makes and the tracks the players see of a revealed NPC.

The stat block asks for a modifier on each of the campaign's six traits and twelve
subtraits, the level and the maximum health. The sheet's ranges are checked (every modifier
0 to :data:`~systems.three_d6.sheet.MODIFIER_CAP`, the level, the health: 3d6 sheet decision,
Advancement and Health) but not the creation budgets (six points over the traits, six over
the subtraits, all spent: a player character's, not an adversary's).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django import forms

from systems.fields import character_name_field
from systems.npcs import StatBlockForm, TrackLine
from systems.three_d6.sheet import (
    DEFAULT_SUBTRAIT_SPREAD,
    DEFAULT_TRAIT_SPREAD,
    HEALTH_LIMIT,
    HEALTH_START,
    LEVEL_MAX,
    LEVEL_START,
    MODIFIER_CAP,
    RULE_ADVANCE,
    RULE_HEALTH,
    SLOT_GROUPS,
    SLOTS,
    SUBTRAIT_SLOTS,
    TRAIT_SLOTS,
    health,
    is_trait,
    names,
)

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from characters.models import Character


def _number(label: str, low: int, high: int, initial: int) -> forms.IntegerField:
    """A whole number ``low`` to ``high``: the range is checked in :meth:`NpcForm.clean`,
    which names the rule (min/max here only guide the browser's number input)."""
    return forms.IntegerField(
        label=label, initial=initial,
        widget=forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric",
                                        "class": "rank-input"}))


class NpcForm(StatBlockForm):
    """A 3d6 NPC's stat block: name, concept, a modifier for every trait and subtrait (by
    the campaign's names), the level and the maximum health.

    It opens on the creation form's spread (a valid, average character); ``clean()`` refuses
    a modifier outside 0 to :data:`MODIFIER_CAP`, a level outside :data:`LEVEL_START` to
    :data:`LEVEL_MAX` and health outside 1 to :data:`HEALTH_LIMIT`, each on its field and
    naming the rule; the sums are not checked.

    ``fieldsets``: ``[(legend, [field names])]`` for ``systems/_stat_block.html``: each
    trait with its two subtraits, then the level and health.
    """

    name = character_name_field()
    concept = forms.CharField(max_length=200, required=False)
    level = _number("Level", LEVEL_START, LEVEL_MAX, LEVEL_START)
    health = _number("Maximum health", 1, HEALTH_LIMIT, HEALTH_START)

    def __init__(self, data: Mapping[str, Any] | None = None, *, campaign: Campaign) -> None:
        super().__init__(data)
        self.names = names(campaign)
        for slots, spread in ((TRAIT_SLOTS, DEFAULT_TRAIT_SPREAD),
                              (SUBTRAIT_SLOTS, DEFAULT_SUBTRAIT_SPREAD)):
            for slot, start in zip(slots, spread, strict=True):
                self.fields[slot] = _number(self.names[slot], 0, MODIFIER_CAP, start)
        self.fieldsets: list[tuple[str, list[str]]] = [
            ("Who", ["name", "concept"]),
            *[(self.names[trait], [trait, *subtraits]) for trait, subtraits in SLOT_GROUPS],
            ("Level and health", ["level", "health"]),
        ]

    def clean(self) -> dict[str, Any]:
        """Every number in its range, each refusal on its field naming the rule."""
        data = super().clean() or {}
        for slot in SLOTS:
            what = "trait" if is_trait(slot) else "subtrait"
            self.check_range(data, slot, 0, MODIFIER_CAP,
                             f"{self.names[slot]} {{value}}: a {what}'s modifier is {{low}} to "
                             "{high}", RULE_ADVANCE)
        self.check_range(data, "level", LEVEL_START, LEVEL_MAX,
                         "Level {value}: a level is {low} to {high}", RULE_ADVANCE)
        self.check_range(data, "health", 1, HEALTH_LIMIT,
                         "Maximum health {value}: it is {low} to {high}", RULE_HEALTH)
        return data


def npc_sheet(cleaned_data: Mapping[str, Any]) -> dict[str, Any]:
    """The NPC's sheet from a valid :class:`NpcForm`'s ``cleaned_data``, in the shape of
    :mod:`systems.three_d6.sheet`: its modifiers, level, and health full."""
    return {
        "modifiers": {slot: cleaned_data[slot] for slot in SLOTS},
        "level": cleaned_data["level"],
        "health": {"current": cleaned_data["health"], "max": cleaned_data["health"]},
    }


def track_lines(character: Character) -> list[TrackLine]:
    """Health, current of maximum, as the party card shows it ("7 / 10", "0 / 10 (down)";
    3d6 sheet decision, Health). Reads the sheet, no queries."""
    current, maximum = health(character)
    return [TrackLine("Health", f"{current} / {maximum}" + (" (down)" if current == 0 else ""))]
