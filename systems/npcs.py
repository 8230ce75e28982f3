"""The contract's NPC part: how the GM's NPCs and adversaries are made and what the players
see of one the GM reveals (docs/npcs.md).

An NPC is a ``Character`` row with ``is_npc`` set (characters.models): it has the system's own
sheet, rolls from it, and takes damage, stress and wounds through the same track actions as a
player character. What differs is how it is made (a stat block, with the system's rules
checked but no creation budget: the GM builds what the story needs) and what a player may see
of it (nothing until revealed; then its name, and its tracks if the GM chooses).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from core.forms import Form
from rulesets.errors import RuleError
from systems.part import SystemPart

if TYPE_CHECKING:
    from django import forms

    from campaigns.models import Campaign
    from characters.models import Character


class StatBlockForm(Form):
    """The base of a system's NPC stat block (:meth:`NpcPart.npc_form`): its ``fieldsets``
    (a list of ``(legend, [field names])`` naming every field once, drawn by
    ``systems/_stat_block.html``) and the range check its ``clean()`` runs on each number."""

    fieldsets: list[tuple[str, list[str]]] = []

    def check_range(self, data: dict[str, Any], field: str, low: int, high: int, words: str,
                    rule: str) -> None:
        """Refuse ``data[field]`` outside ``low`` to ``high`` (inclusive) on its field, with
        ``words`` (formatted with ``value``, ``low``, ``high``) and the rule cited (as a
        RuleError words it). A missing value is left to the field's own error."""
        value = data.get(field)
        if value is not None and not low <= value <= high:
            self.add_error(field, str(RuleError(
                words.format(value=value, low=low, high=high), rule)))


@dataclass(frozen=True)
class TrackLine:
    """One track of a character in words, for a card that shows the tracks and nothing else
    of the sheet (a revealed NPC seen by the players).

    Attributes:
        label: the track's name in the system's words ("Health", "Wounds", "Stress: Mental").
        value: its state as the sheet reads it ("7 / 10", "Bruised", "d8").
    """

    label: str
    value: str


@dataclass(kw_only=True)
class NpcPart(SystemPart):
    """How the GM makes an NPC of this system, and its tracks in words.

    The defaults serve a system whose one-form creation (:meth:`CreationPart.creation_form`)
    has no budget to spend: the NPC's stat block is that form and its sheet
    :meth:`CreationPart.new_sheet`'s. A system whose creation spends a budget, or happens on
    pages of its own, gives a stat-block form of its own (:meth:`npc_form`, with
    :meth:`npc_sheet`), whose ``clean()`` checks the rules of the sheet and nothing of the
    budget.
    """

    def npc_form(self, campaign: Campaign, data: Mapping[str, Any] | None = None
                 ) -> forms.Form:
        """The GM's stat-block form for a new NPC, bound to ``data`` (the POST) or unbound;
        its ``cleaned_data`` holds ``name`` and may hold ``concept``, and its ``clean()``
        names the rule a value breaks. By default the one-form creation page's form."""
        return self.creation_form(campaign, data)  # type: ignore[attr-defined,no-any-return]  # CreationPart's, on SheetSystem

    def npc_sheet(self, campaign: Campaign, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        """The new NPC's ``Character.sheet`` from the valid :meth:`npc_form`'s
        ``cleaned_data``; raises RuleError for a sheet the rules refuse. By default
        :meth:`CreationPart.new_sheet`."""
        return self.new_sheet(campaign, cleaned_data)  # type: ignore[attr-defined,no-any-return]  # CreationPart's, on SheetSystem

    template_npc: ClassVar[str] = "systems/_stat_block.html"
    """The template that draws :meth:`npc_form`'s fields inside the NPC page's form (with
    ``form``, ``campaign`` and ``system``): by default ``systems/_stat_block.html``, which
    draws any form's fields in a grid, its ``fieldsets`` (a list of ``(legend, [field
    names])``, if the form has one) as groups."""

    def track_lines(self, character: Character) -> list[TrackLine]:
        """The character's tracks in words, in the sheet's order, read from its sheet (no
        queries): what the players see of an NPC the GM reveals with its tracks. ``[]`` by
        default (a system without tracks)."""
        return []
